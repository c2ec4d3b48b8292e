"""PIMC: every move tried on the same samples; it plays the odds it can see, never the order it cannot."""

from __future__ import annotations

import random

import pytest
from helpers import psalter_near_the_end as near_the_end

import parlour
from parlour.agents.base import Budget
from parlour.agents.pimc import RACE_FROM, PimcAgent

GAME = parlour.load("psalter-row")


@pytest.mark.parametrize("pile", ["8D 2H 7D", "8D 7D 2H"])
@pytest.mark.parametrize("level", [0, 1])
def test_it_runs_the_errand_that_the_odds_justify_wherever_2h_lies(pile, level):
    # Two of the three unseen cards are drawn: 2H comes with odds 2/3, worth 14 against the
    # certain 9. The clairvoyant sees that 2H lies third in the second pile and calls the Errand
    # worthless there (test_clairvoyant.py); a fair agent cannot know, and plays the odds.
    state = near_the_end(pile)
    agent = parlour.agent(f"pimc:samples=300,level={level}")
    advice = agent.advise(state.view(0), random.Random(0))
    assert str(advice.action) == "errand AS"
    after = "the heuristic" if level == 0 else "a search that sees each sample's draws"
    assert advice.reason.startswith(f"after it {after} scores 12.3 over 300 samples")  # 14 * 2/3 + 9 / 3
    assert advice.reason.endswith("; next best 'place 2C low' 9.0")


def test_with_two_cards_left_the_errand_ends_the_game_and_the_psalter_is_bound_at_once():
    # The Errand would empty the pile a second time: the game ends before the Page is placed
    # (PR-11), a Row of 8 one-suit Pages scoring 9 at best; placing 2C is as good and certain.
    state = near_the_end("8D 7D")
    action = parlour.agent("pimc:samples=10").act(state.view(0), random.Random(0))
    assert str(action) == "place 2C low"


def test_every_move_is_judged_on_the_same_samples():
    # Two samples: each move's total is over the very same two determinizations, so a move
    # that is the same as another on every sample (two payments of one gap with worthless
    # cards) gets the same total.
    view = GAME.new_state(5).view(0)
    agent = parlour.agent("pimc:samples=2")
    action, totals, samples = agent.decide(view, random.Random(3))
    assert samples == 2 and set(totals) == set(view.legal_actions) and action in totals
    assert totals[action] == max(totals.values())


def test_moves_equal_over_the_samples_tie_and_the_first_is_played(monkeypatch):
    # The first move's rewards 0.3, 0.2, 0.1 and the second's 0.1, 0.2, 0.3 are equal over the
    # three samples, but their float sums are a last bit apart: still a tie, to the first.
    view = GAME.new_state(5).view(0)
    first, second = view.legal_actions[:2]
    rewards = {first: [0.3, 0.2, 0.1], second: [0.1, 0.2, 0.3]}
    calls = []

    def worth_after(self, state, seat, rng, deadline):
        action = state.history()[-1]
        calls.append(action)
        return rewards.get(action, [0.0] * 3)[calls.count(action) - 1]

    monkeypatch.setattr(PimcAgent, "_worth_after", worth_after)
    # (The kernel's search breaks ties the same way: tests/native/test_search.py.)
    action, totals, samples = parlour.agent("pimc:samples=3,engine=python").decide(view, random.Random(0))
    assert samples == 3 and totals[second] > totals[first]
    assert action is first


def test_budget_cap_and_spec():
    assert parlour.agent("pimc").budget() == Budget(None, 200)
    assert parlour.agent("pimc:samples=50,time=3").capped(2.0, 80).budget() == Budget(2.0, 50)
    assert parlour.agent("pimc:time=1").capped(None, 30).spec == "pimc:samples=30,time=1.0"
    view = GAME.new_state(2).view(0)
    capped = parlour.agent("pimc:samples=6").capped(60.0, None)
    assert capped.act(view, random.Random(1)) is parlour.agent("pimc:samples=6").act(view, random.Random(1))


def test_a_clock_too_short_for_one_sample_still_finishes_one():
    view = GAME.new_state(2).view(0)
    _, _, samples = parlour.agent("pimc:time=0.001,samples=1000").decide(view, random.Random(0))
    assert 1 <= samples < 1000


def test_the_only_legal_move_is_played_without_search():
    one = GAME.from_position({"row": ["5H"], "hand": ["6H"]})
    assert len(one.legal_actions()) == 1
    action, _, samples = parlour.agent("pimc").decide(one.view(0), random.Random(0))
    assert str(action) == "place 6H high" and samples == 0
    assert parlour.agent("pimc").advise(one.view(0), random.Random(0)).reason == "the only legal move"


def test_a_nested_search_needs_a_solitaire_and_says_so():
    agent = parlour.agent("pimc:level=1")
    agent.check(GAME)
    with pytest.raises(parlour.OptionError, match="one-player game only, not decktet-golf.*use level=0"):
        agent.check(parlour.load("decktet-golf"))
    parlour.agent("pimc").check(parlour.load("decktet-golf", players=3))
    with pytest.raises(parlour.OptionError, match="0..2"):
        parlour.agent("pimc:level=3")


def test_it_plays_other_games_for_its_own_seat():
    game = parlour.load("decktet-golf", players=2)
    state = game.new_state(4)
    view = state.view(state.current_player)
    advice = parlour.agent("pimc:samples=3").advise(view, random.Random(0))
    assert advice.action in view.legal_actions and "mean reward" in advice.reason


def test_a_race_drops_the_moves_left_behind_and_samples_only_the_rest(monkeypatch):
    # From the 4th sample on, a move whose paired difference from the leader is below 0 by
    # `race` standard errors is dropped: the third move (always 0.25 below the first) goes at
    # the 4th sample; the second (0.1 below once, level otherwise) stays within 2 errors.
    view = GAME.new_state(5).view(0)
    first, second, third = view.legal_actions[:3]
    rewards = {first: 0.5, third: 0.25}
    seen = []

    def worth_after(self, state, seat, rng, deadline):
        action = state.history()[-1]
        seen.append(action)
        if action == second:
            return 0.4 if seen.count(second) == 2 else 0.5
        return rewards.get(action, 0.0)

    monkeypatch.setattr(PimcAgent, "_worth_after", worth_after)
    action, totals, samples = parlour.agent("pimc:samples=10,race=2,engine=python").decide(view, random.Random(0))
    assert samples == 10 and set(totals) == {first, second} and action is first
    assert seen.count(third) == 4 and seen.count(first) == seen.count(second) == 10
    assert totals[first] == 5.0 and totals[second] == pytest.approx(4.9)


def test_a_race_ends_when_one_move_is_left():
    # Near the end the Errand's 2/3 chance of a one-suit Psalter beats the certain mixed one
    # sample by sample: the race drops the placement and stops, long before 300 samples; the
    # hint then names no next best. The kernel runs the same race (tests/native/test_search.py).
    state = near_the_end("8D 2H 7D")
    for engine in ("native", "python"):
        agent = parlour.agent(f"pimc:samples=300,race=2,engine={engine}")
        action, totals, samples = agent.decide(state.view(0), random.Random(0))
        assert str(action) == "errand AS" and list(totals) == [action] and RACE_FROM <= samples < 300
        reason = agent.advise(state.view(0), random.Random(0)).reason
        assert reason.startswith("after it the heuristic scores ") and "next best" not in reason
        assert reason.endswith(f"over {samples} samples; 1 move fell behind in the race")


def test_a_race_is_a_non_negative_number_of_standard_errors():
    assert parlour.agent("pimc:race=1.5").settings["race"] == 1.5
    for bad in ("-1", "x"):
        with pytest.raises(parlour.OptionError, match="race"):
            parlour.agent(f"pimc:race={bad}")
