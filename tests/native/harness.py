"""The differential check of a native kernel against the Python engine, decision by decision.

:func:`check_same_game` plays a state to its end in a kernel, writing down every decision
(the seat to move, the legal actions' notation in order, the one chosen), then plays it
again in Python with the Python agents drawing from the same generator, and fails at the
first decision where the two differ: the seat, the legal actions, or the agent's choice.
At the end the outcome (scores, winners, end reason, every ``stats()`` figure and its type),
the lead figures, the generator's state and the replayed record must agree too.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import parlour
import parlour.native
from parlour.analysis.lead import lead_track
from parlour.core.game import State
from parlour.native.runner import Played


def kernel_of(name: str):
    kernel = parlour.native.kernel(name)
    assert kernel is not None, f"no native kernel for {name}: {parlour.native.status()}"
    return kernel


def check_same_game(state: State, agents: Sequence[Any], seed: int) -> Played:
    """Play ``state`` (left as it is) in the kernel and in Python from ``random.Random(seed)``
    for the agents; assert they play the same game. The kernel's game."""
    kernel = kernel_of(state.game.name)
    native_rng, python_rng = random.Random(seed), random.Random(seed)
    played = kernel.play_from(state, agents, native_rng, record=True, trace=True, lead=True)
    game = state.clone()
    track, standing = lead_track(game)
    assert played.trace is not None and played.first_player == game.current_player
    for step, decision in enumerate(played.trace):
        where = f"{state.game.name} {dict(state.game.options)} decision {step}"
        assert game.current_player == decision.seat, f"{where}: seat {decision.seat} moved, not {game.current_player}"
        legal = [str(action) for action in game.legal_actions()]
        assert decision.legal == legal, f"{where}: legal actions differ\n{_difference(decision.legal, legal)}"
        action = agents[decision.seat].move(game, decision.seat, python_rng)
        assert str(action) == decision.legal[decision.chosen], (
            f"{where}: the kernel chose {decision.legal[decision.chosen]!r}, the agent {str(action)!r}")
        game.apply(action)
        track.see(standing(game))
    assert game.is_terminal(), f"the kernel stopped after {len(played.trace)} decisions; Python goes on"
    assert played.decisions == len(played.trace)
    check_outcome(game, played)
    if game.game.num_players > 1:
        assert played.lead is not None
        assert played.lead.figures(game.winners()) == track.figures(game.winners())
    assert native_rng.getstate() == python_rng.getstate(), "the kernel drew from the generator differently"
    replayed = parlour.replay(played.record(state))
    assert replayed.to_position() == game.to_position()
    return played


def check_outcome(game: State, played: Played) -> None:
    """The kernel's outcome is exactly the finished Python game's (values and types)."""
    scores, winners, end, stats = played.outcome
    assert _typed(scores) == _typed(game.scores())
    assert winners == game.winners()
    assert end == game.end_reason
    assert list(stats) == list(game.stats()), "the stats' keys (and their order) differ"
    assert _typed(stats) == _typed(game.stats())


def _typed(value: Any) -> Any:
    """A value with the type of every number in it, so that 1 and 1.0 and True differ."""
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_typed(item) for item in value]
    return (type(value).__name__, value)


def _difference(native: list[str], python: list[str]) -> str:
    for at, (a, b) in enumerate(zip(native, python)):
        if a != b:
            return f"first at {at}: native {a!r}, python {b!r} ({len(native)} vs {len(python)} actions)"
    return f"native has {len(native)} actions, python {len(python)}: {native[len(python):][:3]} / {python[len(native):][:3]}"


def mid_game(state: State, moves: int, rng: random.Random) -> State:
    """``state`` after up to ``moves`` random legal actions (stopping at the end)."""
    state = state.clone()
    for _ in range(moves):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state
