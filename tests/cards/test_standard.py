"""The standard 52-card deck: codes, parsing, suits and colours (DESIGN.md "Card codes")."""

import pytest

from parlour import NotationError
from parlour.cards.standard import (
    CODE,
    COLOUR,
    DECK_SIZE,
    RANK,
    RED,
    SUIT,
    SUIT_LETTERS,
    card,
    deck,
    parse_card,
    show,
)


def test_deck_has_52_distinct_cards_with_distinct_codes():
    assert deck() == list(range(52)) and DECK_SIZE == 52
    assert len(set(CODE)) == 52
    assert {(RANK[c], SUIT[c]) for c in deck()} == {(r, s) for r in range(1, 14) for s in range(4)}


@pytest.mark.parametrize("code", CODE)
def test_every_code_parses_back_to_its_card(code):
    assert CODE[parse_card(code)] == code


@pytest.mark.parametrize(
    "text, code",
    [("10h", "10H"), ("TH", "10H"), ("th", "10H"), (" qs ", "QS"), ("ac", "AC"), ("Kd", "KD"), ("2c", "2C")],
)
def test_input_accepts_any_case_and_t_for_ten(text, code):
    assert CODE[parse_card(text)] == code


@pytest.mark.parametrize("text", ["1H", "11H", "10X", "H10", "", "QQ", "JOKER", "10"])
def test_bad_codes_say_what_is_expected(text):
    with pytest.raises(NotationError, match="expected a rank A 2-10 J Q K"):
        parse_card(text)


def test_hearts_and_diamonds_are_red_clubs_and_spades_black():
    for c in deck():
        assert (COLOUR[c] == RED) == (SUIT_LETTERS[SUIT[c]] in "DH")


def test_card_and_show():
    queen_of_spades = card(12, 3)
    assert CODE[queen_of_spades] == "QS"
    assert show(queen_of_spades) == "Q♠"
    assert RANK[parse_card("AS")] == 1 and RANK[parse_card("KS")] == 13
