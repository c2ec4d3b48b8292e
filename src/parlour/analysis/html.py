"""A results file as a self-contained HTML report: tables of the figures with their 95%
intervals, the design figures, and the plots embedded as PNG (no file beside it needed).

>>> import parlour
>>> from parlour.analysis.simulate import simulate
>>> rows = list(simulate(parlour.load("psalter-row"), [parlour.agent("random")], 30, seed=1))
>>> page, figures = build_report(rows, "runs.csv")
>>> "<h1>Psalter Row: 30 games</h1>" in page, sorted(figures)
(True, ['actions', 'ends', 'length', 'scores', 'wins'])
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import parlour
from parlour.analysis import columns, plots
from parlour.analysis.compare import Comparer, Comparison
from parlour.analysis.figures import figure_bounds
from parlour.analysis.metrics import DesignMetrics, design_metrics
from parlour.analysis.report import comparison_note, p_text
from parlour.analysis.simulate import score_keys
from parlour.analysis.stats import Estimate, mean_estimate, proportion_ci

if TYPE_CHECKING:
    from matplotlib.figure import Figure

STYLE = """body{font-family:system-ui,sans-serif;max-width:62rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{padding:.25rem .7rem;border-bottom:1px solid #ddd;
text-align:right}th:first-child,td:first-child,td.text{text-align:left}th{background:#f4f4f4}
img{max-width:100%;display:block;margin:.5rem 0 1.5rem}.note{color:#666;font-size:.9rem}"""
#: Plot name -> caption (the names are the files of --png).
CAPTIONS = {
    "scores": "Score distribution",
    "length": "Game length",
    "wins": "Win rate per seat",
    "ends": "How games end",
    "actions": "Actions used per game",
    "effects": "Variant effects",
}


def build_report(rows: Any, source: str) -> tuple[str, dict[str, Figure]]:
    """The HTML page for ``rows`` (from simulate or compare: dicts, or a pyarrow table as
    :func:`~parlour.analysis.columns.read_table` reads a file) and its figures by name."""
    table = columns.as_table(rows)
    groups = variant_groups(table)
    result = Comparer.of_tables(groups).comparison() if len(groups) > 1 else None
    figures = make_figures(groups, result)
    game = table["game"][0].as_py()
    agents = table["agents"][0].as_py() if "agents" in table.column_names else []
    title = parlour.load(game).title if game in parlour.game_names() else game
    parts = [f"<h1>{_e(title)}: {table.num_rows // len(groups)} games{' per variant' if len(groups) > 1 else ''}</h1>",
             (f"<p class=note>From {_e(source)} · agents {_e(', '.join(agents or []))}"
              + (f" · variants: {_e(', '.join(groups))}" if result is not None else "") + "</p>"),
             "<h2>Results</h2>", *(_summary_table(label, group) for label, group in groups.items()),
             "<h2>Design figures</h2>", _design_table(groups)]
    if result is not None:
        parts += ["<h2>Variant comparison (paired over the same deals)</h2>", _comparison_table(result)]
    parts += ["<h2>Plots</h2>"] + [_image(CAPTIONS[name], figure) for name, figure in figures.items()]
    page = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{_e(title)} report</title>"
            f"<style>{STYLE}</style></head><body>{''.join(parts)}</body></html>")
    return page, figures


def variant_groups(rows: Any) -> dict[str, Any]:
    """Rows by variant label, in variant order (all rows under ``all games`` for a plain run),
    each group a pyarrow table."""
    return columns.groups(columns.as_table(rows))


def make_figures(groups: dict[str, Any], result: Comparison | None) -> dict[str, Figure]:
    made = {"scores": plots.score_distribution(groups), "length": plots.game_length(groups),
            "wins": plots.win_rates(groups), "ends": plots.end_conditions(groups),
            "actions": plots.action_usage(groups),
            "effects": None if result is None else plots.variant_effects(result, headline_figures(result))}
    return {name: figure for name, figure in made.items() if figure is not None}


def headline_figures(result: Comparison, most: int = 9) -> list[str]:
    """The figures worth a panel: scores, wins (or completion), length, and the end reasons."""
    names = [e.figure for e in result.effects]
    wanted = [n for n in names if n == "score" or n.startswith(("score_", "win_"))]
    wanted += [n for n in ("complete", "turns", "rounds", "clearings") if n in names]
    wanted += [n for n in names if n.startswith("end: ")]
    return wanted[:most]


def write_report(rows: Any, source: str, out: Path | None, png: Path | None) -> list[Path]:
    """Write the HTML page to ``out`` and/or each plot as ``png/<name>.png``; the files written."""
    page, figures = build_report(rows, source)
    written = []
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(page, encoding="utf-8")
        written.append(out)
    if png is not None:
        png.mkdir(parents=True, exist_ok=True)
        for name, figure in figures.items():
            figure.savefig(png / f"{name}.png")
            written.append(png / f"{name}.png")
    return written


def _e(text: object) -> str:
    return html.escape(str(text))


def _ci(e: Estimate | None, percent: bool = False) -> str:
    if e is None:
        return "n/a"
    scale, unit = (100, "%") if percent else (1, "")
    if e.low is None or e.high is None:
        return f"{scale * e.mean:.2f}{unit}"
    return f"{scale * e.mean:.2f}{unit} [{scale * e.low:.2f}, {scale * e.high:.2f}]"


def _table(head: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    cells = "".join(f"<th>{_e(h)}</th>" for h in head)
    rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body)
    return f"<table><tr>{cells}</tr>{rows}</table>"


def _summary_table(label: str, table: Any) -> str:
    seats = columns.seat_count(table)
    shares = columns.win_shares(table, seats)
    agents = (table["agents"][-1].as_py() if "agents" in table.column_names else None) or []
    n, (game, options) = table.num_rows, columns.played(table)
    head = ("Seat", "Agent", "Mean score [95% CI]", "Completion rate [95% CI]" if seats == 1 else "Win rate [95% CI]")
    body = [(str(seat), _e(agents[seat] if seat < len(agents) else "?"),
             _ci(mean_estimate(columns.moments(table[key]).sample(), within=figure_bounds(game, options, key))),
             _ci(proportion_ci(math.fsum(shares[seat]), n), percent=True))
            for seat, key in enumerate(score_keys(seats))]
    return f"<h3>{_e(label)} ({n} games)</h3>" + _table(head, body)


def _design_table(groups: dict[str, Any]) -> str:
    metrics = {label: design_metrics(rows) for label, rows in groups.items()}
    head = ("Figure", *metrics)
    body = [("First player's share of wins [95% CI]", *(_first(m) for m in metrics.values())),
            ("Decisiveness: the midpoint leader wins [95% CI]", *(_decisive(m) for m in metrics.values())),
            ("Lead changes per game [95% CI]", *(_ci(m.lead_changes) for m in metrics.values()))]
    reasons = sorted({reason for m in metrics.values() for reason, _ in m.ends})
    body += [(f"Ends by {_e(reason)} [95% CI]", *(_ci(dict(m.ends).get(reason), percent=True)
                                                   for m in metrics.values())) for reason in reasons]
    kinds = [kind for kind, _ in next(iter(metrics.values())).actions]
    body += [(f"'{_e(kind)}' actions per game", *(_ci(dict(m.actions).get(kind)) for m in metrics.values()))
             for kind in kinds]
    solitaire = all(m.seats == 1 for m in metrics.values())
    note = "" if solitaire else (
        "<p class=note>The first player is the seat that moved first; an even share is 1/seats. The "
        "midpoint leader is the seat alone ahead on score (in Quisquilian, on the ranks its runs cover) "
        "after half the game's decisions (games where nobody was alone ahead are left out); n/a where "
        "the figure does not apply.</p>")
    shown = [(_e(row[0]), *row[1:]) for row in body if any(cell != "n/a" for cell in row[1:])]
    return _table(head, shown) + note


def _first(m: DesignMetrics) -> str:
    if m.first_player is None or m.fair_share is None:
        return "n/a"
    return f"{_ci(m.first_player, percent=True)} (even {100 * m.fair_share:.0f}%)"


def _decisive(m: DesignMetrics) -> str:
    return "n/a" if m.decisiveness is None else f"{_ci(m.decisiveness, percent=True)} of {m.decisiveness.n} games"


def _comparison_table(result: Comparison) -> str:
    body = []
    for effect in result.effects:
        for label, mean, difference in zip(result.labels, effect.means, effect.differences):
            change = ["", "", ""] if difference is None else [
                _ci(difference.estimate), p_text(difference.p), p_text(difference.holm)]
            body.append((_e(effect.figure), _e(label), _ci(mean), *change))
    head = ("Figure", "Variant", "Mean [95% CI]", f"Difference to {result.labels[0]} [95% CI]", "p", "Holm p")
    return _table(head, body) + f"<p class=note>{_e(comparison_note(result))}</p>"


def _image(caption: str, figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<h3>{_e(caption)}</h3><img alt="{_e(caption)}" src="data:image/png;base64,{data}">'
