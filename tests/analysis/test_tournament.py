"""Tournaments: the fair schedule, determinism, the standings and their statistics."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from helpers import console
from scipy import stats as scipy_stats

import parlour
from parlour.analysis.stats import clustered_proportion_ci, mean_ci, proportion_ci
from parlour.analysis.tournament import (
    Match,
    Meeting,
    agent_labels,
    block_orders,
    bradley_terry,
    elo,
    finishing_order,
    lineups,
    pair_results,
    play_match,
    print_standings,
    schedule,
    standings,
    tournament,
)
from parlour.core.chance import derive_seed
from parlour.core.errors import OptionError

SIZES = [(2, 2), (3, 2), (5, 2), (2, 3), (3, 3), (4, 3), (2, 4), (3, 4), (4, 4), (3, 5), (8, 4)]


# -- schedule ------------------------------------------------------------------------------
@pytest.mark.parametrize("agents, seats", SIZES)
def test_every_agent_holds_every_seat_equally_often(agents, seats):
    orders = block_orders(agents, seats)
    held = Counter((agent, seat) for order in orders for seat, agent in enumerate(order))
    assert set(held) == {(a, s) for a in range(agents) for s in range(seats)}
    assert len(set(held.values())) == 1


@pytest.mark.parametrize("agents, seats", SIZES)
def test_every_pair_meets_as_often_and_sits_before_each_other_as_often(agents, seats):
    orders = block_orders(agents, seats)
    met = Counter(pair for order in orders for pair in itertools.combinations(range(agents), 2)
                  if pair[0] in order and pair[1] in order)
    assert len(met) == agents * (agents - 1) // 2 and len(set(met.values())) == 1
    before = Counter((order[s], order[(s + 1) % seats]) for order in orders for s in range(seats)
                     if order[s] != order[(s + 1) % seats])
    assert all(before[a, b] == before[b, a] for a, b in before)


def test_lineups_are_the_sets_or_the_multisets_that_hold_everyone():
    assert lineups(3, 3) == [(0, 1, 2)]
    assert lineups(3, 1) == [(0,), (1,), (2,)]
    assert lineups(2, 3) == [(0, 0, 1), (0, 1, 1)]
    assert len(lineups(3, 5)) == math.comb(4, 2)  # compositions of 5 seats into 3 non-empty parts


def test_the_schedule_rounds_up_to_whole_blocks_and_a_block_shares_its_deal():
    orders = block_orders(3, 2)
    matches = schedule(3, 2, games=7)
    assert len(orders) == 6 and len(matches) == 12
    assert [m.index for m in matches] == list(range(12))
    for block in (0, 1):
        assert [m.seats for m in matches if m.block == block] == orders
    assert len(schedule(3, 2, games=6)) == 6
    with pytest.raises(OptionError, match="1 game or more"):
        schedule(3, 2, games=0)


def test_solitaire_blocks_are_one_deal_for_every_agent():
    assert [(m.block, m.seats) for m in schedule(3, 1, 4)] == [
        (0, (0,)), (0, (1,)), (0, (2,)), (1, (0,)), (1, (1,)), (1, (2,))]


def test_repeated_specs_are_numbered():
    assert agent_labels(["random", "random"]) == ["random#1", "random#2"]
    assert agent_labels(["heuristic", "random"]) == ["heuristic", "random"]


# -- playing -------------------------------------------------------------------------------
def golf_agents():
    return [parlour.agent("random"), parlour.agent("heuristic")]


def test_same_seed_same_rows_and_another_seed_other_deals():
    game = parlour.load("decktet-golf")
    first = list(tournament(game, golf_agents(), 6, seed=11))
    again = list(tournament(game, golf_agents(), 6, seed=11))
    other = list(tournament(game, golf_agents(), 6, seed=12))
    assert first == again
    assert [row["seed"] for row in first] != [row["seed"] for row in other]


def test_a_game_replays_alone_and_the_seats_of_a_block_share_the_deal():
    game = parlour.load("decktet-golf")
    rows = list(tournament(game, golf_agents(), 4, seed=3))
    assert [row["seed"] for row in rows] == [derive_seed(3, 0)] * 2 + [derive_seed(3, 1)] * 2
    assert [(row["agent_0"], row["agent_1"]) for row in rows] == [("random", "heuristic"), ("heuristic", "random")] * 2
    assert play_match(game, golf_agents(), ["random", "heuristic"], Match(3, 1, (1, 0)), seed=3) == rows[3]


def test_psalter_row_agents_play_the_same_deals():
    game = parlour.load("psalter-row")
    rows = list(tournament(game, [parlour.agent("random"), parlour.agent("heuristic")], 6, seed=2))
    assert len(rows) == 6 and all("agent_0" not in row for row in rows)
    deals = {(row["block"], row["agent"]): row["seed"] for row in rows}
    assert all(deals[block, "random"] == deals[block, "heuristic"] for block in range(3))


def test_a_multiplayer_tournament_needs_two_agents():
    with pytest.raises(OptionError, match="needs 2 agents or more, 1 given"):
        list(tournament(parlour.load("quisquilian"), [parlour.agent("random")], 4, seed=0))


# -- who finished ahead --------------------------------------------------------------------
def test_finishing_order_reads_the_direction_from_the_winners():
    low_wins = finishing_order([115, 95, 130], [1])
    assert low_wins[1] < low_wins[0] < low_wins[2]
    high_wins = finishing_order([3, 9, 5], [1])
    assert high_wins[1] < high_wins[2] < high_wins[0]
    shared = finishing_order([10, 10, 20], [0, 1])
    assert shared[0] == shared[1] < shared[2]
    nobody = finishing_order([0, 0, 0], [])
    assert nobody[0] == nobody[1] == nobody[2]
    # winners not decided by the scores: only winning counts
    assert finishing_order([5, 1, 9], [0])[1] == finishing_order([5, 1, 9], [0])[2]


def test_pair_results_compare_every_seat_of_one_agent_with_every_seat_of_the_other():
    # agent 0 in seats 0 and 1, agent 1 in seat 2; seat 0 won, seats 1 and 2 level
    assert pair_results([0, 0, 1], [1, 0, 0], [0], agents=2) == [Meeting(0, 1, 0.75, 0.5, 0.0)]
    assert pair_results([1, 0], [20, 10], [1], agents=3) == [Meeting(0, 1, 1.0, 1.0, 0.0)]
    assert pair_results([0, 1, 1], [0, 1, 0], [1], agents=2) == [Meeting(0, 1, 0.25, 0.0, 0.5)]


# -- Bradley-Terry -------------------------------------------------------------------------
def expected_results(strengths, games):
    k = len(strengths)
    n = [[0 if i == j else games for j in range(k)] for i in range(k)]
    w = [[n[i][j] * strengths[i] / (strengths[i] + strengths[j]) for j in range(k)] for i in range(k)]
    return w, n


def test_bradley_terry_recovers_the_strengths_that_made_the_results():
    w, n = expected_results([1, 3, 0.5, 6], 100)
    ratings = elo(bradley_terry(w, n, prior=0))
    assert ratings == pytest.approx([400 * math.log10(x) for x in (1, 3, 0.5, 6)], abs=1e-6)


def test_the_prior_keeps_a_clean_sweep_finite_and_shrinks_toward_level():
    ahead, games = [[0, 10], [0, 0]], [[0, 10], [10, 0]]
    assert elo(bradley_terry(ahead, games))[1] == pytest.approx(-400 * math.log10(10.5 / 0.5))
    w, n = expected_results([1, 4], 20)
    assert 0 < elo(bradley_terry(w, n))[1] < elo(bradley_terry(w, n, prior=0))[1]


# -- standings -----------------------------------------------------------------------------
def row(block, agents, scores, winners):
    keys = ["score"] if len(agents) == 1 else [f"score_{s}" for s in range(len(agents))]
    return {"game": "made-up", "block": block, "agents": agents, "winners": winners, **dict(zip(keys, scores))}


def test_standings_of_constructed_two_seat_results():
    # a beats b in 3 of 4 deals (either seat), one deal ends in a shared win
    rows = []
    for block, (a_wins, shared) in enumerate([(True, False), (True, False), (True, False), (False, True)]):
        for seats in (["a", "b"], ["b", "a"]):
            a_seat = seats.index("a")
            winners = [0, 1] if shared else [a_seat if a_wins else 1 - a_seat]
            scores = [1 if s in winners else 0 for s in range(2)]
            rows.append(row(block, seats, scores, winners))
    result = standings(rows, ["a", "b"], players=2, resamples=50, seed=4)
    a, b = result.agents
    assert (result.games, result.deals, a.seats) == (8, 4, 8)
    assert a.wins == proportion_ci(7, 8) and b.wins == proportion_ci(1, 8)  # the shared wins count half
    (pair,) = result.pairs
    assert (pair.first, pair.second, pair.games, pair.never_ahead) == ("a", "b", 8, "b")  # b at best level
    assert pair.ahead.mean == 7 / 8 and pair.ahead.n == 8
    by_deal = clustered_proportion_ci([2, 2, 2, 1], [2, 2, 2, 2])  # a's share ahead, deal by deal
    assert (pair.ahead.low, pair.ahead.high) == (by_deal.low, by_deal.high)
    assert a.rating.elo == 0 and b.rating.elo == pytest.approx(400 * math.log10(1.5 / 7.5))
    assert b.rating.low <= b.rating.elo <= b.rating.high
    again = standings(rows, ["a", "b"], players=2, resamples=50, seed=4)
    assert again == result  # the bootstrap has a fixed seed


def test_the_rating_interval_comes_from_resampled_deals():
    """Two deals, a's and b's: a resample counts deal 0 i times and deal 1 j times (Poisson
    counts), which rates b at 400·log10((j + 1/2) / (i + 1/2)) with the prior's half game each."""
    rows = [row(0, ["a", "b"], [1, 0], [0]), row(1, ["a", "b"], [0, 1], [1])]
    b = standings(rows, ["a", "b"], players=2, resamples=400, seed=1).agents[1]
    resampled = {round(400 * math.log10((j + 0.5) / (i + 0.5)), 6) for i in range(12) for j in range(12) if i + j}
    assert b.rating.elo == 0
    assert b.rating.low < 0 < b.rating.high
    assert round(b.rating.low, 6) in resampled and round(b.rating.high, 6) in resampled
    swept = 400 * math.log10(2.5 / 0.5)  # deal 0 twice, deal 1 not at all: the common far ends
    assert b.rating.low <= -swept and b.rating.high >= swept
    assert standings(rows[:1], ["a", "b"], players=2).agents[1].rating.low is None  # one deal: no interval


def korn_graubard(ahead, games):
    """The interval written out with scipy: Wilson's on the games over the design effect,
    with Student's t over deals for z."""
    k, total = len(ahead), sum(games)
    p = sum(ahead) / total
    clustered = k / (k - 1) * sum((a - p * m) ** 2 for a, m in zip(ahead, games)) / total ** 2
    n = total / max(1, clustered / (p * (1 - p) / total))
    z = scipy_stats.t.ppf(0.975, k - 1)
    centre, half = (p + z * z / (2 * n)) / (1 + z * z / n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_pairwise_intervals_take_the_deal_as_the_unit():
    # 10 deals of 4 games: a takes every game of 5 deals, b every game of the other 5. Games on
    # one deal go together, so this says less than 40 independent games would.
    rows = [row(block, seats, [1, 0] if (seats[0] == "a") == (block < 5) else [0, 1],
                [0] if (seats[0] == "a") == (block < 5) else [1])
            for block in range(10) for seats in (["a", "b"], ["b", "a"], ["a", "b"], ["b", "a"])]
    (pair,) = standings(rows, ["a", "b"], players=2, resamples=20).pairs
    independent = proportion_ci(20, 40)
    assert pair.ahead.mean == 0.5 and pair.games == 40
    assert pair.ahead.low < independent.low - 0.1 and pair.ahead.high > independent.high + 0.1
    low, high = korn_graubard([4] * 5 + [0] * 5, [4] * 10)
    assert pair.ahead.low == pytest.approx(low, rel=1e-9) and pair.ahead.high == pytest.approx(high, rel=1e-9)


def test_pairwise_intervals_cover_95_percent_of_clustered_results():
    # Each deal favours a or b by its cards (the share ahead varies from deal to deal), then
    # 6 games are played on it: the interval over 12 deals covers the true share 0.6.
    rng = random.Random(5)
    trials, covered = 2000, 0
    for _ in range(trials):
        shares = [min(1.0, max(0.0, rng.gauss(0.6, 0.15))) for _ in range(12)]
        ahead = [sum(rng.random() < share for _ in range(6)) for share in shares]
        e = clustered_proportion_ci(ahead, [6] * 12)
        covered += e.low <= 0.6 <= e.high
    assert covered / trials > 0.94  # Wilson on the 72 games as if independent: about 0.90


def test_a_clustered_share_needs_sound_counts():
    assert clustered_proportion_ci([3], [4]).low is None  # one deal: no interval
    for ahead, games in (([5, 1], [4, 4]), ([1], []), ([], []), ([0, 0], [0, 0])):
        with pytest.raises(ValueError):
            clustered_proportion_ci(ahead, games)


def test_quisquilian_results_all_one_way_get_the_caveat():
    # Issue 18: the heuristic wins every game; the random agent is only ever level with a
    # losing heuristic seat, so its share is 12.5%, not 0, and the caveat was missing.
    game = parlour.load("quisquilian", players=3)
    agents = [parlour.agent("random"), parlour.agent("heuristic")]
    result = standings(tournament(game, agents, 12, seed=0), ["random", "heuristic"], 3)
    (pair,) = result.pairs
    assert pair.ahead.mean == 0.125 and pair.never_ahead == "random"
    assert pair.ahead.low < pair.ahead.mean < pair.ahead.high  # two deals that agree are still only two
    out = console(width=200)
    print_standings(result, out)
    text = " ".join(out.file.getvalue().split())
    assert "All one way: random never finished ahead of heuristic" in text and "no upper bound" in text


def test_the_caveat_names_every_pair_that_went_one_way_and_no_other():
    rows = [row(block, seats, [0, 0, 0], [seats.index("c")]) for block in range(3)
            for seats in (["a", "b", "c"], ["c", "b", "a"], ["b", "a", "c"])]
    result = standings(rows, ["a", "b", "c"], players=3, resamples=20)
    assert {(p.first, p.second): p.never_ahead for p in result.pairs} == {
        ("a", "b"): None, ("a", "c"): "a", ("b", "c"): "b"}
    out = console(width=300)
    print_standings(result, out)
    text = " ".join(out.file.getvalue().split())
    assert "a never finished ahead of c; b never finished ahead of c" in text


def test_psalter_row_standings_are_means_rates_and_paired_differences():
    scores = {"x": [4, 6, 20, 2], "y": [1, 6, 12, 0]}
    rows = [row(block, [name], [scores[name][block]], [0] if scores[name][block] >= 12 else [])
            for block in range(4) for name in ("x", "y")]
    result = standings(rows, ["x", "y"], players=1)
    x, y = result.agents
    assert (result.deals, x.seats, x.rating) == (4, 4, None)
    assert x.score == mean_ci([4, 6, 20, 2]) and x.wins == proportion_ci(1, 4) and y.wins == proportion_ci(1, 4)
    (pair,) = result.pairs
    assert pair.games == 4 and pair.ahead is None
    assert pair.score_difference == mean_ci([3, 0, 8, 2])
    assert pair.completion_difference == mean_ci([0, 0, 0, 0], within=(-1, 1))  # none differed: as far as a rare one could


def test_printed_tables_name_the_pairs_and_the_anchor():
    game = parlour.load("decktet-golf", players=3)
    agents = [parlour.agent("random"), parlour.agent("random"), parlour.agent("heuristic")]
    labels = agent_labels([agent.spec for agent in agents])
    result = standings(tournament(game, agents, 6, seed=5), labels, 3, resamples=20)
    out = console(width=160)
    print_standings(result, out)
    text = out.file.getvalue()
    assert "6 games on 1 deals" in text and "anchor" in text and "equal agents: 33.3% each" in text
    assert "Pairwise results" in text
    for first, second in itertools.combinations(labels, 2):
        assert any(first in line and second in line for line in text.splitlines())
