"""Duplicate matches: a trial is the base game until the tried agent first differs."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.agents.base import Agent
from parlour.analysis.duplicate import duplicate_deal, play_seated, seat_results, summary
from parlour.core.chance import derive_seed

GAMES = [("psalter-row", {}), ("decktet-golf", {"players": 4, "rounds": 1}), ("quisquilian", {"players": 3})]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_base_agent_tried_against_itself_changes_nothing(name, options):
    game = parlour.load(name, **options)
    heuristic = parlour.agent("heuristic")
    rows = duplicate_deal(game, heuristic, heuristic, deal=2, seed=7)
    assert [row["seat"] for row in rows] == list(range(game.num_players))
    for row in rows:
        assert row["diverged"] is None
        assert all(row[f"{m}_trial"] == row[f"{m}_base"] for m in ("score", "ahead", "won"))


@pytest.mark.parametrize(("name", "options"), GAMES[1:])  # Psalter Row's heuristic draws on no generator
def test_a_search_that_keeps_the_heuristic_move_plays_the_base_game(name, options):
    # Two iterations can never show a rival ahead (it needs two tries of both), so the
    # search keeps the heuristic's move: which the heuristic's ties make by the seat's
    # generator, the same in the trial as in the base game.
    game = parlour.load(name, **options)
    kept = parlour.agent("ismcts:iterations=2,rollout=heuristic,tree=1,keep=10")
    rows = duplicate_deal(game, kept, parlour.agent("heuristic"), deal=3, seed=5)
    assert [row["diverged"] for row in rows] == [None] * game.num_players


def test_another_agent_leaves_the_base_game_and_its_results_are_its_own():
    game = parlour.load("decktet-golf", players=3, rounds=1)
    heuristic, rnd = parlour.agent("heuristic"), parlour.agent("random")
    rows = duplicate_deal(game, rnd, heuristic, deal=1, seed=3)
    assert all(row["diverged"] is not None for row in rows)
    base, _ = play_seated(game, [heuristic] * 3, deal=1, seed=3)
    for row in rows:
        trial, _ = play_seated(game, [rnd if s == row["seat"] else heuristic for s in range(3)], deal=1, seed=3)
        assert row["score_base"] == base.scores()[row["seat"]] and row["score_trial"] == trial.scores()[row["seat"]]
    assert rows == duplicate_deal(game, rnd, heuristic, deal=1, seed=3)  # the same rows every time


class Recorder(Agent):
    """Plays at random by its first draw from the seat's generator, and notes that draw."""

    name = "recorder"

    def __init__(self) -> None:
        super().__init__()
        self.draws: list[tuple[int, float]] = []

    def act(self, view, rng):
        draw = rng.random()
        self.draws.append((view.seat, draw))
        return view.legal_actions[int(draw * len(view.legal_actions))]


def test_each_seat_draws_on_a_generator_of_its_own_for_each_decision():
    recorder = Recorder()
    play_seated(parlour.load("decktet-golf", players=3, rounds=1), [recorder] * 3, deal=4, seed=1)
    made = [0, 0, 0]
    for seat, draw in recorder.draws:
        assert draw == random.Random(derive_seed(1, 4, seat, made[seat])).random()
        made[seat] += 1
    assert min(made) > 5


def test_seat_results_share_wins_and_count_level_finishes_half():
    state, _ = play_seated(parlour.load("decktet-golf", players=3, rounds=1), [parlour.agent("heuristic")] * 3,
                           deal=0, seed=1)
    scores, winners = state.scores(), state.winners()
    for seat in range(3):
        result = seat_results(state, seat)
        others = [s for s in range(3) if s != seat]
        behind = sum(1.0 if scores[seat] < scores[s] else 0.5 if scores[seat] == scores[s] else 0 for s in others)
        assert result["ahead"] == behind / 2  # lowest round points lead in Decktet Golf
        assert result["won"] == (1 / len(winners) if seat in winners else 0)


def test_a_solitaire_is_ahead_when_it_wins():
    state, _ = play_seated(parlour.load("psalter-row"), [parlour.agent("heuristic")], deal=0, seed=1)
    result = seat_results(state, 0)
    assert result["ahead"] == result["won"] == (1.0 if state.winners() == [0] else 0.0)


def test_the_interval_is_over_deals():
    def row(deal, seat, change):
        return {"deal": deal, "seat": seat, "diverged": None if change == 0 else 1, "score_base": 10,
                "score_trial": 10 + change, "ahead_base": 0.5, "ahead_trial": 0.5, "won_base": 0, "won_trial": 0}
    # seat changes of +2 and -2 cancel within each deal: no spread across deals at all
    rows = [row(d, s, 2 if s == 0 else -2) for d in range(5) for s in range(2)]
    result = summary(rows)
    # nothing to judge the spread by, and nothing bounds a score's change: no interval (not the point)
    assert (result["score"].mean, result["score"].low, result["score"].high, result["score"].n) == (0, None, None, 5)
    assert result["diverged"].mean == 1.0
