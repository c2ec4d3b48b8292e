"""The statistics of results, checked against scipy: Student's t, Wilson, counts with a floor, Holm."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from scipy import stats as scipy_stats

from parlour.analysis.stats import (
    Z95,
    count_ci,
    holm,
    mean_ci,
    paired_difference,
    proportion_ci,
    regularized_beta,
    t_quantile,
    t_two_sided_p,
)

NORMAL = random.Random(3)
DEGREES = [1, 2, 3, 4, 5, 7, 9, 10, 19, 29, 49, 99, 199, 999, 9_999, 99_999, 1_000_000]


# -- Student's t ---------------------------------------------------------------------------
@pytest.mark.parametrize("df", DEGREES)
def test_t_quantiles_match_scipy(df):
    for probability in (0.51, 0.6, 0.9, 0.95, 0.975, 0.99, 0.995, 0.9995, 0.999999):
        assert t_quantile(probability, df) == pytest.approx(scipy_stats.t.ppf(probability, df), rel=1e-8)
        assert t_quantile(1 - probability, df) == pytest.approx(scipy_stats.t.ppf(1 - probability, df), rel=1e-8)
    assert t_quantile(0.5, df) == 0


@pytest.mark.parametrize("df", DEGREES)
def test_t_tail_probabilities_match_scipy(df):
    for statistic in (0, 1e-8, 0.01, 0.5, 1, 1.96, 2.5, 4, 8, 20, 100, 1e4):
        expected = 2 * scipy_stats.t.sf(statistic, df)
        assert t_two_sided_p(statistic, df) == pytest.approx(expected, rel=1e-8, abs=1e-300)
        assert t_two_sided_p(-statistic, df) == t_two_sided_p(statistic, df)


def test_the_incomplete_beta_matches_scipy():
    from scipy.special import betainc

    for a, b in ((0.5, 0.5), (1, 3), (2.5, 0.5), (30, 0.5), (0.5, 400), (7, 11)):
        for x in (1e-9, 0.01, 0.3, 0.5, 0.77, 0.999, 1 - 1e-9):
            assert regularized_beta(x, a, b) == pytest.approx(betainc(a, b, x), rel=1e-9, abs=1e-15)
    assert regularized_beta(0, 2, 3) == 0 and regularized_beta(1, 2, 3) == 1
    with pytest.raises(ValueError, match="a > 0 and b > 0"):
        regularized_beta(0.5, 0, 1)


def test_bad_quantile_arguments_are_refused():
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        t_quantile(1.0, 5)
    with pytest.raises(ValueError, match="df > 0"):
        t_two_sided_p(1.0, 0)


# -- means ---------------------------------------------------------------------------------
@pytest.mark.parametrize("values", [[1, 2, 3, 4], [2.5, -1, 7], [10, 12, 9, 11, 13, 8, 10, 14, 9, 12],
                                    [NORMAL.gauss(50, 9) for _ in range(40)]])
def test_mean_ci_is_students_t_interval(values):
    n = len(values)
    low, high = scipy_stats.t.interval(0.95, n - 1, loc=statistics.fmean(values),
                                       scale=statistics.stdev(values) / math.sqrt(n))
    e = mean_ci(values)
    assert e.n == n and e.mean == pytest.approx(statistics.fmean(values))
    assert e.low == pytest.approx(low, rel=1e-9) and e.high == pytest.approx(high, rel=1e-9)


@pytest.mark.parametrize("n", [4, 10])
def test_mean_ci_covers_95_percent_of_normal_samples_even_when_small(n):
    # The normal quantile covered 91.7% at n=10 and about 88% at n=4; Student's t covers 95%.
    rng = random.Random(n)
    trials = 4000
    covered = sum(e.low <= 0 <= e.high for e in (mean_ci([rng.gauss(0, 1) for _ in range(n)]) for _ in range(trials)))
    assert 0.935 < covered / trials < 0.965  # 95% ± 4.4 standard errors


def test_mean_ci_edge_cases():
    # Equal values have no spread to judge by: no interval where a side is open, never the point.
    assert mean_ci([3, 3, 3]).low is None and mean_ci([3, 3, 3]).high is None
    single = mean_ci([7])
    assert single.mean == 7 and single.low is None and single.half_width is None
    with pytest.raises(ValueError):
        mean_ci([])


@pytest.mark.parametrize("n", [2, 5, 20, 200])
def test_equal_bounded_values_reach_as_far_as_a_rare_other_value_could_pull_the_mean(n):
    # None of n draws differs: Wilson's bound for 0 in n caps how often one would, and the
    # mean lies that share of the way to each bound; it narrows as n grows, inside the bounds.
    share = scipy_stats.binomtest(0, n).proportion_ci(0.95, method="wilson").high
    e = mean_ci([0.25] * n, within=(-1, 1))
    assert e.low == pytest.approx(0.25 - share * 1.25) and e.high == pytest.approx(0.25 + share * 0.75)
    assert -1 <= e.low < 0.25 < e.high <= 1
    assert mean_ci([1.0] * n, within=(0, 1)).high == 1 and mean_ci([1.0] * n, within=(0, 1)).low < 1


def test_mean_ci_is_clipped_to_what_the_mean_can_be():
    shares = [1.0] * 9 + [-1.0]  # differences of two shares lie in [-1, 1]
    free, kept = mean_ci(shares), mean_ci(shares, within=(-1, 1))
    assert free.high > 1 and kept.high == 1 and kept.low == free.low
    assert mean_ci([0.2, 0.4], within=(0, None)).low == 0


def test_mean_ci_narrows_with_more_data():
    rng = random.Random(0)
    small = mean_ci([rng.gauss(0, 1) for _ in range(100)])
    large = mean_ci([rng.gauss(0, 1) for _ in range(10000)])
    assert large.half_width < small.half_width / 5  # ~ 1/sqrt(100)
    assert large.low < 0 < large.high


# -- paired differences ---------------------------------------------------------------------
def test_a_paired_test_on_8_games_is_scipys_ttest_rel():
    first = [12, 15, 11, 14, 13, 16, 12, 15]
    second = [14, 16, 14, 14, 15, 17, 15, 15]  # differences 2 1 3 0 2 1 3 0
    estimate, p = paired_difference(first, second)
    expected = scipy_stats.ttest_rel(second, first)
    assert p == pytest.approx(expected.pvalue, rel=1e-9)
    assert p == pytest.approx(0.00935, abs=1e-5)  # the normal approximation said 0.0004
    low, high = expected.confidence_interval(0.95)
    assert (estimate.low, estimate.high) == (pytest.approx(low, rel=1e-9), pytest.approx(high, rel=1e-9))


@pytest.mark.parametrize("seed", range(5))
def test_paired_p_values_match_scipy_at_many_sizes(seed):
    rng = random.Random(seed)
    n = [3, 8, 30, 200, 2000][seed]
    first = [rng.gauss(10, 3) for _ in range(n)]
    second = [x + rng.gauss(0.4, 2) for x in first]
    _, p = paired_difference(first, second)
    assert p == pytest.approx(scipy_stats.ttest_rel(second, first).pvalue, rel=1e-8)


@pytest.mark.parametrize("n", [2, 3, 6, 10])
def test_paired_differences_without_spread(n):
    # All equal and not 0: the exact sign test, 2^(1-n): significant at 5% from six pairs on.
    assert paired_difference([1] * n, [1] * n)[1] == 1.0
    estimate, p = paired_difference(list(range(n)), list(range(1, n + 1)))
    assert p == pytest.approx(scipy_stats.binomtest(n, n).pvalue) == 2.0 ** (1 - n)
    assert (p < 0.05) == (n >= 6) and estimate.low is None and estimate.high is None


def test_paired_differences_of_one_pair():
    assert math.isnan(paired_difference([1], [2])[1])
    with pytest.raises(ValueError, match="as many values on each side"):
        paired_difference([1, 2], [1])


# -- rates and counts -----------------------------------------------------------------------
def test_z95_is_the_two_sided_95_percent_quantile():
    assert Z95 == pytest.approx(scipy_stats.norm.ppf(0.975), rel=1e-12)


@pytest.mark.parametrize("k, n", [(0, 20), (1, 20), (5, 10), (17, 40), (199, 200), (20, 20), (3, 200)])
def test_proportion_ci_is_scipys_wilson_interval(k, n):
    expected = scipy_stats.binomtest(k, n).proportion_ci(0.95, method="wilson")
    e = proportion_ci(k, n)
    assert e.mean == k / n
    assert e.low == pytest.approx(expected.low, abs=1e-12) and e.high == pytest.approx(expected.high, abs=1e-12)
    assert 0 <= e.low <= e.mean <= e.high <= 1


def test_proportion_ci_refuses_impossible_counts():
    with pytest.raises(ValueError):
        proportion_ci(3, 2)
    with pytest.raises(ValueError):
        proportion_ci(0, 0)


def test_a_count_near_its_floor_keeps_its_interval_above_the_floor():
    # Decktet Golf, 5 players, random, 200 games: 3 went to a second round, one had a lead change.
    rounds = count_ci([1] * 197 + [2] * 3, floor=1)
    assert mean_ci([1] * 197 + [2] * 3).low < 1 < rounds.low < rounds.mean < rounds.high
    wilson = proportion_ci(3, 200)  # a second round or not: the count is 1 + a share here
    assert rounds.low == pytest.approx(1 + wilson.low, abs=0.002) and rounds.high == pytest.approx(1 + wilson.high, abs=0.005)
    changes = count_ci([0] * 199 + [1], floor=0)
    assert mean_ci([0] * 199 + [1]).low < 0 < changes.low < changes.mean == 0.005 < changes.high


def test_a_count_far_from_its_floor_gets_about_the_t_interval():
    rng = random.Random(2)
    turns = [rng.randint(80, 120) for _ in range(300)]
    assert count_ci(turns, floor=0).low == pytest.approx(mean_ci(turns).low, rel=1e-3)
    assert count_ci(turns, floor=0).high == pytest.approx(mean_ci(turns).high, rel=1e-3)


@pytest.mark.parametrize("n", [5, 10, 30])
def test_count_ci_covers_skewed_counts_better_than_t(n):
    # Counts with a long tail (geometric, mean 7/3): the t interval's lower end overshoots.
    rng = random.Random(n)
    mean, trials = 7 / 3, 3000

    def sample():
        values = []
        while len(values) < n:
            k = 0
            while rng.random() < 0.7:
                k += 1
            values.append(k)
        return values

    def covers(e) -> bool:  # equal values give t no interval: it covers nothing then
        return e.low is not None and e.low <= mean <= e.high

    samples = [sample() for _ in range(trials)]
    by_count = sum(map(covers, (count_ci(v, floor=0) for v in samples))) / trials
    by_t = sum(map(covers, map(mean_ci, samples))) / trials
    assert by_count > by_t and by_count > 0.93


@pytest.mark.parametrize("n", [2, 20, 200])
def test_counts_all_at_the_floor_reach_the_exact_poisson_bound(n):
    # No event in n games: the exact two-sided 95% Poisson interval of 0 events is [0, 3.689],
    # per game [0, 3.689 / n] above the floor (the floor alone would claim certainty).
    upper = scipy_stats.chi2.ppf(0.975, 2) / 2
    e = count_ci([1] * n, floor=1)
    assert e.mean == e.low == 1 and e.high == pytest.approx(1 + upper / n)


def test_count_ci_of_a_few_games_is_students_t_from_the_floor():
    # At two games the log scale's bound would be e^12.7 times the mean: the t interval instead.
    e, t = count_ci([0, 1], floor=0), mean_ci([0, 1])
    assert e.low == 0 and e.high == pytest.approx(t.high) and e.high < 7


def test_count_ci_edge_cases():
    assert count_ci([4, 4], floor=0).low is None  # equal above the floor: nothing bounds a rare one
    assert count_ci([4], floor=0).low is None
    with pytest.raises(ValueError, match="below the floor"):
        count_ci([0, 2], floor=1)
    with pytest.raises(ValueError, match="no values"):
        count_ci([], floor=0)


# -- many tests at once ---------------------------------------------------------------------
def test_holm_by_hand():
    # m = 4: sorted 0.01, 0.03, 0.04, 0.5 -> 4·0.01, 3·0.03, max(0.09, 2·0.04), max(0.09, 1·0.5)
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.3, 0.6]) == [0.6, 0.6]  # never above 1, never below the step before
    assert holm([0.001]) == [0.001] and holm([]) == []


def test_holm_leaves_untested_figures_out_of_the_family():
    adjusted = holm([0.02, math.nan, 0.01])
    assert adjusted[0] == pytest.approx(0.02) and math.isnan(adjusted[1]) and adjusted[2] == pytest.approx(0.02)


def test_holm_is_the_step_down_bonferroni_on_random_families():
    # The definition, written the slow way: the adjusted p of the k-th smallest is the largest
    # (m - j)·p_(j) over j <= k, capped at 1.
    rng = random.Random(7)
    for _ in range(50):
        ps = [rng.random() ** 3 for _ in range(rng.randint(1, 12))]
        order = sorted(range(len(ps)), key=ps.__getitem__)
        m = len(ps)
        expected = [0.0] * m
        for k, i in enumerate(order):
            expected[i] = min(1.0, max((m - j) * ps[order[j]] for j in range(k + 1)))
        assert holm(ps) == pytest.approx(expected)


def test_the_statistics_need_no_extra():
    # simulate and tournament print intervals without the sim extra: scipy (and numpy) are
    # only for checking them here. Run them with both made unimportable.
    import subprocess
    import sys

    def run_without_extras(*args):
        script = f"import sys; sys.modules.update(scipy=None, numpy=None)\nfrom parlour.cli import main\nmain({list(args)})"
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return " ".join(done.stdout.split())

    assert "rounds" in run_without_extras("simulate", "decktet-golf", "--players", "3", "-n", "6", "-w", "1")
    text = run_without_extras("tournament", "quisquilian", "--players", "3", "--agents", "random,heuristic",
                              "-n", "12", "-w", "1")
    assert "All one way: random never finished ahead of heuristic" in text
