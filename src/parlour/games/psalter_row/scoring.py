"""Scoring (PR-13) and the Quires it and the Revision (PR-9) look at.

>>> from parlour.cards.standard import parse_card
>>> row = [parse_card(x) for x in "3H 4H 5H 8S 9C".split()]
>>> [len(q) for q in quires(row)], score(row)
([3, 2], 3)
"""

from __future__ import annotations

from typing import Sequence

from parlour.cards.standard import COLOUR, RANK, SUIT
from parlour.games.psalter_row.roles import FULL_PSALTER

SUITED_STYLE, INKED_STYLE = 2, 1
SUITED_PSALTER, INKED_PSALTER = 5, 2


def quires(row: Sequence[int]) -> list[list[int]]:
    """The Quires of a Row (ascending): maximal runs of at least 2 consecutive values."""
    found: list[list[int]] = []
    start, previous = 0, -1
    for i, card in enumerate(row):
        value = RANK[card]
        if value != previous + 1:
            if i - start >= 2:
                found.append(list(row[start:i]))
            start = i
        previous = value
    if len(row) - start >= 2:
        found.append(list(row[start:]))
    return found


def one_suit(cards: Sequence[int]) -> bool:
    return len({SUIT[c] for c in cards}) == 1


def one_colour(cards: Sequence[int]) -> bool:
    """Sharing one Ink Family (red or black)."""
    return len({COLOUR[c] for c in cards}) == 1


def style_bonus(quire: Sequence[int]) -> int:
    """Partial work: +2 if the Quire shares one suit, else +1 if one colour, else 0."""
    if one_suit(quire):
        return SUITED_STYLE
    return INKED_STYLE if one_colour(quire) else 0


def completion_bonus(row: Sequence[int]) -> int:
    """A bound Psalter: +5 all one suit, +2 all one Ink Family, +0 mixed."""
    if one_suit(row):
        return SUITED_PSALTER
    return INKED_PSALTER if one_colour(row) else 0


def breakdown(row: Sequence[int]) -> dict[str, int]:
    """The score in parts: pages (+1 each), missing (-1 each), style, completion, total.

    The style bonus goes to the largest Quire, the best one when several tie
    (PR-13); a complete Psalter takes the completion bonus instead.
    """
    pages = len(row)
    complete = pages == FULL_PSALTER
    found = quires(row)
    largest = max((len(q) for q in found), default=0)
    style = 0
    if not complete and largest:
        style = max(style_bonus(q) for q in found if len(q) == largest)
    completion = completion_bonus(row) if complete else 0
    missing = FULL_PSALTER - pages
    return {
        "pages": pages,
        "missing": -missing,
        "style": style,
        "completion": completion,
        "total": pages - missing + style + completion,
    }


def score(row: Sequence[int]) -> int:
    """The PR-13 score of a Row, from -9 (empty) to 14 (a one-suit Psalter)."""
    return breakdown(row)["total"]
