"""Notation input is bounded (DESIGN.md "Notation input", issue 17 finding 1): each game's
``max_notation_length`` is worked out from its options; a text past it is refused before
any of it is read, with a short excerpt in the message; the bound holds every legal action
however widely a player spaces it; and the parsers themselves are linear, so even without
the bound a megabyte is read to its error (a quadratic duplicate check once took ~5 s for
100 kB and never ended for 1 MB)."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import pytest
from helpers import option_combinations, refuse

import parlour
from parlour.core.notation import GAP
from parlour.games.quisquilian.game import Quisquilian

HEARTS = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"]


def spread(words: list[str], length: int) -> str:
    """``words`` with blanks before, between and after them, as evenly as may be, to exactly
    ``length`` characters: the widest spacing the bound allows."""
    gaps = len(words) + 1
    blanks = length - sum(map(len, words))
    assert blanks >= gaps, "the words alone nearly fill the bound"
    sizes = [blanks // gaps + (i < blanks % gaps) for i in range(gaps)]
    return "".join(" " * size + word for size, word in zip(sizes, words + [""]))


def lenient_words(text: str) -> list[str]:
    """A notation's words as a player may type them, blanks around Quisquilian's ``@`` too."""
    return text.replace("@", " @ ").split()


def quisquilian_thirteen_card_run() -> tuple[Any, str]:
    """A dig whose longest legal action takes all 13 hearts from spot 9 (the longest run)."""
    game = parlour.load("quisquilian")
    state = game.from_position({"spots": [[]] * 8 + [HEARTS[::-1]], "player": 0,
                                "hands": [["2C", "3C", "4C", "5C", "6C", "9D"], [], [], []]})
    return state, "run " + " ".join(f"{card}@9" for card in HEARTS)


def psalter_row_page_and_patron() -> tuple[Any, str]:
    """A placement at an end paid by a Page and a Patron: Psalter Row's longest form."""
    state = parlour.load("psalter-row").from_position({"row": ["2H"], "hand": ["10H", "9C", "QD", "JS", "3C"]})
    return state, "place 10H high pay 9C QD"


def decktet_golf_longest(excuse: bool) -> tuple[Any, str]:
    """A state of seeded random play where the game's longest form is legal: a swap after the
    Excuse with the variant on, else a replace."""
    game = parlour.load("decktet-golf", excuse=excuse)
    verb = "swap" if excuse else "replace"
    for seed in range(200):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            found = [str(a) for a in state.legal_actions() if str(a).startswith(verb)]
            if found:
                return state, found[0]
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no {verb} in 200 random games")


BOUNDS = [  # (game, options, bound, a state and its longest legal action)
    ("psalter-row", {}, 77, psalter_row_page_and_patron),
    ("decktet-golf", {"excuse": False}, 33, lambda: decktet_golf_longest(False)),
    ("decktet-golf", {"excuse": True}, 40, lambda: decktet_golf_longest(True)),
    ("quisquilian", {}, 396, quisquilian_thirteen_card_run),
]


@pytest.mark.parametrize("name, options, bound, longest", BOUNDS, ids=lambda v: v if isinstance(v, str) else None)
def test_the_longest_legal_notation_is_read_and_one_character_more_is_refused_unread(name, options, bound, longest):
    game = parlour.load(name, **options)
    assert game.max_notation_length == bound  # the figures docs/engine-notes.md gives
    state, action = longest()
    assert action in {str(a) for a in state.legal_actions()}
    widest = spread(lenient_words(action), bound)
    assert len(widest) == bound and str(game.parse_action(state, widest)) == action
    message = refuse(state, widest + " ", "too long", f"at most {bound} characters", error=parlour.NotationError)
    assert "expected one of" in message  # and what notation looks like


@pytest.mark.parametrize("name", parlour.game_names())
def test_every_legal_action_spaced_a_gap_wide_is_within_the_bound_and_read(name):
    """The bound counts GAP blanks before, between and after the words: every legal action met
    in seeded random play under every option combination, written that widely, is read."""
    for index, options in enumerate(option_combinations(name)):
        game = parlour.load(name, **options)
        state, rng = game.new_state(seed=index), random.Random(index)
        for _ in range(300):
            if state.is_terminal():
                break
            for action in state.legal_actions():
                wide = (" " * GAP).join(["", *lenient_words(str(action)), ""])
                assert len(wide) <= game.max_notation_length, (options, str(action))
                assert game.parse_action(state, wide) is action
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("size", [100_000, 1_000_000])
def test_a_huge_quisquilian_run_is_refused_before_it_is_read(monkeypatch, size):
    """Issue 17 finding 1: 100 kB and 1 MB of ``run`` words are refused by their length alone:
    the parser is never called, and the message quotes a short excerpt, not the input."""
    state, _ = quisquilian_thirteen_card_run()

    def unread(text: str) -> None:
        raise AssertionError("the parser was called")

    monkeypatch.setattr(Quisquilian, "_parse_spec", staticmethod(unread))
    text = ("run " + "5H@3 6H 7H@3 8H " * size)[:size]
    for attempt in (lambda: state.game.parse_action(state, text), lambda: state.apply(text)):
        before = state.to_position()
        with pytest.raises(parlour.NotationError) as info:
            attempt()
        assert state.to_position() == before
        message = str(info.value)
        assert "'run 5H@3 6H 7H@3 8H 5H@3 6H 7H@3 8H 5H@3'..." in message and f"({size} characters)" in message
        assert "at most 396 characters" in message and len(message) < 500


def test_a_run_of_duplicate_cards_just_under_the_bound_is_refused():
    state, _ = quisquilian_thirteen_card_run()
    bound = state.game.max_notation_length
    many = "run" + " 5H@9" * ((bound - 3) // 5)
    assert bound - 5 < len(many) <= bound
    refuse(state, many, "at most 13 cards", error=parlour.NotationError)
    widest = spread(["run", "5H@9", "6H@9", "5H@9", "7H@9"], bound)
    refuse(state, widest, "5H is named twice", "each rank once", error=parlour.NotationError)
    refuse(state, "run 5H 5H@9 6H@9", "5H is named twice", error=parlour.NotationError)


#: For each game a megabyte of its likeliest words, and the error its parser gives it.
MEGABYTES = [
    ("quisquilian", "run " + "5H@3 6H 7H@3 8H " * 70_000, "at most 13 cards"),
    ("quisquilian", "run " + " @ " * 400_000, "three or more cards"),
    ("quisquilian", "run 5H 6H" + " " * 1_000_000 + "x", "is not a card"),
    ("psalter-row", "place 9C high pay " + "4D JS " * 170_000, "'pay' and one or two cards"),
    ("psalter-row", "swap" + " ,6S" * 250_000, "names a hand Page and a King"),
    ("decktet-golf", "flip " + "B1 " * 340_000, "flip takes 1 cell"),
]


@pytest.mark.parametrize("name, text, error", MEGABYTES, ids=lambda v: v if isinstance(v, str) and len(v) < 20 else None)
def test_each_parser_reads_a_megabyte_to_its_error_without_the_bound(name, text, error):
    """Linear parsers: even the game's own reader, without the length bound in front of it,
    reads a megabyte to its error. In a subprocess with a generous limit, so that a parser
    that never ends (as the quadratic one did at 1 MB) fails the test rather than hangs it."""
    program = (
        "import sys, parlour\n"
        f"game = parlour.load({name!r})\n"
        "text = sys.stdin.read()\n"
        "try:\n"
        "    game._parse_spec(text)\n"
        "except parlour.NotationError as err:\n"
        "    print(str(err)[-300:])\n"
    )
    done = subprocess.run([sys.executable, "-c", program], input=text, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert error in done.stdout
