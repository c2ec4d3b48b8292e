"""The IS-MCTS agent: budgets, the tree's statistics, sound choices, and never a hidden card."""

from __future__ import annotations

import random

import pytest
from rules.test_psalter_row import make_state as psalter_state
from rules.test_quisquilian import OVERLAPPING, nine
from rules.test_quisquilian import make_state as quisquilian_state

import parlour
from parlour.agents.ismcts import IsmctsAgent, outcome

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


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_it_never_reads_hidden_cards(name, options):
    """Two states that differ only in what the seat cannot know give the same choice."""
    game = parlour.load(name, **options)
    agent = parlour.agent("ismcts:iterations=60")
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
    assert sum(child.visits for child in root.children.values()) == 40
    assert set(root.children) <= set(state.legal_actions())

    def check(node):
        for child in node.children.values():
            assert 1 <= child.visits <= child.available
            assert 0.0 <= child.reward <= child.visits
            check(child)
    check(root)


def test_a_time_budget_stops_the_search():
    state = first_choice(parlour.load("decktet-golf"), 2)
    root = IsmctsAgent(time=0.05).search(state.view(state.current_player), random.Random(0))
    assert sum(child.visits for child in root.children.values()) >= 1
    # with both budgets, the first one reached stops it
    root = IsmctsAgent(time=60.0, iterations=5).search(state.view(state.current_player), random.Random(0))
    assert sum(child.visits for child in root.children.values()) == 5


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


def test_the_heuristic_rollout_plays_to_the_end():
    state = first_choice(parlour.load("quisquilian", players=4), 1)
    root = IsmctsAgent(iterations=10, rollout="heuristic").search(state.view(state.current_player), random.Random(2))
    assert sum(child.visits for child in root.children.values()) == 10


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
    ("ismcts:depth=3", ["no option 'depth'", "iterations, time, rollout, c"]),
])
def test_bad_parameters_say_what_is_allowed(spec, words):
    with pytest.raises(parlour.OptionError) as info:
        parlour.agent(spec)
    for word in words:
        assert word in str(info.value)


def test_the_spec_names_what_was_set():
    assert parlour.agent("ismcts:time=0.5,rollout=heuristic").spec == "ismcts:time=0.5,rollout=heuristic"
    assert parlour.agent("ismcts").spec == "ismcts"
