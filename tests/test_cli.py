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


def run_twice(runner: CliRunner, tmp_path, command: str, *args: str) -> tuple[list[dict[str, str]], str]:
    """Run ``parlour COMMAND ARGS --out FILE`` twice; both runs must print and write the same.
    The rows of the CSV written, and what was printed (the file's name as OUT)."""
    outputs, files = [], []
    for name in ("a.csv", "b.csv"):
        path = tmp_path / name
        result = run(runner, command, *args, "--out", str(path))
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout.replace(str(path), "OUT"))
        files.append(path.read_text())
    assert outputs[0] == outputs[1]
    assert files[0] == files[1]
    return list(csv.DictReader(files[0].splitlines())), outputs[0]


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
    result = run(runner, "play", "psalter-row", input="1\nquit\n")
    assert result.exit_code == 0
    seed = int(re.search(r"seed (\d+)", result.output).group(1))
    files = list(Path("parlour-records").glob("psalter-row-*.json"))
    assert len(files) == 1
    assert re.fullmatch(rf"psalter-row-\d{{8}}-\d{{6}}-seed{seed}\.json", files[0].name)
    record = json.loads(files[0].read_text())
    assert record["seed"] == seed and len(record["actions"]) == 1
    assert len(parlour.replay(record).history()) == 1
    assert "unfinished game is saved" in result.output


def test_play_with_an_agent_seat_needs_no_input(runner, tmp_path):
    path = tmp_path / "bot.json"
    result = run(runner, "play", "psalter-row", "--seed", "4", "--seats", "random", "--record", str(path))
    assert result.exit_code == 0
    assert "seat 0 (random): " in result.output
    assert json.loads(path.read_text())["players"] == ["random"]
    assert parlour.replay(path.read_text()).is_terminal()


def test_play_options_reach_the_game(runner, tmp_path):
    path = tmp_path / "o.json"
    result = run(runner, "play", "psalter-row", "--seed", "1", "--option", "errand_draw=1", "--record", str(path),
                 input="1\nquit\n")
    assert result.exit_code == 0
    assert json.loads(path.read_text())["options"]["errand_draw"] == 1


def test_play_errors_are_one_line(runner):
    one_line_error(run(runner, "play", "psalter-row", "--seats", "human,random"), "1 seat", "2 seats were given")
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
    rows, out = run_twice(runner, tmp_path, "simulate", "psalter-row", "--agent", "random", "--games", "50", "--seed", "1")
    assert len(rows) == 50
    assert [int(r["index"]) for r in rows] == list(range(50))
    assert rows[0]["seed"] == str(parlour.core.chance.derive_seed(1, 0))
    for key in ("score", "turns", "end", "reshuffled", "complete", "options", "agents"):
        assert key in rows[0]
    assert json.loads(rows[0]["options"])["errand_draw"] == 2 and rows[0]["agents"] == "random"
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
                   "errand_draw", "expected one of 1, 2")
    one_line_error(run(runner, "simulate", "psalter-row", "--option", "errand_draw"), "key=value")


def test_simulate_other_errors(runner, tmp_path):
    one_line_error(run(runner, "simulate", "psalter-row", "--games", "5", "--out", str(tmp_path / "x.txt")),
                   ".csv, .jsonl or .json")
    assert not (tmp_path / "x.txt").exists()
    one_line_error(run(runner, "simulate", "psalter-row", "--agent", "human"), "'human' is not an agent")
    one_line_error(run(runner, "simulate", "psalter-row", "--agent", "random", "--agent", "random"), "2 seats were given")
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


# -- Decktet Golf: several seats ------------------------------------------------------------------
def test_play_decktet_golf_against_an_agent_to_the_end_of_the_match(runner, tmp_path):
    path = tmp_path / "golf.json"
    answers = "99\nflip Z9\nhelp\n" + "1\n" * 3000
    result = run(runner, "play", "decktet-golf", "--players", "2", "--seats", "human,random", "--seed", "11",
                 "--record", str(path), input=answers)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "there is no action 99" in out and "'Z9' is not a cell" in out
    assert "plus-shaped layout" in out  # help: the game's rules summary
    assert re.search(r"seat 1 \(random\): (draw|take|flip)", out)
    assert "Game over" in out and "Record saved to" in out and "press Enter" not in out
    record = json.loads(path.read_text())
    assert record["game"] == "decktet-golf" and record["players"] == ["human", "random"]
    assert record["options"]["players"] == 2 and record["result"]["end"] in ("target", "rounds")
    state = parlour.replay(record)
    assert state.is_terminal() and state.scores() == record["result"]["scores"]


def test_play_decktet_golf_with_two_people_shows_pass_screens(runner, tmp_path):
    path = tmp_path / "hot.json"
    result = run(runner, "play", "decktet-golf", "--players", "3", "--seats", "human,human,random", "--seed", "4",
                 "--option", "rounds=1", "--record", str(path), input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Pass the terminal to seat 0" in result.output and "Pass the terminal to seat 1" in result.output
    assert parlour.replay(json.loads(path.read_text())).is_terminal()


def test_play_players_must_agree_with_seats(runner):
    one_line_error(run(runner, "play", "decktet-golf", "--players", "3", "--seats", "human,random"),
                   "--players 3", "2 seats")
    one_line_error(run(runner, "play", "psalter-row", "--players", "2"), "psalter-row has 1 seat")


def test_simulate_decktet_golf_three_players(runner, tmp_path):
    rows, out = run_twice(runner, tmp_path, "simulate", "decktet-golf", "--players", "3", "--games", "30", "--seed", "1")
    assert len(rows) == 30 and [int(r["index"]) for r in rows] == list(range(30))
    for key in ("score_0", "score_1", "score_2", "round_score_0", "round_score_1", "round_score_2", "rounds",
                "turns_per_round", "line_discards_per_round", "winners", "end"):
        assert key in rows[0], key
    assert "score_3" not in rows[0]
    assert all(json.loads(r["options"])["players"] == 3 and r["agents"] == "random random random" for r in rows)
    for fragment in ("Seat", "Win rate", "round score", "rounds", "turns_per_round", "line_discards_per_round",
                     "Tied winners share the win"):
        assert fragment in out, fragment
    mean = sum(float(r["round_score_1"]) for r in rows) / 30
    assert f"{mean:.3f}" in out
    # tied winners share: the win rates add up to 100%
    shares = [0.0, 0.0, 0.0]
    for r in rows:
        winners = [int(w) for w in r["winners"].split()]
        for w in winners:
            shares[w] += 1 / len(winners)
    assert sum(shares) == pytest.approx(30)
    other = run(runner, "simulate", "decktet-golf", "--players", "3", "--games", "30", "--seed", "2")
    assert other.stdout != out.split("Wrote")[0]


def test_simulate_players_and_agents_must_agree(runner):
    one_line_error(run(runner, "simulate", "decktet-golf", "--players", "3", "--agent", "random,random"),
                   "--players 3")


def test_replay_of_a_decktet_golf_record(runner, tmp_path):
    state = parlour.load("decktet-golf", players=3, rounds=1).new_state(seed=8)
    import random

    rng, agent = random.Random(0), parlour.agent("random")
    while not state.is_terminal():
        state.apply(agent.act(state.view(state.current_player), rng))
    path = tmp_path / "golf.json"
    path.write_text(json.dumps(state.record(players=["random"] * 3)))
    result = run(runner, "replay", str(path), "--all")
    assert result.exit_code == 0, result.output
    actions = len(state.history())
    assert f"Action {actions}/{actions}" in result.output
    assert "Result: rounds" in result.output and "Seat 2" in result.output
    stepped = run(runner, "replay", str(path), "--seat", "1", input="\n\nb\nq\n")
    assert stepped.exit_code == 0 and "Action 2/" in stepped.output and "Seat 1 (viewed)" in stepped.output
    assert "(you)" not in stepped.output and "In your hand" not in stepped.output  # a record's bot is not the reader


# -- Quisquilian: 3-8 seats ------------------------------------------------------------------------
def test_play_quisquilian_against_agents_to_the_end(runner, tmp_path):
    path = tmp_path / "q.json"
    answers = "99\nrun 6C 7C 8C\nhelp\ndiscard 4c 1\nrun JD@7 10D 9D\n" + "1\n" * 3000
    result = run(runner, "play", "quisquilian", "--players", "3", "--seats", "human,random,random", "--seed", "5",
                 "--record", str(path), input=answers)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "there is no action 99" in out and "first discard 1 more card" in out
    assert "dig runs out of the trash" in out  # help: the rules summary
    assert "> run 9D 10D JD@7" in out
    assert re.search(r"seat [12] \(random\): discard \w+ [1-9]", out)
    assert re.search(r"Turn \d+ · seat [12] \(random\) rolled [1-6]", out)
    assert "Game over" in out and "Record saved to" in out and "press Enter" not in out
    record = json.loads(path.read_text())
    assert record["game"] == "quisquilian" and record["players"] == ["human", "random", "random"]
    assert record["options"]["players"] == 3 and record["result"]["end"] in ("complete", "stalemate", "max_turns")
    state = parlour.replay(record)
    assert state.is_terminal() and state.scores() == record["result"]["scores"]
    replayed = run(runner, "replay", str(path), "--all")
    assert replayed.exit_code == 0, replayed.output
    n = len(record["actions"])
    assert f"Action {n}/{n}" in replayed.output and "Result: " in replayed.output and "Spot 9" in replayed.output


def test_play_quisquilian_with_two_people_shows_pass_screens(runner, tmp_path):
    path = tmp_path / "hot.json"
    result = run(runner, "play", "quisquilian", "--seats", "human,human,random", "--seed", "4",
                 "--record", str(path), input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Pass the terminal to seat 0" in result.output and "Pass the terminal to seat 1" in result.output
    assert parlour.replay(json.loads(path.read_text())).is_terminal()


def test_simulate_quisquilian_three_players(runner, tmp_path):
    rows, out = run_twice(runner, tmp_path, "simulate", "quisquilian", "--players", "3", "--games", "20", "--seed", "1")
    assert len(rows) == 20 and [int(r["index"]) for r in rows] == list(range(20))
    for key in ("score_0", "score_1", "score_2", "winners", "turns", "end", "decisions", "runs", "additions",
                "clearings", "winner"):
        assert key in rows[0], key
    assert "score_3" not in rows[0]
    assert all(json.loads(r["options"])["players"] == 3 and r["agents"] == "random random random" for r in rows)
    for r in rows:
        assert r["end"] in ("complete", "stalemate", "max_turns")
        assert (r["winners"] == r["winner"]) if r["end"] == "complete" else (r["winners"] == "" == r["winner"])
    for fragment in ("Seat", "Win rate", "95% CI", "turns", "clearings", "runs", "additions", "end: complete"):
        assert fragment in out, fragment
    assert "Mean score" not in out and "Score distribution" not in out  # 1 for the winner: the win rate says it all
    wins = [sum(r["winners"] == str(seat) for r in rows) for seat in range(3)]
    for seat, won in enumerate(wins):
        assert re.search(rf"│ +{seat} │ random │ +{won} │ +{100 * won / 20:.1f}% │", out), (seat, won)
    mean_turns = sum(int(r["turns"]) for r in rows) / 20
    assert f"{mean_turns:.3f}" in out
    complete = sum(r["end"] == "complete" for r in rows)
    assert f"complete {complete} ({100 * complete / 20:.1f}%)" in out
    other = run(runner, "simulate", "quisquilian", "--players", "3", "--games", "20", "--seed", "2")
    assert other.stdout != out.split("Wrote")[0]


def test_simulate_quisquilian_stops_at_max_turns(runner):
    result = run(runner, "simulate", "quisquilian", "--players", "4", "--games", "5", "--option", "max_turns=3")
    assert result.exit_code == 0, result.output
    assert "end: max_turns 5 (100.0%)" in result.output


def test_options_lists_the_games_and_each_games_options_with_defaults_and_allowed_values():
    listing = CliRunner().invoke(cli, ["options"])
    assert listing.exit_code == 0
    for name in parlour.game_names():
        assert name in listing.output
    table = CliRunner().invoke(cli, ["options", "psalter-row"], env={"COLUMNS": "200"})
    assert table.exit_code == 0
    for name, default, allowed in (("errand_draw", "2", "one of 1, 2"), ("end_on", "empty", "'failed_draw'"),
                                   ("first_page_cost", "0", "an integer 0..8"), ("errand_when_stuck", "false", "true or false")):
        line = next(line for line in table.output.splitlines() if line.startswith(f"{name} "))
        assert f"default {default}" in line and allowed in line, line
    unknown = CliRunner().invoke(cli, ["options", "chess"])
    assert unknown.exit_code == 1 and "there is no game 'chess'" in unknown.output


RULING_ID = re.compile(r"\b(?:PR|DG|QU)-\d+")


@pytest.mark.parametrize("game", parlour.game_names())
def test_option_descriptions_name_no_ruling_but_the_rules_page_does(game):
    """The lobby and `parlour options` show Option.doc: words for players; the ruling each option
    reads is in the rules page's Variants table."""
    docs = (Path(__file__).parents[1] / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    for spec in parlour.load(game).option_specs:
        assert not RULING_ID.search(spec.doc), (spec.name, spec.doc)
        row = next(line for line in docs.splitlines() if line.startswith(f"| `{spec.name}` |"))
        assert RULING_ID.search(row), row
    shown = CliRunner().invoke(cli, ["options", game], env={"COLUMNS": "80"}).output
    assert not RULING_ID.search(shown), shown


@pytest.mark.parametrize("game", [None, *parlour.game_names()])
def test_options_reads_well_at_80_columns(game):
    """No line wider than 80; a wrapped line hangs under its own column, so no option name (nor a
    game's list of them) starts a line of its own; every description reads whole, in order."""
    out = CliRunner().invoke(cli, ["options"] + ([game] if game else []), env={"COLUMNS": "80"}).output
    lines = out.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    names = parlour.game_names()
    for line in lines[1:]:
        assert line.startswith(" ") or line.split(" ")[0] in (
            names if game is None else [spec.name for spec in parlour.load(game).option_specs]), line
    flowing = " ".join(out.split())
    if game is None:
        for name in names:
            assert ", ".join(spec.name for spec in parlour.load(name).option_specs) in flowing
    else:
        for spec in parlour.load(game).option_specs:
            assert " ".join(spec.doc.split()) in flowing, spec.doc


REPOSITORY_PATH = re.compile(r"\bdocs/|\w\.md\b")


def test_help_points_to_commands_not_repository_paths():
    """A pip-installed user has no docs/ folder: the in-game help and every --help name a command
    (or the documentation page by its title) instead; the Decktet Golf help reads as a sentence."""
    for name in parlour.game_names():
        summary = parlour.load(name).rules_summary
        assert not REPOSITORY_PATH.search(summary), name
        assert f"parlour options {name}" in summary
    for command in [None, *cli.commands]:
        shown = CliRunner().invoke(cli, ([command] if command else []) + ["--help"]).output
        assert not REPOSITORY_PATH.search(shown), (command, shown)
    golf = parlour.load("decktet-golf").rules_summary
    assert "<cell>s" not in golf and "everyone\nswaps two of their own cards ([cyan]swap <cell> <cell>[/cyan])" in golf


# -- unfinished games: nothing saved before a decision, --resume -----------------------------------
def test_quitting_before_any_decision_saves_nothing(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(runner, "play", "decktet-golf", "--seed", "4", "--seats", "human,heuristic", input="quit\n")
    assert result.exit_code == 0
    assert "Stopped before any decision of yours: nothing saved" in result.output
    assert "play decktet-golf --seed 4 --seats human,heuristic" in result.output  # how to get this deal again
    assert not (tmp_path / "parlour-records").exists()


def test_the_deal_again_names_its_options_players_and_seats(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(runner, "play", "decktet-golf", "--players", "3", "--option", "excuse=true", "--seed", "7",
                 "--seats", "human,random,random", input="quit\n")
    again = "play decktet-golf --seed 7 --players 3 --option excuse=true --seats human,random,random"
    assert result.exit_code == 0 and again in " ".join(result.output.split())


def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(runner, tmp_path):
    (tmp_path / "file").write_text("")
    result = run(runner, "play", "psalter-row", "--seed", "3", "--record", str(tmp_path / "file" / "x.json"),
                 input="1\n" * 200)
    one_line_error(result, "--record", "is not a folder")
    assert "Row" not in result.output  # no table was shown: nothing was played


def test_a_record_file_that_is_not_utf8_is_refused_in_plain_words(runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff{}")
    one_line_error(run(runner, "replay", str(bad), "--all"), "is not a game record", "not UTF-8")
    one_line_error(run(runner, "play", "--resume", str(bad)), "is not a game record", "not UTF-8")


def test_resume_takes_the_seats_from_seats_when_the_record_names_none(runner, tmp_path):
    state = parlour.load("psalter-row").new_state(seed=3)
    state.apply(state.legal_actions()[0])
    record = state.record()
    del record["players"]
    path = tmp_path / "noplayers.json"
    path.write_text(json.dumps(record))
    one_line_error(run(runner, "play", "--resume", str(path)), "give them with --seats")
    result = run(runner, "play", "--resume", str(path), "--seats", "human", input="quit\n")
    assert result.exit_code == 0 and "resumed from" in result.output
    for players in (None, ["human", "human"], "human"):  # present but not one name a seat: --seats still serves
        path.write_text(json.dumps({**record, "players": players}))
        one_line_error(run(runner, "play", "--resume", str(path)), "the record's players")
        result = run(runner, "play", "--resume", str(path), "--seats", "human", input="quit\n")
        assert result.exit_code == 0 and "resumed from" in result.output, players


def test_the_default_record_folder_is_checked_before_the_game(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "parlour-records").write_text("")  # a file where the folder would go
    result = run(runner, "play", "psalter-row", "--seed", "3", input="1\n" * 200)
    one_line_error(result, "the record", "parlour-records is not a folder")
    assert "Row" not in result.output


def test_a_long_agent_spec_still_saves_its_record(runner, tmp_path):
    deep = tmp_path.joinpath(*["folder_with_a_long_name"] * 12)
    deep.mkdir(parents=True)
    policy = deep / "ppo-psalter-row.npz"
    policy.write_bytes((Path(__file__).resolve().parents[1] / "docs" / "research" / "ppo-psalter-row.npz").read_bytes())
    spec = f"policy:path={policy}"
    assert len(spec) > 200
    path = tmp_path / "long.json"
    result = run(runner, "play", "psalter-row", "--seed", "1", "--seats", spec, "--record", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text())["players"] == [f"policy:{policy}"]  # the canonical spec


def test_quit_says_how_to_resume_and_resume_goes_on_with_the_same_game(runner, tmp_path):
    path = tmp_path / "golf.json"
    result = run(runner, "play", "decktet-golf", "--seed", "4", "--seats", "human,random", "--option", "rounds=1",
                 "--record", str(path), input="1\n1\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"Resume it with: parlour play --resume {path}" in " ".join(result.output.split())
    saved = json.loads(path.read_text())
    assert saved["result"]["end"] is None and saved["players"] == ["human", "random"]
    made = len(saved["actions"])
    result = run(runner, "play", "--resume", str(path), input=ALWAYS_1)
    assert result.exit_code == 0, result.output
    assert f"resumed from {path} after {made} decisions in all" in " ".join(result.output.split())
    assert "Game over" in result.output and f"Record saved to {path}" in " ".join(result.output.split())
    finished = json.loads(path.read_text())
    assert finished["actions"][:made] == saved["actions"] and len(finished["actions"]) > made
    assert (finished["game"], finished["options"], finished["seed"], finished["players"]) == \
        (saved["game"], saved["options"], saved["seed"], saved["players"])
    assert parlour.replay(finished).is_terminal()
    # a finished game has nothing to resume
    one_line_error(run(runner, "play", "--resume", str(path)), "is a finished game", "parlour replay")


def test_resume_quit_at_once_leaves_the_record_as_it_was(runner, tmp_path):
    path = tmp_path / "row.json"
    assert run(runner, "play", "psalter-row", "--seed", "3", "--record", str(path), input="1\nquit\n").exit_code == 0
    before = path.read_bytes()
    result = run(runner, "play", "--resume", str(path), input="quit\n")
    assert result.exit_code == 0 and f"{path} is as it was" in " ".join(result.output.split())
    assert path.read_bytes() == before
    # undo in a resumed solitaire takes back only what was decided since
    result = run(runner, "play", "--resume", str(path), input="undo\nquit\n")
    assert "Nothing to undo: no decision has been made here yet" in result.output and path.read_bytes() == before


def test_resume_refuses_a_record_that_does_not_replay_and_arguments_the_record_gives(runner, tmp_path):
    path = tmp_path / "row.json"
    assert run(runner, "play", "psalter-row", "--seed", "3", "--record", str(path), input="1\n1\nquit\n").exit_code == 0
    record = json.loads(path.read_text())
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps({**record, "actions": [record["actions"][0], "place QS high"]}))
    result = run(runner, "play", "--resume", str(tampered))
    one_line_error(result, "action 2 'place QS high' does not replay")
    assert result.stdout == ""  # refused before anything is shown
    not_json = tmp_path / "not.json"
    not_json.write_text("{")
    one_line_error(run(runner, "play", "--resume", str(not_json)), "not valid JSON")
    one_line_error(run(runner, "play", "psalter-row", "--seed", "3", "--resume", str(path)),
                   "--resume takes the game, its options, seed and seats from the record", "GAME, --seed")
    missing = run(runner, "play")
    assert missing.exit_code == 2 and "--resume RECORD" in missing.output


def test_resume_names_a_seat_that_is_no_agent_and_takes_seats_instead(runner, tmp_path):
    path = tmp_path / "golf.json"
    assert run(runner, "play", "decktet-golf", "--seed", "4", "--seats", "human,random", "--record", str(path),
               input="1\nquit\n").exit_code == 0
    record = json.loads(path.read_text())
    web = tmp_path / "web.json"  # a record whose seats are people's names
    web.write_text(json.dumps({**record, "players": ["Ann", "random"]}))
    one_line_error(run(runner, "play", "--resume", str(web)), "seat 0 is played by 'Ann'", "--seats")
    result = run(runner, "play", "--resume", str(web), "--seats", "human,random", "--record",
                 str(tmp_path / "on.json"), input="1\nquit\n")
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "on.json").read_text())["players"] == ["human", "random"]
