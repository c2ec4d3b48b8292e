"""Card roles in Psalter Row: Pages 2-10, Patrons (Jack +2, Queen +3), Kings, Aces.

Tables are indexed by card int (see ``parlour.cards.standard``).

>>> from parlour.cards.standard import parse_card
>>> PAGE_VALUE[parse_card("9C")], AID[parse_card("QH")], IS_KING[parse_card("KS")]
(9, 3, True)
"""

from parlour.cards.standard import ACE, DECK_SIZE, JACK, KING, QUEEN, RANK

LOWEST_PAGE, HIGHEST_PAGE = 2, 10
PAGE_VALUES = range(LOWEST_PAGE, HIGHEST_PAGE + 1)
FULL_PSALTER = len(PAGE_VALUES)  # 9 Pages, 2 through 10
HAND_SIZE = 5

#: A Page's number, 0 for any card that is not a Page.
PAGE_VALUE: tuple[int, ...] = tuple(
    RANK[c] if LOWEST_PAGE <= RANK[c] <= HIGHEST_PAGE else 0 for c in range(DECK_SIZE)
)
#: A Patron's aid to a paying Page (Jack +2, Queen +3); 0 for any other card.
AID: tuple[int, ...] = tuple({JACK: 2, QUEEN: 3}.get(RANK[c], 0) for c in range(DECK_SIZE))
IS_KING: tuple[bool, ...] = tuple(RANK[c] == KING for c in range(DECK_SIZE))
IS_ACE: tuple[bool, ...] = tuple(RANK[c] == ACE for c in range(DECK_SIZE))
KINGS = frozenset(c for c in range(DECK_SIZE) if IS_KING[c])
ACES = frozenset(c for c in range(DECK_SIZE) if IS_ACE[c])


def role(card: int) -> str:
    """The card's role in words, for explanations.

    >>> from parlour.cards.standard import parse_card
    >>> role(parse_card("AS"))
    'an Ace'
    """
    if PAGE_VALUE[card]:
        return "a Page"
    if AID[card]:
        return "a Patron"
    return "a King" if IS_KING[card] else "an Ace"
