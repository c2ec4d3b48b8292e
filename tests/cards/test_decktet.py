"""The Decktet (DESIGN.md "Card codes", shared/decktet.md): the card list, codes, names, decks.

The card list is checked against the markdown table of ``shared/decktet.md`` itself,
parsed here, so that the engine's list and the shared specification cannot drift apart.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from parlour import NotationError
from parlour.cards.decktet import (
    BASIC,
    CODE,
    DECK_SIZE,
    EXCUSE,
    NAME,
    RANK,
    SUIT_LETTERS,
    SUIT_NAMES,
    deck,
    parse_card,
    suit_names,
)

SUITS_IN_ORDER = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
LETTER = dict(zip(SUITS_IN_ORDER, "MSWLYK"))
RANK_WORDS = {"Ace": 1, "Crown": 10, "Pawn": "pawn", "Court": "court", "-": "excuse"}


def _decktet_md() -> Path:
    """shared/decktet.md, as copied into tests/data (kept identical to the shared one when present)."""
    here = Path(__file__).resolve()
    copy = here.parents[1] / "data" / "decktet.md"
    for root in (here.parents[2], here.parents[3]):  # the repository, and the folder above it
        shared = root / "shared" / "decktet.md"
        if shared.is_file():
            assert shared.read_text(encoding="utf-8") == copy.read_text(encoding="utf-8"), (
                "tests/data/decktet.md differs from shared/decktet.md: copy the shared one over"
            )
    return copy


def spec_table() -> list[tuple[str, str, list[str]]]:
    """(rank word, name, suit names) for each row of the table in shared/decktet.md."""
    rows = []
    for line in _decktet_md().read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] == "rank" or cells[0].startswith("---"):
            continue
        rank, name, suits = cells
        suit_list = [] if suits == "(none)" else [s.strip() for s in suits.split(",")]
        rows.append((rank, name, suit_list))
    return rows


def spec_code(rank: str, suits: list[str]) -> str:
    """The code DESIGN.md gives a card, written out independently of the engine."""
    letters = "".join(LETTER[s] for s in SUITS_IN_ORDER if s in suits)
    if rank == "-":
        return "EX"
    prefix = {"Ace": "A", "Crown": "X", "Pawn": "P", "Court": "C"}.get(rank, rank)
    return prefix + letters


# ---------------------------------------------------------------------------------------
# The card list against shared/decktet.md
# ---------------------------------------------------------------------------------------


def test_the_table_has_45_cards():
    table = spec_table()
    assert len(table) == 45
    assert DECK_SIZE == 45 and len(CODE) == len(NAME) == len(RANK) == 45


def test_ranks_and_suits_match_the_table_card_by_card():
    """Card ints 0..44 follow the table's order (engine notes) with its ranks and suits."""
    table = spec_table()
    for card, (rank, name, suits) in enumerate(table):
        assert RANK[card] == (RANK_WORDS[rank] if rank in RANK_WORDS else int(rank)), name
        assert suit_names(card) == suits, name


def test_names_match_the_table_card_by_card():
    """The engine's card names are the table's names, exactly ("Ace of Moons", "the Author")."""
    assert list(NAME) == [name for _, name, _ in spec_table()]


@pytest.mark.parametrize("card", range(45))
def test_the_table_name_of_every_card_is_accepted_as_input(card):
    name = spec_table()[card][1]
    assert parse_card(name) == card
    assert parse_card(name.upper()) == card


def test_codes_follow_design_md_for_every_card():
    table = spec_table()
    assert list(CODE) == [spec_code(rank, suits) for rank, _, suits in table]
    assert len(set(CODE)) == 45


@pytest.mark.parametrize(
    "code, name",
    [
        ("AM", "Ace of Moons"),
        ("AK", "Ace of Knots"),
        ("2MK", "the Author"),
        ("9LK", "the Merchant"),
        ("XW", "the Sea"),
        ("PMYK", "the Watchman"),
        ("PWLY", "the Borderland"),
        ("CMWK", "the Consul"),
        ("CMLY", "the Rite"),
        ("EX", "the Excuse"),
    ],
)
def test_design_md_examples(code, name):
    assert NAME[parse_card(code)] == name
    assert CODE[parse_card(name)] == code


def test_suit_letters_are_in_m_s_w_l_y_k_order_within_every_code():
    assert SUIT_LETTERS == "MSWLYK" and tuple(SUIT_NAMES) == SUITS_IN_ORDER
    for code in CODE:
        if code == "EX":
            continue
        letters = re.sub(r"^[AXPC2-9]", "", code)
        assert letters and all(ch in "MSWLYK" for ch in letters), code
        assert list(letters) == sorted(letters, key="MSWLYK".index), code


# ---------------------------------------------------------------------------------------
# Input: codes and names in any case
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("code", CODE)
def test_every_code_parses_back_to_its_card_in_any_case(code):
    card = CODE.index(code)
    assert parse_card(code) == card
    assert parse_card(code.lower()) == card
    assert parse_card(f"  {code.swapcase()} ") == card


@pytest.mark.parametrize("card", range(45))
def test_every_name_is_accepted_in_any_case(card):
    name = NAME[card]
    assert parse_card(name) == card
    assert parse_card(name.upper()) == card
    assert parse_card(name.lower()) == card
    assert parse_card(name.title()) == card


@pytest.mark.parametrize(
    "text",
    ["", "AX", "A", "1M", "10M", "2KM", "2MS", "XMS", "PMY", "CMWKL", "KM", "E", "EXX", "the Joker", "QS",
     "the Author of Moons", "M2K"],
)
def test_bad_codes_are_refused_saying_what_is_expected(text):
    with pytest.raises(NotationError) as info:
        parse_card(text)
    message = str(info.value)
    assert "expected" in message
    for example in ("AM", "2MK", "XW", "EX"):
        assert example in message, message


# ---------------------------------------------------------------------------------------
# Decks
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, size, excuses",
    [
        (dict(extended=False), 36, 0),
        (dict(), 44, 0),
        (dict(excuse=True), 45, 1),
        (dict(copies=2), 88, 0),
        (dict(copies=2, excuse=True), 90, 2),
    ],
)
def test_deck_sizes(kwargs, size, excuses):
    cards = deck(**kwargs)
    assert len(cards) == size
    assert cards.count(EXCUSE) == excuses
    copies = kwargs.get("copies", 1)
    assert set(Counter(cards).values()) == {copies}


def test_the_basic_deck_is_aces_numerals_and_crowns():
    basic = deck(extended=False)
    assert sorted(basic) == sorted(BASIC)
    assert Counter(RANK[c] for c in basic) == Counter({r: (6 if r in (1, 10) else 3) for r in range(1, 11)})
    extended_only = set(deck()) - set(basic)
    assert {RANK[c] for c in extended_only} == {"pawn", "court"} and len(extended_only) == 8


# ---------------------------------------------------------------------------------------
# decktet.md's stated checks
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("rank", range(2, 10))
def test_each_numeral_rank_has_three_cards_covering_every_suit_once(rank):
    cards = [c for c in range(45) if RANK[c] == rank]
    assert len(cards) == 3
    suits = [s for c in cards for s in suit_names(c)]
    assert sorted(suits, key=SUITS_IN_ORDER.index) == list(SUITS_IN_ORDER)


@pytest.mark.parametrize("suit", SUITS_IN_ORDER)
def test_every_suit_is_on_one_ace_eight_numerals_one_crown_two_pawns_two_courts(suit):
    carrying = Counter(
        "numeral" if isinstance(RANK[c], int) and 2 <= RANK[c] <= 9 else str(RANK[c])
        for c in range(45) if suit in suit_names(c)
    )
    assert carrying == Counter({"1": 1, "numeral": 8, "10": 1, "pawn": 2, "court": 2})


def test_suit_counts_per_kind_of_card():
    for card in range(45):
        n = len(suit_names(card))
        kind = RANK[card]
        if kind in (1, 10):
            assert n == 1
        elif isinstance(kind, int):
            assert n == 2
        elif kind in ("pawn", "court"):
            assert n == 3
        else:
            assert card == EXCUSE and n == 0
