"""parlour.agent: specs, errors, and the random agent playing through views only."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour import OptionError
from parlour.core.view import View


def test_random_agent_from_its_spec() -> None:
    agent = parlour.agent("random")
    assert agent.name == "random" and agent.spec == "random"
    assert repr(agent) == "parlour.agent('random')"
    assert parlour.agent(" random ").spec == "random"
    assert parlour.agent("random:").spec == "random"


def test_random_agent_acts_legally_and_reproducibly() -> None:
    state = parlour.load("psalter-row").new_state(seed=2)
    view = state.view(0)
    agent = parlour.agent("random")
    picks = [agent.act(view, random.Random(k)) for k in range(40)]
    assert all(p in view.legal_actions for p in picks)
    assert picks == [agent.act(view, random.Random(k)) for k in range(40)]
    assert len({str(p) for p in picks}) > 1, "a random agent does not always pick the same action"


@pytest.mark.parametrize("name", parlour.game_names())
def test_random_agent_plays_whole_games_through_views(name: str) -> None:
    agent = parlour.agent("random")
    for seed in range(3):
        state = parlour.load(name).new_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            view = state.view(state.current_player)
            assert isinstance(view, View) and not hasattr(view, "state")
            state.apply(agent.act(view, rng))
        assert parlour.replay(state.record()).to_position() == state.to_position()


def test_unknown_agent_lists_the_agents() -> None:
    with pytest.raises(OptionError) as err:
        parlour.agent("randm")
    assert "'randm'" in str(err.value) and "random" in str(err.value)
    from parlour.agents import agent_names

    for name in agent_names():
        assert name in str(err.value)


def test_unknown_agent_parameter_is_named() -> None:
    with pytest.raises(OptionError) as err:
        parlour.agent("random:depth=3")
    assert "'depth'" in str(err.value) and "random" in str(err.value)


@pytest.mark.parametrize("spec", ["", "   ", "random:depth", None, 7])
def test_malformed_specs(spec: object) -> None:
    with pytest.raises(OptionError):
        parlour.agent(spec)  # type: ignore[arg-type]
