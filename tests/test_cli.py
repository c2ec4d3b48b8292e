"""The `parlour` command through click's CliRunner: play, replay, simulate, and its errors."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import parlour
from parlour.cli import cli, split_specs

ALWAYS_1 = "1\n" * 400


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str, input: str | None = None):
    return runner.invoke(cli, list(args), input=input, catch_exceptions=False)


def one_line_error(result, *fragments: str) -> None:
    """A ParlourError: exit code 1, one line on stderr, no traceback, the fragments in it."""
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.output
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.fixture
def finished_record(runner, tmp_path) -> Path:
    path = tmp_path / "game.json"
    result = run(runner, "play", "psalter-row", "--seed", "3", "--record", str(path), input=ALWAYS_1)
    assert result.exit_code == 0, result.output
    return path


def test_version(runner):
    result = run(runner, "--version")
    assert result.exit_code == 0 and parlour.__version__ in result.output


# -- play ------------------------------------------------------------------------------------
def test_play_to_the_end_writes_a_record_that_replays(runner, finished_record):
    record = json.loads(finished_record.read_text())
    assert record["game"] == "psalter-row" and record["seed"] == 3 and record["players"] == ["human"]
    state = parlour.replay(record)
    assert state.is_terminal() and record["result"]["end"] == state.end_reason


def test_play_shows_the_table_mistakes_and_the_end(runner, tmp_path):
    path = tmp_path / "r.json"
    script = "help\n99\nplaec 5D\nundo\n" + ALWAYS_1
    result = run(runner, "play", "psalter-row", "--seed", "3", "--record", str(path), input=script)
    out = result.output
    assert result.exit_code == 0
    assert "seed 3" in out and "Row" in out and "Hand" in out and "Draw pile" in out
    assert "Supply Errand" in out  # help
    assert "there is no action 99" in out
    assert "does not parse" in out
    assert "Nothing to undo" in out
    assert "Game over" in out and "Result:" in out and "pages +" in out
    assert "Record saved to" in out
    assert path.exists()


def test_play_without_a_seed_shows_the_random_seed_and_saves_under_parlour_records(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(runner, "play", "psalter-row", input="quit\n")
    assert result.exit_code == 0
    seed = int(re.search(r"seed (\d+)", result.output).group(1))
    files = list(Path("parlour-records").glob("psalter-row-*.json"))
    assert len(files) == 1
    assert re.fullmatch(rf"psalter-row-\d{{8}}-\d{{6}}-seed{seed}\.json", files[0].name)
    record = json.loads(files[0].read_text())
    assert record["seed"] == seed and record["actions"] == []
    assert parlour.replay(record).history() == []
    assert "unfinished game is saved" in result.output


def test_play_with_an_agent_seat_needs_no_input(runner, tmp_path):
    path = tmp_path / "bot.json"
    result = run(runner, "play", "psalter-row", "--seed", "4", "--seats", "random", "--record", str(path))
    assert result.exit_code == 0
    assert "seat 0 (random) plays" in result.output
    assert json.loads(path.read_text())["players"] == ["random"]
    assert parlour.replay(path.read_text()).is_terminal()


def test_play_options_reach_the_game(runner, tmp_path):
    path = tmp_path / "o.json"
    result = run(runner, "play", "psalter-row", "--seed", "1", "--option", "errand_draw=1", "--record", str(path),
                 input="quit\n")
    assert result.exit_code == 0
    assert json.loads(path.read_text())["options"]["errand_draw"] == 1


def test_play_errors_are_one_line(runner):
    one_line_error(run(runner, "play", "psalter-row", "--seats", "human,random"), "1 seat", "2 were given")
    one_line_error(run(runner, "play", "psalter-row", "--seats", "randm"), "there is no agent 'randm'", "random")
    one_line_error(run(runner, "play", "no-such-game"), "there is no game 'no-such-game'", "psalter-row")
    one_line_error(run(runner, "play", "psalter-row", "--option", "nope=1"), "no option 'nope'", "errand_draw")


def test_split_specs_keeps_agent_parameters_together():
    assert split_specs("human,random") == ["human", "random"]
    assert split_specs("ismcts:iterations=5,rollout=random, human") == ["ismcts:iterations=5,rollout=random", "human"]


# -- replay ----------------------------------------------------------------------------------
def test_replay_all_prints_every_step(runner, finished_record):
    record = json.loads(finished_record.read_text())
    n = len(record["actions"])
    result = run(runner, "replay", str(finished_record), "--all")
    assert result.exit_code == 0
    out = result.output
    assert f"Start · {n} actions" in out
    for i in (1, n):
        assert f"Action {i}/{n}" in out
    assert f"plays {record['actions'][-1]}" in out
    assert "Result:" in out and record["result"]["end"] in out


def test_replay_steps_forward_back_and_quits(runner, finished_record):
    n = len(json.loads(finished_record.read_text())["actions"])
    result = run(runner, "replay", str(finished_record), input="\n\nb\nx\nq\n")
    out = result.output
    assert result.exit_code == 0
    # Enter: action 1; Enter: action 2; b: action 1 again; x: a hint only; q: stop
    assert out.count("Action 1/") == 2 and out.count("Action 2/") == 1
    assert "Press Enter for the next action" in out
    assert f"Action 3/{n}" not in out


def test_replay_runs_out_at_the_end(runner, finished_record):
    n = len(json.loads(finished_record.read_text())["actions"])
    result = run(runner, "replay", str(finished_record), "--step", input="\n" * (n + 5))
    assert result.exit_code == 0 and f"Action {n}/{n}" in result.output


def test_a_tampered_record_names_the_failing_action(runner, finished_record, tmp_path):
    record = json.loads(finished_record.read_text())
    record["actions"][1] = "place 9Z"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    one_line_error(run(runner, "replay", str(bad), "--all"), "action 2 'place 9Z' does not replay")


def test_a_tampered_result_is_refused(runner, finished_record, tmp_path):
    record = json.loads(finished_record.read_text())
    record["result"]["scores"] = [14]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    one_line_error(run(runner, "replay", str(bad), "--all"), "result says scores=[14]")


def test_a_truncated_record_is_refused(runner, finished_record, tmp_path):
    text = finished_record.read_text()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    one_line_error(run(runner, "replay", str(cut), "--all"), "not valid JSON")
    record = json.loads(text)
    record["actions"] = record["actions"][:-3]
    short = tmp_path / "short.json"
    short.write_text(json.dumps(record))
    one_line_error(run(runner, "replay", str(short), "--all"), "the record's result says")


def test_replay_of_a_missing_file_is_a_usage_error(runner, tmp_path):
    result = runner.invoke(cli, ["replay", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "does not exist" in result.output


# -- simulate ----------------------------------------------------------------------------------
def test_simulate_writes_a_row_per_game_and_is_deterministic(runner, tmp_path):
    outputs, files = [], []
    for name in ("a.csv", "b.csv"):
        path = tmp_path / name
        result = run(runner, "simulate", "psalter-row", "--agent", "random", "--games", "50", "--seed", "1",
                     "--out", str(path))
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout.replace(str(path), "OUT"))
        files.append(path.read_text())
    assert outputs[0] == outputs[1]
    assert files[0] == files[1]
    rows = list(csv.DictReader(files[0].splitlines()))
    assert len(rows) == 50
    assert [int(r["index"]) for r in rows] == list(range(50))
    assert rows[0]["seed"] == str(parlour.core.chance.derive_seed(1, 0))
    for key in ("score", "turns", "end", "reshuffled", "complete", "options", "agents"):
        assert key in rows[0]
    assert json.loads(rows[0]["options"])["errand_draw"] == 2 and rows[0]["agents"] == "random"
    out = outputs[0]
    assert "Mean score" in out and "95% CI" in out and "Score distribution" in out
    assert "complete" in out and "reshuffled" in out and "turns" in out and "exhausted" in out


def test_simulate_summary_matches_the_rows(runner, tmp_path):
    path = tmp_path / "runs.jsonl"
    result = run(runner, "simulate", "psalter-row", "--games", "30", "--seed", "2", "--out", str(path))
    assert result.exit_code == 0
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == 30
    mean = sum(r["score"] for r in rows) / 30
    assert f"{mean:.3f}" in result.stdout
    assert all(r["options"]["end_on"] == "empty" and r["agents"] == ["random"] for r in rows)


def test_simulate_options_change_the_games(runner, tmp_path):
    path = tmp_path / "o.jsonl"
    result = run(runner, "simulate", "psalter-row", "--games", "5", "--option", "errand_draw=1", "--out", str(path))
    assert result.exit_code == 0 and "errand_draw=1" in result.stdout
    assert all(json.loads(line)["options"]["errand_draw"] == 1 for line in path.read_text().splitlines())


def test_simulate_bad_options_name_the_valid_values(runner):
    one_line_error(run(runner, "simulate", "psalter-row", "--games", "5", "--option", "nope=1"),
                   "no option 'nope'", "first_page_cost", "errand_draw", "end_on")
    one_line_error(run(runner, "simulate", "psalter-row", "--games", "5", "--option", "errand_draw=3"),
                   "errand_draw", "expected one of 2, 1")
    one_line_error(run(runner, "simulate", "psalter-row", "--option", "errand_draw"), "key=value")


def test_simulate_other_errors(runner, tmp_path):
    one_line_error(run(runner, "simulate", "psalter-row", "--games", "5", "--out", str(tmp_path / "x.txt")),
                   ".csv, .jsonl or .json")
    assert not (tmp_path / "x.txt").exists()
    one_line_error(run(runner, "simulate", "psalter-row", "--agent", "human"), "'human' is not an agent")
    one_line_error(run(runner, "simulate", "psalter-row", "--agent", "random", "--agent", "random"), "2 were given")
    result = runner.invoke(cli, ["simulate", "psalter-row", "--games", "0"])
    assert result.exit_code == 2


def test_replay_of_an_unfinished_game_says_so(runner, tmp_path):
    path = tmp_path / "half.json"
    assert run(runner, "play", "psalter-row", "--seed", "2", "--record", str(path), input="1\n1\nquit\n").exit_code == 0
    result = run(runner, "replay", str(path), "--all")
    assert result.exit_code == 0
    assert "Action 2/2" in result.output and "The record ends here" in result.output


def test_replay_from_a_seat_that_does_not_exist(runner, finished_record):
    one_line_error(run(runner, "replay", str(finished_record), "--all", "--seat", "5"), "seat 5 does not exist")
