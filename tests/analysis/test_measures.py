"""The designer's measures on constructed games whose answers are worked out by hand."""

from __future__ import annotations

import math
import statistics

import pytest
import scipy.stats

from parlour.analysis.lead import LeadTrack
from parlour.analysis.measures import (
    Rung,
    branching,
    chi_square_p,
    deficit,
    detectable,
    elo,
    games_needed,
    head_to_head,
    ladder,
    margin,
    pooled_ratio,
    seat_balance,
    skill_index,
    spread,
    track_measures,
)
from parlour.analysis.stats import proportion_ci


# -- branching -----------------------------------------------------------------------------
def test_branching_pools_every_decision_and_counts_forced_ones():
    # game A: decisions with 3, 1, 2 legal actions; game B: 1, 1, 4, 4 -> 16 legal over 7 decisions
    b = branching(legal=[6, 10], forced=[1, 2], decisions=[3, 4])
    assert b.factor.mean == pytest.approx(16 / 7)
    assert b.forced.mean == pytest.approx(3 / 7)
    assert b.decisions == 7 and b.factor.n == 2


def test_branching_interval_is_the_cluster_robust_one():
    legal, decisions = [6, 10, 9], [3, 4, 3]
    r = 25 / 10
    variance = 3 / 2 * sum((a - r * m) ** 2 for a, m in zip(legal, decisions)) / 10 ** 2
    half = scipy.stats.t.ppf(0.975, 2) * math.sqrt(variance)
    e = pooled_ratio(legal, decisions)
    assert e.mean == r and e.low == pytest.approx(r - half) and e.high == pytest.approx(r + half)


def test_branching_of_one_game_has_no_interval_and_every_forced_game_is_all_forced():
    one = branching(legal=[5], forced=[0], decisions=[5])
    assert one.factor.mean == 1.0 and one.factor.low is None
    forced = branching(legal=[3, 2], forced=[3, 2], decisions=[3, 2])
    assert forced.factor.mean == 1.0 and forced.factor.low == 1.0  # the floor: a decision has an action
    assert forced.forced.mean == 1.0 and forced.forced.high == 1.0


def test_branching_refuses_more_forced_decisions_than_decisions():
    with pytest.raises(ValueError, match="more forced decisions than decisions"):
        branching(legal=[3], forced=[4], decisions=[3])
    with pytest.raises(ValueError, match="at least one cluster"):
        pooled_ratio([], [])


# -- margin and drama ----------------------------------------------------------------------
def test_margin_is_the_winners_lead_over_the_best_loser():
    assert margin([60, 45, 52], winners=[0], lower_better=False) == 8
    assert margin([21, 30, 25], winners=[0], lower_better=True) == 4       # Decktet Golf: low wins
    assert margin([7, 7, 3], winners=[0, 1], lower_better=False) == 4      # tied winners, one loser


def test_margin_is_undefined_when_nobody_or_everybody_won():
    assert margin([4, 4, 4], winners=[0, 1, 2], lower_better=False) is None  # all tied
    assert margin([13, 9, 2], winners=[], lower_better=False) is None        # a stalemate


def test_deficit_is_the_winners_worst_moment():
    standings = [(0, 0, 0), (6, 1, 0), (6, 9, 0), (6, 9, 13)]  # seat 2 was 9 behind, then won
    assert deficit(standings, winners=[2], lower_better=False) == 9
    assert deficit(standings, winners=[1], lower_better=False) == 5
    # lower is better: seat 0 led 10-14 then fell behind 30-22, and won at 48-50
    assert deficit([(0, 0), (10, 14), (30, 22), (48, 50)], winners=[0], lower_better=True) == 8


def test_deficit_of_tied_winners_is_the_least_of_theirs_and_none_without_a_winner():
    standings = [(0, 0), (5, 0), (5, 5)]
    assert deficit(standings, winners=[0, 1], lower_better=False) == 0   # seat 0 never trailed
    assert deficit(standings, winners=[], lower_better=False) is None


def test_track_measures_read_the_direction_off_the_result():
    track = LeadTrack([0, 0])                 # no direction given: the winners tell it
    for scores in ([10, 4], [18, 20], [50, 31]):
        track.see(scores)
    # lower won (31 < 50); seat 1 trailed only at 18-20
    assert track_measures(track, winners=[1]) == {"margin": 19, "deficit": 2}
    level = LeadTrack([0, 0])
    level.see([3, 3])
    assert track_measures(level, winners=[0, 1]) == {"margin": None, "deficit": None}


# -- seat balance ----------------------------------------------------------------------------
def test_seat_balance_of_two_seats_by_hand():
    b = seat_balance([70, 30], decided=100)
    assert b.seat == 0 and b.gap.mean == pytest.approx(0.2)
    # chi-square: (70-50)²/50 + (30-50)²/50 = 16 on 1 degree of freedom
    assert b.p == pytest.approx(scipy.stats.chi2.sf(16, 1))
    z = statistics.NormalDist().inv_cdf(1 - 0.05 / 4)   # Bonferroni over 2 seats
    wide = proportion_ci(70, 100, z)
    assert b.gap.low == pytest.approx(wide.low - 0.5) and b.gap.high == pytest.approx(wide.high - 0.5)


def test_a_seat_that_never_wins_is_the_one_furthest_from_fair():
    b = seat_balance([40, 60, 0], decided=100)
    assert b.seat == 2 and b.shares[2].mean == 0 and b.gap.mean == pytest.approx(1 / 3)
    assert b.p == pytest.approx(scipy.stats.chisquare([40, 60, 0]).pvalue)
    assert b.gap.low > 0.25  # never winning in 100 games is far from a third


def test_even_seats_have_no_gap_and_tied_wins_count_shared():
    b = seat_balance([2.5, 2.5], decided=5)  # every game a two-way tie
    assert b.gap.mean == 0 and b.gap.low == 0 and b.p == 1.0
    assert seat_balance([3], decided=3) is None and seat_balance([0, 0], decided=0) is None
    with pytest.raises(ValueError, match="add up to"):
        seat_balance([3, 3], decided=5)


@pytest.mark.parametrize("statistic,df", [(0.5, 1), (3.2, 2), (7.9, 3), (30.0, 4), (2.0, 7), (120.0, 5)])
def test_chi_square_p_is_scipys(statistic, df):
    assert chi_square_p(statistic, df) == pytest.approx(scipy.stats.chi2.sf(statistic, df), rel=1e-9, abs=1e-15)


# -- duration ------------------------------------------------------------------------------
def test_spread_by_hand():
    s = spread([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], floor=1)
    assert s.mean.mean == 5.5 and s.sd == pytest.approx(statistics.stdev(range(1, 11)))
    assert s.quantiles[0.5] == 5.5 and s.quantiles[0.25] == pytest.approx(3.25)
    assert s.mean.low > 1  # a count's interval stays above its floor


def test_spread_of_one_game_and_of_equal_games():
    one = spread([12])
    assert one.sd is None and set(one.quantiles.values()) == {12}
    same = spread([4, 4, 4], floor=1)
    assert same.sd == 0 and same.mean.mean == 4 and same.mean.low is None  # no spread: no interval
    scores = spread([-3, 1], floor=None)   # scores can be negative: Student's t
    assert scores.mean.mean == -1 and scores.mean.low < -3
    kept = spread([-3, 1], floor=None, within=(-9, 14))  # and kept within Psalter Row's range
    assert (kept.mean.low, kept.mean.high) == (-9, 14)


# -- skill ---------------------------------------------------------------------------------
def test_head_to_head_counts_a_game_nobody_won_as_the_even_share():
    # three seats: the stronger wins 2, a weaker wins 1, nobody wins 1 (worth a third each)
    p, upset = head_to_head([1, 1, 0, 0], [0, 0, 1, 0], seats=3)
    assert p.mean == pytest.approx((2 + 1 / 3) / 4) and upset.mean == 0.25


def test_elo_gaps_by_hand_and_their_shares_of_the_ladder():
    p1, p2 = proportion_ci(75, 100), proportion_ci(60, 100)
    first, second = elo(p1), elo(p2)
    assert first.mean == pytest.approx(400 * math.log10(3)) and second.mean == pytest.approx(400 * math.log10(1.5))
    rungs = ladder([Rung("novice", "casual", p1, p1, first), Rung("casual", "strong", p2, p2, second)])
    total = first.mean + second.mean
    assert [r.share for r in rungs] == pytest.approx([first.mean / total, second.mean / total])
    assert first.low == pytest.approx(400 * math.log10(p1.low / (1 - p1.low)))


def test_elo_at_three_seats_is_zero_at_the_even_share_and_infinite_at_a_clean_sweep():
    assert elo(proportion_ci(1, 3), seats=3).mean == pytest.approx(0, abs=1e-9)
    # one seat against two with odds s/(2w) = 1/2 / (1/2) -> s = 2w: 400·log10(2)
    assert elo(proportion_ci(50, 100), seats=3).mean == pytest.approx(400 * math.log10(2))
    sweep = elo(proportion_ci(10, 10))
    assert sweep.mean == math.inf and sweep.high == math.inf and 0 < sweep.low < math.inf
    assert ladder([Rung("a", "b", proportion_ci(10, 10), proportion_ci(0, 10), sweep)])[0].share is None


def test_skill_index_from_luck_to_skill():
    assert skill_index(proportion_ci(50, 100)).mean == 0        # a coin flip: all luck
    assert skill_index(proportion_ci(100, 100)).mean == 1       # the better always wins
    assert skill_index(proportion_ci(1, 4), seats=4).mean == 0  # four seats: a quarter is fair
    assert skill_index(proportion_ci(20, 100)).mean == pytest.approx(-0.6)  # the "stronger" loses


def test_a_ladder_whose_gap_is_not_positive_gives_no_shares():
    p = proportion_ci(40, 100)
    rungs = ladder([Rung("a", "b", p, p, elo(p))])
    assert rungs[0].share is None


# -- sample size -----------------------------------------------------------------------------
def test_games_needed_matches_the_normal_formula_then_students_t():
    n = games_needed(sd=1, difference=0.1)
    normal = ((statistics.NormalDist().inv_cdf(0.975) + statistics.NormalDist().inv_cdf(0.8)) * 10) ** 2
    assert math.ceil(normal) <= n <= math.ceil(normal) + 3
    # the t-test's power at n games reaches 80%, at n-1 it does not
    def power(games):
        nc = 0.1 * math.sqrt(games)
        return scipy.stats.nct.sf(scipy.stats.t.ppf(0.975, games - 1), games - 1, nc)
    assert power(n) >= 0.795 and power(n - 1) < 0.805
    assert detectable(1, n) <= 0.1 < detectable(1, n - 1)


def test_games_needed_grows_with_the_square_of_the_precision_and_refuses_nonsense():
    assert games_needed(2, 0.1) == pytest.approx(4 * games_needed(1, 0.1), rel=0.01)
    assert games_needed(0, 1) == 2 and detectable(1, 1) is None
    with pytest.raises(ValueError, match="above 0"):
        games_needed(1, 0)
    with pytest.raises(ValueError, match="negative"):
        games_needed(-1, 1)
