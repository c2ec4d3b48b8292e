"""Every agent spec works wherever an agent is named: `parlour play --seats` and `parlour simulate --agent`."""

from __future__ import annotations

import csv
import json

import pytest
from test_cli import one_line_error, run, runner  # noqa: F401  (runner is a fixture)

import parlour


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=5", "ismcts:time=0.01,rollout=heuristic",
                                  "clairvoyant"])
def test_play_seats_every_agent_spec_and_the_record_replays(runner, tmp_path, spec):
    path = tmp_path / "bot.json"
    result = run(runner, "play", "psalter-row", "--seed", "3", "--seats", spec, "--record", str(path))
    assert result.exit_code == 0, result.output
    assert f"seat 0 ({parlour.agent(spec).spec}): " in result.output
    record = json.loads(path.read_text())
    assert record["players"] == [parlour.agent(spec).spec]
    assert parlour.replay(record).is_terminal()


def test_simulate_takes_a_spec_per_seat_with_its_own_parameters(runner, tmp_path):
    out = tmp_path / "rows.csv"
    result = run(runner, "simulate", "decktet-golf", "--games", "2", "--option", "rounds=1", "--no-progress",
                 "--agent", "ismcts:iterations=4,rollout=heuristic,depth=2,heuristic", "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    assert [row["agents"] for row in rows] == ["ismcts:iterations=4,rollout=heuristic,depth=2 heuristic"] * 2


def test_the_clairvoyant_plays_psalter_row_only(runner):
    one_line_error(run(runner, "simulate", "decktet-golf", "--games", "1", "--agent", "clairvoyant,random"),
                   "psalter-row only")


def test_an_unknown_agent_or_parameter_lists_what_exists(runner):
    one_line_error(run(runner, "simulate", "psalter-row", "--agent", "mcts"),
                   "there is no agent 'mcts'", "clairvoyant, heuristic, ismcts, level, pimc, policy, random")
    one_line_error(run(runner, "simulate", "psalter-row", "--agent", "ismcts:budget=9"),
                   "no option 'budget'", "iterations, time, rollout, depth, c")


def test_play_refuses_an_agent_that_cannot_play_before_showing_anything(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(runner, "play", "decktet-golf", "--seed", "1", "--seats", "human,clairvoyant", input="1\n")
    one_line_error(result, "the clairvoyant agent plays psalter-row only, not decktet-golf")
    assert result.stdout == ""  # no banner, no table, no prompt
    assert not (tmp_path / "parlour-records").exists()


def test_levels_are_agent_specs_in_simulate_and_tournament(runner, tmp_path):
    out = tmp_path / "rows.csv"
    result = run(runner, "simulate", "decktet-golf", "--games", "2", "--option", "rounds=1", "--no-progress",
                 "--agent", "level:strong,iterations=4,level:novice", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert [row["agents"] for row in csv.DictReader(out.open())] == ["level:strong,iterations=4 level:novice"] * 2
    result = run(runner, "tournament", "quisquilian", "--players", "3", "-n", "3",
                 "--agents", "level:novice,level:casual,level:expert,iterations=3")
    assert result.exit_code == 0, result.output
    assert "level:casual" in result.output and "level:expert,iterations=3" in result.output
    one_line_error(run(runner, "tournament", "quisquilian", "--agents", "level:casual,level:master", "-n", "2"),
                   "there is no level 'master': the levels are novice, casual, strong, expert")


def test_play_seats_a_level_and_hint_shows_the_strongest_level_s_move(runner, tmp_path):
    path = tmp_path / "r.json"
    result = run(runner, "play", "decktet-golf", "--players", "2", "--option", "rounds=1", "--seed", "2",
                 "--seats", "human,level:strong", "--record", str(path), input="hint\n1\nquit\n")
    assert result.exit_code == 0, result.output
    hint = next(line for line in result.stdout.splitlines() if line.startswith("Hint: "))
    assert " · " in hint and ("wins " in hint or "by score margin" in hint or "the only legal move" in hint)
    assert json.loads(path.read_text())["players"] == ["human", "level:strong"]
