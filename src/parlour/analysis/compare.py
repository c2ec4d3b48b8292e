"""Rule variants compared on common random numbers: every variant plays the same seeds.

Game ``i`` of every variant is dealt by ``derive_seed(seed, i)`` and its agents draw from
the same generator, so a difference between variants is measured game by game (paired),
which needs far fewer games than comparing two independent runs. Every difference gets the
paired t-test's p-value and, since a comparison tests many figures at once, Holm's adjusted
p-value over all of them.

>>> import parlour
>>> variants = parse_variants(["errand_draw=1", "errand_draw=2"], parlour.load("psalter-row"))
>>> [v.label for v in variants]
['errand_draw=1', 'errand_draw=2']
>>> from parlour.analysis.parallel import play_chunk
>>> rows = []
>>> for run in variant_runs("psalter-row", {}, variants, ("random",), seed=1):
...     rows += play_chunk(run, range(20))
>>> result = comparison(rows)
>>> result.labels, result.games
(['errand_draw=1', 'errand_draw=2'], 20)
>>> score = result.effect("score")
>>> score.differences[0] is None and score.differences[1].estimate.n == 20
True
>>> score.differences[1].holm >= score.differences[1].p
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from parlour.analysis.figures import (
    Bounds,
    difference_bounds,
    difference_estimate,
    figure_bounds,
    figure_estimate,
    is_share,
)
from parlour.analysis.metrics import seat_count
from parlour.analysis.parallel import Run
from parlour.analysis.simulate import SKIP_FIGURES, score_keys
from parlour.analysis.stats import Estimate, Moments, holm, proportion_ci
from parlour.core.errors import OptionError
from parlour.core.options import option_dict
from parlour.core.scores import win_share

if TYPE_CHECKING:
    from parlour.core.game import Game

#: Row keys that are not figures to compare (identities, seats, free text).
NOT_FIGURES = SKIP_FIGURES | {"variant", "variant_index", "end"}


@dataclass(frozen=True)
class Variant:
    """One rule variant: its label (as given) and the options it sets."""

    label: str
    options: dict[str, str]


def parse_variants(texts: Sequence[str], game: Game) -> list[Variant]:
    """Variants from ``key=value[,key=value]`` texts, each checked against ``game`` (an
    unknown key or a bad value is an OptionError naming the variant). One variant alone is
    compared with the game's options as given (labelled ``as given``).

    >>> import parlour
    >>> [v.label for v in parse_variants(["revision_discard=2"], parlour.load("psalter-row"))]
    ['as given', 'revision_discard=2']
    """
    if not texts:
        raise OptionError("give at least one --variant KEY=VALUE (several keys: KEY=VALUE,KEY=VALUE)")
    variants = []
    for text in texts:
        options = option_dict(part for part in text.split(",") if part.strip())
        if not options:
            raise OptionError(f"variant {text!r} sets no option: give KEY=VALUE")
        try:
            game.with_options({**game.options, **options})
        except OptionError as err:
            raise OptionError(f"variant {text!r}: {err}") from None
        variants.append(Variant(",".join(f"{k}={v}" for k, v in options.items()), options))
    labels = [v.label for v in variants]
    if len(set(labels)) != len(labels):
        raise OptionError(f"the variants {', '.join(labels)} name one variant twice")
    return [Variant("as given", {}), *variants] if len(variants) == 1 else variants


def variant_runs(game: str, options: dict[str, Any], variants: Sequence[Variant], agents: tuple[str, ...],
                 seed: int, engine: str = "native") -> list[Run]:
    """One run per variant, all on ``seed``, each row labelled with its variant."""
    return [Run(game, {**options, **variant.options}, agents, seed,
                extra={"variant": variant.label, "variant_index": number}, engine=engine)
            for number, variant in enumerate(variants)]


def figures(row: dict[str, Any]) -> dict[str, float]:
    """What can be compared in one game: scores, each seat's share of the win, and every
    numeric or yes/no figure of the row (yes/no as 1/0).

    >>> figures({"score_0": 3, "score_1": 5, "winners": [0], "turns": 12, "end": "target",
    ...          "first_player": 1, "options": {}})
    {'score_0': 3.0, 'score_1': 5.0, 'win_0': 1.0, 'win_1': 0.0, 'first player wins': 0.0, 'turns': 12.0}
    """
    seats = seat_count(row)
    found: dict[str, float] = {key: float(row[key]) for key in score_keys(seats) if key in row}
    if seats > 1:
        winners = row["winners"]
        found.update({f"win_{seat}": win_share(seat, winners) for seat in range(seats)})
        if row.get("first_player") is not None:
            found["first player wins"] = win_share(row["first_player"], winners)
    for key, value in row.items():
        if key in NOT_FIGURES or key in found or not isinstance(value, (int, float)):
            continue
        found[key] = float(value)
    return found


class Difference(NamedTuple):
    """A variant's paired difference to the first: its estimate and interval, the paired
    t-test's p-value, and that p-value adjusted by Holm's method over every difference of the
    comparison (nan where there is no spread to test)."""

    estimate: Estimate
    p: float
    holm: float


@dataclass(frozen=True)
class Effect:
    """One figure across the variants: each variant's mean, and its difference to the first."""

    figure: str
    means: list[Estimate]
    #: The difference to the first variant, None for the first variant itself.
    differences: list[Difference | None]


@dataclass(frozen=True)
class Comparison:
    labels: list[str]
    games: int
    effects: list[Effect]
    #: end reason -> share of games per variant (also among the effects as "end: <reason>").
    ends: list[str]

    def effect(self, figure: str) -> Effect:
        for effect in self.effects:
            if effect.figure == figure:
                return effect
        raise KeyError(f"no figure {figure!r}: the figures are {', '.join(e.figure for e in self.effects)}")


def comparison(rows: Iterable[dict[str, Any]], variants: int | None = None) -> Comparison:
    """Compare the variants of ``rows`` (from :func:`variant_runs`) on the games all of them
    played, pairing game ``i`` of each variant with game ``i`` of the first. Given the number
    of ``variants`` (numbered from 0), a game is taken in as soon as every variant has played
    it (see :class:`Comparer`)."""
    comparer = Comparer(variants)
    for row in rows:
        comparer.add(row)
    return comparer.comparison()


class Figure:
    """One figure of one variant over the paired games: its values' moments and whether every
    value was 0 or 1; for a variant after the first, the moments of its differences to the first."""

    __slots__ = ("values", "binary", "differences")

    def __init__(self) -> None:
        self.values = Moments()
        self.binary = True
        self.differences = Moments()

    def add(self, value: float, first: float) -> None:
        self.values.add(value)
        self.binary = self.binary and value in (0, 1)
        self.differences.add(value - first)


class Comparer:
    """:func:`comparison` a row at a time. The rows of one game wait until every variant has
    played it (with ``variants`` given; else until the end), then only the figures' moments are
    kept: with the variants taking turns chunk by chunk (as
    :func:`~parlour.analysis.parallel.run_games` plays several runs), memory holds a chunk of
    games, whatever their number.

    The figures compared are those of the first game every variant played (a figure one of them
    lacks there is left out, as is one missing from any later game), and ``end: <reason>`` for
    every reason a game ended by.

    >>> comparer = Comparer(variants=2)
    >>> for index, (a, b) in enumerate([(3, 5), (4, 4), (2, 6)]):
    ...     for number, score in enumerate((a, b)):
    ...         comparer.add({"variant": "ab"[number], "variant_index": number, "index": index,
    ...                       "score": score, "winners": [], "end": "exhausted"})
    >>> result = comparer.comparison()
    >>> result.games, result.effect("score").differences[1].estimate.mean
    (3, 2.0)
    """

    def __init__(self, variants: int | None = None) -> None:
        self.variants = variants
        self.labels: dict[int, str] = {}
        self.waiting: dict[int, dict[int, dict[str, Any]]] = {}  # game -> variant -> row
        self.games = 0
        self.order: list[int] = []
        self.names: list[str] = []
        self.left_out: set[str] = set()
        self.figures: dict[int, dict[str, Figure]] = {}
        self.ends: dict[int, dict[str, int]] = {}  # variant -> reason -> games
        self.moved: dict[int, dict[str, list[int]]] = {}  # variant -> reason -> [games it ended so, the first not; the reverse]
        self.played: dict[int, tuple[Any, Any]] = {}  # variant -> its rows' game and options: what a figure can be

    def add(self, row: dict[str, Any]) -> None:
        """One more row (of any variant, any game)."""
        variant, index = row["variant_index"], row["index"]
        self.labels[variant] = row["variant"]
        game = self.waiting.setdefault(index, {})
        game[variant] = row
        if self.variants is not None and len(game) == self.variants:
            self._take(self.waiting.pop(index))

    def _take(self, game: dict[int, dict[str, Any]]) -> None:
        """A game every variant played: its figures into the moments."""
        if not self.order:
            self.order = sorted(game)
            self.names = [name for name in figures(game[self.order[0]])
                          if all(name in figures(game[v]) for v in self.order)]
            self.figures = {v: {name: Figure() for name in self.names} for v in self.order}
            self.ends = {v: {} for v in self.order}
            self.moved = {v: {} for v in self.order[1:]}
            self.played = {v: (game[v].get("game"), game[v].get("options")) for v in self.order}
        if sorted(game) != self.order:
            return  # a variant that was not in the first game: nothing to pair it with
        self.games += 1
        found = {v: figures(game[v]) for v in self.order}
        first = found[self.order[0]]
        for v in self.order:
            for name in self.names:
                if name in self.left_out:
                    continue
                if name not in found[v] or name not in first:
                    self.left_out.add(name)
                    continue
                self.figures[v][name].add(found[v][name], first[name])
        first_end = str(game[self.order[0]]["end"])
        for v in self.order:
            end = str(game[v]["end"])
            self.ends[v][end] = self.ends[v].get(end, 0) + 1
            if v != self.order[0] and end != first_end:
                self.moved[v].setdefault(end, [0, 0])[0] += 1
                self.moved[v].setdefault(first_end, [0, 0])[1] += 1

    def _bounds(self, variant: int, name: str) -> Bounds:
        """What the figure ``name`` of ``variant``'s games can be (a score within its game's
        bounds under the variant's options)."""
        game, options = self.played.get(variant, (None, None))
        return figure_bounds(game, options, name)

    @classmethod
    def of_tables(cls, tables: dict[str, Any]) -> Comparer:
        """The comparer of whole variants at once, each a pyarrow table (its rows in any order;
        ``parlour report``): the same figures as row by row, from numpy arrays."""
        import numpy as np

        from parlour.analysis import columns

        comparer = cls()
        parts = [table.sort_by("index") for table in tables.values()]
        indices = [columns.numbers(part["index"]) for part in parts]
        common = indices[0]
        for other in indices[1:]:
            common = np.intersect1d(common, other)
        if not len(common):
            raise OptionError("the variants share no game: nothing can be paired")
        parts = [part.take(np.searchsorted(index, common)) for part, index in zip(parts, indices)]
        comparer.order = list(range(len(parts)))
        comparer.labels = dict(enumerate(tables))
        comparer.games = len(common)
        comparer.played = {v: columns.played(part) for v, part in enumerate(parts)}
        found = [_table_figures(part) for part in parts]
        comparer.names = [name for name in found[0] if all(name in f for f in found)]
        for v, figures_of in enumerate(found):
            comparer.figures[v] = {}
            for name in comparer.names:
                figure = comparer.figures[v][name] = Figure()
                values, first = figures_of[name], found[0][name]
                if np.isnan(values).any() or np.isnan(first).any():
                    comparer.left_out.add(name)
                    continue
                figure.values = columns.moments(values)
                figure.binary = set(columns.tally(values)) <= {0, 1}
                figure.differences = columns.moments(values - first)
        ends = [np.array(["None" if e is None else str(e) for e in part["end"].to_pylist()], dtype=object)
                for part in parts]
        for v, end in enumerate(ends):
            comparer.ends[v] = {reason: int(n) for reason, n in zip(*np.unique(end, return_counts=True))}
            if v:
                moved = ends[0] != end
                comparer.moved[v] = {reason: [int((moved & (end == reason)).sum()), int((moved & (ends[0] == reason)).sum())]
                                     for reason in set(end[moved]) | set(ends[0][moved])}
        return comparer

    def comparison(self) -> Comparison:
        """The comparison of the games every variant played so far."""
        for index in sorted(self.waiting) if self.variants is None else ():
            self._take(self.waiting.pop(index))
        if not self.labels:
            raise OptionError("no games to compare")
        if self.games == 0:
            raise OptionError("the variants share no game: nothing can be paired")
        ends = sorted({end for counts in self.ends.values() for end in counts})
        effects = [self._effect(name) for name in self.names if name not in self.left_out]
        effects += [self._end_effect(end) for end in ends]
        return Comparison([self.labels[v] for v in self.order], self.games, _adjusted(effects), ends)

    def _effect(self, name: str) -> Effect:
        found = [self.figures[v][name] for v in self.order]
        samples = [figure.values.sample() for figure in found]
        bounds = [self._bounds(v, name) for v in self.order]
        means = [figure_estimate(name, sample, figure.binary, within)
                 for sample, figure, within in zip(samples, found, bounds)]
        first = is_share(name, samples[0].minimum, samples[0].maximum, found[0].binary)
        differences: list[Difference | None] = [None]
        for sample, figure, within in zip(samples[1:], found[1:], bounds[1:]):
            shares = first and is_share(name, sample.minimum, sample.maximum, figure.binary)
            apart = difference_bounds(bounds[0], within)  # this variant's value less the first's
            estimate, p = difference_estimate(figure.differences.sample(), shares, apart)
            differences.append(Difference(estimate, p, holm=math.nan))
        return Effect(name, means, differences)

    def _end_effect(self, end: str) -> Effect:
        """``end: <reason>``: 1 in a game that ended so, else 0, from the counts of the games."""
        n, name = self.games, f"end: {end}"
        means = [proportion_ci(self.ends[v].get(end, 0), n) for v in self.order]
        differences: list[Difference | None] = [None]
        for v in self.order[1:]:
            gained, lost = self.moved[v].get(end, [0, 0])
            moments = Moments()
            for value, times in ((1, gained), (-1, lost), (0, n - gained - lost)):
                moments.add(value, times)
            differences.append(Difference(*difference_estimate(moments.sample(), shares=True), holm=math.nan))
        return Effect(name, means, differences)


def _table_figures(table: Any) -> dict[str, Any]:
    """:func:`figures` of every row of a table at once: name -> numpy array (nan where a row
    lacks the figure), in the order :func:`figures` gives them."""
    import numpy as np
    import pyarrow as pa

    from parlour.analysis import columns

    seats = columns.seat_count(table)
    found = {key: columns.numbers(table[key]) for key in score_keys(seats) if key in table.column_names}
    if seats > 1:
        shares = columns.win_shares(table, seats)
        found.update({f"win_{seat}": shares[seat] for seat in range(seats)})
        if "first_player" in table.column_names and table["first_player"].null_count < table.num_rows:
            first = columns.numbers(table["first_player"])
            held = ~np.isnan(first)
            share = np.full(table.num_rows, np.nan)
            share[held] = np.array(shares)[first[held].astype(int), np.flatnonzero(held)]
            found["first player wins"] = share
    for key in table.column_names:
        kind = table[key].type
        if key in NOT_FIGURES or key in found or not (pa.types.is_integer(kind) or pa.types.is_floating(kind)
                                                       or pa.types.is_boolean(kind)):
            continue
        found[key] = columns.numbers(table[key])
    return found


def _adjusted(effects: list[Effect]) -> list[Effect]:
    """The effects with Holm's adjusted p-values, the family being every difference of them all."""
    tested = [d for effect in effects for d in effect.differences if d is not None]
    adjusted = iter(holm([d.p for d in tested]))
    return [replace(effect, differences=[d if d is None else d._replace(holm=next(adjusted))
                                         for d in effect.differences]) for effect in effects]
