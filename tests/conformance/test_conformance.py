"""The shared conformance suite: every registered game, every check, every option value.

The default run plays a random subset of the option combinations (still showing every
value of every option); ``pytest -m slow tests/conformance`` soaks every combination
over thousands of playouts. Game-specific knowledge is in ``adapters.py`` only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from adapters import ADAPTERS
from codec_checks import CODEC_CHECKS
from conformance_harness import (
    CHECKS as HARNESS_CHECKS,
    FAST,
    SOAK,
    accepted,
    all_option_combos,
    fingerprint,
    option_combos,
    option_samples,
    plan,
    playouts,
    refused_combos,
    start_combos,
)

import parlour

GAMES = parlour.game_names()
CHECKS = {**HARNESS_CHECKS, **CODEC_CHECKS}
HERE = Path(__file__).resolve().parent


def _needs_adapter(name: str) -> None:
    if name not in ADAPTERS:
        pytest.skip(f"{name} has no adapter yet (test_every_game_has_an_adapter fails until it has)")


def _run(name: str, check: str, run: str) -> None:
    _needs_adapter(name)
    for p in playouts(name, run):
        CHECKS[check](p)


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("name", GAMES)
def test_conformance(name: str, check: str) -> None:
    _run(name, check, FAST)


@pytest.mark.slow
@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("name", GAMES)
def test_soak(name: str, check: str) -> None:
    _run(name, check, SOAK)


def test_every_game_has_an_adapter() -> None:
    assert GAMES, "no game is registered"
    missing = [name for name in GAMES if name not in ADAPTERS]
    assert not missing, f"add an Adapter to tests/conformance/adapters.py for {missing}"


@pytest.mark.parametrize("name", GAMES)
def test_soak_covers_every_option_combination(name: str) -> None:
    _needs_adapter(name)
    expected = 1
    for _, values in option_samples(name):
        expected *= len(values)
    assert len(all_option_combos(name)) == expected
    combos = option_combos(name)
    assert len(combos) + len(refused_combos(name)) == expected
    soak = plan(name, SOAK)
    everything = {json.dumps(c, sort_keys=True) for c in combos}
    assert {json.dumps(item.options, sort_keys=True) for item in soak if item.start is None} == everything
    for start in range(len(ADAPTERS[name].start_positions)):
        expected_starts = {json.dumps(c, sort_keys=True) for c in start_combos(name, start)}
        assert {json.dumps(item.options, sort_keys=True) for item in soak if item.start == start} == expected_starts
    assert all(accepted(name, item.options) for item in soak)
    assert len(soak) >= ADAPTERS[name].soak_playouts
    assert len({item.seed for item in soak}) > 0.99 * len(soak), "playout seeds should differ"


@pytest.mark.parametrize("name", GAMES)
def test_fast_run_shows_every_option_value(name: str) -> None:
    _needs_adapter(name)
    fast = plan(name, FAST)
    assert len(fast) >= ADAPTERS[name].fast_playouts
    for option, values in option_samples(name):
        shown = {json.dumps(item.options[option]) for item in fast if item.start is None}
        assert shown == {json.dumps(v) for v in values}, option
    assert all(accepted(name, item.options) for item in fast)
    assert plan(name, FAST) == fast and len(playouts(name, FAST)) == len(fast)


@pytest.mark.parametrize("name", GAMES)
def test_fast_run_reaches_every_end_reason(name: str) -> None:
    _needs_adapter(name)
    reached = set()
    for p in playouts(name, FAST):
        state = p.new_state()
        for index in p.choices:
            state.apply(state.legal_actions()[index])
        reached.add(state.end_reason)
    assert ADAPTERS[name].end_reasons <= reached, f"never reached: {ADAPTERS[name].end_reasons - reached}"


@pytest.mark.parametrize("name", GAMES)
def test_start_positions_are_lawful(name: str) -> None:
    _needs_adapter(name)
    for pos in ADAPTERS[name].start_positions:
        state = parlour.load(name).from_position(pos)
        ADAPTERS[name].invariants(state)
        assert not state.is_terminal()


def _as_text(options: dict) -> dict:
    return {k: "none" if v is None else str(v) for k, v in options.items()}


def _shown(value: object) -> str:
    return "none" if value is None else str(value).lower()


@pytest.mark.parametrize("name", GAMES)
def test_every_sample_option_value_loads_also_as_text(name: str) -> None:
    """Each combination the game accepts loads typed and as command-line text, to the same
    game; one it refuses (values allowed alone but not together) is refused as text too."""
    for options in option_combos(name):
        game = parlour.load(name, **options)
        assert game.options == {**game.options, **options}
        assert game.name == name
        json.dumps(game.options)
        as_text = _as_text(options)
        assert parlour.load(name, **as_text) == game, as_text
    for options, _ in refused_combos(name):
        with pytest.raises(parlour.OptionError):
            parlour.load(name, **_as_text(options))
    # Every sample value is playable with some other values.
    for option, values in option_samples(name):
        for value in values:
            assert any(c[option] == value for c in option_combos(name)), f"{option}={value!r} never loads"


@pytest.mark.parametrize("name", GAMES)
def test_refused_option_combinations_name_the_allowed_values(name: str) -> None:
    """DESIGN.md "Core API": a bad value's OptionError says the allowed ones. A combination
    refused as a whole names an option and its refused value (``name=value``) and a value
    of that option that the game would accept with the other options unchanged."""
    for options, message in refused_combos(name):
        assert message, options
        named = [k for k, v in options.items() if f"{k}={_shown(v)}" in message.lower()]
        assert named, f"{options}: the refusal names no option=value: {message!r}"
        fixes = {
            k: [v for _, values in option_samples(name) if _ == k for v in values
                if v != options[k] and accepted(name, {**options, k: v})]
            for k in named
        }
        assert any(
            f"{k}={_shown(v)}" in message.lower() or f"{k}: {_shown(v)}" in message.lower()
            for k in named for v in fixes[k]
        ), f"{options}: the refusal names none of the allowed values {fixes}: {message!r}"


@pytest.mark.parametrize("name", GAMES)
def test_seats_out_of_range_are_refused(name: str) -> None:
    state = parlour.load(name).new_state(seed=11)
    n = state.game.num_players
    for seat in (-1, n, n + 5):
        with pytest.raises(parlour.ParlourError):
            state.observation(seat)
        with pytest.raises(parlour.ParlourError):
            state.view(seat)


@pytest.mark.parametrize("name", GAMES)
def test_same_game_in_other_processes(name: str) -> None:
    """No dependence on hash randomisation or process state (DESIGN.md "Chance")."""
    _needs_adapter(name)
    here = fingerprint(name)
    code = (
        f"import sys; sys.path[:0] = [{str(HERE)!r}, {str(HERE.parent)!r}]; "  # the harness and tests/helpers
        f"from conformance_harness import fingerprint; print(fingerprint({name!r}))"
    )
    for hash_seed in ("1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == here, f"PYTHONHASHSEED={hash_seed} plays another game"


@pytest.mark.parametrize("name", GAMES)
def test_different_seeds_give_different_games(name: str) -> None:
    game = parlour.load(name)
    starts = {json.dumps(game.new_state(seed).to_position(), sort_keys=True) for seed in range(20)}
    assert len(starts) == 20
