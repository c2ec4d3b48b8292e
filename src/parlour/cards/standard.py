"""The standard 52-card deck: cards are ints 0..51, codes like ``10H`` are for notation.

A card is ``suit * 13 + rank - 1`` with ranks Ace=1 .. King=13 and suits in the
order Clubs, Diamonds, Hearts, Spades. Hearts and Diamonds are red.

>>> c = parse_card("th")
>>> CODE[c], RANK[c], SUIT_NAMES[SUIT[c]], COLOUR_NAMES[COLOUR[c]]
('10H', 10, 'hearts', 'red')
>>> parse_card("1H")
Traceback (most recent call last):
...
parlour.core.errors.NotationError: '1H' is not a card: expected a rank A 2-10 J Q K (T for 10) and a suit C D H S, e.g. 10H, QS, AC
"""

from __future__ import annotations

from parlour.core.errors import NotationError

SUIT_LETTERS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = ("Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
BLACK, RED = 0, 1
COLOUR_NAMES = ("black", "red")

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
DECK_SIZE = 52

#: Tables indexed by card int; plain tuples because the rules read them in hot loops.
RANK: tuple[int, ...] = tuple(c % 13 + 1 for c in range(DECK_SIZE))
SUIT: tuple[int, ...] = tuple(c // 13 for c in range(DECK_SIZE))
COLOUR: tuple[int, ...] = tuple(RED if SUIT_LETTERS[c // 13] in "DH" else BLACK for c in range(DECK_SIZE))
CODE: tuple[str, ...] = tuple(RANK_CODES[c % 13] + SUIT_LETTERS[c // 13] for c in range(DECK_SIZE))
#: Each canonical code's card (what positions and observations write).
BY_CODE = {code: c for c, code in enumerate(CODE)}

_EXPECTED = "expected a rank A 2-10 J Q K (T for 10) and a suit C D H S, e.g. 10H, QS, AC"


def card(rank: int, suit: int) -> int:
    """The card of a rank (1..13) and a suit index (0..3).

    >>> CODE[card(12, 3)]
    'QS'
    """
    return suit * 13 + rank - 1


def parse_card(text: str) -> int:
    """The card a code names, in any case, with ``T`` for 10."""
    found = BY_CODE.get(text)  # a canonical code, as positions and observations write them
    if found is not None:
        return found
    key = text.strip().upper()
    if key.startswith("T"):
        key = "10" + key[1:]
    found = BY_CODE.get(key)
    if found is None:
        raise NotationError(f"{text!r} is not a card: {_EXPECTED}")
    return found


def deck() -> list[int]:
    """All 52 cards in code order (Clubs Ace .. Spades King)."""
    return list(range(DECK_SIZE))


def show(card_: int) -> str:
    """A card with its suit symbol, e.g. ``10♥``.

    >>> show(parse_card("10H"))
    '10♥'
    """
    return RANK_CODES[card_ % 13] + SUIT_SYMBOLS[card_ // 13]
