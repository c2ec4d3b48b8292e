"""Card values (DG-9) and layout totals.

>>> from parlour.cards.decktet import parse_card
>>> [VALUE[parse_card(c)] for c in ("CMWK", "PMYK", "AM", "7SK", "XW", "EX")]
[-2, -1, 1, 7, 10, 15]
"""

from __future__ import annotations

from typing import Sequence

from parlour.cards.decktet import COURT, DECK_SIZE, EXCUSE_RANK, PAWN, RANK

#: Courts -2, Pawns -1, Aces 1, numerals their rank, Crowns 10, the Excuse 15 (DG-9).
_SPECIAL: dict[int | str, int] = {COURT: -2, PAWN: -1, EXCUSE_RANK: 15}
VALUE: tuple[int, ...] = tuple(_SPECIAL.get(RANK[c], RANK[c]) for c in range(DECK_SIZE))  # type: ignore[misc, arg-type]


def layout_total(cards: Sequence[int]) -> int:
    """The sum of the cards left in a layout (empty cells are -1 and count nothing)."""
    return sum(VALUE[c] for c in cards if c >= 0)
