"""Which interval each figure of the result rows gets: one that stays inside what the figure
can be (docs/workbench.md, "Which interval for which figure").

- A **share of games** (a yes/no figure, a seat's share of the win, an end reason, the first
  player's wins): Wilson's score interval, inside [0, 1].
- A **count** that by the rules is never below a floor (:data:`FLOORS`: turns, rounds, lead
  changes, ...): :func:`~parlour.analysis.stats.count_ci`, which stays above the floor and
  below the most the game says it can be (:func:`figure_bounds`: Psalter Row's Directives
  and Errands at most 4, its Row at most 9 Quires).
- Anything else (scores, mean round scores): Student's t, inside what the game's options let
  the figure be (:func:`figure_bounds`: Psalter Row's scores -9..14, a Decktet Golf match's
  rounds of 12 cells, its mean round score one round's).
- A **paired difference** of two shares lies in [-1, 1], of other figures within what the two
  sides' bounds allow (:func:`difference_bounds`): Student's t clipped to it.

>>> figure_ci("rounds", [1] * 197 + [2] * 3).low > 1      # Student's t alone: 0.998
True
>>> figure_ci("complete", [True, False, False, False]).mean, figure_ci("score", [3, 5]).mean
(0.25, 4.0)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

import parlour
from parlour.core.errors import ParlourError

from parlour.analysis.stats import (
    Estimate,
    Sample,
    count_estimate,
    mean_estimate,
    paired_difference,
    paired_estimate,
    proportion_ci,
)

#: The least value of each count (a game's figure, or the analysis's), by the rules: a match
#: of Decktet Golf scores at least one round; everything else counted can be 0.
FLOORS: dict[str, float] = {
    "rounds": 1,
    **dict.fromkeys(("turns", "decisions", "lead_changes", "turns_per_round", "line_discards",
                     "line_discards_per_round", "runs", "additions", "clearings", "row_size"), 0),
}
#: Psalter Row's uses of each action kind per game (``n_place``, ...): counts from 0.
COUNT_PREFIX = "n_"
#: Shares of the games: what a seat won, how a game ended, whether the first player won.
SHARE_PREFIXES = ("win_", "end: ")
SHARES = {"first player wins"}


def floor(name: str) -> float | None:
    """The least value the figure ``name`` can take when it is a count, else None.

    >>> floor("rounds"), floor("n_swap"), floor("score_0")
    (1, 0, None)
    """
    return 0 if name.startswith(COUNT_PREFIX) else FLOORS.get(name)


def is_rate(name: str, values: Sequence[float]) -> bool:
    """A share of games (wins, an end reason, a yes/no figure): its interval is Wilson's.
    A count whose values happen to be 0 and 1 is still a count.

    >>> is_rate("win_0", [0, 0.5, 1]), is_rate("complete", [0.0, 1.0]), is_rate("turns", [0, 12])
    (True, True, False)
    >>> is_rate("lead_changes", [0, 1, 0])
    False
    """
    return is_share(name, min(values), max(values), all(v in (0, 1) for v in values))


def is_share(name: str, low: float, high: float, binary: bool) -> bool:
    """:func:`is_rate` from the values' range and whether every value is 0 or 1 (what a run keeps).

    >>> is_share("win_0", 0, 1, binary=False), is_share("turns", 0, 1, binary=True)
    (True, False)
    """
    if floor(name) is not None or not (0 <= low and high <= 1):
        return False
    return name.startswith(SHARE_PREFIXES) or name in SHARES or binary


Bounds = tuple[float | None, float | None]


def score_bounds(game: str | None, options: dict[str, Any] | str | None = None) -> Bounds:
    """The scores a seat of ``game`` with ``options`` (a row's: a dict, or its JSON text) can
    have, as ``within`` bounds for an interval: the game's ``score_bounds()``, open (None)
    where it has none, the game is unknown or the options do not load.

    >>> score_bounds("psalter-row"), score_bounds("decktet-golf", {"rounds": 1}), score_bounds(None)
    ((-9, 14), (-8, 111), (None, None))
    """
    return figure_bounds(game, options, "score")


def figure_bounds(game: str | None, options: dict[str, Any] | str | None, name: str) -> Bounds:
    """What the figure ``name`` of a row of ``game`` with ``options`` can be, as ``within``
    bounds for its interval: the game's ``figure_bounds(name)`` (a score's, a Decktet Golf mean
    round score's one round), open (None) where it has none or the game or options do not load.

    >>> figure_bounds("decktet-golf", {"players": 3}, "round_score_2"), figure_bounds("x", None, "score")
    ((-20, 120), (None, None))
    """
    if isinstance(options, str):
        try:
            options = json.loads(options)
        except ValueError:
            options = None
    return _figure_bounds(game, json.dumps(options if isinstance(options, dict) else {}, sort_keys=True), name)


@functools.cache
def _figure_bounds(game: str | None, options: str, name: str) -> Bounds:
    if game not in parlour.game_names():
        return None, None
    try:
        return parlour.load(game, **json.loads(options)).figure_bounds(name)
    except ParlourError:
        return None, None


def difference_bounds(bounds: Bounds, second: Bounds | None = None) -> Bounds:
    """What a difference of two values within ``bounds`` can be; with ``second``, what a value
    within ``second`` less one within ``bounds`` can be.

    >>> difference_bounds((-9, 14)), difference_bounds((0, None)), difference_bounds((0, 10), (5, 20))
    ((-23, 23), (None, None), (-5, 20))
    """
    low, high = bounds
    second_low, second_high = bounds if second is None else second
    if None in (low, high, second_low, second_high):
        return None, None
    return second_low - high, second_high - low  # type: ignore[operator]


def figure_ci(name: str, values: Sequence[float]) -> Estimate:
    """The mean (or rate) of the figure ``name`` over games, with the interval its kind gets."""
    return figure_estimate(name, Sample.of(values), all(v in (0, 1) for v in values))


def figure_estimate(name: str, sample: Sample, binary: bool, within: Bounds = (None, None)) -> Estimate:
    """:func:`figure_ci` of the values a :class:`~parlour.analysis.stats.Sample` describes,
    ``binary`` when every value is 0 or 1; a figure that is neither a share nor a count keeps
    its interval ``within`` (:func:`figure_bounds`), a count below ``within``'s most.

    >>> figure_estimate("rounds", Sample.of([1, 1, 2]), binary=False) == figure_ci("rounds", [1, 1, 2])
    True
    >>> figure_estimate("score", Sample.of([-5, 10]), False, within=(-9, 14))  # t(1) alone: -92.8 .. 97.8
    Estimate(mean=2.5, low=-9, high=14, n=2)
    """
    if is_share(name, sample.minimum, sample.maximum, binary):
        return proportion_ci(sample.total, sample.n)
    least = floor(name)
    if least is None:
        return mean_estimate(sample, within=within)
    return count_estimate(sample, least, ceiling=within[1])


def figure_difference(name: str, first: Sequence[float], second: Sequence[float],
                      within: Bounds = (None, None)) -> tuple[Estimate, float]:
    """The paired difference ``second - first`` of the figure ``name`` with its p-value
    (:func:`~parlour.analysis.stats.paired_difference`), a share's kept within [-1, 1], any
    other ``within`` (:func:`difference_bounds`).

    >>> figure_difference("win_0", [0, 0, 0, 1], [1, 1, 1, 0])[0].high
    1
    >>> figure_difference("score", [-9, 14], [14, -9], within=(-23, 23))[0].low
    -23
    """
    shares = is_rate(name, first) and is_rate(name, second)
    return paired_difference(first, second, within=(-1, 1) if shares else within)


def difference_estimate(differences: Sample, shares: bool, within: Bounds = (None, None)) -> tuple[Estimate, float]:
    """:func:`figure_difference` from the :class:`~parlour.analysis.stats.Sample` of the
    differences, ``shares`` when both sides are shares (:func:`is_share`); other figures' kept
    ``within`` (:func:`difference_bounds`)."""
    return paired_estimate(differences, within=(-1, 1) if shares else within)
