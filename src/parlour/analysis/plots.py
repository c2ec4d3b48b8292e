"""The plots of a report (matplotlib, the ``sim`` extra): each a function of the rows
grouped by variant (one group for a plain run; each a pyarrow table, or a list of dicts)
that returns a Figure, or None when the plot does not apply. Figures are made without pyplot, so no window and no global state.

>>> import parlour
>>> from parlour.analysis.simulate import simulate
>>> rows = list(simulate(parlour.load("psalter-row"), [parlour.agent("random")], 20, seed=1))
>>> figure = score_distribution({"all games": rows})
>>> figure.axes[0].get_title()
'Score distribution'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from parlour.analysis import columns
from parlour.analysis.metrics import design_metrics
from parlour.analysis.report import p_text
from parlour.analysis.stats import Estimate, proportion_ci

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from parlour.analysis.compare import Comparison

#: Variant label -> its rows: a pyarrow table (as :func:`~parlour.analysis.columns.groups` gives), or dicts.
Groups = dict[str, Any]
#: Colour-blind-safe colours (Okabe-Ito), one per variant or seat.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
LOWER_IS_BETTER = {"decktet-golf"}


def new_figure(width: float = 7.5, height: float = 4.2) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        from parlour.core.errors import OptionError
        from parlour.extras import install_hint

        raise OptionError(f"reports need matplotlib: {install_hint('sim')}") from None
    return Figure(figsize=(width, height), dpi=110, layout="constrained")


def score_label(game: str) -> str:
    return "Match points (lower is better)" if game in LOWER_IS_BETTER else "Score (points)"


def score_distribution(groups: Groups) -> Figure | None:
    """Histograms of the scores (every seat's), one outline per variant; None when the
    scores only say who won (1 or 0)."""
    import numpy as np

    groups = _tables(groups)
    values = {label: np.concatenate([columns.numbers(table[key]) for key in columns.score_names(table)])
              for label, table in groups.items()}
    if all(np.isin(v, (0, 1)).all() for v in values.values()):
        return None
    low, high = min(v.min() for v in values.values()), max(v.max() for v in values.values())
    bins = _bins(_whole(low), _whole(high))
    figure = new_figure()
    axes = figure.subplots()
    for colour, (label, scores) in zip(COLOURS, values.items()):
        weights = np.full(len(scores), 100 / len(scores))
        axes.hist(scores, bins=bins, weights=weights, histtype="step", linewidth=2, color=colour, label=label)
    _integer_ticks(axes)
    first = next(iter(groups.values()))
    game, seats = first["game"][0].as_py(), columns.seat_count(first)
    axes.set_title("Score distribution")
    axes.set_xlabel(score_label(game) + ("" if seats == 1 else ", every seat"))
    axes.set_ylabel("Share of scores (%)")
    _legend(axes, groups)
    return figure


def game_length(groups: Groups) -> Figure:
    """Histograms of the turns per game, one outline per variant."""
    import numpy as np

    figure = new_figure()
    axes = figure.subplots()
    turns = {label: columns.numbers(table["turns"]) for label, table in _tables(groups).items()}
    bins = _bins(_whole(min(t.min() for t in turns.values())), _whole(max(t.max() for t in turns.values())))
    for colour, (label, values) in zip(COLOURS, turns.items()):
        mean = columns.moments(values).sample().mean
        axes.hist(values, bins=bins, weights=np.full(len(values), 100 / len(values)), histtype="step", linewidth=2,
                  color=colour, label=f"{label} (mean {mean:.1f})")
    _integer_ticks(axes)
    axes.set_title("Game length")
    axes.set_xlabel("Turns per game")
    axes.set_ylabel("Games (%)")
    axes.legend(frameon=False)
    return figure


def win_rates(groups: Groups) -> Figure:
    """Win rate per seat with 95% intervals (bars side by side per variant) and the even
    share; for a solitaire, the completion rate per variant."""
    figure = new_figure()
    axes = figure.subplots()
    groups = _tables(groups)
    seats = columns.seat_count(next(iter(groups.values())))
    _grouped_bars(axes, [f"seat {seat}" for seat in range(seats)],
                  {label: _win_rates(table, seats) for label, table in groups.items()}, 100)
    if seats == 1:
        axes.set_title("Completion rate (a complete Psalter wins)")
    else:
        axes.axhline(100 / seats, color="grey", linestyle="--", linewidth=1, label=f"even share ({100 / seats:.0f}%)")
        axes.set_title("Win rate per seat, with 95% intervals")
    axes.set_xlabel("Seat (in the order of the table; who moves first varies by game)")
    axes.set_ylabel("Games won (%)")
    if seats > 1 or len(groups) > 1:  # the even share, or which bar is which variant
        axes.legend(frameon=False)
    return figure


def end_conditions(groups: Groups) -> Figure:
    """How each game ended (share of games per end reason), per variant."""
    figure = new_figure()
    axes = figure.subplots()
    ends = {label: (dict(columns.text_counts(table["end"])), table.num_rows) for label, table in _tables(groups).items()}
    reasons = sorted({reason for found, _ in ends.values() for reason in found})
    _grouped_bars(axes, reasons, {label: [proportion_ci(found.get(reason, 0), n) for reason in reasons]
                                  for label, (found, n) in ends.items()}, 100)
    axes.set_title("How games end, with 95% intervals")
    axes.set_xlabel("End condition")
    axes.set_ylabel("Games (%)")
    _legend(axes, groups)
    return figure


def action_usage(groups: Groups) -> Figure | None:
    """Mean uses per game of each action kind (Psalter Row), per variant; None elsewhere."""
    usage = {label: design_metrics(table).actions for label, table in _tables(groups).items()}
    if not any(usage.values()):
        return None
    figure = new_figure()
    axes = figure.subplots()
    kinds = [kind for kind, _ in next(iter(usage.values()))]
    _grouped_bars(axes, kinds, {label: [estimate for _, estimate in actions] for label, actions in usage.items()}, 1)
    axes.set_title("Actions used per game, with 95% intervals")
    axes.set_xlabel("Action kind")
    axes.set_ylabel("Uses per game (mean)")
    _legend(axes, groups)
    return figure


def variant_effects(result: Comparison, figures: Sequence[str]) -> Figure:
    """One panel per figure: each variant's paired difference to the first variant with its
    95% interval (the interval the p-values come from), 0 as a dashed line, and the p-value
    and Holm-adjusted p-value of each difference."""
    effects = [result.effect(name) for name in figures]
    others = result.labels[1:]
    columns = min(3, len(effects))
    rows = math.ceil(len(effects) / columns)
    figure = new_figure(4.2 * columns, 0.6 + (0.9 + 0.55 * len(others)) * rows)
    panels = list(figure.subplots(rows, columns, squeeze=False).flat)
    for axes, effect in zip(panels, effects):
        ys = list(range(len(others)))[::-1]
        differences = [d for d in effect.differences if d is not None]
        for y, colour, difference in zip(ys, COLOURS[1:], differences):
            axes.errorbar(difference.estimate.mean, y, xerr=_errors([difference.estimate], 1), fmt="o",
                          color=colour, capsize=4)
        axes.axvline(0, color="grey", linestyle="--", linewidth=1)
        axes.set_yticks(ys, [f"{label}\np={p_text(d.p)}, Holm {p_text(d.holm)}" for label, d in zip(others, differences)])
        axes.set_ylim(-0.6, len(ys) - 0.4)
        axes.set_title(effect.figure)
        axes.set_xlabel("difference in share of games" if effect.figure.startswith(("win_", "end: "))
                        else "difference in mean per game")
    for axes in panels[len(effects):]:
        axes.set_visible(False)
    figure.suptitle(f"Variant effects: the difference to {result.labels[0]}, paired over the same games, "
                    "with its 95% interval")
    return figure


def _bins(low: float, high: float) -> list[float]:
    step = max(1, math.ceil((high - low + 1) / 40))
    return [low - 0.5 + step * i for i in range(int((high - low + 1) / step) + 2)]


def _win_rates(table: Any, seats: int) -> list[Estimate]:
    return [proportion_ci(math.fsum(shares), table.num_rows) for shares in columns.win_shares(table, seats)]


def _tables(groups: Groups) -> dict[str, Any]:
    """The groups as pyarrow tables (rows given as dicts are made one)."""
    return {label: columns.as_table(rows) for label, rows in groups.items()}


def _whole(x: Any) -> float:
    """A float that is a whole number as an int (bins and labels as for lists of ints)."""
    return int(x) if float(x).is_integer() else float(x)


def _errors(estimates: Sequence[Estimate], scale: float) -> list[list[float]]:
    return [[scale * (e.mean - (e.mean if e.low is None else e.low)) for e in estimates],
            [scale * ((e.mean if e.high is None else e.high) - e.mean) for e in estimates]]


def _grouped_bars(axes: Any, categories: Sequence[str], values: dict[str, list[Estimate]], scale: float) -> None:
    """A bar per group (variant) side by side in each category, with its 95% interval."""
    width = 0.8 / len(values)
    for number, (colour, (label, estimates)) in enumerate(zip(COLOURS, values.items())):
        xs = [i + (number - (len(values) - 1) / 2) * width for i in range(len(categories))]
        axes.bar(xs, [scale * e.mean for e in estimates], width, color=colour, label=label,
                 yerr=_errors(estimates, scale), capsize=3)
    axes.set_xticks(range(len(categories)), categories)


def _integer_ticks(axes: Any) -> None:
    """Scores and turns are whole numbers: no tick at -7.5."""
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))


def _legend(axes: Any, groups: Groups) -> None:
    if len(groups) > 1:
        axes.legend(frameon=False)


