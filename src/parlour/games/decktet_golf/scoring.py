"""Card values (DG-9) and layout totals.

>>> from parlour.cards.decktet import parse_card
>>> [VALUE[parse_card(c)] for c in ("CMWK", "PMYK", "AM", "7SK", "XW", "EX")]
[-2, -1, 1, 7, 10, 15]
"""

from __future__ import annotations

from typing import Sequence

from parlour.cards.decktet import COURT, DECK_SIZE, EXCUSE, PAWN, RANK

_SPECIAL = {COURT: -2, PAWN: -1, "excuse": 15}
#: Courts -2, Pawns -1, Aces 1, numerals their rank, Crowns 10, the Excuse 15.
VALUE: tuple[int, ...] = tuple(
    _SPECIAL[RANK[c]] if c == EXCUSE or not isinstance(RANK[c], int) else int(RANK[c]) for c in range(DECK_SIZE)
)


def layout_total(cards: Sequence[int]) -> int:
    """The sum of the cards left in a layout (empty cells are -1 and count nothing)."""
    return sum(VALUE[c] for c in cards if c >= 0)
