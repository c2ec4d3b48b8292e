"""`parlour duplicate`: a duplicate match on the shared workers, its summary, rows and refusals."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_cli import one_line_error, run

import parlour
from parlour.analysis.duplicate import duplicate_deal, summary
from parlour.cli import cli

ARGS = ("duplicate", "decktet-golf", "--players", "3", "--option", "rounds=1", "--tried", "random",
        "--deals", "4", "--seed", "7", "--no-progress")


def test_a_duplicate_match_writes_a_row_per_trial_and_ends_with_its_summary(tmp_path):
    path = tmp_path / "trials.jsonl"
    result = run(CliRunner(), *ARGS, "--workers", "2", "--out", str(path))
    assert result.exit_code == 0, result.output
    game = parlour.load("decktet-golf", players=3, rounds=1)
    expected = [row for deal in range(4)
                for row in duplicate_deal(game, parlour.agent("random"), parlour.agent("heuristic"), deal, seed=7)]
    written = [json.loads(line) for line in path.read_text().splitlines()]
    assert written == expected  # deal by deal, seat by seat, whatever the workers
    ahead = summary(expected)["ahead"]
    lines = result.stdout.splitlines()
    assert lines[0].startswith("decktet-golf · random tried in each of 3 seats of 4 deals of heuristic · seed 7")
    assert f"ahead: {ahead.mean:+.4f} [{ahead.low:+.4f}, {ahead.high:+.4f}], trial less base, per seat" in result.stdout
    assert "random in place of heuristic: finished ahead of" in result.stdout and "over 4 deals" in result.stdout
    assert "12 trials on 4 deals" in result.stderr and f"Wrote 12 rows to {path}" in result.stdout


def test_one_worker_and_ray_print_what_two_workers_print():
    outputs = [run(CliRunner(), *ARGS, *extra).stdout for extra in
               (("--workers", "1"), ("--workers", "2"), ("--backend", "ray", "--workers", "2"))]
    assert outputs[0] == outputs[1] == outputs[2]


def test_one_deal_gives_no_verdict():
    result = run(CliRunner(), *ARGS[:-5], "--deals", "1", "--workers", "1", "--no-progress")
    assert result.exit_code == 0, result.output
    said = " ".join(result.stdout.split())
    assert "over 1 deals: no interval from one deal" in said
    assert said.count("[n/a]") == 5  # each measure, diverged and the finish: none has an interval


def test_the_progress_bar_counts_trials():
    result = run(CliRunner(), *ARGS[:-1], "--workers", "1", "--progress")
    assert result.exit_code == 0 and "trials" in result.stderr


@pytest.mark.parametrize(("extra", "fragment"), [
    (("--tried", "nope"), "there is no agent 'nope': the agents are"),
    (("--tried", "random", "--base", "human"), "a duplicate match plays agents only: 'human' is not an agent here"),
    (("--tried", "clairvoyant"), "clairvoyant"),
    (("--tried", "random", "--out", "trials.xlsx"), "the file name must end in .csv"),
    (("--tried", "random", "--option", "rounds=0"), "rounds"),
])
def test_bad_input_is_a_one_line_error_before_any_game(tmp_path, extra, fragment):
    result = CliRunner().invoke(cli, ["duplicate", "decktet-golf", "--deals", "2", *extra])
    one_line_error(result, fragment)
    assert not (tmp_path / "trials.xlsx").exists()


def test_no_deals_and_no_tried_agent_are_usage_errors():
    result = CliRunner().invoke(cli, ["duplicate", "decktet-golf", "--tried", "random", "--deals", "0"])
    assert result.exit_code == 2 and "0 is not in the range x>=1" in result.stderr
    result = CliRunner().invoke(cli, ["duplicate", "decktet-golf"])
    assert result.exit_code == 2 and "Missing option '--tried'" in result.stderr


def test_the_command_is_listed_with_its_help():
    result = CliRunner().invoke(cli, ["--help"])
    assert "duplicate" in result.stdout and "A duplicate match" in result.stdout
    text = CliRunner().invoke(cli, ["duplicate", "--help"]).stdout
    for option in ("--tried", "--base", "--deals", "--workers", "--backend", "--address", "--out", "--seed"):
        assert option in text
    assert "--engine" not in text  # the trials are played in Python: no engine to choose
