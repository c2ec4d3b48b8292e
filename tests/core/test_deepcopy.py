"""copy.deepcopy of a state is its clone (what OpenSpiel copies Python game states with)."""

from __future__ import annotations

import copy
import random

import pytest

import parlour


@pytest.mark.parametrize("name", parlour.game_names())
def test_a_deep_copy_is_an_independent_clone_sharing_the_game(name: str) -> None:
    state = parlour.load(name).new_state(seed=11)
    rng = random.Random(3)
    for _ in range(5):
        state.apply(rng.choice(state.legal_actions()))
    twin = copy.deepcopy(state)
    assert type(twin) is type(state) and twin is not state
    assert twin.game is state.game  # the game is not copied (a plain deep copy would copy it)
    assert twin.to_position() == state.to_position() and twin.history() == state.history()
    before = state.to_position()
    twin.apply(rng.choice(twin.legal_actions()))
    assert state.to_position() == before and len(twin.history()) == len(state.history()) + 1


def test_a_deep_copy_inside_a_container_keeps_the_states_apart() -> None:
    state = parlour.load("decktet-golf").new_state(seed=2)
    held = {"a": state, "b": [state]}
    copied = copy.deepcopy(held)
    assert copied["a"] is copied["b"][0] is not state  # the memo keeps one copy for one state
    assert copied["a"].to_position() == state.to_position()
