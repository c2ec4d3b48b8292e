"""``state.observation_key(seat)`` tells states apart exactly as their observations do (the
text of each, as IS-MCTS compared them before it had the keys): over the states a search
meets, samples of one view and the moves after them, for the searching seat, another seat
and a spectator."""

from __future__ import annotations

import random

import pytest
from sample_reference import reference_key, views

import parlour

GAMES = ("psalter-row", "decktet-golf", "quisquilian")


def searched_states(name: str):
    """For each view: samples of it, and the same samples after the same first moves (by
    index), as a search walks them; with each state the view's seat."""
    for label, state, seat in views(name, games=12, every=10, seed=7):
        if seat is None or state.is_terminal():
            continue
        rng = random.Random(label)
        sample = state.view(seat).sample
        group = [sample(rng) for _ in range(6)]
        yield seat, group
        for depth in range(1, 4):
            after = []
            for s in group:
                s = s.clone()
                for _ in range(depth):
                    if s.is_terminal():
                        break
                    legal = s.legal_actions()
                    s.apply(legal[(depth * 7) % len(legal)])
                after.append(s)
            yield seat, after


@pytest.mark.parametrize("name", GAMES)
def test_keys_are_equal_exactly_when_observations_are(name):
    by_key: dict = {}
    by_text: dict = {}
    pairs = {"equal": 0, "unequal": 0}
    for seat, group in searched_states(name):
        others = [s for s in range(group[0].game.num_players) if s != seat]
        for who in (seat, *others[:1], None):
            texts = [reference_key(s, who) if who is not None else repr(s.observation(None)) for s in group]
            keys = [s.observation_key(who) for s in group]
            for text, key in zip(texts, keys):
                hash(key)
                assert by_key.setdefault((who, key), text) == text, f"{name}: one key for two observations"
                assert by_text.setdefault((who, text), key) == key, f"{name}: two keys for one observation"
            pairs["equal"] += sum(a == b for a in texts for b in texts) - len(texts)
            pairs["unequal"] += sum(a != b for a in texts for b in texts)
    assert pairs["equal"] > 500 and pairs["unequal"] > 500, pairs


def test_a_key_refuses_a_seat_that_does_not_exist():
    state = parlour.load("quisquilian", players=3).new_state(seed=1)
    with pytest.raises(parlour.ParlourError, match="seats 0..2"):
        state.observation_key(3)
