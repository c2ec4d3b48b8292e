"""`parlour report`: a self-contained HTML page with the figures and plots, PNG files, and clear errors."""

from __future__ import annotations

import base64
import re

import pytest
from click.testing import CliRunner
from test_cli import one_line_error, run

import parlour
from parlour.analysis.compare import parse_variants, variant_runs
from parlour.analysis.html import build_report, headline_figures, variant_groups
from parlour.analysis.metrics import design_metrics
from parlour.analysis.parallel import play_chunk
from parlour.analysis.report import p_text
from parlour.analysis.results import RowWriter
from parlour.analysis.simulate import simulate
from parlour.cli import cli
from parlour.core.errors import OptionError

PNG = b"\x89PNG\r\n\x1a\n"


def write(rows, path):
    with RowWriter(path) as out:
        for row in rows:
            out.write(row)
    return path


@pytest.fixture(scope="module")
def golf_rows():
    game = parlour.load("decktet-golf", players=3, target=150)
    return list(simulate(game, [parlour.agent("random")] * 3, games=40, seed=6))


@pytest.fixture(scope="module")
def variant_rows():
    game = parlour.load("psalter-row")
    runs = variant_runs("psalter-row", {}, parse_variants(["errand_draw=1", "errand_draw=2"], game), ("random",), 4)
    return [row for run in runs for row in play_chunk(run, range(30))]


def images(page):
    return [base64.b64decode(data) for data in re.findall(r'src="data:image/png;base64,([^"]+)"', page)]


def test_a_multiplayer_report_has_its_figures_and_plots(golf_rows):
    page, figures = build_report(golf_rows, "golf.csv")
    assert sorted(figures) == ["ends", "length", "scores", "wins"]
    assert all(image.startswith(PNG) for image in images(page)) and len(images(page)) == 4
    for text in ("Decktet Golf: 40 games", "Win rate [95% CI]", "First player&#x27;s share of wins",
                 "Decisiveness", "Lead changes per game", "Ends by target", "Score distribution", "Game length"):
        assert text in page
    for figure in figures.values():  # every plot says what it shows
        axes = figure.axes[0]
        assert axes.get_title() and axes.get_xlabel() and axes.get_ylabel()


def test_design_figures_agree_with_the_rows(golf_rows):
    metrics = design_metrics(golf_rows)
    first_wins = sum(1 / len(r["winners"]) for r in golf_rows if r["first_player"] in r["winners"])
    assert metrics.first_player.mean == pytest.approx(first_wins / 40)
    assert metrics.fair_share == pytest.approx(1 / 3)
    led = [r for r in golf_rows if r["midpoint_leader"] is not None]
    assert led and metrics.decisiveness.n == len(led)  # matches of several rounds have a midpoint leader
    shares = [1 / len(r["winners"]) if r["midpoint_leader"] in r["winners"] else 0 for r in led]  # ties share
    assert metrics.decisiveness.mean == pytest.approx(sum(shares) / len(led))
    assert metrics.ends == [("target", metrics.ends[0][1])] and metrics.ends[0][1].mean == 1


def test_a_comparison_report_shows_the_variant_effects(variant_rows):
    page, figures = build_report(variant_rows, "cmp.csv")
    assert "effects" in figures and "actions" in figures
    assert list(variant_groups(variant_rows)) == ["errand_draw=1", "errand_draw=2"]
    assert "Variant comparison (paired over the same deals)" in page and "Difference to errand_draw=1" in page
    titles = [axes.get_title() for axes in figures["effects"].axes if axes.get_visible()]
    assert titles[:2] == ["score", "complete"]


def test_the_variant_effects_plot_shows_the_paired_intervals_of_its_p_values(variant_rows):
    from parlour.analysis.compare import comparison

    result = comparison(variant_rows)
    page, figures = build_report(variant_rows, "cmp.csv")
    panels = [axes for axes in figures["effects"].axes if axes.get_visible()]
    for axes in panels:
        difference = result.effect(axes.get_title()).differences[1]
        (bars,) = axes.containers
        (segment,) = bars.lines[2][0].get_segments()  # the one variant against the first
        assert [x for x, _ in segment] == pytest.approx([difference.estimate.low, difference.estimate.high])
        assert bars.lines[0].get_xdata()[0] == pytest.approx(difference.estimate.mean)
        (label,) = [tick.get_text() for tick in axes.get_yticklabels()]
        assert label == f"errand_draw=2\np={p_text(difference.p)}, Holm {p_text(difference.holm)}"
    assert "Holm p" in page and "tests of this table at once" in page


def test_headline_figures_prefer_scores_wins_and_ends(variant_rows):
    from parlour.analysis.compare import comparison

    names = headline_figures(comparison(variant_rows))
    assert names[0] == "score" and "turns" in names and all(n in names for n in ("end: exhausted",))


def test_report_command_writes_html_and_pngs(golf_rows, tmp_path):
    source = write(golf_rows, tmp_path / "golf.parquet")
    result = run(CliRunner(), "report", str(source), "--out", str(tmp_path / "r" / "page.html"),
                 "--png", str(tmp_path / "plots"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "r" / "page.html").read_text().startswith("<!doctype html>")
    for name in ("scores", "length", "wins", "ends"):
        assert (tmp_path / "plots" / f"{name}.png").read_bytes().startswith(PNG)


def test_report_defaults_to_the_results_name(golf_rows, tmp_path):
    source = write(golf_rows, tmp_path / "golf.csv")
    assert run(CliRunner(), "report", str(source)).exit_code == 0
    assert (tmp_path / "golf.html").exists()


def test_unreadable_results_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    one_line_error(CliRunner().invoke(cli, ["report", str(bad)]), "line 1 is not JSON")
    one_line_error(CliRunner().invoke(cli, ["report", str(tmp_path / "none.csv")]), "no such file")
    assert not (tmp_path / "bad.html").exists()


def test_rows_of_two_games_are_refused(golf_rows):
    other = list(simulate(parlour.load("psalter-row"), [parlour.agent("random")], 2, seed=1))
    with pytest.raises(OptionError, match="several games"):
        variant_groups(golf_rows + other)
