"""The game/state protocol shared by every game (core.game, core.view, core.errors)."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour import (
    IllegalAction,
    NotationError,
    OptionError,
    ParlourError,
    PositionError,
    RecordError,
)


def test_every_error_is_a_parlour_error_and_a_value_error() -> None:
    for error in (OptionError, NotationError, IllegalAction, RecordError, PositionError):
        assert issubclass(error, ParlourError) and issubclass(error, ValueError)
    assert len({OptionError, NotationError, IllegalAction, RecordError, PositionError}) == 5
    for name in ("ParlourError", "OptionError", "NotationError", "IllegalAction", "RecordError", "PositionError"):
        assert getattr(parlour, name).__name__ == name


@pytest.mark.parametrize("name", parlour.game_names())
def test_apply_returns_the_state_and_keeps_the_history(name: str) -> None:
    state = parlour.load(name).new_state(8)
    first = state.legal_actions()[0]
    assert state.apply(first) is state
    second = state.legal_actions()[-1]
    state.apply(str(second))
    assert [str(a) for a in state.history()] == [str(first), str(second)]
    assert state.clone().history() == state.history()


@pytest.mark.parametrize("name", parlour.game_names())
def test_legal_actions_are_stable_between_calls(name: str) -> None:
    state = parlour.load(name).new_state(8)
    assert [str(a) for a in state.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert state.legal_actions() is not state.legal_actions()


@pytest.mark.parametrize("name", parlour.game_names())
def test_the_view_of_the_player_to_act(name: str) -> None:
    state = parlour.load(name).new_state(4)
    seat = state.current_player
    view = state.view(seat)
    assert view.seat == seat and view.current_player == seat
    assert view.observation == state.observation(seat)
    assert [str(a) for a in view.legal_actions] == [str(a) for a in state.legal_actions()]
    assert view.game == state.game
    sample = view.sample(random.Random(0))
    assert sample is not state and sample.observation(seat) == view.observation
    assert view.sample(random.Random(0)).to_position() == sample.to_position()
    assert view.sample(random.Random(1)).to_position() != sample.to_position()


def test_a_sample_draws_a_fresh_chance_seed() -> None:
    # DESIGN.md "Chance": the sample must not keep the real seed (it would leak the
    # order of future shuffles).
    state = parlour.load("psalter-row").new_state(4)
    real = state.to_position()["chance"]
    chances = {state.view(0).sample(random.Random(k)).to_position()["chance"] for k in range(20)}
    assert real not in chances and len(chances) == 20


def test_a_rejected_action_explains_itself_and_changes_nothing() -> None:
    game = parlour.load("psalter-row")
    state = game.from_position({"row": ["3H", "4H"], "hand": ["10C", "2D", "QS", "8D", "AC"]})
    before = state.to_position()
    with pytest.raises(IllegalAction, match="a 2 and a Queen pay 5, the gap is 6"):
        state.apply("place 10C pay 2D QS")
    with pytest.raises(NotationError, match="expected"):
        state.apply("plaice 10C")
    with pytest.raises(IllegalAction, match="not in your hand"):
        state.apply("place 9S")
    assert state.to_position() == before


def test_stats_of_a_finished_game() -> None:
    state = parlour.load("psalter-row").new_state(6)
    rng = random.Random(6)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    stats = state.stats()
    assert stats["decisions"] == len(state.history())
    assert stats["end"] == state.end_reason and stats["score"] == state.scores()[0]
    assert stats["turns"] == stats["decisions"] - stats["n_discard"]
    assert sum(stats[f"n_{k}"] for k in ("place", "swap", "errand", "discard", "revise")) == stats["decisions"]


@pytest.mark.parametrize("name", parlour.game_names())
def test_a_seat_may_be_a_numpy_integer_and_no_other_kind_of_number(name: str) -> None:
    import numpy as np  # a test dependency (the envs and the analysis use it)
    state = parlour.load(name).new_state(seed=2)
    seat = state.game.num_players - 1
    assert state.observation(np.int64(seat)) == state.observation(seat)  # JSON-ready: the seat is a plain int
    assert type(state.observation(np.int64(seat))["seat"]) is int and state.view(np.int32(seat)).seat == seat
    assert state.observation_key(np.int64(seat)) == state.observation_key(seat)
    for bad in (np.float64(seat), True, "0", seat + 1, -1):
        with pytest.raises(parlour.ParlourError, match="does not exist"):
            state.observation(bad)
