"""Variant comparison: common random numbers, paired differences, and refused variants."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_cli import one_line_error, run

import parlour
from parlour.analysis.compare import comparison, figures, parse_variants, variant_runs
from parlour.analysis.parallel import play_chunk
from parlour.analysis.results import read_rows
from parlour.analysis.stats import holm, paired_difference
from parlour.cli import cli
from parlour.core.errors import OptionError


def rows_of(game, variants, agents, games=30, seed=2, **options):
    runs = variant_runs(game, options, parse_variants(variants, parlour.load(game, **options)), agents, seed)
    return [row for run in runs for row in play_chunk(run, range(games))]


def test_every_variant_plays_the_same_deals():
    rows = rows_of("psalter-row", ["errand_draw=1", "errand_draw=2"], ("random",))
    first = [row for row in rows if row["variant"] == "errand_draw=1"]
    second = [row for row in rows if row["variant"] == "errand_draw=2"]
    assert [row["seed"] for row in first] == [row["seed"] for row in second]
    assert {row["options"]["errand_draw"] for row in first} == {1}
    assert {row["options"]["errand_draw"] for row in second} == {2}


def test_a_variant_that_changes_nothing_differs_by_exactly_zero():
    # first_page_cost=0 is the default: the same rules, so every paired difference is 0 and p is 1
    rows = rows_of("psalter-row", ["first_page_cost=0"], ("random",))
    result = comparison(rows)
    assert result.labels == ["as given", "first_page_cost=0"]
    for effect in result.effects:
        difference = effect.differences[1]
        assert difference.estimate.mean == 0 and difference.p == 1.0 and difference.holm == 1.0, effect.figure


def test_differences_are_paired_per_game():
    rows = rows_of("decktet-golf", ["target=30", "target=80"], ("random", "random"), games=25)
    result = comparison(rows)
    turns = result.effect("turns")
    first = [r["turns"] for r in rows if r["variant_index"] == 0]
    second = [r["turns"] for r in rows if r["variant_index"] == 1]
    expected, p = paired_difference(first, second)
    assert turns.differences[1][0] == expected and turns.differences[1][1] == p
    assert turns.differences[1][0].mean > 0 and p < 0.05  # longer matches to 80 points
    assert result.effect("win_0").means[0].mean + result.effect("win_1").means[0].mean == pytest.approx(1)


def test_holm_adjusts_every_difference_of_the_comparison_at_once():
    rows = rows_of("decktet-golf", ["target=30", "target=50", "target=80"], ("random", "random"), games=20)
    result = comparison(rows)
    differences = [d for effect in result.effects for d in effect.differences if d is not None]
    assert len(differences) == 2 * len(result.effects)  # every figure, each variant but the first
    assert [d.holm for d in differences] == holm([d.p for d in differences])
    tested = [d for d in differences if d.p == d.p]  # not nan
    assert all(d.p <= d.holm <= 1 for d in tested)
    smallest = min(tested, key=lambda d: d.p)
    assert smallest.holm == pytest.approx(min(1, len(tested) * smallest.p))  # Bonferroni for the smallest


def test_figures_of_a_row():
    found = figures({"score": -2, "winners": [], "complete": False, "turns": 30, "end": "exhausted", "options": {}})
    assert found == {"score": -2.0, "complete": 0.0, "turns": 30.0}


def test_only_games_every_variant_finished_are_paired():
    rows = rows_of("psalter-row", ["errand_draw=1", "errand_draw=2"], ("random",), games=10)
    rows = [row for row in rows if not (row["variant_index"] == 1 and row["index"] >= 6)]
    assert comparison(rows).games == 6


@pytest.mark.parametrize("variants, message", [
    ([], "give at least one --variant"),
    (["bogus=1"], "variant 'bogus=1': psalter-row has no option 'bogus'"),
    (["errand_draw=9"], "variant 'errand_draw=9'"),
    (["errand_draw"], "not of the form key=value"),
    (["errand_draw=1", "errand_draw=1"], "name one variant twice"),
])
def test_bad_variants_are_refused(variants, message):
    with pytest.raises(OptionError, match=message):
        parse_variants(variants, parlour.load("psalter-row"))


def test_compare_command_prints_differences_and_writes_rows(tmp_path):
    path = tmp_path / "cmp.jsonl"
    result = run(CliRunner(), "compare", "psalter-row", "--variant", "errand_draw=1", "--variant", "errand_draw=2",
                 "--games", "40", "--seed", "3", "--workers", "1", "--out", str(path))
    assert result.exit_code == 0, result.output
    for fragment in ("Variants compared on the same 40 games", "errand_draw=2", "score", "end: exhausted", "p",
                     "Holm p", "paired t-test", "tests of this table at once"):
        assert fragment in result.stdout
    rows = read_rows(path)
    assert len(rows) == 80 and {row["variant"] for row in rows} == {"errand_draw=1", "errand_draw=2"}


def test_compare_command_errors_are_one_line():
    result = CliRunner().invoke(cli, ["compare", "psalter-row", "--variant", "nope=1", "--games", "2"])
    one_line_error(result, "variant 'nope=1'", "its options are")
