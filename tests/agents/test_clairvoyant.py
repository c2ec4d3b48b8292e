"""The clairvoyant Psalter Row agent: legal whole games, the best line where only the
draw pile's order tells it, never a view, never another game, and above random."""

from __future__ import annotations

import random
import statistics

import pytest
from helpers import psalter_near_the_end as near_the_end

import parlour
from parlour.agents.clairvoyant import AnalysisOnlyError, best_line
from parlour.analysis.simulate import play_out

GAME = parlour.load("psalter-row")
#: Cheap settings for whole games: the tests check behaviour, not strength.
QUICK = "clairvoyant:level=1"


def brute_force(state: parlour.State) -> int:
    """The best final score over every line of play."""
    if state.is_terminal():
        return state.scores()[0]
    return max(brute_force(state.clone().apply(action)) for action in state.legal_actions())


def test_it_plays_whole_games_legally_and_reaches_the_score_it_planned():
    agent = parlour.agent(QUICK)
    for seed in range(3):
        state = GAME.new_state(seed)
        planned, _ = best_line(state, random.Random(seed), level=1)
        play_out(state, [agent], random.Random(seed))  # apply() refuses any illegal action
        assert state.is_terminal()
        assert state.scores()[0] == planned


def test_seated_mid_game_it_plans_again_and_finishes():
    state = GAME.new_state(11)
    rng = random.Random(11)
    for _ in range(8):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    play_out(state, [parlour.agent(QUICK)], rng)
    assert state.is_terminal()


def test_it_runs_the_errand_that_only_the_draw_pile_order_justifies():
    state = near_the_end("8D 2H 7D")
    assert brute_force(state) == 14
    assert brute_force(state.clone().apply("place 2C low")) == 9  # the obvious free move loses
    action = parlour.agent("clairvoyant").move(state, 0, random.Random(0))
    assert str(action) == "errand AS"
    score, line = best_line(state, random.Random(0))
    assert score == 14
    assert (str(line[0]), str(line[-1]), len(line)) == ("errand AS", "place 2H low", 3)  # any discard will do


def test_with_2h_out_of_reach_the_same_errand_is_worth_nothing():
    state = near_the_end("8D 7D 2H")
    assert brute_force(state) == 9
    assert best_line(state, random.Random(0))[0] == 9


def test_it_never_plays_from_a_view():
    state = GAME.new_state(3)
    with pytest.raises(AnalysisOnlyError, match="analysis only"):
        parlour.agent("clairvoyant").act(state.view(0), random.Random(0))
    assert issubclass(AnalysisOnlyError, parlour.ParlourError)


def test_another_game_is_refused_by_name():
    state = parlour.load("decktet-golf").new_state(1)
    seat = state.current_player
    with pytest.raises(parlour.OptionError, match="decktet-golf"):
        parlour.agent("clairvoyant").move(state, seat, random.Random(0))


def test_bad_parameters_say_what_is_allowed():
    with pytest.raises(parlour.OptionError, match="1..3"):
        parlour.agent("clairvoyant:level=4")


def test_its_mean_score_is_at_least_the_random_agents_on_the_same_deals():
    def mean_score(spec: str) -> float:
        agent = parlour.agent(spec)
        return statistics.mean(
            play_out(GAME.new_state(seed), [agent], random.Random(seed)).scores()[0] for seed in range(4)
        )

    assert mean_score(QUICK) >= mean_score("random")
