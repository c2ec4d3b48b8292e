"""The IS-MCTS agent: budgets, the tree's statistics, sound choices, and never a hidden card."""

from __future__ import annotations

import math
import re
import random
import statistics

import pytest
from rules.test_psalter_row import make_state as psalter_state
from rules.test_quisquilian import OVERLAPPING, nine
from rules.test_quisquilian import make_state as quisquilian_state

import parlour
from parlour.agents.base import NO_SEARCH, Advice, Budget
from parlour.agents.heuristic import strategy
from parlour.agents.ismcts import (
    Edge,
    IsmctsAgent,
    Node,
    estimate,
    outcome,
    random_policy,
    rollout,
    soft_wins,
)

GAMES = [("psalter-row", {}), ("decktet-golf", {"players": 2, "rounds": 1}),
         ("decktet-golf", {"players": 4, "rounds": 1}), ("quisquilian", {"players": 3})]


def first_choice(game: parlour.Game, seed: int) -> parlour.State:
    """A state of ``game`` in which the player to move has two or more legal actions."""
    state, rng = game.new_state(seed), random.Random(seed)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
    return state


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_it_plays_whole_games_legally(name, options):
    game = parlour.load(name, **options)
    agent = parlour.agent("ismcts:iterations=8")
    state, rng = game.new_state(11), random.Random(1)
    while not state.is_terminal():
        seat = state.current_player
        action = agent.act(state.view(seat), rng)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.end_reason is not None


@pytest.mark.parametrize("spec", ["ismcts:iterations=60", "ismcts:iterations=60,bias=2,margin=8,keep=1"])
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_it_never_reads_hidden_cards(name, options, spec):
    """Two states that differ only in what the seat cannot know give the same choice."""
    game = parlour.load(name, **options)
    agent = parlour.agent(spec)
    for seed in range(3):
        state = first_choice(game, seed)
        seat = state.current_player
        other = state.view(seat).sample(random.Random(seed + 100))  # the hidden cards dealt anew
        assert other.observation(seat) == state.observation(seat)
        assert other.to_position() != state.to_position()
        chosen = agent.act(state.view(seat), random.Random(7))
        assert agent.act(other.view(seat), random.Random(7)) is chosen


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_an_iteration_budget_is_exact_and_availability_bounds_visits(name, options):
    state = first_choice(parlour.load(name, **options), 5)
    root = IsmctsAgent(iterations=40).search(state.view(state.current_player), random.Random(3))
    assert sum(child.visits for child in root.edges.values()) == 40
    assert set(root.edges) <= set(state.legal_actions())

    def check(node):
        for edge in node.edges.values():
            assert 1 <= edge.visits <= edge.available
            assert 0.0 <= edge.reward <= edge.visits
            for after in edge.after.values():
                check(after)
    check(root)


def test_a_time_budget_stops_the_search():
    state = first_choice(parlour.load("decktet-golf"), 2)
    root = IsmctsAgent(time=0.05).search(state.view(state.current_player), random.Random(0))
    assert sum(child.visits for child in root.edges.values()) >= 1
    # with both budgets, the first one reached stops it
    root = IsmctsAgent(time=60.0, iterations=5).search(state.view(state.current_player), random.Random(0))
    assert sum(child.visits for child in root.edges.values()) == 5


@pytest.mark.parametrize(("spec", "seconds", "iterations"), [
    ("ismcts", None, 1000), ("ismcts:time=2", 2.0, None), ("ismcts:iterations=50,time=0.5", 0.5, 50)])
def test_the_budget_is_what_stops_the_search(spec, seconds, iterations):
    assert parlour.agent(spec).budget() == Budget(seconds=seconds, iterations=iterations)


def test_a_capped_search_stops_at_the_cap_or_sooner_and_plays_as_before():
    assert parlour.agent("ismcts:iterations=100000000,time=3600").capped(5.0, 20_000).budget() == Budget(5.0, 20_000)
    assert parlour.agent("ismcts:time=3").capped(5.0, 20_000).budget() == Budget(3.0, 20_000)
    capped = parlour.agent("ismcts:iterations=40,c=0.3").capped(60.0, 20_000)
    assert capped.spec == "ismcts:iterations=40,time=60.0,c=0.3"
    state = first_choice(parlour.load("quisquilian"), 4)
    view = state.view(state.current_player)
    assert capped.act(view, random.Random(2)) is parlour.agent("ismcts:iterations=40,c=0.3").act(view, random.Random(2))


@pytest.mark.parametrize("spec", ["random", "heuristic"])
def test_an_agent_that_does_not_search_has_a_tiny_fixed_budget(spec):
    agent = parlour.agent(spec)
    assert agent.budget() == NO_SEARCH and agent.capped(0.1, 1) is agent


def test_an_agent_that_states_no_budget_is_unbounded():
    assert not parlour.agent("clairvoyant").budget().bounded


def test_it_takes_the_suited_psalter_over_the_mixed_one():
    state = psalter_state(row=["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"], hand=["10C", "10H", "3C", "AS", "QD"])
    assert {str(a) for a in state.legal_actions()} == {"place 10C high", "place 10H high", "errand AS"}
    assert str(parlour.agent("ismcts:iterations=200").act(state.view(0), random.Random(0))) == "place 10H high"


def test_it_takes_the_run_that_completes_the_set_and_wins_at_once():
    state = quisquilian_state(
        spots=nine(s1=["9H", "JH"], s4=["2S"]),
        hands=[["QH", "KH", "5S"], ["3S"], ["4S"], ["6S"]],
        runs=[OVERLAPPING, [], [], []],
        rest=4,
    )
    assert {str(a) for a in state.legal_actions()} == {"run JH@1 QH KH", "stop"}
    action = parlour.agent("ismcts:iterations=300").act(state.view(0), random.Random(0))
    assert str(action) == "run JH@1 QH KH"


def test_the_heuristic_rollout_plays_every_seat_by_the_strategy_to_the_end(monkeypatch):
    state = first_choice(parlour.load("quisquilian", players=4), 1)
    module = strategy("quisquilian")
    seats: list[int] = []

    def spy(view, rng, settings):
        seats.append(view.seat)
        return original(view, rng, settings)

    original = module.choose
    monkeypatch.setattr(module, "choose", spy)
    # The Python playouts (the kernels' playouts, the same games, are in tests/native/test_same_rows.py).
    root = IsmctsAgent(iterations=10, rollout="heuristic", engine="python").search(
        state.view(state.current_player), random.Random(2))
    assert sum(child.visits for child in root.edges.values()) == 10
    assert set(seats) == {0, 1, 2, 3} and len(seats) > 100  # ten whole games' worth of decisions


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_cut_playout_is_scored_by_the_heuristic_value(name, options):
    start = first_choice(parlour.load(name, **options), 3)
    state = start.clone()
    rollout(state, random_policy, 4, random.Random(0))
    rewards = estimate(state)
    assert len(rewards) == state.game.num_players and all(0.0 <= r <= 1.0 for r in rewards)
    if not state.is_terminal():
        value = strategy(name).value
        assert rewards == [value(state.observation(seat), seat) for seat in range(len(rewards))]
    root = IsmctsAgent(iterations=20, depth=0).search(start.view(start.current_player), random.Random(1))
    assert sum(child.visits for child in root.edges.values()) == 20


def test_outcome_shares_the_win_and_scales_the_solitaire_score():
    state = psalter_state(row=["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"], hand=["10C", "10H", "3C", "AS", "QD"])
    state.apply("place 10H high")
    assert outcome(state) == [1.0]  # 14, the best score there is
    golf, rng = parlour.load("decktet-golf", players=3).new_state(4), random.Random(4)
    while not golf.is_terminal():
        golf.apply(rng.choice(golf.legal_actions()))
    rewards = outcome(golf)
    assert sum(rewards) == pytest.approx(1.0 if golf.winners() else 0.0)
    assert all(rewards[seat] == 1 / len(golf.winners()) for seat in golf.winners())


@pytest.mark.parametrize(("spec", "words"), [
    ("ismcts:iterations=0", ["iterations='0'", "an integer 1 or more"]),
    ("ismcts:time=-1", ["time='-1'", "a number 0.001..3600.0"]),
    ("ismcts:time=soon", ["time='soon'", "a number"]),
    ("ismcts:rollout=greedy", ["rollout='greedy'", "'random', 'heuristic'"]),
    ("ismcts:depth=-1", ["depth='-1'", "an integer 0 or more or none"]),
    ("ismcts:deep=3", ["no option 'deep'", "iterations, time, rollout, depth, c"]),
])
def test_bad_parameters_say_what_is_allowed(spec, words):
    with pytest.raises(parlour.OptionError) as info:
        parlour.agent(spec)
    for word in words:
        assert word in str(info.value)


def test_the_spec_names_what_was_set():
    assert parlour.agent("ismcts:time=0.5,rollout=heuristic").spec == "ismcts:time=0.5,rollout=heuristic"
    assert parlour.agent("ismcts").spec == "ismcts"


def test_the_tree_splits_where_the_seat_learns_something_and_merges_the_others_moves():
    state, rng = parlour.load("decktet-golf", players=2, rounds=1).new_state(0), random.Random(0)
    while "draw" not in {str(a) for a in state.legal_actions()}:
        state.apply(rng.choice(state.legal_actions()))
    seat = state.current_player
    root = IsmctsAgent(iterations=300).search(state.view(seat), random.Random(0))
    draw = root.edges[state.game.parse_action(state, "draw")]
    assert len(draw.after) > 5  # a node per card the seat could draw: the plan depends on it
    assert all(key is not None for key in draw.after)
    for edge in (e for node in draw.after.values() for e in node.edges.values()):
        # after replacing or discarding, the other seat moves: one node, whatever it holds
        assert edge.player == seat and all(key is None for key in edge.after)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_bias_starts_the_search_from_the_heuristic_move(name, options):
    state = first_choice(parlour.load(name, **options), 6)
    view = state.view(state.current_player)
    root = IsmctsAgent(iterations=1, bias=1.0).search(view, random.Random(0))
    assert list(root.edges) == [root.hint] and root.hint in view.legal_actions
    heuristic = parlour.agent("heuristic")  # which breaks ties by its rng
    assert root.hint in {heuristic.act(view, random.Random(k)) for k in range(30)}
    assert IsmctsAgent(iterations=1).search(view, random.Random(0)).hint is None  # no bias, no heuristic call


def test_first_play_urgency_decides_when_a_new_move_is_tried():
    state = first_choice(parlour.load("psalter-row"), 2)
    view = state.view(0)
    assert len(view.legal_actions) > 2
    greedy = IsmctsAgent(iterations=40, fpu=0.0, bias=1.0).search(view, random.Random(0))
    assert list(greedy.edges) == [greedy.hint]  # nothing beats a tried move's UCB: no second move
    eager = IsmctsAgent(iterations=40, fpu=10.0).search(view, random.Random(0))
    assert set(eager.edges) == set(view.legal_actions)  # an untried move always comes first


def finished_golf(players: int, seed: int) -> parlour.State:
    golf, rng = parlour.load("decktet-golf", players=players, rounds=1).new_state(seed), random.Random(seed)
    while not golf.is_terminal():
        golf.apply(rng.choice(golf.legal_actions()))
    return golf


def test_a_margin_rewards_each_seat_by_its_soft_lead_over_each_opponent():
    golf = finished_golf(2, 5)
    (mine, theirs), winner = golf.scores(), golf.winners()[0]
    assert mine != theirs  # this deal has one winner
    rewards = outcome(golf, margin=8.0)
    lead = (theirs - mine) / 8.0  # lower is better in Decktet Golf
    assert rewards == pytest.approx([0.5 + 0.5 * math.tanh(lead), 0.5 - 0.5 * math.tanh(lead)])
    assert rewards[winner] > 0.5 > rewards[1 - winner]
    assert estimate(golf, 8.0) == rewards and outcome(golf) == [float(seat == winner) for seat in (0, 1)]
    four = finished_golf(4, 2)
    assert sum(outcome(four, margin=5.0)) == pytest.approx(2.0)  # each pair shares 1, over 3 opponents
    assert soft_wins([10, 10, 10], 4.0) == [0.5, 0.5, 0.5]
    assert soft_wins([0, 1], -2.0)[1] > 0.5  # a negative margin: higher is better


def test_a_margin_leaves_a_result_without_a_direction_to_the_winners():
    game = parlour.load("quisquilian", players=3)
    # (ended by the turn limit: a stalemate needs a bare board, QU-8, which a fresh deal is not)
    state = game.from_position({**game.new_state(1).to_position(), "end": "max_turns", "turns": 2000})
    assert state.is_terminal() and state.winners() == []  # nobody won: no way to tell
    assert outcome(state, margin=8.0) == [0.0, 0.0, 0.0]


def edge_with(rewards: list[float]) -> Edge:
    edge = Edge(0)
    for reward in rewards:
        edge.visits += 1
        edge.reward += reward
        edge.squares += reward * reward
    return edge


def test_an_edge_knows_the_spread_of_its_rewards():
    rewards = [0.2, 0.9, 0.4, 0.7, 0.5]
    edge = edge_with(rewards)
    assert edge.mean() == pytest.approx(statistics.mean(rewards))
    assert edge.variance() == pytest.approx(statistics.variance(rewards))
    assert edge_with([0.3]).variance() == 0.0 == edge_with([0.5, 0.5, 0.5]).variance()


def secure_root(kept: list[float], rival: list[float]) -> tuple[Node, str, str]:
    root = Node()
    root.hint = "kept"  # type: ignore[assignment]  # any hashable stands for an action here
    root.edges = {"kept": edge_with(kept), "rival": edge_with(rival)}  # type: ignore[dict-item]
    return root, "kept", "rival"


def test_keep_leaves_the_heuristic_move_only_on_evidence():
    noisy = [0.1, 0.9] * 5  # mean 0.5, standard error of the mean 0.13
    root, kept, rival = secure_root(noisy, [0.2, 1.0] * 5)  # 0.1 ahead: within the noise
    assert IsmctsAgent.secure(root, 1.0) == kept
    assert IsmctsAgent.secure(root, 0.0) == rival  # with no margin any lead will do
    root, kept, rival = secure_root(noisy, [0.9, 1.0] * 20)  # 0.45 ahead, 3.0 standard errors
    assert IsmctsAgent.secure(root, 2.9) == rival
    assert IsmctsAgent.secure(root, 3.1) == kept
    root, kept, rival = secure_root(noisy, [0.7, 0.7])  # no spread in two tries: judged by the kept one's
    assert IsmctsAgent.secure(root, 0.5) == rival  # 0.2 ahead, 0.61 standard errors of 0.33
    assert IsmctsAgent.secure(root, 0.7) == kept
    root, kept, rival = secure_root(noisy, [1.0])  # one visit has no spread: never preferred
    assert IsmctsAgent.secure(root, 0.0) == kept
    root, kept, rival = secure_root([0.0], [1.0, 1.0, 1.0])  # nor is the kept move left on one visit
    assert IsmctsAgent.secure(root, 0.0) == kept


def test_keep_plays_the_heuristic_move_when_the_search_is_too_short_to_judge(monkeypatch):
    state, rng = parlour.load("decktet-golf", players=2, rounds=1).new_state(0), random.Random(0)
    while "draw" not in {str(a) for a in state.legal_actions()}:
        state.apply(rng.choice(state.legal_actions()))
    view = state.view(state.current_player)
    heuristic = parlour.agent("heuristic").act(view, random.Random(0))  # take or draw: no ties to break
    assert parlour.agent("ismcts:iterations=1,keep=2").act(view, random.Random(3)) is heuristic
    root = IsmctsAgent(iterations=2, keep=2.0).search(view, random.Random(3))
    assert root.hint is heuristic and sum(edge.visits for edge in root.edges.values()) == 2
    agent = IsmctsAgent(time=0.001, keep=2.0)
    monkeypatch.setattr(agent, "search", lambda view, rng, root: root)  # the time ran out before one iteration
    assert agent.act(view, random.Random(3)) is heuristic


def test_a_tree_one_decision_deep_judges_the_root_moves_by_the_playouts_after_them():
    state = first_choice(parlour.load("decktet-golf", players=2, rounds=1), 4)
    root = IsmctsAgent(iterations=60, tree=1, rollout="heuristic").search(state.view(state.current_player),
                                                                         random.Random(0))
    assert sum(edge.visits for edge in root.edges.values()) == 60
    assert all(not edge.after for edge in root.edges.values())  # nothing grows below the root
    deep = IsmctsAgent(iterations=60, rollout="heuristic").search(state.view(state.current_player), random.Random(0))
    assert any(edge.after for edge in deep.edges.values())


def test_keep_asks_the_heuristic_first_with_the_generator_as_handed_in():
    # A Decktet Golf flip whose ties the heuristic breaks by its generator: with the same
    # generator, a search that keeps the heuristic's move makes the heuristic agent's choice.
    game, heuristic = parlour.load("decktet-golf", players=2, rounds=1), parlour.agent("heuristic")
    state = game.new_state(3)
    for _ in range(200):  # a tie comes within the first turns
        if len({heuristic.act(state.view(state.current_player), random.Random(k)) for k in range(8)}) > 1:
            break
        state.apply(heuristic.act(state.view(state.current_player), random.Random(0)))
    else:
        pytest.fail("no flip with a tie to break")
    view = state.view(state.current_player)
    kept = IsmctsAgent(iterations=3, rollout="heuristic", tree=1, keep=10.0)
    assert [kept.act(view, random.Random(k)) for k in range(8)] == [heuristic.act(view, random.Random(k))
                                                                    for k in range(8)]


def test_a_cap_of_none_leaves_that_bound_as_it_was():
    assert parlour.agent("ismcts:time=1").capped(None, 50).budget() == Budget(1.0, 50)
    assert parlour.agent("ismcts:iterations=70").capped(0.5, None).budget() == Budget(0.5, 70)
    assert parlour.agent("ismcts").capped(None, None).budget() == Budget(None, 1000)


@pytest.mark.parametrize(("spec", "words"), [
    ("ismcts:iterations=80", r"^wins \d+% of \d+ playouts; next best '[^']+' \d+% of \d+$"),
    ("ismcts:iterations=80,margin=8", r"^\d+% by score margin over \d+ playouts \(50% is level\); next best '[^']+' \d+% of \d+"),
])
@pytest.mark.parametrize(("name", "options"), [("decktet-golf", {"players": 2, "rounds": 1}), ("quisquilian", {"players": 3})])
def test_advice_is_the_move_it_plays_with_its_estimate_and_the_next_best(name, options, spec, words):
    agent = parlour.agent(spec)
    state = first_choice(parlour.load(name, **options), 6)
    view = state.view(state.current_player)
    advice = agent.advise(view, random.Random(3))
    assert advice.action is agent.act(view, random.Random(3))
    assert re.match(words, advice.reason), advice.reason
    _, root = agent.decide(view, random.Random(3))
    chosen = root.edges[advice.action]
    assert f" of {chosen.visits} playouts" in advice.reason or f" over {chosen.visits} playouts" in advice.reason
    others = [(edge.visits, edge.mean(), str(action)) for action, edge in root.edges.items()
              if action is not advice.action]
    visits, _, best = max(others, key=lambda other: other[:2])
    assert advice.reason.endswith(f"next best {best!r} {round(100 * root.edges[_named(root, best)].mean())}% of {visits}")


def _named(root: Node, notation: str):
    return next(action for action in root.edges if str(action) == notation)


def test_advice_in_the_solitaire_is_the_expected_score():
    state = first_choice(parlour.load("psalter-row"), 2)
    advice = parlour.agent("ismcts:iterations=60").advise(state.view(0), random.Random(1))
    assert re.match(r"^expected score -?\d+\.\d over \d+ playouts; next best '[^']+' -?\d+\.\d over \d+$", advice.reason)
    only, rng = parlour.load("psalter-row").new_state(3), random.Random(1)
    for _ in range(200):  # a random line to a decision with one legal move (29 moves in)
        if len(only.legal_actions()) == 1:
            break
        only.apply(rng.choice(only.legal_actions()))
    assert len(only.legal_actions()) == 1
    advice = parlour.agent("ismcts:iterations=60").advise(only.view(0), random.Random(1))
    assert advice == Advice(only.legal_actions()[0], "the only legal move")


def test_advice_says_when_keep_holds_to_the_strategys_move_against_a_better_mean():
    root = Node()
    kept, rival = object(), object()
    root.hint = kept
    root.edges[kept], root.edges[rival] = Edge(0), Edge(0)
    root.edges[kept].visits, root.edges[kept].reward = 10, 5.0
    root.edges[rival].visits, root.edges[rival].reward = 12, 7.0
    agent = parlour.agent("ismcts:keep=1.5")
    reason = agent.reason(root, kept, parlour.load("decktet-golf", players=2))
    assert reason == ("wins 50% of 10 playouts; next best " + repr(str(rival)) + " 58% of 12 (kept as the strategy's "
                      "move: no other is 1.5 standard errors ahead)")
    assert agent.reason(Node(), kept, parlour.load("decktet-golf", players=2)) is None  # never tried: no estimate
