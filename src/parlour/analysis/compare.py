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

from parlour.analysis.figures import figure_ci, figure_difference
from parlour.analysis.metrics import seat_count
from parlour.analysis.parallel import Run
from parlour.analysis.simulate import SKIP_FIGURES, score_keys
from parlour.analysis.stats import Estimate, holm
from parlour.core.errors import OptionError
from parlour.core.options import parse_option_text
from parlour.core.scores import win_share

if TYPE_CHECKING:
    from parlour.core.game import Game

#: Row keys that are not figures to compare (identities, seats, free text).
NOT_FIGURES = SKIP_FIGURES | {"winner", "variant", "variant_index", "end"}


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
        options = dict(parse_option_text(part) for part in text.split(",") if part.strip())
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


def comparison(rows: Iterable[dict[str, Any]]) -> Comparison:
    """Compare the variants of ``rows`` (from :func:`variant_runs`) on the games all of them
    played, pairing game ``i`` of each variant with game ``i`` of the first."""
    by_variant: dict[int, dict[int, dict[str, Any]]] = {}
    labels: dict[int, str] = {}
    for row in rows:
        by_variant.setdefault(row["variant_index"], {})[row["index"]] = row
        labels[row["variant_index"]] = row["variant"]
    if not by_variant:
        raise OptionError("no games to compare")
    order = sorted(by_variant)
    common = sorted(set.intersection(*(set(games) for games in by_variant.values())))
    if not common:
        raise OptionError("the variants share no game: nothing can be paired")
    ends = sorted({str(by_variant[v][i]["end"]) for v in order for i in common})
    tables = [[_with_ends(figures(by_variant[v][i]), by_variant[v][i], ends) for i in common] for v in order]
    names = [name for name in tables[0][0] if all(name in table[0] for table in tables)]
    effects = _adjusted([_effect(name, [[games[name] for games in table] for table in tables]) for name in names])
    return Comparison([labels[v] for v in order], len(common), effects, ends)


def _with_ends(found: dict[str, float], row: dict[str, Any], ends: Sequence[str]) -> dict[str, float]:
    found.update({f"end: {end}": float(str(row["end"]) == end) for end in ends})
    return found


def _effect(name: str, values: list[list[float]]) -> Effect:
    means = [figure_ci(name, column) for column in values]
    differences: list[Difference | None] = [None]
    differences += [Difference(*figure_difference(name, values[0], column), holm=math.nan) for column in values[1:]]
    return Effect(name, means, differences)


def _adjusted(effects: list[Effect]) -> list[Effect]:
    """The effects with Holm's adjusted p-values, the family being every difference of them all."""
    tested = [d for effect in effects for d in effect.differences if d is not None]
    adjusted = iter(holm([d.p for d in tested]))
    return [replace(effect, differences=[d if d is None else d._replace(holm=next(adjusted))
                                         for d in effect.differences]) for effect in effects]
