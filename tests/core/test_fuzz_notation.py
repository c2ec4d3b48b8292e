"""Property-based fuzzing of ``parse_action`` for every game (issue 18 section 1, DESIGN.md
"Notation input"): on states reached by seeded random play under every option combination,
any text at all (any Unicode, blanks, digits of every script, card codes, cells and verbs of
all the games mixed, legal notations bent out of shape, texts at the length bound):

- nothing but a ``ParlourError`` escapes, from ``parse_action`` or from ``apply``;
- nothing changes (``to_position()`` is the same after), whether the text is read or refused;
- a text that is read gives one of the state's legal actions, whose notation reads back to it;
- a legal notation with blanks up to the bound is read, one character past it is refused.

The fast suite runs a bounded number of examples; ``-m slow`` many more.
"""

from __future__ import annotations

import functools
import random

import pytest
from helpers import option_combinations
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from parlour.cards import decktet, standard
from parlour.core.game import State
from parlour.games.decktet_golf.layout import CELLS

GAMES = parlour.game_names()
COMBOS = {name: option_combinations(name) for name in GAMES}
STEPS, EVERY = 240, 30  # random actions played per combination, and a state kept every so many

VERBS = ("place", "swap", "errand", "discard", "revise", "flip", "take", "draw", "replace", "ontop", "run",
         "add", "stop", "to", "pay", "low", "high")
ODD_DIGITS = "\u00b2\u00b3\u00b9\u2070\u0663\u0661\u06f5\u0967\uff11\uff15\U0001d7d7\u2168\u00bd"
WORDS = (*VERBS, *standard.CODE, *decktet.CODE, *decktet.NAME, *CELLS, "T", "TH", "10", "0", "9", "13", "99",
         "@", "@3", "5H@", "@@", *ODD_DIGITS)
BLANKS = (" ", "  ", "\t", ",", " , ", "\u00a0", "\u3000", "\n", "\u2028", "\x00", "")


@functools.lru_cache(maxsize=None)
def reached(name: str, index: int) -> tuple[State, ...]:
    """States of seeded random play under the game's ``index``-th option combination: the
    start, one every EVERY actions, and the last (the end, when the game ended within STEPS)."""
    game = parlour.load(name, **COMBOS[name][index])
    state, rng = game.new_state(seed=index), random.Random(index)
    kept = [state.clone()]
    for step in range(1, STEPS + 1):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
        if step % EVERY == 0:
            kept.append(state.clone())
    return (*kept, state)


word = st.one_of(st.sampled_from(WORDS), st.text(max_size=6),
                 st.sampled_from(standard.CODE).map(lambda code: code + "@"), st.sampled_from(ODD_DIGITS))
soup = st.lists(st.tuples(word, st.sampled_from(BLANKS)), max_size=16).map(
    lambda parts: "".join(w + b for w, b in parts))


def bent(data: st.DataObject, notation: str) -> str:
    """A legal notation changed the ways a player (or an attacker) might."""
    parts = notation.split()
    how = data.draw(st.sampled_from(("case", "drop", "twice", "insert", "digit", "blanks", "cut")))
    if how == "case":
        return data.draw(st.sampled_from((notation.upper(), notation.lower(), notation.swapcase(), notation.title())))
    if how in ("drop", "twice", "insert"):
        at = data.draw(st.integers(0, len(parts) - (how != "insert")))
        if how == "drop":
            return " ".join(parts[:at] + parts[at + 1:])
        extra = parts[at] if how == "twice" else data.draw(word)
        return " ".join(parts[:at] + [extra] + parts[at:])
    if how == "digit":
        digits = [i for i, ch in enumerate(notation) if ch.isdigit()] or [len(notation) - 1]
        at = data.draw(st.sampled_from(digits))
        return notation[:at] + data.draw(st.sampled_from(ODD_DIGITS)) + notation[at + 1:]
    if how == "blanks":
        return data.draw(st.sampled_from(BLANKS)).join(["", *notation.replace("@", " @ ").split(), ""])
    return notation[:data.draw(st.integers(0, len(notation)))]


def fuzz_one(name: str, data: st.DataObject) -> None:
    states = reached(name, data.draw(st.integers(0, len(COMBOS[name]) - 1), label="combination"))
    state = data.draw(st.sampled_from(states), label="state")
    game, legal = state.game, state.legal_actions()
    bound = game.max_notation_length
    kinds = ["any", "soup"] + ["bent", "padded"] * bool(legal)
    kind = data.draw(st.sampled_from(kinds), label="kind")
    if kind == "any":
        text = data.draw(st.text(max_size=80), label="text")
    elif kind == "soup":
        text = data.draw(soup, label="text")
    else:
        notation = str(data.draw(st.sampled_from(legal), label="action"))
        if kind == "bent":
            text = bent(data, notation)
        else:  # blanks before and after, up to the bound or just past it
            extra = bound - len(notation) + data.draw(st.integers(-3, 1), label="past")
            before = data.draw(st.integers(0, max(extra, 0)))
            text = " " * before + notation + "\t" * (extra - before)
    position = state.to_position()
    try:
        action = game.parse_action(state, text)
    except parlour.ParlourError:
        action = None
    assert state.to_position() == position
    if len(text) > bound:
        assert action is None
    elif kind == "padded":
        assert str(action) == notation
    if action is None:
        with pytest.raises(parlour.ParlourError):
            state.apply(text)
        assert state.to_position() == position
        return
    assert action in legal and game.parse_action(state, str(action)) is action
    after = state.clone().apply(text)
    assert after.history()[-1] is action and state.to_position() == position


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_parse_action_never_raises_anything_but_a_parlour_error_and_changes_nothing(name, data):
    fuzz_one(name, data)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_parse_action_fuzz_soak(name, data):
    fuzz_one(name, data)
