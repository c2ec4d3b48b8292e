"""Simulation runs and the statistics of their results."""

from __future__ import annotations

import csv
import io
import json
import math
import random
import statistics

import pytest
from rich.console import Console

import parlour
from parlour.analysis.report import print_summary
from parlour.analysis.results import RowWriter, output_format
from parlour.analysis.simulate import (
    game_row,
    play_out,
    score_keys,
    simulate,
    summarize,
)
from parlour.analysis.stats import bar, counts, histogram
from parlour.core.chance import derive_seed
from parlour.core.errors import OptionError


# -- tallies and text bars --------------------------------------------------------------------
def test_counts_most_common_first():
    assert counts(["b", "a", "b", None]) == [("b", 2), ("a", 1), (None, 1)]


def test_histogram_of_small_integer_ranges_shows_every_value():
    assert histogram([-1, 1, 1]) == [("-1", 1), ("0", 0), ("1", 2)]
    assert histogram([]) == []
    assert histogram([2], span=(0, 3)) == [("0", 0), ("1", 0), ("2", 1), ("3", 0)]


def test_histogram_bins_wide_ranges_and_keeps_every_value():
    values = list(range(0, 1000, 7))
    bins = histogram(values, max_bins=10)
    assert len(bins) <= 10
    assert sum(n for _, n in bins) == len(values)
    assert bins[0][0].startswith("0..") and bins[-1][0].endswith("..994")
    floats = histogram([0.5, 0.25, 1.0], max_bins=4)
    assert len(floats) == 4 and sum(n for _, n in floats) == 3


def test_bar_scales_and_shows_small_counts():
    assert bar(10, 10, width=4) == "████"
    assert bar(5, 10, width=4) == "██"
    assert bar(1, 10_000, width=4) == "▏"
    assert bar(0, 10) == ""


# -- runs ----------------------------------------------------------------------------------------
@pytest.fixture
def game():
    return parlour.load("psalter-row")


def run_rows(game, n=20, seed=1):
    return list(simulate(game, [parlour.agent("random")], games=n, seed=seed))


def test_runs_are_deterministic_and_seeded_per_game(game):
    first, second = run_rows(game), run_rows(game)
    assert first == second
    assert [r["seed"] for r in first] == [derive_seed(1, i) for i in range(20)]
    assert run_rows(game, seed=2) != first


def test_any_game_of_a_run_can_be_played_again_alone(game):
    row = run_rows(game)[7]
    rng = random.Random(derive_seed(1, 7, "agents"))
    state = play_out(game.new_state(row["seed"]), [parlour.agent("random")], rng)
    assert state.scores() == [row["score"]]
    assert len(state.history()) == row["decisions"]


def test_decktet_golf_scores_by_turn_order_are_named_so():
    # round_score_turn_order<k>: the mean round score of the player k-th in each round's turn
    # order (the round's first player is 1), worked out here from the public position.
    game = parlour.load("decktet-golf", players=3, rounds=3)
    agents = [parlour.agent("random")] * 3
    for index in range(4):
        state = play_out(game.new_state(derive_seed(8, index)), agents, random.Random(index))
        position, stats = state.to_position(), state.stats()
        rounds = list(zip(position["round_scores"], position["first_players"]))
        assert len(rounds) == 3 and not any(key.startswith("round_score_place") for key in stats)
        for k in range(3):
            expected = statistics.fmean(scores[(first + k) % 3] for scores, first in rounds)
            assert stats[f"round_score_turn_order{k + 1}"] == pytest.approx(expected)


def test_rows_carry_the_game_figures(game):
    row = run_rows(game, n=1)[0]
    for key in ("game", "index", "seed", "score", "winners", "turns", "end", "complete", "reshuffled",
                "options", "agents"):
        assert key in row
    assert row["options"] == game.options and row["agents"] == ["random"]
    assert row["end"] in ("complete", "exhausted")
    assert json.loads(json.dumps(row)) == row  # JSON-ready


def test_game_row_of_a_finished_state(game):
    state = play_out(game.new_state(5), [parlour.agent("random")], random.Random(0))
    row = game_row(state, 3, 5, ["random"])
    assert row["index"] == 3 and row["seed"] == 5 and row["score"] == state.scores()[0]
    assert row["turns"] == state.stats()["turns"]


def test_score_keys():
    assert score_keys(1) == ["score"]
    assert score_keys(2) == ["score_0", "score_1"]


def test_summary_agrees_with_the_rows(game):
    rows = run_rows(game, n=40)
    summary = summarize(rows, 1)
    scores = [r["score"] for r in rows]
    seat = summary.seats[0]
    assert summary.games == 40
    assert seat.score.mean == pytest.approx(statistics.fmean(scores))
    assert seat.minimum == min(scores) and seat.maximum == max(scores)
    assert sum(n for _, n in seat.distribution) == 40
    assert seat.wins.mean == sum(r["complete"] for r in rows) / 40
    is_rate, reshuffled = summary.figures["reshuffled"]
    assert is_rate and reshuffled.mean == sum(r["reshuffled"] for r in rows) / 40
    is_rate, turns = summary.figures["turns"]
    assert not is_rate and turns.mean == pytest.approx(statistics.fmean(r["turns"] for r in rows))
    assert "complete" in summary.figures
    assert dict(summary.tallies["end"]) == dict(counts(r["end"] for r in rows))
    assert "score" not in summary.figures and "options" not in summary.figures


def test_summary_of_several_seats_shares_bins():
    rows = [
        {"score_0": s0, "score_1": s1, "winners": [0] if s0 > s1 else [1], "agents": ["a", "b"], "end": "done",
         "turns": 3}
        for s0, s1 in [(0, 40), (10, 30), (25, 20), (1, 2)]
    ]
    summary = summarize(rows, 2)
    assert [s.agent for s in summary.seats] == ["a", "b"]
    assert [label for label, _ in summary.seats[0].distribution] == [label for label, _ in summary.seats[1].distribution]
    assert summary.seats[1].wins.mean == 0.75
    out = Console(file=io.StringIO(), width=120)
    print_summary(summary, out, "two seats")
    text = out.file.getvalue()
    assert "Seat 0" in text and "Seat 1" in text and "done 4 (100.0%)" in text


def test_summary_of_nothing_is_an_error():
    with pytest.raises(OptionError):
        summarize([], 1)


def test_wrong_number_of_agents(game):
    with pytest.raises(OptionError):
        list(simulate(game, [parlour.agent("random")] * 2, 1, 0))


def test_report_prints_the_figures(game):
    out = Console(file=io.StringIO(), width=120)
    print_summary(summarize(run_rows(game), 1), out, "psalter-row")
    text = out.file.getvalue()
    for fragment in ("Mean score", "95% CI", "Score distribution", "complete", "reshuffled", "turns", "end:"):
        assert fragment in text


# -- output files ------------------------------------------------------------------------------
def test_output_format_by_suffix(tmp_path):
    assert output_format(tmp_path / "a.CSV") == "csv"
    assert output_format(tmp_path / "a.jsonl") == "jsonl" == output_format(tmp_path / "a.json")
    with pytest.raises(OptionError, match=r"\.csv, \.jsonl or \.json"):
        output_format(tmp_path / "a.xlsx")


def test_csv_and_jsonl_writers(game, tmp_path):
    rows = run_rows(game, n=5)
    for name in ("r.csv", "r.jsonl"):
        with RowWriter(tmp_path / name) as writer:
            for row in rows:
                writer.write(row)
    table = list(csv.DictReader((tmp_path / "r.csv").read_text().splitlines()))
    assert [int(r["score"]) for r in table] == [r["score"] for r in rows]
    assert json.loads(table[0]["options"]) == game.options
    assert [r["winners"] for r in table] == ["" for _ in rows] or all(r["complete"] == "True" for r in table)
    lines = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert lines == rows


def test_simulation_speed_is_reasonable(game):
    """A guard against per-step waste: 200 random games take well under a few seconds."""
    import time

    start = time.perf_counter()
    rows = run_rows(game, n=200)
    assert len(rows) == 200
    assert time.perf_counter() - start < 5
    assert not math.isnan(summarize(rows, 1).seats[0].score.mean)
