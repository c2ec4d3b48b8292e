"""What every agent owes: legal moves from a view only, and a clear refusal of a game it cannot play."""

from __future__ import annotations

import random

import pytest
from test_cli import one_line_error, run, runner  # noqa: F401  (runner is a fixture)

import parlour

GAMES = [("psalter-row", {}), ("decktet-golf", {"players": 3}), ("quisquilian", {"players": 5})]


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=20,bias=1,fpu=0.5,depth=3",
                                  "level:casual", "pimc:samples=3"])
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_fair_agent_chooses_the_same_whatever_the_hidden_cards_are(name, options, spec):
    game, agent = parlour.load(name, **options), parlour.agent(spec)
    state, rng = game.new_state(21), random.Random(21)
    for _ in range(30):
        while len(state.legal_actions()) < 2 and not state.is_terminal():
            state.apply(state.legal_actions()[0])
        if state.is_terminal():
            break
        seat = state.current_player
        other = state.view(seat).sample(random.Random(rng.random()))  # the hidden cards dealt anew
        assert other.to_position() != state.to_position() or name == "psalter-row"
        chosen = agent.act(state.view(seat), random.Random(5))
        assert agent.act(other.view(seat), random.Random(5)) is chosen
        # Its advice (a hint: the move and the reason shown) reads the view alone too.
        advice, twin = agent.advise(state.view(seat), random.Random(7)), agent.advise(other.view(seat), random.Random(7))
        assert twin.action is advice.action and twin.reason == advice.reason
        state.apply(chosen)


def test_an_agent_that_cannot_play_a_game_says_so_before_it_starts(runner, tmp_path):
    clairvoyant = parlour.agent("clairvoyant")
    clairvoyant.check(parlour.load("psalter-row"))
    with pytest.raises(parlour.OptionError, match="plays psalter-row only, not decktet-golf"):
        clairvoyant.check(parlour.load("decktet-golf"))
    result = run(runner, "play", "decktet-golf", "--seats", "human,clairvoyant", "--seed", "1",
                 "--record", str(tmp_path / "r.json"))
    one_line_error(result, "plays psalter-row only, not decktet-golf")
    assert "Seat 0" not in result.stdout and not (tmp_path / "r.json").exists()  # no table was drawn
    one_line_error(run(runner, "tournament", "decktet-golf", "--agents", "random,clairvoyant", "-n", "2"),
                   "plays psalter-row only")


def test_a_game_without_a_strategy_is_named_with_those_that_have_one():
    from parlour.agents.heuristic import strategy

    with pytest.raises(parlour.OptionError, match="no heuristic strategy for 'chess'.*decktet-golf, psalter-row, "
                                                  "quisquilian"):
        strategy("chess")
