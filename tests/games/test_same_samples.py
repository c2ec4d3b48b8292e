"""Samples are the very states the plain samplers dealt (tests/sample_reference.py): the same
cards in the same places, the same chance seed, every slot alike, the generator left in the
same state, for views of every game at every stage, for seats and spectators, one sample or
many from one view, whatever was done to the samples drawn before.

The fingerprints pin the samples themselves, as positions, with the generator's state after
each: recorded with the plain samplers (commit 12fe43e) before samples were sped up."""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from sample_reference import reference_sample, slots, views

import parlour

GAMES = ("psalter-row", "decktet-golf", "quisquilian")


def fast_sample(state, seat, rng):
    """What an agent in ``seat`` samples (``view.sample``); a spectator's, ``game.sample``."""
    if seat is None:
        return state.game.sample(state.observation(None), rng)
    return state.view(seat).sample(rng)


def play_on(state, rng, moves: int = 10) -> None:
    for _ in range(moves):
        if state.is_terminal():
            return
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", GAMES)
def test_samples_are_the_states_the_plain_sampler_deals(name):
    """Three samples from one view, each played on before the next is drawn (a search plays on
    its samples): each the reference's state, the generator as the reference left it."""
    compared = 0
    for label, state, seat in views(name, games=24, every=8, seed=1):
        obs = state.observation(seat)
        view = None if seat is None else state.view(seat)
        fast_rng, ref_rng, play_rng = random.Random(label), random.Random(label), random.Random(0)
        for k in range(3):
            fast = fast_sample(state, seat, fast_rng) if view is None else view.sample(fast_rng)
            ref = reference_sample(state.game, obs, ref_rng)
            assert slots(fast) == slots(ref), f"{label}: sample {k}"
            assert fast_rng.getstate() == ref_rng.getstate(), f"{label}: the generator after sample {k}"
            play_on(fast, play_rng)
            compared += 1
        if seat is not None:  # the game's own sample, for a seat too
            assert slots(state.game.sample(obs, random.Random(4))) == slots(
                reference_sample(state.game, obs, random.Random(4))), label
    assert compared > 300


def _views_show(name: str) -> dict[str, int]:
    """How many of the compared views show each case that a sampler treats apart."""
    found: dict[str, int] = {}

    def count(case: str, yes: bool) -> None:
        found[case] = found.get(case, 0) + bool(yes)

    for _, state, seat in views(name, games=24, every=8, seed=1):
        obs = state.observation(seat)
        count("spectator", seat is None)
        count("over", obs["end"] is not None)
        if name == "psalter-row":
            count("reshuffled", obs["reshuffled"])
            count("pending", obs["pending"] is not None)
        elif name == "decktet-golf":
            count("pile known", obs["pile_contents"] is not None)
            count("drawn card held by another", obs["drawn_from"] == "pile" and obs["drawn"] is None)
            count("drawn card seen", obs["drawn"] is not None)
            count("two rounds or more", obs["round"] > 1)
        else:
            count("two decks", state.game.decks == 2)
            count("cleared cards", obs["pile_contents"] is not None)
            count("earlier pools", "earlier_pools" in obs)
            count("several readings", "pool_readings" in obs)
            count("another seat digs", obs["phase"] == "dig" and obs["seat"] != obs["player"] and obs["end"] is None)
    return found


@pytest.mark.parametrize("name", GAMES)
def test_the_compared_views_show_every_case_a_sampler_treats_apart(name):
    found = _views_show(name)
    assert all(found.values()), f"{name}: no view shows {[case for case, n in found.items() if not n]}"


def fingerprint(name: str) -> str:
    """sha256 (16 hex digits) of two samples of each view (positions as canonical JSON) and
    the generator's state after each."""
    digest = hashlib.sha256()
    for label, state, seat in views(name, games=10, every=10, seed=2):
        for k in range(2):
            rng = random.Random(k)
            sample = fast_sample(state, seat, rng)
            digest.update(json.dumps(sample.to_position(), sort_keys=True).encode())
            digest.update(repr(rng.getstate()).encode())
    return digest.hexdigest()[:16]


#: Recorded with the plain samplers (commit 12fe43e).
FINGERPRINTS = {
    "psalter-row": "a26accc90465a496",
    "decktet-golf": "a25c8e49daccb3bf",
    "quisquilian": "2dad34d62d4b11b1",
}


@pytest.mark.parametrize("name", GAMES)
def test_samples_are_the_ones_recorded(name):
    assert fingerprint(name) == FINGERPRINTS[name]


def a_decision(name: str):
    """A state of a game in play (the seat to move decides)."""
    return next(state for _, state, seat in views(name, games=2, every=4, seed=5) if not state.is_terminal())


@pytest.mark.parametrize("name", GAMES)
def test_a_view_works_out_its_sampler_once(name, monkeypatch):
    state = a_decision(name)
    seat = state.current_player
    made = []
    sampling = type(state.game)._sampling
    real = sampling.sampler
    monkeypatch.setattr(sampling, "sampler", lambda game, obs: made.append(obs) or real(game, obs))
    view = state.view(seat)
    rng, ref_rng = random.Random(1), random.Random(1)
    for _ in range(4):
        assert slots(view.sample(rng)) == slots(reference_sample(state.game, state.observation(seat), ref_rng))
    assert made == [state.observation(seat)]


def _spoilt(name: str, obs: dict) -> dict:
    """The observation with one thing that no state shows: a Row out of order, suited lines
    outside the ontop phase, discards owed while digging."""
    obs = json.loads(json.dumps(obs))
    if name == "psalter-row":
        obs["row"] = ["9H", "4H"]
        obs["hand"] = [code for code in obs["hand"] if code not in ("9H", "4H")]
    elif name == "decktet-golf":
        obs["lines"] = ["2"]
    else:
        obs["phase"], obs["to_discard"] = "dig", 2
    return obs


@pytest.mark.parametrize("name", GAMES)
def test_a_sampler_of_an_impossible_observation_refuses_every_sample_as_the_plain_one_did(name):
    """The first sample is read as a position and checked in full: an observation no state
    shows is refused with the very error of the plain sampler, at every call."""
    state = a_decision(name)
    obs = _spoilt(name, state.observation(state.current_player))
    with pytest.raises(parlour.PositionError) as plain:
        reference_sample(state.game, obs, random.Random(3))
    sample = state.game.sampler(obs)
    for k in range(2):
        with pytest.raises(parlour.PositionError) as fast:
            sample(random.Random(3))
        assert str(fast.value) == str(plain.value), k


def test_samples_that_give_a_digging_player_a_dig_by_an_exchange_are_the_plain_ones(monkeypatch):
    """QU-10's last resort, an exchange of cards where redeals found no dig, gives the states
    the plain sampler gave: with one deal allowed instead of 5,000, it is reached often."""
    import sample_reference

    from parlour.games.quisquilian import sampling

    monkeypatch.setattr(sampling, "REDEALS", 1)
    monkeypatch.setattr(sample_reference, "REDEALS", 1)
    exchanged = []
    real = sampling._give_a_dig
    monkeypatch.setattr(sampling, "_give_a_dig", lambda *args: exchanged.append(1) or real(*args))
    compared = 0
    for label, state, seat in views("quisquilian", games=24, every=8, seed=1):
        obs = state.observation(seat)
        if not (obs["phase"] == "dig" and obs["seat"] != obs["player"] and obs["end"] is None):
            continue
        fast_rng, ref_rng = random.Random(label), random.Random(label)
        sample = state.game.sampler(obs)
        for k in range(3):
            assert slots(sample(fast_rng)) == slots(reference_sample(state.game, obs, ref_rng)), f"{label}: {k}"
            assert fast_rng.getstate() == ref_rng.getstate(), label
        compared += 1
    assert compared > 50 and len(exchanged) > 20, (compared, len(exchanged))
