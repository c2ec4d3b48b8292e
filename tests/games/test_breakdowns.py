"""The end-of-game breakdown each game gives (``Game.breakdown``): one entry per seat whose
summary reads as a sentence about that seat (no 0-based seat number, "1 point" not "1 points")."""

from __future__ import annotations

import random

import pytest

import parlour

GAMES = [("psalter-row", {}), ("decktet-golf", {"players": 3, "rounds": 1}), ("quisquilian", {"players": 3})]


def finished(name, options, seed):
    state = parlour.load(name, **options).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name, options", GAMES)
def test_one_entry_per_seat_with_its_score(name, options):
    for seed in range(5):
        state = finished(name, options, seed)
        rows = state.game.breakdown(state.observation(None))
        assert [row["seat"] for row in rows] == list(range(state.game.num_players))
        assert [row["score"] for row in rows] == state.scores()
        for row in rows:
            assert not row["summary"].lower().startswith("seat"), row["summary"]
            assert " 1 points" not in row["summary"] and " 1 match points" not in row["summary"]


def test_the_summaries_say_what_each_seat_did():
    golf = parlour.load("decktet-golf", players=2)
    obs = {"totals": [1, 12], "round_scores": [[1, 12]], "last_round_layouts": None}
    assert [row["summary"] for row in golf.breakdown({**golf.new_state(1).observation(None), **obs})] == [
        "1 match point (lower is better)", "12 match points (lower is better)"]
    state = finished("quisquilian", {"players": 3}, 2)
    summaries = [row["summary"] for row in state.game.breakdown(state.observation(None))]
    for seat, summary in enumerate(summaries):
        assert summary == "covered Ace to King and won" if seat in state.winners() else summary.endswith("/13 ranks covered")
