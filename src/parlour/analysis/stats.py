"""Small, pure statistics for simulation results (standard library only).

>>> mean_ci([1, 2, 3, 4])
Estimate(mean=2.5, low=1.234..., high=3.765..., n=4)
>>> histogram([1, 1, 2, 5])
[('1', 2), ('2', 1), ('3', 0), ('4', 0), ('5', 1)]
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: z for a two-sided 95% interval (1.959963...).
Z95 = statistics.NormalDist().inv_cdf(0.975)


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


def mean_ci(values: Sequence[float], z: float = Z95) -> Estimate:
    """The mean with a normal-approximation interval, mean ± z·s/√n.

    >>> mean_ci([5, 5, 5])
    Estimate(mean=5.0, low=5.0, high=5.0, n=3)
    >>> mean_ci([7]).low is None
    True
    """
    n = len(values)
    if n == 0:
        raise ValueError("no values: the mean of nothing is undefined")
    mean = statistics.fmean(values)
    if n < 2:
        return Estimate(mean, None, None, n)
    half = z * statistics.stdev(values) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


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
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the ends, not 1e-17
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


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
    if not values:
        return []
    low, high = span if span is not None else (min(values), max(values))
    integral = all(float(v).is_integer() for v in values)
    if integral and high - low + 1 <= max_bins:
        tally = {int(v): 0 for v in range(int(low), int(high) + 1)}
        for v in values:
            tally[int(v)] += 1
        return [(str(v), n) for v, n in tally.items()]
    width = (high - low) / max_bins
    if integral:
        width = math.ceil((high - low + 1) / max_bins)
        bins = math.ceil((high - low + 1) / width)
    else:
        bins = max_bins
    edges = [low + i * width for i in range(bins)]
    tally_bins = [0] * bins
    for v in values:
        tally_bins[min(int((v - low) // width), bins - 1)] += 1
    labels = []
    for i, edge in enumerate(edges):
        top = high if i == bins - 1 else edge + width - (1 if integral else 0)
        labels.append(_num(edge) if top == edge else f"{_num(edge)}..{_num(top)}")
    return list(zip(labels, tally_bins))


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


def paired_difference(first: Sequence[float], second: Sequence[float], z: float = Z95) -> tuple[Estimate, float]:
    """The mean of ``second[i] - first[i]`` with its interval, and the two-sided p-value of
    "no difference" (normal approximation: the pairs are games on the same seeds, so the
    differences of many games are close to normal; with fewer than ~30 games treat it as rough).

    >>> estimate, p = paired_difference([1, 2, 3, 4], [2, 3, 5, 5])
    >>> estimate.mean, round(p, 4)
    (1.25, 0.0)
    >>> paired_difference([1, 1], [1, 1])[1]
    1.0
    """
    if len(first) != len(second):
        raise ValueError(f"pairs need as many values on each side, not {len(first)} and {len(second)}")
    differences = [b - a for a, b in zip(first, second)]
    estimate = mean_ci(differences, z)
    if len(differences) < 2:
        return estimate, math.nan
    spread = statistics.stdev(differences)
    if spread == 0:
        return estimate, 1.0 if estimate.mean == 0 else 0.0
    statistic = estimate.mean / (spread / math.sqrt(len(differences)))
    return estimate, 2 * (1 - statistics.NormalDist().cdf(abs(statistic)))
