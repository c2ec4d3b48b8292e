"""A simulation summary as rich tables: scores per seat, their distribution, the game's figures.

>>> import io, parlour
>>> from rich.console import Console
>>> from parlour.analysis.simulate import simulate, summarize
>>> game = parlour.load("psalter-row")
>>> summary = summarize(simulate(game, [parlour.agent("random")], 5, seed=1), 1)
>>> out = Console(file=io.StringIO(), width=100)
>>> print_summary(summary, out, "psalter-row")
>>> "Mean score" in out.file.getvalue()
True
"""

from __future__ import annotations

import math

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parlour.analysis.compare import Comparison
from parlour.analysis.simulate import Summary
from parlour.analysis.stats import Estimate, bar, proportion_ci


def fmt(x: float | None, digits: int = 3) -> str:
    """A number to ``digits`` decimals, trailing zeros kept so columns line up.

    >>> fmt(2.5), fmt(None)
    ('2.500', 'n/a')
    """
    return "n/a" if x is None else f"{x:.{digits}f}"


def interval(e: Estimate, percent: bool = False) -> str:
    """``[low, high]`` or ``n/a`` when the interval is undefined (a single game)."""
    if e.low is None or e.high is None:
        return "n/a"
    if percent:
        return f"[{100 * e.low:.1f}%, {100 * e.high:.1f}%]"
    return f"[{fmt(e.low)}, {fmt(e.high)}]"


def print_summary(summary: Summary, console: Console, title: str) -> None:
    """The scores per seat, their distribution, the game's figures and the tallies."""
    console.print(seat_table(summary, title))
    if summary.seat_figures:
        console.print(seat_figure_table(summary))
    if not summary.scores_are_wins:  # a win/lose game: the distribution is the win rate again
        console.print(distribution_table(summary))
    if summary.figures:
        console.print(figure_table(summary))
    for name, tally in summary.tallies.items():
        parts = ", ".join(f"{escape(str(value))} {n} ({100 * n / summary.games:.1f}%) "
                          f"[dim]{interval(proportion_ci(n, summary.games), percent=True)}[/dim]"
                          for value, n in tally)
        console.print(f"[bold]{escape(name)}:[/bold] {parts}")


def seat_table(summary: Summary, title: str) -> Table:
    """Scores and win rates per seat; the win rates alone when every score is 1 for a win, 0 else."""
    table = Table(title=f"{escape(title)}: {summary.games} games", title_justify="left")
    wins_only = summary.scores_are_wins and len(summary.seats) > 1
    names = (("Seat", "Agent", "Wins", "Win rate", "95% CI") if wins_only else
             ("Seat", "Agent", "Mean score", "95% CI", "Min", "Max", "Win rate", "95% CI "))
    for name in names:
        table.add_column(name, justify="left" if name == "Agent" else "right")
    for seat in summary.seats:
        win_cells = (f"{100 * seat.wins.mean:.1f}%", interval(seat.wins, percent=True))
        if wins_only:
            table.add_row(str(seat.seat), escape(seat.agent), f"{seat.wins.mean * summary.games:g}", *win_cells)
        else:
            table.add_row(str(seat.seat), escape(seat.agent), fmt(seat.score.mean), interval(seat.score),
                          f"{seat.minimum:g}", f"{seat.maximum:g}", *win_cells)
    if len(summary.seats) > 1:
        table.caption = "Tied winners share the win."
        table.caption_justify = "left"
    return table


def seat_figure_table(summary: Summary) -> Table:
    """The game's per-seat figures (``round_score_0``, ``round_score_1``, ...): a mean and CI per seat."""
    table = Table(title="Per-seat figures (mean per game)", title_justify="left")
    table.add_column("Seat", justify="right")
    table.add_column("Agent")
    for name in summary.seat_figures:
        table.add_column(escape(name.replace("_", " ")), justify="right")
        table.add_column("95% CI", justify="right")
    for seat in summary.seats:
        cells = []
        for estimates in summary.seat_figures.values():
            cells += [fmt(estimates[seat.seat].mean), interval(estimates[seat.seat])]
        table.add_row(str(seat.seat), escape(seat.agent), *cells)
    return table


def distribution_table(summary: Summary) -> Table:
    """One row per score (or bin); a bar per count when there is one seat."""
    table = Table(title="Score distribution", title_justify="left")
    table.add_column("Score", justify="right")
    solo = len(summary.seats) == 1
    if solo:
        table.add_column("Games", justify="right")
        table.add_column("%", justify="right")
        table.add_column("")
        dist = summary.seats[0].distribution
        largest = max((n for _, n in dist), default=0)
        for label, n in dist:
            table.add_row(label, str(n), f"{100 * n / summary.games:.1f}", f"[green]{bar(n, largest)}[/green]")
        return table
    labels: list[str] = []
    per_seat = []
    for seat in summary.seats:
        found = dict(seat.distribution)
        per_seat.append(found)
        labels += [label for label in found if label not in labels]
    for seat in summary.seats:
        table.add_column(f"Seat {seat.seat}", justify="right")
    for label in labels:
        table.add_row(label, *(str(found.get(label, "")) for found in per_seat))
    return table


def figure_table(summary: Summary) -> Table:
    """The game's own per-game figures: a mean for numbers, a rate for yes/no figures; for numbers
    also their range and median, and the share of games where the figure was above 0."""
    table = Table(title="Per-game figures", title_justify="left")
    spread = bool(summary.spreads)
    for name in ("Figure", "Mean or rate", "95% CI") + (("Median", "Range", "> 0") if spread else ()):
        table.add_column(name, justify="left" if name == "Figure" else "right", no_wrap=name == "Figure")
    for name, (is_rate, estimate) in summary.figures.items():
        if is_rate:
            row = [escape(name), f"{100 * estimate.mean:.1f}%", interval(estimate, percent=True)]
        else:
            row = [escape(name), fmt(estimate.mean), interval(estimate)]
        if spread:
            if name in summary.spreads:
                low, median, high, above = summary.spreads[name]
                row += [f"{median:.4g}", f"{low:.4g} to {high:.4g}", f"{100 * above.mean:.1f}%"]
            else:
                row += ["", ""]
        table.add_row(*row)
    return table


def comparison_table(result: Comparison) -> Table:
    """Each figure, variant by variant: the mean with its CI, and the difference to the first
    variant with its CI, p-value and Holm-adjusted p-value (paired over the same games)."""
    table = Table(title=f"Variants compared on the same {result.games} games (differences to "
                        f"{escape(result.labels[0])}, paired)", title_justify="left")
    for name in ("Figure", "Variant", "Mean or rate", "95% CI", "Difference", "95% CI ", "p", "Holm p"):
        table.add_column(name, justify="left" if name in ("Figure", "Variant") else "right")
    for effect in result.effects:
        for number, (label, mean, difference) in enumerate(zip(result.labels, effect.means, effect.differences)):
            cells = ["", "", "", ""] if difference is None else [
                f"{difference.estimate.mean:+.3f}", interval(difference.estimate), p_text(difference.p),
                p_text(difference.holm)]
            table.add_row(escape(effect.figure) if number == 0 else "", escape(label), fmt(mean.mean),
                          interval(mean), *cells, end_section=number == len(result.labels) - 1)
    table.caption = comparison_note(result)
    table.caption_justify = "left"
    return table


def comparison_note(result: Comparison) -> str:
    """What the p-values of a comparison are.

    >>> from parlour.analysis.compare import Comparison
    >>> "adjusted for the 0 tests of this table" in comparison_note(Comparison(["a", "b"], 10, [], []))
    True
    """
    tests = sum(d is not None and not math.isnan(d.p) for effect in result.effects for d in effect.differences)
    return ("p: two-sided paired t-test of no difference over the games; Holm p: adjusted for the "
            f"{tests} tests of this table at once (read it when looking for any effect among them); * below 0.05")


def p_text(p: float) -> str:
    """A p-value to three places (``<0.001`` below that), starred below 0.05.

    >>> p_text(0.2), p_text(0.01), p_text(1e-9)
    ('0.200', '0.010 *', '<0.001 *')
    """
    if math.isnan(p):  # a single game: no spread to judge by
        return "n/a"
    text = "<0.001" if p < 0.001 else f"{p:.3f}"
    return text + (" *" if p < 0.05 else "")
