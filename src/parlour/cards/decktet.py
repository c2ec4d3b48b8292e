"""The Decktet: 45 cards in six suits (``shared/decktet.md``); cards are ints 0..44.

Order: the six Aces, the numerals 2-9 (three per rank), the six Crowns, the four
Pawns, the four Courts, the Excuse. Both copies of a double deck are the same int.
Suits are a 6-bit mask, Moons = 1 ... Knots = 32, so "share a suit" is one ``&``.

>>> c = parse_card("the author")
>>> CODE[c], NAME[c], RANK[c], suit_names(c)
('2MK', 'the Author', 2, ['Moons', 'Knots'])
>>> CODE[parse_card("pmyk")], parse_card("EX") == EXCUSE
('PMYK', True)
"""

from __future__ import annotations

from parlour.core.errors import NotationError

SUIT_LETTERS = "MSWLYK"
SUIT_NAMES = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
SUIT_SYMBOLS = ("☾", "☀", "≈", "♣", "⚕", "∞")
MOONS, SUNS, WAVES, LEAVES, WYRMS, KNOTS = (1 << i for i in range(6))

ACE, CROWN, PAWN, COURT, EXCUSE_RANK = 1, 10, "pawn", "court", "excuse"

#: (rank, name, suit letters) in card order; ranks 1 (Ace) .. 10 (Crown), then the rest.
_CARDS: tuple[tuple[int | str, str, str], ...] = (
    *((1, f"Ace of {SUIT_NAMES[i]}", SUIT_LETTERS[i]) for i in range(6)),
    (2, "the Author", "MK"), (2, "the Desert", "SY"), (2, "the Origin", "WL"),
    (3, "the Journey", "MW"), (3, "the Painter", "SK"), (3, "the Savage", "LY"),
    (4, "the Mountain", "MS"), (4, "the Sailor", "WL"), (4, "the Battle", "YK"),
    (5, "the Forest", "ML"), (5, "the Discovery", "SW"), (5, "the Soldier", "YK"),
    (6, "the Lunatic", "MW"), (6, "the Penitent", "SY"), (6, "the Market", "LK"),
    (7, "the Chance Meeting", "ML"), (7, "the Castle", "SK"), (7, "the Cave", "WY"),
    (8, "the Diplomat", "MS"), (8, "the Mill", "WL"), (8, "the Betrayal", "YK"),
    (9, "the Pact", "MS"), (9, "the Darkness", "WY"), (9, "the Merchant", "LK"),
    (10, "the Huntress", "M"), (10, "the Bard", "S"), (10, "the Sea", "W"),
    (10, "the End", "L"), (10, "the Calamity", "Y"), (10, "the Windfall", "K"),
    (PAWN, "the Watchman", "MYK"), (PAWN, "the Light Keeper", "SWK"),
    (PAWN, "the Harvest", "MSL"), (PAWN, "the Borderland", "WLY"),
    (COURT, "the Consul", "MWK"), (COURT, "the Island", "SWY"),
    (COURT, "the Window", "SLK"), (COURT, "the Rite", "MLY"),
    (EXCUSE_RANK, "the Excuse", ""),
)

DECK_SIZE = len(_CARDS)  # 45
EXCUSE = DECK_SIZE - 1
RANK: tuple[int | str, ...] = tuple(rank for rank, _, _ in _CARDS)
NAME: tuple[str, ...] = tuple(name for _, name, _ in _CARDS)
SUITS: tuple[int, ...] = tuple(sum(1 << SUIT_LETTERS.index(s) for s in letters) for _, _, letters in _CARDS)


_PREFIX: dict[int | str, str] = {ACE: "A", CROWN: "X", PAWN: "P", COURT: "C"}


def _code(rank: int | str, letters: str) -> str:
    return "EX" if rank == EXCUSE_RANK else _PREFIX.get(rank, str(rank)) + letters


CODE: tuple[str, ...] = tuple(_code(rank, letters) for rank, _, letters in _CARDS)
BASIC = tuple(c for c in range(DECK_SIZE) if isinstance(RANK[c], int))  # 36 cards
#: Each canonical code's card (what positions and observations write).
BY_CODE = {CODE[c]: c for c in range(DECK_SIZE)}
_LOOKUP: dict[str, int] = {}
for _c in range(DECK_SIZE):
    _LOOKUP[CODE[_c].lower()] = _c
    _LOOKUP[NAME[_c].lower()] = _c
    _LOOKUP[NAME[_c].lower().removeprefix("the ")] = _c
    _LOOKUP["the " + NAME[_c].lower().removeprefix("the ")] = _c

_EXPECTED = (
    "expected a Decktet code such as AM (Ace of Moons), 2MK (the Author), XW (the Sea), "
    "PMYK (a Pawn), CMWK (a Court), EX (the Excuse), or a card's name"
)


def parse_card(text: str) -> int:
    """The card a code or name names, in any case (suit letters in M S W L Y K order)."""
    found = BY_CODE.get(text)  # a canonical code, as positions and observations write them
    if found is not None:
        return found
    found = _LOOKUP.get(" ".join(text.strip().lower().split()))
    if found is None:
        raise NotationError(f"{text!r} is not a Decktet card: {_EXPECTED}")
    return found


def suit_names(card: int) -> list[str]:
    return [SUIT_NAMES[i] for i in range(6) if SUITS[card] >> i & 1]


def deck(extended: bool = True, excuse: bool = False, copies: int = 1) -> list[int]:
    """A deck as a list of card ints: basic (36), extended (44, +Excuse 45), ``copies`` times.

    >>> len(deck()), len(deck(excuse=True)), len(deck(extended=False)), len(deck(copies=2))
    (44, 45, 36, 88)
    """
    one = [c for c in range(DECK_SIZE) if (extended or c in BASIC) and (excuse or c != EXCUSE)]
    return one * copies


def show(card: int) -> str:
    """The card with its rank and suit symbols, e.g. ``2☾∞``.

    >>> show(parse_card("the Author"))
    '2☾∞'
    """
    if card == EXCUSE:
        return "Excuse"
    return _PREFIX.get(RANK[card], str(RANK[card])) + "".join(SUIT_SYMBOLS[i] for i in range(6) if SUITS[card] >> i & 1)
