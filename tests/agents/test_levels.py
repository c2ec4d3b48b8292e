"""The named levels: every game has the ladder, each level plays legal moves from a view only,
thinks within its bound, is capped like any agent, and an unknown level lists the levels."""

from __future__ import annotations

import random
import re

import pytest

import parlour
from parlour.agents.base import NO_SEARCH, Budget
from parlour.agents.levels import LEVELS, Level, LevelAgent, find, level_names, strongest, widest

GAMES = [("psalter-row", {}), ("decktet-golf", {"players": 2, "rounds": 1}), ("quisquilian", {"players": 4})]
#: A level held to a few iterations a decision, so that whole games stay quick here.
QUICK = ",iterations=4"


def test_every_game_has_at_least_four_levels_weakest_first():
    assert level_names()[:2] == ["novice", "casual"] and level_names()[-2:] == ["strong", "expert"]
    assert len(LEVELS) >= 4 and len(set(level_names())) == len(LEVELS)
    assert strongest() is LEVELS[-1]
    for level in LEVELS:
        assert set(level.agents) >= set(parlour.game_names()), level.name
        assert level.summary and "\n" not in level.summary and len(level.summary) <= 100


@pytest.mark.parametrize("level", level_names())
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_level_plays_a_whole_game_legally_as_its_agent_for_that_game(name, options, level):
    game = parlour.load(name, **options)
    agent = parlour.agent(f"level:{level}{QUICK}")
    agent.check(game)
    inner = agent.agent_for(name)
    assert not inner.cheats
    assert inner.spec.split(":")[0] == find(level).spec_for(name).split(":")[0]
    state, rng = game.new_state(3), random.Random(3)
    while not state.is_terminal():
        action = agent.move(state, state.current_player, rng)
        assert action in state.legal_actions()
        state.apply(action)


@pytest.mark.parametrize("level", level_names())
def test_each_level_thinks_at_most_its_bound_and_never_more_than_2_s(level):
    agent = parlour.agent(f"level:{level}")
    bound = find(level).seconds
    assert bound <= (2.0 if level == "expert" else 1.0)
    assert agent.budget().bounded and agent.budget().seconds is not None and agent.budget().seconds <= bound
    for game in parlour.game_names():
        own = agent.agent_for(game).budget()
        assert own.seconds is not None and own.seconds <= bound, (game, own)


def test_the_budget_bounds_every_game():
    assert widest([NO_SEARCH, Budget(1.0, None), Budget(0.5, 300)]) == Budget(1.0, None)
    assert widest([Budget(1.0, 20), Budget(None, 50)]) == Budget(None, 50)  # one game without a time bound
    assert parlour.agent("level:casual").budget() == NO_SEARCH
    assert parlour.agent("level:expert").budget() == Budget(2.0, 10000)  # the widest: Decktet Golf's expert
    assert parlour.agent("level:expert,iterations=30").budget() == Budget(2.0, 30)


def test_capping_a_level_caps_the_agent_it_plays_and_leaves_a_level_that_does_not_search():
    casual = parlour.agent("level:casual")
    assert casual.capped(0.5, 10) is casual
    capped = parlour.agent("level:strong").capped(5.0, 20)
    assert isinstance(capped, LevelAgent) and capped.budget() == Budget(1.0, 20)
    assert all(capped.agent_for(game).budget().iterations == 20 for game in parlour.game_names())
    tighter = parlour.agent("level:expert,time=0.3").capped(5.0, 20)
    assert tighter.budget() == Budget(0.3, 20) and tighter.spec == "level:expert,time=0.3,iterations=20"
    # the same play as the level's own agent, held to the same iterations
    state = parlour.load("quisquilian").new_state(8)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    inner = parlour.agent(find("strong").spec_for("quisquilian")).capped(1.0, 20)
    assert capped.act(view, random.Random(4)) is inner.act(view, random.Random(4))


@pytest.mark.parametrize(("spec", "made"), [
    ("level:strong", "level:strong"), ("level: Casual ", "level:casual"),
    ("level:expert,time=0.5,iterations=40", "level:expert,time=0.5,iterations=40"),
    ("level:novice,level=novice", "level:novice"), ("level:level=expert", "level:expert"),
])
def test_a_level_spec_makes_the_same_agent_again(spec, made):
    agent = parlour.agent(spec)
    assert agent.spec == made and parlour.agent(made).spec == made


@pytest.mark.parametrize(("spec", "words"), [
    ("level:grandmaster", "there is no level 'grandmaster': the levels are novice, casual, strong, expert"),
    ("level", "a level spec names its level: level:novice .. level:expert"),
    ("level:", "a level spec names its level"),
    ("level:strong,depth=3", "agent level has no option 'depth': its options are level, time, iterations"),
    ("level:strong,time=0", "agent level option time='0' is not allowed: expected a number 0.001..3600.0"),
    ("level:strong,casual", "option 'casual' is not of the form key=value"),
])
def test_an_unknown_level_or_option_is_refused_saying_what_exists(spec, words):
    with pytest.raises(parlour.OptionError, match=re.escape(words)):
        parlour.agent(spec)


def test_a_level_without_an_agent_for_a_game_says_which_games_it_plays():
    level = Level("tiny", 1.0, "one game only", {"psalter-row": "random"})
    assert level.spec_for("psalter-row") == "random"
    with pytest.raises(parlour.OptionError, match="level tiny has no agent for 'chess': it plays psalter-row"):
        level.spec_for("chess")
