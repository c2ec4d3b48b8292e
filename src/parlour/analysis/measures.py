"""The designer's measures of a game, from its result rows and lead tracks (issue 22).

Each is defined here once, with the interval it gets (docs/design/measures.md says why):

- **branching factor**: legal actions per decision, pooled over every decision of every game
  (:func:`pooled_ratio`: the game is the unit, so the interval is cluster-robust); the **forced
  share**: decisions with one legal action, pooled the same way (Korn and Graubard's interval).
- **margin of victory**: the winners' final standing less the best standing of a seat that did
  not win (points; Quisquilian: ranks covered), by :func:`margin`.
- **drama**: the winner's largest deficit to the leader over the game (:func:`deficit`), and
  how often the winner trailed at all.
- **seat balance**: each seat's share of the decided games' wins against the fair 1/seats, the
  largest gap with a Bonferroni interval, and the chi-square test of equal seats (:func:`seat_balance`).
- **duration spread**: mean (count interval), standard deviation, quantiles (:func:`spread`).
- **skill ladder** and **skill index**: adjacent levels played head to head (:func:`ladder`).
- **sample-size advice**: games a difference needs at 95% confidence and 80% power (:func:`games_needed`).

>>> round(pooled_ratio([10, 30], [5, 10]).mean, 4)   # 40 legal actions over 15 decisions
2.6667
>>> margin([40, 32, 35], winners=[1], lower_better=True)
3
>>> games_needed(sd=10, difference=1)   # a paired difference of 1 point, per-game sd 10
787
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.analysis.stats import (
    CONFIDENCE,
    Estimate,
    clustered_proportion_ci,
    count_ci,
    mean_ci,
    proportion_ci,
    t_quantile,
)

if TYPE_CHECKING:
    from parlour.analysis.lead import LeadTrack

#: The quantiles of a duration spread.
QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
#: The power of :func:`games_needed`: an effect of the given size is found 80% of the time.
POWER = 0.8


# -- decisions -----------------------------------------------------------------------------
def pooled_ratio(numerators: Sequence[float], denominators: Sequence[float], confidence: float = CONFIDENCE,
                 floor: float | None = None) -> Estimate:
    """sum(a_k) / sum(m_k) over clusters k (the legal actions and decisions of game k), with
    the cluster-robust (linearised) t interval on K-1 degrees of freedom:
    var = K/(K-1) · Σ(a_k - r·m_k)² / (Σm_k)², its low end kept at ``floor`` where given
    (a decision has at least one legal action). ``n`` is the number of clusters.

    >>> e = pooled_ratio([4, 6], [2, 2])    # games of 2 and 3 actions a decision
    >>> e.mean, round(e.low, 4), round(e.high, 4)
    (2.5, -3.8531, 8.8531)
    >>> pooled_ratio([3, 6], [1, 2])        # every decision has 3: no spread
    Estimate(mean=3.0, low=3.0, high=3.0, n=2)
    """
    if len(numerators) != len(denominators) or not numerators:
        raise ValueError(f"a pooled ratio needs one denominator per numerator and at least one cluster, "
                         f"not {len(numerators)} and {len(denominators)}")
    total = math.fsum(denominators)
    if total <= 0 or min(denominators) < 0:
        raise ValueError("the denominators must be 0 or more and some above 0")
    k, ratio = len(numerators), math.fsum(numerators) / total
    if k < 2:
        return Estimate(ratio, None, None, k)
    variance = k / (k - 1) * math.fsum((a - ratio * m) ** 2 for a, m in zip(numerators, denominators)) / total ** 2
    half = t_quantile((1 + confidence) / 2, k - 1) * math.sqrt(variance)
    low = ratio - half if floor is None else max(floor, ratio - half)
    return Estimate(ratio, low, ratio + half, k)


@dataclass(frozen=True)
class Branching:
    """Legal actions per decision and the share of forced decisions (one legal action), over
    ``decisions`` decisions of ``n`` games."""

    factor: Estimate
    forced: Estimate
    decisions: int


def branching(legal: Sequence[int], forced: Sequence[int], decisions: Sequence[int]) -> Branching:
    """Per game: the legal actions summed over its decisions, its forced decisions, its decisions.

    >>> b = branching(legal=[6, 2], forced=[1, 2], decisions=[3, 2])   # (3, 2, 1) and (1, 1)
    >>> b.factor.mean, b.forced.mean, b.decisions
    (1.6, 0.6, 5)
    """
    if any(f > d for f, d in zip(forced, decisions)):
        raise ValueError("a game cannot have more forced decisions than decisions")
    return Branching(pooled_ratio(legal, decisions, floor=1), clustered_proportion_ci(forced, decisions), int(sum(decisions)))


# -- one game's result -----------------------------------------------------------------------
def _oriented(value: float, lower_better: bool) -> float:
    return -value if lower_better else value


def margin(final: Sequence[float], winners: Sequence[int], lower_better: bool) -> float | None:
    """How far the winners finished ahead of the best seat that did not win (in the standing's
    units); None when nobody won or everybody did.

    >>> margin([60, 45, 50], winners=[0], lower_better=False), margin([7, 7, 3], [0, 1], False)
    (10, 4)
    >>> margin([5, 5], winners=[0, 1], lower_better=False) is None, margin([5, 6], [], False) is None
    (True, True)
    """
    losers = [seat for seat in range(len(final)) if seat not in winners]
    if not winners or not losers:
        return None
    best_winner = max(_oriented(final[seat], lower_better) for seat in winners)
    best_loser = max(_oriented(final[seat], lower_better) for seat in losers)
    return best_winner - best_loser


def deficit(standings: Sequence[Sequence[float]], winners: Sequence[int], lower_better: bool) -> float | None:
    """Drama: the winner's largest deficit to the leader over the game, the best standing less
    the winner's, at its greatest (0: the winner never trailed); with tied winners, the least
    of theirs; None when nobody won.

    >>> deficit([(0, 0), (10, 2), (10, 14)], winners=[1], lower_better=False)   # 8 behind, then won
    8
    >>> deficit([(0, 0), (12, 30), (40, 50)], winners=[0], lower_better=True)   # lower is better: led throughout
    0
    """
    if not winners:
        return None
    worst = []
    for seat in winners:
        behind = [max(_oriented(v, lower_better) for v in standing) - _oriented(standing[seat], lower_better)
                  for standing in standings]
        worst.append(max(behind))
    return min(worst)


def track_measures(track: LeadTrack, winners: Sequence[int]) -> dict[str, float | None]:
    """``margin`` and ``deficit`` of one game from its lead track (both None where the track
    does not tell which way is better, or nobody won).

    >>> from parlour.analysis.lead import LeadTrack
    >>> track = LeadTrack([0, 0], lower_better=False)
    >>> for standing in ([5, 0], [5, 9], [13, 9]):
    ...     track.see(standing)
    >>> track_measures(track, winners=[0])
    {'margin': 4, 'deficit': 4}
    """
    from parlour.core.scores import lower_is_better

    lower_better = track.lower_better
    if lower_better is None:
        lower_better = lower_is_better(track.last, winners)
    if lower_better is None:
        return {"margin": None, "deficit": None}
    return {"margin": margin(track.last, winners, lower_better),
            "deficit": deficit([standing for _, standing in track.changes], winners, lower_better)}


# -- seat balance ----------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatBalance:
    """Each seat's share of the wins of the ``decided`` games (somebody won), the fair share,
    the seat furthest from it with that gap and its interval (Bonferroni: each seat's Wilson
    interval at 1 - 0.05/seats, so that all hold together), and the chi-square p-value of
    "every seat wins equally often"."""

    shares: list[Estimate]
    fair: float
    seat: int
    gap: Estimate
    p: float
    decided: int


def seat_balance(wins: Sequence[float], decided: int) -> SeatBalance | None:
    """From the wins of each seat (tied winners sharing) over ``decided`` games; None for one
    seat or no decided game.

    >>> b = seat_balance([60, 40], decided=100)
    >>> b.seat, round(b.gap.mean, 2), round(b.p, 4)      # chi-square 4 on 1 degree of freedom
    (0, 0.1, 0.0455)
    >>> seat_balance([50, 50], decided=100).p
    1.0
    """
    seats = len(wins)
    if seats < 2 or decided <= 0:
        return None
    if abs(math.fsum(wins) - decided) > 1e-6 * decided:
        raise ValueError(f"the seats' wins add up to {math.fsum(wins)}, not to the {decided} decided games")
    fair = 1 / seats
    z = statistics.NormalDist().inv_cdf(1 - (1 - CONFIDENCE) / (2 * seats))
    shares = [proportion_ci(w, decided) for w in wins]
    wide = [proportion_ci(w, decided, z) for w in wins]
    # the furthest seat; of seats as far (two seats always are), the one ahead
    seat = max(range(seats), key=lambda s: (round(abs(shares[s].mean - fair), 12), shares[s].mean))
    low, high = wide[seat].low, wide[seat].high
    assert low is not None and high is not None
    ends = sorted((abs(low - fair), abs(high - fair)))
    if low <= fair <= high:  # the interval reaches the fair share: no gap is possible
        ends[0] = 0.0
    gap = Estimate(abs(shares[seat].mean - fair), ends[0], ends[1], n=decided)
    statistic = math.fsum((w - decided * fair) ** 2 / (decided * fair) for w in wins)
    return SeatBalance(shares, fair, seat, gap, chi_square_p(statistic, seats - 1), decided)


def chi_square_p(statistic: float, df: int) -> float:
    """P(X >= statistic) for the chi-square distribution with ``df`` degrees of freedom: the
    regularized upper incomplete gamma Q(df/2, statistic/2) (series below a+1, else Lentz's
    continued fraction).

    >>> round(chi_square_p(3.841458820694124, 1), 6), chi_square_p(0, 3)
    (0.05, 1.0)
    """
    if df < 1:
        raise ValueError(f"chi-square needs 1 or more degrees of freedom, not {df}")
    if statistic <= 0:
        return 1.0
    a, x = df / 2, statistic / 2
    front = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:  # the series of the lower gamma converges fast here
        term = total = 1 / a
        for n in range(1, 10_000):
            term *= x / (a + n)
            total += term
            if term < total * 1e-16:
                break
        return max(0.0, 1.0 - front * total)
    tiny = 1e-300
    b, c, d = x + 1 - a, 1 / tiny, 1 / (x + 1 - a)
    value = d
    for n in range(1, 10_000):
        step = -n * (n - a)
        b += 2
        d = step * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + step / c
        c = c if abs(c) > tiny else tiny
        value *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return front * value


# -- duration ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Spread:
    """A figure's mean (a count's interval stays above its ``floor``), standard deviation
    (None for one game) and :data:`QUANTILES` (``statistics.quantiles``' inclusive method)."""

    mean: Estimate
    sd: float | None
    quantiles: dict[float, float]


def spread(values: Sequence[float], floor: float | None = 0,
           within: tuple[float | None, float | None] = (None, None)) -> Spread:
    """The spread of a figure over games: a duration (decisions, turns, rounds: counts from
    ``floor``), or with ``floor`` None any number (a score), its mean then Student's t (kept
    ``within`` the values it can take).

    >>> s = spread([10, 20, 30, 40, 50])
    >>> s.mean.mean, round(s.sd, 3), s.quantiles[0.5], s.quantiles[0.25]
    (30.0, 15.811, 30.0, 20.0)
    >>> spread([7]).quantiles[0.95], spread([7]).sd is None
    (7, True)
    """
    if not values:
        raise ValueError("no games: a spread needs at least one")
    mean = mean_ci(values, within=within) if floor is None else count_ci(values, floor)
    if len(values) == 1:
        return Spread(mean, None, dict.fromkeys(QUANTILES, values[0]))
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return Spread(mean, statistics.stdev(values),
                  {q: cuts[round(q * 100) - 1] for q in QUANTILES})


# -- skill -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rung:
    """One head-to-head of two levels: the stronger's score ``p`` (its share of the games,
    a game nobody won shared evenly), how often the weaker still won (``upset``), the ``gap``
    between them (Elo points, or in a solitaire the mean score difference on the same deals)
    and its share of the gap from the weakest level to the strongest (None until
    :func:`ladder` sets it, and where that gap is not positive)."""

    weaker: str
    stronger: str
    p: Estimate
    upset: Estimate
    gap: Estimate
    share: float | None = None


def head_to_head(stronger: Sequence[float], weaker: Sequence[float], seats: int = 2) -> tuple[Estimate, Estimate]:
    """The stronger's score (its share of the win; a game nobody won counts 1/seats, as a
    draw counts half) and the weaker side's share of the wins, from each game's win shares of
    the two sides (a solitaire on one deal: 1 to whoever scored more, nothing to either for a tie).

    >>> p, upset = head_to_head([1, 1, 0, 0.5, 0], [0, 0, 1, 0.5, 0])   # the last: a stalemate
    >>> p.mean, upset.mean
    (0.6, 0.3)
    """
    if len(stronger) != len(weaker) or not stronger:
        raise ValueError("a head-to-head needs both sides' results of the same games, at least one")
    score = [s + (1 - s - w) / seats for s, w in zip(stronger, weaker)]
    return proportion_ci(math.fsum(score), len(score)), proportion_ci(math.fsum(weaker), len(weaker))


def elo(p: Estimate, seats: int = 2) -> Estimate:
    """A score ``p`` of one seat against ``seats - 1`` weaker ones as an Elo gap: under the
    Bradley-Terry (Plackett-Luce) model the stronger wins with odds s/((seats-1)·w), so the
    gap is 400·log10(p·(seats-1)/(1-p)); two seats: 400·log10(p/(1-p)). A bound at 0 or 1 is
    infinite; the interval is ``p``'s carried over (the map rises).

    >>> round(elo(proportion_ci(76, 100)).mean, 1), abs(elo(proportion_ci(1, 3), seats=3).mean) < 1e-9
    (200.2, True)
    """
    def gap(x: float | None) -> float | None:
        if x is None:
            return None
        if x <= 0 or x >= 1:
            return math.copysign(math.inf, x - 0.5)
        return 400 * math.log10(x * (seats - 1) / (1 - x))

    mean = gap(p.mean)
    assert mean is not None
    return Estimate(mean, gap(p.low), gap(p.high), p.n)


def ladder(rungs: Sequence[Rung]) -> list[Rung]:
    """The rungs (adjacent levels, weakest first) with each one's share of the whole gap, the
    sum of their gaps (Elo gaps add along a chain under Bradley-Terry; mean scores add anyway).

    >>> low, high = proportion_ci(76, 100), proportion_ci(64, 100)
    >>> rungs = ladder([Rung("a", "b", low, low, elo(low)), Rung("b", "c", high, high, elo(high))])
    >>> [round(r.share, 3) for r in rungs]
    [0.667, 0.333]
    """
    total = math.fsum(r.gap.mean for r in rungs)
    if not total > 0 or math.isinf(total):
        return list(rungs)
    return [Rung(r.weaker, r.stronger, r.p, r.upset, r.gap, r.gap.mean / total) for r in rungs]


def skill_index(p: Estimate, seats: int = 2) -> Estimate:
    """The luck-versus-skill index of a game: how far the strongest level's score ``p``
    against the weakest lies from the fair share 1/seats towards always winning,
    (p - 1/seats) / (1 - 1/seats): 0 pure luck (the better player does no better than a coin),
    1 pure skill (it always wins); the luck index is 1 less it.

    >>> skill_index(proportion_ci(75, 100)).mean, skill_index(proportion_ci(50, 100)).mean
    (0.5, 0.0)
    """
    fair = 1 / seats

    def scaled(x: float | None) -> float | None:
        return None if x is None else (x - fair) / (1 - fair)

    mean = scaled(p.mean)
    assert mean is not None
    return Estimate(mean, scaled(p.low), scaled(p.high), p.n)


# -- sample size -----------------------------------------------------------------------------
def games_needed(sd: float, difference: float, power: float = POWER, confidence: float = CONFIDENCE) -> int:
    """Games (pairs, for a paired difference) that find a true difference of ``difference``
    with probability ``power`` by a two-sided test at ``confidence``, when a game's value (or
    paired difference) has standard deviation ``sd``: n = ((z_a + z_b)·sd / difference)²,
    then raised until Student's t (n-1 degrees of freedom) reaches the same power.

    >>> games_needed(sd=0.5, difference=0.05)   # a seat's win rate 50% -> 55%: 0.5 is its sd
    787
    >>> games_needed(sd=0, difference=1)
    2
    """
    if difference <= 0:
        raise ValueError(f"the difference to find must be above 0, not {difference}")
    if sd < 0:
        raise ValueError(f"a standard deviation cannot be negative ({sd})")
    normal = statistics.NormalDist()
    z_b = normal.inv_cdf(power)
    n = max(2, math.ceil(((normal.inv_cdf((1 + confidence) / 2) + z_b) * sd / difference) ** 2))
    while sd > 0 and (t_quantile((1 + confidence) / 2, n - 1) + z_b) * sd / math.sqrt(n) > difference:
        n += 1
    return n


def detectable(sd: float, games: int, power: float = POWER, confidence: float = CONFIDENCE) -> float | None:
    """The least difference ``games`` games find with probability ``power``: (t + z_b)·sd/√n
    (None for fewer than 2 games).

    >>> round(detectable(sd=10, games=787), 2)
    1.0
    """
    if games < 2:
        return None
    return (t_quantile((1 + confidence) / 2, games - 1) + statistics.NormalDist().inv_cdf(power)) * sd / math.sqrt(games)
