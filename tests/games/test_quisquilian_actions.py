"""Quisquilian's runs and additions are interned only while something holds them."""

import random

import parlour
from parlour.games.quisquilian import actions


def play_games(count: int, seed: int = 0):
    game, rng = parlour.load("quisquilian"), random.Random(seed)
    for s in range(count):
        state = game.new_state(s)
        while not state.is_terminal():
            legal = state.legal_actions()
            yield state, legal
            state.apply(legal[rng.randrange(len(legal))])


def test_the_table_of_runs_and_additions_stays_bounded(monkeypatch):
    actions._sweep()
    held_elsewhere = len(actions._LIVING)  # by states other tests in this process still hold
    monkeypatch.setattr(actions, "SWEEP_FLOOR", held_elsewhere + 500)
    monkeypatch.setattr(actions, "SWEEP_AT", held_elsewhere + 500)
    largest = 0
    for _ in play_games(150):
        largest = max(largest, len(actions._LIVING))
    assert largest <= held_elsewhere + 500 + 200  # swept back whenever it reaches SWEEP_AT
    actions._sweep()
    assert len(actions._LIVING) <= held_elsewhere + 200  # what the last game still holds


def test_an_action_still_held_keeps_its_identity_across_sweeps(monkeypatch):
    monkeypatch.setattr(actions, "SWEEP_FLOOR", 100)
    monkeypatch.setattr(actions, "SWEEP_AT", 100)
    kept = None
    for state, legal in play_games(60):
        runs = [a for a in legal if a.kind_name == "run"]
        if kept is None and runs:
            kept = runs[0]
    assert kept is not None
    actions._sweep()
    assert actions.run(kept.cards) is kept  # the same object, so legality stays an identity check


def test_many_held_actions_cost_a_sweep_now_and_then_not_one_per_action(monkeypatch):
    monkeypatch.setattr(actions, "SWEEP_FLOOR", 100)
    monkeypatch.setattr(actions, "SWEEP_AT", 100)
    sweeps = []
    real = actions._sweep
    monkeypatch.setattr(actions, "_sweep", lambda: (sweeps.append(1), real()))
    held = [actions.add(card, 0, target, False) for card in range(52) for target in range(40)]
    assert len(held) == 2080 and len(sweeps) <= 6  # the threshold doubles after each sweep
