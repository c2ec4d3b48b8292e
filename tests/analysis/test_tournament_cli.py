"""`parlour tournament` through click's CliRunner: the tables, the CSV, and the errors."""

from __future__ import annotations

import io

import pytest
from click.testing import CliRunner
from rich.console import Console
from test_cli import one_line_error, run, run_twice

from parlour.cli import _with_progress
from parlour.core.chance import derive_seed


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_a_two_seat_tournament_prints_the_tables_and_writes_a_row_per_game(runner, tmp_path):
    rows, out = run_twice(runner, tmp_path, "tournament", "decktet-golf", "--agents", "random,heuristic",
                                 "--games", "5", "--seed", "7")
    assert "6 games" in out and "rounded up to whole blocks" in out and "blocks of 2 games on one deal" in out
    assert "Win rate" in out and "Rating" in out and "anchor" in out and "Pairwise results" in out
    assert "Wrote 6 rows to OUT" in out
    assert [(r["index"], r["block"], r["agent_0"], r["agent_1"]) for r in rows] == [
        ("0", "0", "random", "heuristic"), ("1", "0", "heuristic", "random"),
        ("2", "1", "random", "heuristic"), ("3", "1", "heuristic", "random"),
        ("4", "2", "random", "heuristic"), ("5", "2", "heuristic", "random")]
    assert [int(r["seed"]) for r in rows] == [derive_seed(7, block) for block in (0, 0, 1, 1, 2, 2)]
    assert {"score_0", "score_1", "winners", "end"} <= set(rows[0])


def test_agent_parameters_stay_with_their_agent_and_players_sets_the_seats(runner, tmp_path):
    rows, out = run_twice(runner, tmp_path, "tournament", "decktet-golf", "--players", "3", "--games", "6",
                                 "--agents", "heuristic:dg_take=3,pr_start=2,random")
    assert "agents heuristic:" in out and "3 seats" in out
    assert len(rows) == 6 and {r["agent_2"] for r in rows} == {"random", rows[0]["agent_0"]}
    assert "random#" not in out  # two agents, each in a seat or two, not three


def test_psalter_row_prints_completion_and_paired_differences(runner, tmp_path):
    rows, out = run_twice(runner, tmp_path, "tournament", "psalter-row", "--agents", "random,heuristic", "-n", "8")
    assert "4 deals, each played by every agent" in out
    assert "Completion" in out and "Score difference" in out and "Agent minus vs" in out
    assert [r["agent"] for r in rows] == ["random", "heuristic"] * 4


def test_the_progress_bar_goes_to_stderr_and_leaves_the_tables_clean(runner):
    result = run(runner, "tournament", "psalter-row", "--agents", "random,heuristic", "-n", "2", "--progress")
    assert result.exit_code == 0 and "Completion" in result.stdout
    assert "simulating" not in result.stdout and "ETA" not in result.stdout


def test_the_progress_bar_shows_progress_and_an_eta_on_a_terminal():
    screen = io.StringIO()
    terminal = Console(file=screen, force_terminal=True, width=100)
    assert list(_with_progress(iter(range(5)), 5, terminal, None)) == [0, 1, 2, 3, 4]
    assert "simulating" in screen.getvalue() and "ETA" in screen.getvalue() and "5/5" in screen.getvalue()
    quiet = io.StringIO()
    assert list(_with_progress(iter(range(3)), 3, Console(file=quiet), None)) == [0, 1, 2]  # not a terminal
    assert quiet.getvalue() == ""


def test_errors_are_clear(runner, tmp_path):
    one_line_error(run(runner, "tournament", "decktet-golf", "--agents", "random,randm"),
                   "there is no agent 'randm'", "heuristic, ", "random")
    one_line_error(run(runner, "tournament", "quisquilian", "--agents", "random"), "needs 2 agents or more, 1 given")
    one_line_error(run(runner, "tournament", "psalter-row", "--agents", "random,heuristic", "--players", "2"),
                   "1 seat", "2 seats were given")
    one_line_error(run(runner, "tournament", "quisquilian", "--agents", "random,heuristic", "--players", "9"),
                   "players")
    one_line_error(run(runner, "tournament", "decktet-golf", "--agents", "human,random"), "'human' is not an agent")
    one_line_error(run(runner, "tournament", "decktet-golf", "--agents", "random,heuristic",
                       "--out", str(tmp_path / "x.txt")), ".csv")
    for games in ("0", "-3"):
        result = run(runner, "tournament", "decktet-golf", "--agents", "random,heuristic", "--games", games)
        assert result.exit_code == 2 and "x>=1" in result.output
    assert run(runner, "tournament", "decktet-golf").exit_code == 2  # --agents is required
