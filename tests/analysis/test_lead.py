"""Who leads a game: by the scores, and in Quisquilian (whose scores only say who won) by the
ranks each seat's runs cover."""

from __future__ import annotations

import random
from itertools import pairwise

import parlour
from parlour.analysis.lead import LeadTrack, covered_ranks, leader, lead_track
from parlour.analysis.metrics import design_metrics
from parlour.analysis.simulate import play_out, simulate
from parlour.core.chance import derive_seed


def coverage_seen_by_a_spectator(state):
    """The ranks covered per seat, from the public observation (not what lead.py reads)."""
    return [len(ranks) for ranks in state.observation(None)["coverage"]]


def lead_by_hand(standings, decisions):
    """The figures the slow way: the leader after every decision, higher being better."""
    leaders = [leader(standing, lower_better=False) for standing in standings]
    held = [lead for lead in leaders if lead is not None]
    return {"midpoint_leader": leaders[decisions // 2], "lead_changes": sum(a != b for a, b in pairwise(held))}


def test_quisquilian_leads_are_read_from_the_ranks_covered():
    game = parlour.load("quisquilian", players=4)
    agents = [parlour.agent("random")] * 4
    rows = list(simulate(game, agents, games=12, seed=9))
    for row in rows:
        state = game.new_state(row["seed"])
        standings = [coverage_seen_by_a_spectator(state)]

        def watch(now, standings=standings):
            standings.append(coverage_seen_by_a_spectator(now))
            assert covered_ranks(now) == standings[-1]

        play_out(state, agents, random.Random(derive_seed(9, row["index"], "agents")), watch)
        expected = lead_by_hand(standings, len(standings) - 1)
        assert {key: row[key] for key in expected} == expected
    assert sum(row["lead_changes"] for row in rows) > 0  # it was always 0 when read from the scores
    assert any(row["midpoint_leader"] is not None for row in rows)


def test_quisquilian_gets_a_decisiveness_figure():
    game = parlour.load("quisquilian", players=3)
    rows = list(simulate(game, [parlour.agent("heuristic")] * 3, games=20, seed=4))
    metrics = design_metrics(rows)
    led = [row for row in rows if row["midpoint_leader"] is not None]
    assert metrics.decisiveness is not None and metrics.decisiveness.n == len(led) > 0
    assert metrics.lead_changes.mean > 0


def test_a_game_without_a_progress_is_tracked_by_its_scores():
    state = parlour.load("decktet-golf", players=3).new_state(seed=2)
    track, standing = lead_track(state)
    assert track.lower_better is None and standing(state) == state.scores()
    quis = parlour.load("quisquilian").new_state(seed=2)
    track, standing = lead_track(quis)
    assert track.lower_better is False and standing is covered_ranks


def test_a_known_direction_holds_without_a_winner():
    track = LeadTrack([0, 0, 0], lower_better=False)
    for standing in ([2, 0, 0], [2, 3, 0], [2, 3, 3], [4, 3, 3], [4, 3, 5]):
        track.see(standing)
    assert track.figures(winners=[]) == {"midpoint_leader": 1, "lead_changes": 3}  # 0, 1, (tie), 0, 2
    unknown = LeadTrack([0, 0])
    unknown.see([1, 0])
    assert unknown.figures(winners=[]) == {"midpoint_leader": None, "lead_changes": 0}
