"""Small, pure statistics for simulation results (standard library only).

Means get Student's t intervals, which are right at every sample size (the normal quantile is
too narrow below a few dozen values: at n=4 by 38%); rates get Wilson's score interval, counts
with a floor a log-scale interval that stays above it (:func:`count_ci`); several p-values at
once are adjusted by Holm's method (:func:`holm`). Each interval is made from a :class:`Sample`
(the count, mean, standard deviation and range), which a list of values gives exactly and a
:class:`Moments` gathers a value at a time, in constant memory, for a million games.

>>> mean_ci([1, 2, 3, 4])
Estimate(mean=2.5, low=0.445..., high=4.554..., n=4)
>>> histogram([1, 1, 2, 5])
[('1', 2), ('2', 1), ('3', 0), ('4', 0), ('5', 1)]
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: z for a two-sided 95% interval (1.959963...): Wilson's interval is built on it.
Z95 = statistics.NormalDist().inv_cdf(0.975)
#: The confidence of every interval.
CONFIDENCE = 0.95
#: The widest log-scale half-width :func:`count_ci` uses (its upper bound e³, about 20 times the
#: mean excess): wider, the delta method's bound grows without sense (e^12.7 at two games).
LOG_SPREAD = 3.0


@dataclass(frozen=True)
class Estimate:
    """A mean (or a rate) with a confidence interval; ``low``/``high`` are None for n < 2."""

    mean: float
    low: float | None
    high: float | None
    n: int

    def __repr__(self) -> str:  # short and stable, for doctests and logs
        return f"Estimate(mean={self.mean!r}, low={self.low!r}, high={self.high!r}, n={self.n})"

    @property
    def half_width(self) -> float | None:
        return None if self.low is None or self.high is None else (self.high - self.low) / 2


@dataclass(frozen=True)
class Sample:
    """What an interval needs of some values: how many, their sum (correctly rounded), their
    sample standard deviation (None for fewer than 2) and their range.

    >>> Sample.of([1, 2, 3, 4])
    Sample(n=4, total=10.0, stdev=1.2909944487358056, minimum=1, maximum=4)
    >>> Sample.of([1, 2, 3, 4]).mean
    2.5
    """

    n: int
    total: float
    stdev: float | None
    minimum: float
    maximum: float

    @property
    def mean(self) -> float:
        """The mean, exactly :func:`statistics.fmean`'s."""
        return self.total / self.n

    @classmethod
    def of(cls, values: Sequence[float]) -> Sample:
        """The exact figures of ``values`` (at least one): the mean by :func:`statistics.fmean`,
        the deviation by :func:`statistics.stdev`."""
        if not values:
            raise ValueError("no values: the mean of nothing is undefined")
        stdev = statistics.stdev(values) if len(values) > 1 else None
        return cls(len(values), math.fsum(values), stdev, min(values), max(values))


class Moments:
    """A :class:`Sample` gathered one value at a time in constant memory: the count, the least
    and greatest value, and the sum of the values and of their squares, exactly, as integers
    (a float is an integer over a power of two): so the mean is exactly :func:`statistics.fmean`'s
    and the deviation exactly :func:`statistics.stdev`'s, with neither the values kept nor the
    cancellation a float sum of squares suffers. The integers grow with the logarithm of the
    games only.

    >>> m = Moments()
    >>> for x in (1, 2.5, 3, 4):
    ...     m.add(x)
    >>> m.add(7, times=2)
    >>> m.sample() == Sample.of([1, 2.5, 3, 4, 7, 7])
    True
    """

    __slots__ = ("n", "_scale", "_sum", "_squares", "minimum", "maximum")

    def __init__(self) -> None:
        self.n = 0
        self._scale = 0  # the sums are of the values times 2**scale, and of their squares times 4**scale
        self._sum = 0
        self._squares = 0
        self.minimum: float = math.inf
        self.maximum: float = -math.inf

    def add(self, x: float, times: int = 1) -> None:
        """One more value, or ``times`` more of it (0 times: nothing)."""
        if times == 0:
            return
        if type(x) is int and not self._scale:  # the common case: integers, kept as they are
            whole, shift = x, 0
        else:
            whole, over = x.as_integer_ratio()
            bits = over.bit_length() - 1  # over is a power of two
            if bits > self._scale:
                self._sum <<= bits - self._scale
                self._squares <<= 2 * (bits - self._scale)
                self._scale = bits
            shift = self._scale - bits
        self.n += times
        self._sum += (whole * times) << shift
        self._squares += (whole * whole * times) << 2 * shift
        if x < self.minimum:
            self.minimum = x
        if x > self.maximum:
            self.maximum = x

    @property
    def total(self) -> float:
        """The sum of the values, correctly rounded (:func:`math.fsum`'s)."""
        return self._sum / (1 << self._scale)

    def sample(self) -> Sample:
        """The figures so far (at least one value)."""
        n = self.n
        if n == 0:
            raise ValueError("no values: the mean of nothing is undefined")
        stdev = None
        if n > 1:  # the variance (n·Σx² - (Σx)²) / (n(n-1)), exactly, then its square root correctly rounded
            stdev = _sqrt_of_fraction(n * self._squares - self._sum * self._sum, n * (n - 1) << 2 * self._scale)
        return Sample(n, self.total, stdev, self.minimum, self.maximum)


def _sqrt_of_fraction(numerator: int, denominator: int) -> float:
    """The square root of ``numerator / denominator`` correctly rounded, as :func:`statistics.stdev`
    takes it (round to odd on 109 bits, then to the nearest float).

    >>> _sqrt_of_fraction(9, 4), _sqrt_of_fraction(2, 1) == math.sqrt(2)
    (1.5, True)
    """
    if numerator == 0:
        return 0.0
    shift = (numerator.bit_length() - denominator.bit_length() - 109) // 2
    if shift >= 0:
        return float(_root_to_odd(numerator, denominator << 2 * shift) << shift)
    return _root_to_odd(numerator << -2 * shift, denominator) / (1 << -shift)


def _root_to_odd(numerator: int, denominator: int) -> int:
    """The square root of ``numerator / denominator`` rounded down, made odd if it was inexact."""
    root = math.isqrt(numerator // denominator)
    return root | (root * root * denominator != numerator)


# -- Student's t ---------------------------------------------------------------------------
def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function I_x(a, b), by its continued fraction
    (Lentz's method, as in Numerical Recipes), accurate to about 1e-13.

    >>> regularized_beta(0.5, 2, 2), regularized_beta(0.25, 1, 1)
    (0.5, 0.25)
    """
    if not (a > 0 and b > 0):
        raise ValueError(f"the beta function needs a > 0 and b > 0, not a={a}, b={b}")
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    return _incomplete_beta(x, 1.0 - x, a, b)


def _incomplete_beta(x: float, y: float, a: float, b: float) -> float:
    """I_x(a, b) given x and y = 1 - x, each to full precision (1 - x loses it near 1)."""
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(y))
    if x < (a + 1) / (a + b + 2):  # where the fraction converges fast; else by symmetry
        return front * _beta_fraction(x, a, b) / a
    return 1.0 - front * _beta_fraction(y, b, a) / b


def _beta_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of I_x(a, b), by Lentz's method (``tiny`` keeps it off 0)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    value = d
    for m in range(1, 100_000):  # about sqrt(max(a, b)) steps: ~1,000 for a million games
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            value *= c * d
        if abs(c * d - 1.0) < 1e-15:
            return value
    raise ArithmeticError(f"the incomplete beta fraction did not converge (x={x}, a={a}, b={b})")


def t_two_sided_p(statistic: float, df: float) -> float:
    """P(|T| >= |statistic|) for Student's t with ``df`` degrees of freedom.

    >>> round(t_two_sided_p(2.0, 1), 6), t_two_sided_p(0.0, 5)   # df=1: 1 - 2·atan(2)/pi
    (0.295167, 1.0)
    """
    if df <= 0:
        raise ValueError(f"Student's t needs df > 0, not {df}")
    if math.isinf(statistic):
        return 0.0
    if statistic == 0:
        return 1.0
    square = statistic * statistic
    return _incomplete_beta(df / (df + square), square / (df + square), df / 2, 0.5)


@functools.lru_cache(maxsize=256)
def t_quantile(probability: float, df: float) -> float:
    """The ``probability`` quantile of Student's t with ``df`` degrees of freedom: solved
    from :func:`t_two_sided_p` by Newton steps kept inside a bracket.

    >>> round(t_quantile(0.975, 1), 6), round(t_quantile(0.975, 3), 6), round(t_quantile(0.5, 9), 12)
    (12.706205, 3.182446, 0.0)
    """
    if not 0 < probability < 1:
        raise ValueError(f"a quantile needs a probability strictly between 0 and 1, not {probability}")
    if probability < 0.5:
        return -t_quantile(1 - probability, df)
    target = 2 * (1 - probability)  # the two-sided tail beyond the quantile
    if target == 1:
        return 0.0
    low = statistics.NormalDist().inv_cdf(probability)  # t's tails are heavier: its quantile is beyond z
    high = 2 * low + 1
    while t_two_sided_p(high, df) > target:
        low, high = high, 2 * high
    t = low
    log_density = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    for _ in range(200):
        excess = t_two_sided_p(t, df) - target  # falls as t grows
        if excess == 0:
            return t
        if excess > 0:
            low = t
        else:
            high = t
        step = t + excess / (2 * math.exp(log_density - (df + 1) / 2 * math.log1p(t * t / df)))
        if abs(step - t) <= 1e-14 * t:
            return step
        t = step if low < step < high else (low + high) / 2
    return t


def mean_ci(values: Sequence[float], confidence: float = CONFIDENCE,
            within: tuple[float | None, float | None] = (None, None)) -> Estimate:
    """The mean with Student's t interval, mean ± t(n-1)·s/√n; ``within`` (low, high: None
    for no bound) clips the interval to the values the mean can take, which keeps its
    coverage (the true mean is always inside them).

    Values that are all equal have no spread to go by (a t interval would be the point
    alone): see :func:`_without_spread`.

    >>> mean_ci([5, 5, 5])
    Estimate(mean=5.0, low=None, high=None, n=3)
    >>> mean_ci([7]).low is None
    True
    >>> mean_ci([-1, 1, 1, 1], within=(-1, 1)).high
    1
    """
    return mean_estimate(Sample.of(values), confidence, within)


def mean_estimate(sample: Sample, confidence: float = CONFIDENCE,
                  within: tuple[float | None, float | None] = (None, None)) -> Estimate:
    """:func:`mean_ci` of the values a :class:`Sample` describes.

    >>> mean_estimate(Sample(4, 10.0, 1.2909944487358056, 1, 4)) == mean_ci([1, 2, 3, 4])
    True
    """
    n, mean = sample.n, sample.mean
    if sample.stdev is None:
        return Estimate(mean, None, None, n)
    low, high = within
    if sample.stdev == 0:
        return _without_spread(mean, n, low, high, confidence)
    half = t_quantile((1 + confidence) / 2, n - 1) * sample.stdev / math.sqrt(n)
    return Estimate(mean, _clip(mean - half, low, high), _clip(mean + half, low, high), n)


def _without_spread(mean: float, n: int, low: float | None, high: float | None, confidence: float) -> Estimate:
    """The interval of ``n`` equal values. What they show is that other values are rare: at
    most a share ``u`` of draws, Wilson's upper bound for none in ``n``; so where the values
    are bounded the mean lies within ``u`` of the way from them to either bound (20 equal
    shares of 0: up to 0.16). With a side open nothing bounds how far a rare value may lie,
    and there is no interval (None), never the point alone.

    >>> _without_spread(0.0, 20, 0, 1, 0.95)
    Estimate(mean=0.0, low=0.0, high=0.161..., n=20)
    >>> _without_spread(3.0, 20, 0, None, 0.95).high is None
    True
    """
    if low is None or high is None:
        return Estimate(mean, None, None, n)
    rare = _wilson(0.0, n, statistics.NormalDist().inv_cdf((1 + confidence) / 2))[1]
    return Estimate(mean, mean - rare * (mean - low), mean + rare * (high - mean), n)


def _clip(x: float, low: float | None, high: float | None) -> float:
    if low is not None and x < low:
        return low
    if high is not None and x > high:
        return high
    return x


def count_ci(values: Sequence[float], floor: float, confidence: float = CONFIDENCE) -> Estimate:
    """The mean of a figure that is never below ``floor`` (a count: turns, rounds, lead
    changes) with an interval that stays above the floor: Student's t on the log of the mean
    excess over the floor (the delta method), so it is asymmetric near the floor, as a count is,
    and the plain t interval where the mean is far above it. The delta method holds while the
    excess is known to within a small factor; where the log interval would reach more than
    e³ (about 20) times the mean excess (a few games: t(1) is 12.7), the plain t interval kept
    above the floor. Every value at the floor gives the floor up to the exact Poisson bound
    of no events in ``n`` games; values all equal above it, no interval (:func:`_without_spread`).

    >>> e = count_ci([1] * 197 + [2] * 3, floor=1)   # 3 of 200 games went to a second round
    >>> round(e.mean, 3), round(e.low, 4), round(e.high, 4)
    (1.015, 1.0048, 1.0466)
    >>> count_ci([0] * 20, floor=0).high  # no lead change in 20 games: at most 0.18 a game
    0.184...
    >>> count_ci([0, 1], floor=0)  # two games: the t interval, from the floor
    Estimate(mean=0.5, low=0, high=6.85..., n=2)
    """
    return count_estimate(Sample.of(values), floor, confidence)


def count_estimate(sample: Sample, floor: float, confidence: float = CONFIDENCE,
                   ceiling: float | None = None) -> Estimate:
    """:func:`count_ci` of the values a :class:`Sample` describes; a count that cannot pass a
    ``ceiling`` keeps its interval below it.

    >>> count_estimate(Sample.of([0, 6]), floor=0, ceiling=9)  # a Psalter Row Row holds 9 Quires at most
    Estimate(mean=3.0, low=0, high=9, n=2)
    >>> count_estimate(Sample.of([4, 4]), floor=0, ceiling=4)  # equal, and bounded on both sides
    Estimate(mean=4.0, low=1.369..., high=4.0, n=2)
    """
    found = _count_estimate(sample, floor, confidence, ceiling)
    if ceiling is None or found.high is None or found.high <= ceiling:
        return found
    return Estimate(found.mean, found.low, ceiling, found.n)


def _count_estimate(sample: Sample, floor: float, confidence: float, ceiling: float | None) -> Estimate:
    n, mean = sample.n, sample.mean
    if sample.minimum < floor:
        raise ValueError(f"a value {sample.minimum} lies below the floor {floor}")
    excess = mean - floor
    if sample.stdev is None:
        return Estimate(mean, None, None, n)
    if excess <= 0:  # no event in n games: the exact Poisson upper bound, -ln((1 - c) / 2) / n
        return Estimate(mean, mean, floor - math.log((1 - confidence) / 2) / n, n)
    if sample.stdev == 0:
        return _without_spread(mean, n, floor, ceiling, confidence)
    half = t_quantile((1 + confidence) / 2, n - 1) * sample.stdev / math.sqrt(n)
    spread = half / excess
    if spread > LOG_SPREAD:  # the excess is not known to a small factor: the delta method fails
        return Estimate(mean, _clip(mean - half, floor, None), mean + half, n)
    return Estimate(mean, floor + excess * math.exp(-spread), floor + excess * math.exp(spread), n)


def proportion_ci(successes: float, n: int, z: float = Z95) -> Estimate:
    """A rate with its Wilson score interval (sound near 0 and 1, unlike mean ± z·s/√n);
    ``successes`` may be fractional (tied winners share a win).

    >>> e = proportion_ci(0, 50)
    >>> e.mean, e.low, round(e.high, 4)
    (0.0, 0.0, 0.0713)
    """
    if n <= 0:
        raise ValueError("no trials: a rate needs n >= 1")
    if not 0 <= successes <= n:
        raise ValueError(f"{successes} successes out of {n} trials")
    low, high = _wilson(successes / n, n, z)
    return Estimate(successes / n, low, high, n)


def _wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's score interval of a share ``p`` of ``n`` trials, exact at 0 and 1 (not 1e-17)."""
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return 0.0 if p == 0 else max(0.0, centre - half), 1.0 if p == 1 else min(1.0, centre + half)


def counts(values: Iterable[object]) -> list[tuple[object, int]]:
    """How often each value occurs, most common first, ties in order of first appearance.

    >>> counts(["exhausted", "complete", "exhausted"])
    [('exhausted', 2), ('complete', 1)]
    """
    tally: dict[object, int] = {}
    for value in values:
        tally[value] = tally.get(value, 0) + 1
    return sorted(tally.items(), key=lambda kv: -kv[1])


def histogram(values: Sequence[float], max_bins: int = 25,
              span: tuple[float, float] | None = None) -> list[tuple[str, int]]:
    """Counts per value for integers over a small range (gaps shown as 0), else equal-width bins.

    ``span`` fixes the range (``(low, high)``, covering every value), so that
    several seats' histograms share their bins.

    >>> histogram([0, 100], max_bins=4)
    [('0..25', 1), ('26..51', 0), ('52..77', 0), ('78..100', 1)]
    """
    tally: dict[float, int] = {}
    for value in values:
        tally[value] = tally.get(value, 0) + 1
    return histogram_of(tally, max_bins, span)


def histogram_of(tally: dict[float, int], max_bins: int = 25,
                 span: tuple[float, float] | None = None) -> list[tuple[str, int]]:
    """:func:`histogram` of values given as value -> how often it occurs (what a run keeps).

    >>> histogram_of({1: 2, 2: 1, 5: 1}) == histogram([1, 1, 2, 5])
    True
    """
    if not tally:
        return []
    low, high = span if span is not None else (min(tally), max(tally))
    integral = all(float(v).is_integer() for v in tally)
    if integral and high - low + 1 <= max_bins:
        counted = {int(v): 0 for v in range(int(low), int(high) + 1)}
        for v, n in tally.items():
            counted[int(v)] += n
        return [(str(v), n) for v, n in counted.items()]
    width = (high - low) / max_bins
    if integral:
        width = math.ceil((high - low + 1) / max_bins)
        bins = math.ceil((high - low + 1) / width)
    else:
        bins = max_bins
    edges = [low + i * width for i in range(bins)]
    tally_bins = [0] * bins
    for v, n in tally.items():
        tally_bins[min(int((v - low) // width), bins - 1)] += n
    labels = []
    for i, edge in enumerate(edges):
        top = high if i == bins - 1 else edge + width - (1 if integral else 0)
        labels.append(_num(edge) if top == edge else f"{_num(edge)}..{_num(top)}")
    return list(zip(labels, tally_bins))


def median_of(tally: dict[float, int]) -> float:
    """The median of values given as value -> how often it occurs, as :func:`statistics.median`
    gives it (the mean of the middle two for an even count).

    >>> median_of({3: 1, 1: 2, 7: 1}), median_of({3: 1, 1: 2})
    (2.0, 1)
    """
    n = sum(tally.values())
    if n == 0:
        raise ValueError("no values: the median of nothing is undefined")
    middle, found, below = (n - 1) // 2, [], 0
    for value in sorted(tally):
        below += tally[value]
        while len(found) < 2 - n % 2 and below > middle + len(found):
            found.append(value)
        if len(found) == 2 - n % 2:
            break
    return found[0] if n % 2 else (found[0] + found[1]) / 2


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.3g}"


def bar(count: int, largest: int, width: int = 30) -> str:
    """A text bar proportional to ``count``; any non-zero count shows at least a sliver.

    >>> bar(5, 10, width=10), bar(1, 1000, width=10), bar(0, 10)
    ('█████', '▏', '')
    """
    if count <= 0 or largest <= 0:
        return ""
    eighths = round(8 * width * count / largest)
    if eighths == 0:
        return "▏"
    full, rest = divmod(eighths, 8)
    return "█" * full + ("" if rest == 0 else " ▏▎▍▌▋▊▉"[rest])


def paired_difference(first: Sequence[float], second: Sequence[float], confidence: float = CONFIDENCE,
                      within: tuple[float | None, float | None] = (None, None)) -> tuple[Estimate, float]:
    """The mean of ``second[i] - first[i]`` with its t interval (clipped to ``within``, as in
    :func:`mean_ci`), and the two-sided p-value of "no difference": the paired t-test
    (``scipy.stats.ttest_rel``). Differences that are all equal give p = 1 when they are 0,
    and otherwise the exact sign test's 2^(1-n), the chance that n differences of no true
    effect all fall on one side (scipy gives nan: there is no spread to judge by); their
    interval is :func:`mean_ci`'s of equal values.

    >>> estimate, p = paired_difference([1, 2, 3, 4], [2, 3, 5, 5])
    >>> estimate.mean, round(p, 4)
    (1.25, 0.0154)
    >>> paired_difference([1, 1], [1, 1])[1], paired_difference([0, 0], [1, 1])[1]
    (1.0, 0.5)
    """
    if len(first) != len(second):
        raise ValueError(f"pairs need as many values on each side, not {len(first)} and {len(second)}")
    return paired_estimate(Sample.of([b - a for a, b in zip(first, second)]), confidence, within)


def paired_estimate(differences: Sample, confidence: float = CONFIDENCE,
                    within: tuple[float | None, float | None] = (None, None)) -> tuple[Estimate, float]:
    """:func:`paired_difference` from the :class:`Sample` of the differences.

    >>> paired_estimate(Sample.of([1, 1, 2, 1])) == paired_difference([1, 2, 3, 4], [2, 3, 5, 5])
    True
    """
    estimate = mean_estimate(differences, confidence, within)
    if differences.stdev is None:
        return estimate, math.nan
    if differences.stdev == 0:
        return estimate, 1.0 if estimate.mean == 0 else min(1.0, 2.0 ** (1 - differences.n))
    statistic = estimate.mean / (differences.stdev / math.sqrt(differences.n))
    return estimate, t_two_sided_p(statistic, differences.n - 1)


def clustered_proportion_ci(numerators: Sequence[float], denominators: Sequence[float],
                            confidence: float = CONFIDENCE) -> Estimate:
    """A share pooled over clusters (the games of one deal, say: not independent), sum(a_k) /
    sum(m_k) with each a_k between 0 and m_k, with Korn and Graubard's interval: Wilson's on
    the effective number of games (the games over the design effect, the cluster-robust
    variance K/(K-1)·Σ(a_k - p·m_k)² / (Σm_k)² over the binomial p(1-p)/Σm_k, never below 1)
    with Student's t for K-1 degrees of freedom in place of z. It stays inside [0, 1], has an
    upper bound above 0 when every cluster is 0, and is wide with few clusters, as it must be.
    ``n`` is the number of clusters; a single cluster gives no interval.

    >>> e = clustered_proportion_ci([0] * 20, [2] * 20)   # never ahead in 40 games on 20 deals
    >>> e.mean, e.low, round(e.high, 3), e.n
    (0.0, 0.0, 0.099, 20)
    """
    if len(numerators) != len(denominators) or not numerators:
        raise ValueError(f"a pooled share needs one count of games per cluster and at least one cluster, "
                         f"not {len(numerators)} shares and {len(denominators)} counts")
    pooled = PooledShare()
    for a, m in zip(numerators, denominators):
        pooled.add(a, m)
    return pooled.estimate(confidence)


class PooledShare:
    """:func:`clustered_proportion_ci` a cluster at a time, in constant memory: the sums of
    the clusters' counts, of their squares and of their products, exactly (as fractions), from
    which the spread of the clusters about the pooled share follows.

    >>> pooled = PooledShare()
    >>> for a in (0, 1, 2, 2):
    ...     pooled.add(a, 2)
    >>> pooled.estimate() == clustered_proportion_ci([0, 1, 2, 2], [2, 2, 2, 2])
    True
    """

    __slots__ = ("k", "_a", "_m", "_aa", "_am", "_mm")

    def __init__(self) -> None:
        self.k = 0
        self._a = self._m = self._aa = self._am = self._mm = Fraction(0)

    def add(self, numerator: float, denominator: float) -> None:
        """One more cluster: ``numerator`` of its ``denominator`` games."""
        if not 0 <= numerator <= denominator:
            raise ValueError("each cluster needs between 0 and its games, and the clusters some games in all")
        a, m = Fraction(numerator), Fraction(denominator)
        self.k += 1
        self._a += a
        self._m += m
        self._aa += a * a
        self._am += a * m
        self._mm += m * m

    def estimate(self, confidence: float = CONFIDENCE) -> Estimate:
        """The pooled share with its interval (none for a single cluster)."""
        if self._m <= 0:
            raise ValueError("each cluster needs between 0 and its games, and the clusters some games in all")
        k, games, exact = self.k, float(self._m), self._a / self._m
        share = float(self._a) / games
        if k < 2:
            return Estimate(share, None, None, k)
        # the sum over clusters of (a - share·m)², expanded: exact, so nothing cancels
        spread = self._aa - 2 * exact * self._am + exact * exact * self._mm
        return _korn_graubard(share, games, k, float(spread), confidence)


def _korn_graubard(share: float, games: float, k: int, spread: float, confidence: float) -> Estimate:
    """Wilson's interval on the games over the design effect, with Student's t for k-1 degrees of freedom."""
    clustered = k / (k - 1) * spread / games ** 2
    binomial = share * (1 - share) / games
    design_effect = max(1.0, clustered / binomial) if binomial > 0 else 1.0
    low, high = _wilson(share, games / design_effect, t_quantile((1 + confidence) / 2, k - 1))
    return Estimate(share, low, high, k)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of p-values tested together (a family): the smallest
    times m, the next times m-1 (never below the one before), ... capped at 1; rejecting
    where an adjusted p is below 0.05 makes a false finding anywhere in the family at most
    5% likely. A nan (a test that could not be made) stays nan and is not counted in m.

    >>> holm([0.01, 0.04, 0.03, 0.5])
    [0.04, 0.09, 0.09, 0.5]
    """
    tested = sorted((p, i) for i, p in enumerate(p_values) if not math.isnan(p))
    adjusted = [math.nan] * len(p_values)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (len(tested) - rank) * p))
        adjusted[i] = running
    return adjusted
