"""Notation errors echo what the player typed: the verbs and keywords are read in any case,
but a card that is not a card is quoted as written (it once came back lower-cased, '9x' for
'9X'), in every game."""

from __future__ import annotations

import pytest

import parlour
from parlour.core.errors import NotationError

CASES = [
    ("psalter-row", "PLACE 9X HIGH", "'9X' is not a card"),
    ("psalter-row", "place 4C High pay 2Q", "'2Q' is not a card"),
    ("psalter-row", "Swap 9x KH", "'9x' is not a card"),
    ("psalter-row", "place 4C Middle", "'Middle' is not an end or 'pay'"),
    ("quisquilian", "DISCARD 9X 5", "'9X' is not a card"),
    ("quisquilian", "Add 8Q@2", "'8Q' is not a card"),
    ("quisquilian", "add 8H@2 TO One", "'One' is not a run number"),
    ("decktet-golf", "FLIP Q9", "'Q9' is not a cell"),
]


@pytest.mark.parametrize(("name", "text", "said"), CASES)
def test_a_bad_word_is_quoted_as_typed(name, text, said):
    game = parlour.load(name)
    state = game.new_state(seed=1)
    before = state.to_position()
    with pytest.raises(NotationError) as refused:
        game.parse_action(state, text)
    assert said in str(refused.value)
    assert state.to_position() == before


@pytest.mark.parametrize("name", ["psalter-row", "decktet-golf", "quisquilian"])
def test_verbs_and_keywords_are_read_in_any_case(name):
    game = parlour.load(name)
    state = game.new_state(seed=1)
    for action in state.legal_actions():
        assert game.parse_action(state, str(action).upper()) == action
        assert game.parse_action(state, str(action).title()) == action
