"""Rules tests for Decktet Golf: one or more tests per ruling DG-1 .. DG-12 (shared/RULINGS.md),
every option, and the notation of DESIGN.md ("Decktet Golf").

Everything goes through the public API (``parlour.load``, ``new_state``, ``from_position``,
``legal_actions``, ``apply``, ``to_position``, ``observation``, ``scores``, ``winners``).
Positions are written by hand from a few fixed layouts; the draw pile is always given in
full (the named top cards, then every card named nowhere else in table order), so that
every draw is known in advance.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any, Iterable

import pytest
from helpers import legal, play, refuse

import parlour

# ---------------------------------------------------------------------------------------
# Cards, cells and lines, written out independently of the engine
# ---------------------------------------------------------------------------------------

DECK44 = (
    "AM AS AW AL AY AK 2MK 2SY 2WL 3MW 3SK 3LY 4MS 4WL 4YK 5ML 5SW 5YK 6MW 6SY 6LK "
    "7ML 7SK 7WY 8MS 8WL 8YK 9MS 9WY 9LK XM XS XW XL XY XK PMYK PSWK PMSL PWLY "
    "CMWK CSWY CSLK CMLY"
).split()
ORDER = DECK44 + ["EX"]
CELLS = ["B1", "C1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "B4", "C4"]
OUTER_CELLS = ["B1", "C1", "A2", "D2", "A3", "D3", "B4", "C4"]
CORE = ["B2", "C2", "B3", "C3"]
LINES = {
    "2": ["A2", "B2", "C2", "D2"],
    "3": ["A3", "B3", "C3", "D3"],
    "B": ["B1", "B2", "B3", "B4"],
    "C": ["C1", "C2", "C3", "C4"],
}
OUTER = {key: (cells[0], cells[3]) for key, cells in LINES.items()}
DEFAULTS = {"players": 2, "excuse": False, "target": 50, "rounds": None, "opening_flips": 2}


def suits(code: str) -> set[str]:
    return set() if code == "EX" else set(code[1:])


def value(code: str) -> int:
    """DG-9 from the code alone: Courts -2, Pawns -1, Aces 1, numerals, Crowns 10, Excuse 15."""
    if code == "EX":
        return 15
    return {"C": -2, "P": -1, "A": 1, "X": 10}.get(code[0]) or int(code[0])


def suited_lines(layout: dict[str, str], face_up: Iterable[str]) -> list[str]:
    """DG-6 written out: lines with four present, face-up cards sharing a suit, in order."""
    up = set(face_up)
    found = []
    for key, cells in LINES.items():
        if all(c in layout and c in up for c in cells) and set.intersection(*(suits(layout[c]) for c in cells)):
            found.append(key)
    return found


def lay(*codes: str, **overrides: str | None) -> dict[str, str]:
    layout = dict(zip(CELLS, codes))
    for cell, code in overrides.items():
        if code is None:
            del layout[cell]
        else:
            layout[cell] = code
    return layout


def up_except(*cells: str) -> list[str]:
    return [c for c in CELLS if c not in cells]


# Two layouts with no suited line even when all face up, sharing no card; 69 points each.
PLAIN0 = lay("2MK", "3MW", "4MS", "XM", "2WL", "5ML", "6MW", "3LY", "XS", "7ML", "8MS", "9MS")
PLAIN1 = lay("2SY", "3SK", "4WL", "XW", "4YK", "5SW", "5YK", "6SY", "XL", "6LK", "7SK", "7WY")
# Twelve cards carrying Moons: every line is suited once its four cards are face up; 50 points.
# (It shares cards with PLAIN0, none with PLAIN1; the Moons left are AM and CMLY.)
M12 = lay("2MK", "3MW", "4MS", "5ML", "6MW", "7ML", "8MS", "9MS", "XM", "PMYK", "PMSL", "CMWK")


def deck_of(options: dict[str, Any]) -> Counter:
    copies = 1 if options["players"] == 2 else 2
    cards = Counter({code: copies for code in DECK44})
    if options["excuse"]:
        cards["EX"] = copies
    return cards


def make_position(
    layouts: list[dict[str, str]],
    face_up: list[list[str]] | None = None,
    discard: Iterable[str] = ("AY",),
    pile: Iterable[str] = (),
    rest: str = "pile",
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A hand-written position (seat 0 to move unless ``turn`` says otherwise); the cards named
    nowhere go under the pile (or, with ``rest="discard"``, under the discard pile)."""
    opts = {**DEFAULTS, **(options or {})}
    discard, pile = list(discard), list(pile)
    named = Counter(code for layout in layouts for code in layout.values()) + Counter(discard) + Counter(pile)
    if extra.get("drawn"):
        named[extra["drawn"]] += 1
    leftover = sorted((deck_of(opts) - named).elements(), key=ORDER.index)
    if rest == "pile":
        pile += leftover
    else:
        discard = leftover + discard
    if "turn" not in extra and "player" not in extra:
        extra["turn"] = 0  # seat 0 moves unless told otherwise
    return {
        "layouts": [dict(layout) for layout in layouts],
        "face_up": [list(f) for f in (face_up or [[] for _ in layouts])],
        "discard": discard,
        "draw_pile": pile,
        **extra,
    }


def make_state(options: dict[str, Any] | None = None, **position: Any):
    game = parlour.load("decktet-golf", **(options or {}))
    return game.from_position(make_position(options=options, **position))


def pos(state) -> dict[str, Any]:
    return state.to_position()


def finish_opening(state):
    while pos(state)["phase"] == "opening":
        state.apply(state.legal_actions()[0])
    return state


# ---------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------


def test_fixtures_have_the_lines_they_are_meant_to_have():
    assert suited_lines(PLAIN0, CELLS) == [] and suited_lines(PLAIN1, CELLS) == []
    assert suited_lines(M12, CELLS) == ["2", "3", "B", "C"]
    assert sum(map(value, PLAIN0.values())) == sum(map(value, PLAIN1.values())) == 69
    assert sum(map(value, M12.values())) == 50
    assert not set(PLAIN0.values()) & set(PLAIN1.values()) and not set(M12.values()) & set(PLAIN1.values())


def test_default_options():
    game = parlour.load("decktet-golf")
    assert game.options == DEFAULTS
    assert game.num_players == 2


@pytest.mark.parametrize(
    "name, val",
    [("players", n) for n in range(2, 6)]
    + [("excuse", False), ("excuse", True)]
    + [("target", 1), ("target", 50), ("target", 200)]
    + [("rounds", None), ("rounds", 1), ("rounds", 5)]
    + [("opening_flips", k) for k in range(9)],
)
def test_every_option_value_is_accepted_and_recorded(name, val):
    game = parlour.load("decktet-golf", **{name: val})
    assert game.options == {**DEFAULTS, name: val}
    state = game.new_state(seed=3)
    assert pos(state)["options"] == {**DEFAULTS, name: val}
    assert game.num_players == (val if name == "players" else 2)


def test_unknown_option_is_refused_naming_the_valid_ones():
    with pytest.raises(parlour.OptionError) as info:
        parlour.load("decktet-golf", player=3)
    message = str(info.value)
    assert "player" in message
    for name in DEFAULTS:
        assert name in message, message


@pytest.mark.parametrize(
    "name, val, allowed",
    [
        ("players", 1, ["2", "5"]),
        ("players", 6, ["2", "5"]),
        ("players", "two", ["2", "5"]),
        ("opening_flips", 9, ["0", "8"]),
        ("opening_flips", -1, ["0", "8"]),
        ("target", 0, ["1"]),
        ("target", "fifty", ["1"]),
        ("rounds", 0, ["1", "none"]),
        ("rounds", "many", ["1", "none"]),
        ("excuse", "maybe", ["true", "false"]),
    ],
)
def test_bad_option_values_are_refused_naming_the_allowed_values(name, val, allowed):
    with pytest.raises(parlour.OptionError) as info:
        parlour.load("decktet-golf", **{name: val})
    message = str(info.value)
    assert name in message
    for word in allowed:
        assert word in message, message


# ---------------------------------------------------------------------------------------
# DG-1 Deck
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 6))
@pytest.mark.parametrize("excuse", [False, True])
@pytest.mark.parametrize("seed", [0, 11])
def test_dg1_deck_per_player_count_and_with_the_excuse(players, excuse, seed):
    """DG-1: 44 cards for 2 players, 88 (two decks) for 3-5; the Excuse adds one per deck."""
    options = {"players": players, "excuse": excuse}
    position = pos(parlour.load("decktet-golf", **options).new_state(seed=seed))
    cards = Counter(c for layout in position["layouts"] for c in layout.values())
    cards += Counter(position["discard"]) + Counter(position["draw_pile"])
    copies = 1 if players == 2 else 2
    assert sum(cards.values()) == (44 + excuse) * copies
    assert cards == deck_of({**DEFAULTS, **options})
    assert len(position["draw_pile"]) == (44 + excuse) * copies - 12 * players - 1


@pytest.mark.parametrize(
    "options, layouts",
    [
        ({}, [lay(*PLAIN0.values(), C4="EX"), PLAIN1]),  # no Excuse without the variant
        ({}, [PLAIN0, lay(*PLAIN1.values(), C4="2MK")]),  # one deck: no card twice
        ({"players": 3}, [PLAIN0, PLAIN0, PLAIN0]),  # two decks: no card three times
    ],
)
def test_dg1_a_position_must_hold_exactly_the_deck(options, layouts):
    game = parlour.load("decktet-golf", **options)
    with pytest.raises(parlour.PositionError) as info:
        game.from_position({"layouts": layouts, "face_up": [[] for _ in layouts], "discard": ["AY"]})
    assert "deck" in str(info.value)


# ---------------------------------------------------------------------------------------
# DG-2 Layout
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 6))
def test_dg2_the_deal_fills_the_twelve_named_cells_and_the_flips_keep_them(players):
    state = parlour.load("decktet-golf", players=players).new_state(seed=5)
    for layout in pos(state)["layouts"]:
        assert sorted(layout) == sorted(CELLS)
    finish_opening(state)
    assert all(sorted(layout) == sorted(CELLS) for layout in pos(state)["layouts"])


@pytest.mark.parametrize("cell", ["A1", "D1", "A4", "D4", "E2", "B5", "B0"])
def test_dg2_corners_and_cells_off_the_grid_are_not_cells(cell):
    state = parlour.load("decktet-golf").new_state(seed=1)
    message = refuse(state, f"flip {cell}", "not a cell", error=parlour.NotationError)
    assert " ".join(CELLS) in message


def test_dg2_two_card_rows_and_columns_are_not_lines():
    """DG-2: only rows 2, 3 and columns B, C are lines: B1 C1, A2 A3, D2 D3, B4 C4 share Moons here."""
    state = make_state(layouts=[PLAIN0, PLAIN1], face_up=[up_except("B3"), []])
    play(state, "take", "replace C2")
    position = pos(state)
    assert position["phase"] == "start" and position["turn"] == 1
    assert sorted(position["layouts"][0]) == sorted(CELLS)


def test_dg2_the_core_is_never_discarded():
    """DG-2/DG-6: all four lines discard their outer cards; the core B2 C2 B3 C3 stays."""
    state = make_state(
        layouts=[M12, PLAIN1], face_up=[up_except("B2", "C3"), []], discard=["AM"], pile=["CMLY"]
    )
    play(state, "take", "replace B2", "ontop D2", "ontop B1")  # row 2, column B
    play(state, "draw", "discard", "flip A2")  # seat 1 discards CMLY
    # emptied cells stay empty: seat 0 can no longer use them
    state.apply("take")
    assert legal(state) == {f"replace {c}" for c in up_except("A2", "D2", "B1", "B4")}
    refuse(state, "replace A2", "A2 is empty")
    refuse(state, "replace B4", "B4 is empty")
    play(state, "replace C3", "ontop A3", "ontop C4")  # row 3, column C
    position = pos(state)
    assert position["layouts"][0] == {"B2": "AM", "C2": "6MW", "B3": "9MS", "C3": "CMLY"}
    assert sorted(position["face_up"][0]) == sorted(CORE)
    assert position["line_discards"] == 8


@pytest.mark.parametrize(
    "empty, why",
    [
        (("B2",), "the core cell B2 is empty, but the core is never discarded (DG-2)"),
        (("C3", "A2", "D2"), "the core cell C3 is empty"),
        (("A2",), "A2 is empty but D2 is not"),
        (("C4",), "C4 is empty but C1 is not"),
        (("B1", "B4", "A3"), "A3 is empty but D3 is not"),
    ],
)
def test_dg2_a_position_empties_only_pairs_of_outer_cells(empty, why):
    """DG-2/DG-6: only suited lines empty cells, two outer cards at a time, never the core;
    a position with any other empty cell is refused (a layout of one card could not even swap)."""
    layout = lay(*PLAIN0.values(), **dict.fromkeys(empty))
    with pytest.raises(parlour.PositionError) as info:
        make_state(layouts=[PLAIN1, layout])
    assert f"seat 1: {why}" in str(info.value)
    # allowed: the outer pairs of all four lines gone, the core left
    state = make_state(layouts=[PLAIN1, {c: PLAIN0[c] for c in CORE}])
    assert sorted(pos(state)["layouts"][1]) == sorted(CORE)


# ---------------------------------------------------------------------------------------
# DG-3 Opening flips
# ---------------------------------------------------------------------------------------


def test_dg3_opening_flips_only_the_eight_cells_outside_the_core():
    state = parlour.load("decktet-golf").new_state(seed=1)
    position = pos(state)
    assert position["phase"] == "opening" and position["player"] == 1 and position["flips_left"] == 2
    assert legal(state) == {f"flip {c}" for c in OUTER_CELLS}
    for cell in CORE:
        refuse(state, f"flip {cell}", "core")
    refuse(state, "take", "opening flips")
    refuse(state, "draw", "opening flips")


def test_dg3_seats_flip_in_turn_order_from_the_dealers_left_each_all_its_flips():
    state = parlour.load("decktet-golf", players=3).new_state(seed=2)
    assert pos(state)["dealer"] == 0
    seen = []
    while pos(state)["phase"] == "opening":
        seat = state.current_player
        cell = sorted(legal(state))[0].split()[1]
        seen.append(seat)
        state.apply(f"flip {cell}")
        if pos(state)["phase"] == "opening" and state.current_player == seat:
            refuse(state, f"flip {cell}", "already face up")
    assert seen == [1, 1, 2, 2, 0, 0]
    assert [len(f) for f in pos(state)["face_up"]] == [2, 2, 2]
    assert all(set(f) <= set(OUTER_CELLS) for f in pos(state)["face_up"])


def test_dg3_order_starts_left_of_a_later_dealer():
    """DG-3: with seat 2 dealing (round 3), seats 0, 1, 2 flip in that order."""
    state = make_state(
        {"players": 3},
        layouts=[PLAIN0, PLAIN1, PLAIN0],
        phase="opening", dealer=2, round=3, turn=0, player=0, flips_left=2,
    )
    seen = []
    while pos(state)["phase"] == "opening":
        seen.append(state.current_player)
        state.apply(sorted(legal(state))[0])
    assert seen == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("flips", range(9))
@pytest.mark.parametrize("players", [2, 4])
def test_dg3_opening_flips_option(flips, players):
    """DG-3 variant opening_flips 0..8: each seat flips that many cards outside the core."""
    state = parlour.load("decktet-golf", players=players, opening_flips=flips).new_state(seed=9)
    if flips == 0:
        assert pos(state)["phase"] == "start"
    count = 0
    while pos(state)["phase"] == "opening":
        assert legal(state) <= {f"flip {c}" for c in OUTER_CELLS}
        state.apply(sorted(legal(state))[-1])
        count += 1
    assert count == flips * players
    face_up = pos(state)["face_up"]
    assert [len(f) for f in face_up] == [flips] * players
    assert all(set(f) <= set(OUTER_CELLS) for f in face_up)
    assert pos(state)["phase"] == "start"


@pytest.mark.parametrize(
    "options, face_up, flips_left, why",
    [
        ({}, [[], []], 0, "allowed 1-2"),  # flips left are owed by the seat flipping
        ({}, [[], []], 3, "allowed 1-2"),
        ({"opening_flips": 0}, [[], []], 1, "no opening phase"),
        ({}, [OUTER_CELLS[:7], []], 2, "seat 0 still owes 2 opening flips but has 1 face-down card"),
        ({}, [[], OUTER_CELLS[:7]], 2, "seat 1 still owes 2 opening flips but has 1 face-down card"),
    ],
)
def test_dg3_a_position_must_leave_each_seat_its_opening_flips(options, face_up, flips_left, why):
    """DG-3: seat 0 flips (dealer 1), then seat 1; a position owing flips that cannot be made is refused."""
    with pytest.raises(parlour.PositionError) as info:
        make_state(
            options, layouts=[PLAIN0, PLAIN1], face_up=face_up,
            phase="opening", dealer=1, turn=0, player=0, flips_left=flips_left,
        )
    assert why in str(info.value) and "DG-3" in str(info.value)
    # allowed: every flip still owed can be made
    state = make_state(
        layouts=[PLAIN0, PLAIN1], face_up=[OUTER_CELLS[:7], OUTER_CELLS[:6]],
        phase="opening", dealer=1, turn=0, player=0, flips_left=1,
    )
    play(state, "flip C4", "flip B4", "flip C4")
    assert pos(state)["phase"] == "start"


def test_dg3_a_position_without_flips_left_owes_the_flips_the_player_has_not_made():
    """DESIGN.md "Positions": in the opening the flips left are implied by the player's face-up cells."""
    state = make_state(layouts=[PLAIN0, PLAIN1], face_up=[["B1"], []], phase="opening", dealer=1, turn=0)
    assert pos(state)["flips_left"] == 1
    play(state, "flip C1")
    assert pos(state)["player"] == 1 and pos(state)["flips_left"] == 2
    assert make_state(layouts=[PLAIN0, PLAIN1], phase="opening", dealer=1, turn=0).to_position()["flips_left"] == 2


# ---------------------------------------------------------------------------------------
# DG-4 First player
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dealer, last, face_up, flip, first",
    [
        # dealer 0: seats flip 1, 2, 0; seat 0 makes the last flip
        (0, 0, [["B1"], ["B1", "C1"], ["A2", "D2"]], "C4", 0),  # 11 against 5 and 9
        (0, 0, [["B1"], ["B1", "C1"], ["A2", "D2"]], "D3", 2),  # 9 = 9: seat 2 sits before seat 0
        (0, 0, [["B1"], ["B1", "C1"], ["B1", "C1"]], "C1", 1),  # all 5: seat 1, left of the dealer
        (0, 0, [["B1"], ["A2", "D2"], ["B1", "C1"]], "D3", 1),  # 9 = 9: seat 1 before seat 0
        (0, 0, [["B1"], ["A2", "D2"], ["B1", "C1"]], "C1", 1),  # 9 against 5 and 5
        # dealer 1: seats flip 2, 0, 1; seat 1 makes the last flip
        (1, 1, [["A2", "D2"], ["A2"], ["B1", "C1"]], "D2", 0),  # 9 = 9: seat 0 sits before seat 1
        (1, 1, [["B1", "C1"], ["A2"], ["B1", "C1"]], "C1", 1),  # 5, 7, 5: seat 1 has the most
    ],
)
def test_dg4_highest_face_up_total_goes_first_ties_to_the_earliest_after_the_dealer(
    dealer, last, face_up, flip, first
):
    state = make_state(
        {"players": 3},
        layouts=[PLAIN0, PLAIN1, PLAIN0],
        face_up=face_up,
        phase="opening", dealer=dealer, round=dealer + 1, turn=last, player=last, flips_left=1,
    )
    totals = []
    state.apply(f"flip {flip}")
    for seat, layout in enumerate([PLAIN0, PLAIN1, PLAIN0]):
        cells = face_up[seat] + ([flip] if seat == last else [])
        totals.append(sum(value(layout[c]) for c in cells))
    order = [(dealer + 1 + i) % 3 for i in range(3)]
    expected = next(s for s in order if totals[s] == max(totals))
    assert expected == first  # the table above agrees with DG-4 written out
    position = pos(state)
    assert position["phase"] == "start"
    assert position["turn"] == position["player"] == state.current_player == first


def test_dg4_no_face_up_cards_the_seat_left_of_the_dealer_goes_first():
    state = parlour.load("decktet-golf", players=4, opening_flips=0).new_state(seed=4)
    assert pos(state)["phase"] == "start" and state.current_player == 1


def test_dg4_play_passes_to_the_left():
    state = make_state({"players": 3}, layouts=[PLAIN0, PLAIN1, PLAIN0], turn=1)
    seen = []
    for _ in range(4):
        seen.append(state.current_player)
        play(state, "take", "replace B1")
    assert seen == [1, 2, 0, 1]


@pytest.mark.parametrize("players", [2, 3])
def test_dg4_the_deal_passes_left_each_round(players):
    """DG-4: round 2 is dealt by seat 1; the opening flips start at its left."""
    layouts = [PLAIN0, PLAIN1, PLAIN0][:players]
    face_up = [["B1"], CELLS, []][:players]
    state = make_state(
        {"players": players, "target": 1000}, layouts=layouts, face_up=face_up, turn=0, ender=1,
    )
    play(state, "take", "replace B1")  # the round's last turn
    position = pos(state)
    assert position["end"] is None
    assert position["round"] == 2 and position["dealer"] == 1
    assert position["phase"] == "opening" and position["player"] == (2 % players)
    assert position["totals"] == [68, 69, 69][:players]
    assert all(sorted(layout) == sorted(CELLS) for layout in position["layouts"])
    assert position["face_up"] == [[] for _ in range(players)] and len(position["discard"]) == 1


# ---------------------------------------------------------------------------------------
# DG-5 Turn
# ---------------------------------------------------------------------------------------


def dg5_state(**kw: Any):
    base = dict(
        layouts=[PLAIN0, PLAIN1], face_up=[["B1", "C1"], ["B1", "C1"]], discard=["AW", "AY"], pile=["AK", "AS"],
    )
    return make_state(**{**base, **kw})


def test_dg5_a_turn_starts_with_take_or_draw():
    state = dg5_state()
    assert legal(state) == {"take", "draw"}
    for text in ("replace C3", "discard", "flip A2", "ontop A2"):
        refuse(state, text, "take the discard top or draw")
    with_excuse = dg5_state(options={"excuse": True})
    refuse(with_excuse, "swap A2 B2", "take the discard top or draw")


def test_dg11_without_the_excuse_a_swap_is_a_notation_error_that_offers_no_swap():
    """Issue 18: with the Excuse off no swap can ever be legal, so its notation is refused and
    the errors never offer ``swap <cell> <cell>``; with the Excuse on they do."""
    state = dg5_state()
    message = refuse(state, "swap A2 B2", "excuse", "expected one of: flip <cell>", error=parlour.NotationError)
    assert "swap <cell>" not in message
    for text in ("play B1", "", ","):
        assert "swap" not in refuse(state, text, "expected one of", error=parlour.NotationError)
    assert "swap <cell> <cell>" in refuse(dg5_state(options={"excuse": True}), "play B1", error=parlour.NotationError)


@pytest.mark.parametrize("text", [",", " , ", "flip \u00b2", "flip B\u00b9", "flip \uff22\uff11", "replace C\u0663"])
def test_notation_odd_text_is_a_notation_error(text):
    """Issue 18: commas alone, superscript, Arabic-Indic or fullwidth digits are no cells."""
    refuse(dg5_state(), text, error=parlour.NotationError)


@pytest.mark.parametrize("cell, old, was_up", [("C3", "XS", False), ("B1", "2MK", True)])
def test_dg5_take_then_replace_the_new_card_face_up_the_old_face_up_on_the_discard(cell, old, was_up):
    state = dg5_state()
    state.apply("take")
    position = pos(state)
    assert position["phase"] == "taken" and position["drawn"] == "AY" and position["drawn_from"] == "discard"
    assert position["discard"] == ["AW"]
    assert legal(state) == {f"replace {c}" for c in CELLS}
    refuse(state, "discard", "replace")
    refuse(state, "flip A2", "replace")
    refuse(state, "take", "replace")
    state.apply(f"replace {cell}")
    position = pos(state)
    assert position["layouts"][0][cell] == "AY" and cell in position["face_up"][0]
    assert position["discard"] == ["AW", old]
    assert state.observation(1)["discard"][-1] == old  # face up for everyone
    assert position["turn"] == 1 and position["phase"] == "start" and position["drawn"] is None


def test_dg5_draw_then_replace():
    state = dg5_state()
    state.apply("draw")
    position = pos(state)
    assert position["phase"] == "drawn" and position["drawn"] == "AK" and position["drawn_from"] == "pile"
    assert position["draw_pile"][0] == "AS"
    assert legal(state) == {f"replace {c}" for c in CELLS} | {"discard"}
    refuse(state, "take", "replace")
    refuse(state, "flip A2", "replace")
    state.apply("replace A2")
    position = pos(state)
    assert position["layouts"][0]["A2"] == "AK" and "A2" in position["face_up"][0]
    assert position["discard"] == ["AW", "AY", "4MS"]
    assert position["turn"] == 1


def test_dg5_draw_then_discard_and_flip_any_face_down_card():
    state = play(dg5_state(), "draw", "discard")
    position = pos(state)
    assert position["phase"] == "flip" and position["discard"][-1] == "AK" and position["drawn"] is None
    assert legal(state) == {f"flip {c}" for c in up_except("B1", "C1")}  # the core too
    refuse(state, "flip B1", "already face up")
    refuse(state, "replace A2", "flip")
    refuse(state, "take", "flip")
    state.apply("flip B2")
    position = pos(state)
    assert position["face_up"][0] == ["B1", "C1", "B2"] and position["layouts"][0]["B2"] == "XM"
    assert position["turn"] == 1 and position["phase"] == "start"


def test_dg5_only_occupied_cells_can_be_replaced_or_flipped():
    layout = lay(*PLAIN0.values(), A2=None, D2=None)
    state = dg5_state(layouts=[layout, PLAIN1])
    state.apply("take")
    assert legal(state) == {f"replace {c}" for c in CELLS if c not in ("A2", "D2")}
    refuse(state, "replace A2", "A2 is empty")
    refuse(state, "replace D2", "empty")
    state = play(dg5_state(layouts=[layout, PLAIN1]), "draw", "discard")
    assert "flip A2" not in legal(state)
    refuse(state, "flip A2", "empty")
    state.apply("flip B3")
    assert "A2" not in pos(state)["layouts"][0] and "D2" not in pos(state)["layouts"][0]


def test_dg5_no_face_down_card_no_flip():
    """DG-5: with every card face up, discarding the drawn card ends the draw step; no flip is owed."""
    state = dg5_state(face_up=[CELLS, []])
    play(state, "draw", "discard")
    position = pos(state)
    assert position["phase"] == "start" and position["turn"] == 1 and position["discard"][-1] == "AK"
    assert legal(state) == {"take", "draw"}
    refuse(state, "flip B1", "take the discard top or draw")


def test_dg5_a_position_owing_a_flip_needs_a_face_down_card():
    """DG-5: the flip after a discard is owed only while a card is face down, so a position in
    the flip phase without one is refused; with one face-down card it is the only action."""
    with pytest.raises(parlour.PositionError) as info:
        dg5_state(face_up=[CELLS, []], phase="flip")
    assert "seat 0 has no face-down card to flip" in str(info.value)
    state = dg5_state(face_up=[up_except("C3"), []], phase="flip")
    assert legal(state) == {"flip C3"}


def test_dg5_take_needs_a_discard_pile_draw_needs_a_draw_pile():
    no_discard = dg5_state(discard=[])
    assert legal(no_discard) == {"draw"}
    refuse(no_discard, "take", "discard pile is empty")
    no_pile = dg5_state(pile=[], rest="discard")
    assert legal(no_pile) == {"take"}
    refuse(no_pile, "draw", "draw pile is empty")


# ---------------------------------------------------------------------------------------
# DG-6 Suit lines
# ---------------------------------------------------------------------------------------

# (line, layout overrides on PLAIN0, the discard top taken, the cell it replaces, a face-down cell off the line)
LINE_CASES = [
    ("2", {}, "AM", "C2", "B4"),  # 4MS XM AM 5ML: Moons
    ("3", {"A3": "AL"}, "9LK", "C3", "B1"),  # AL 3LY 9LK 7ML: Leaves
    ("B", {}, "AM", "B3", "C1"),  # 2MK XM AM 8MS: Moons
    ("C", {"C1": "PMSL"}, "AS", "C2", "A3"),  # PMSL AS XS 9MS: Suns
]


@pytest.mark.parametrize("line, overrides, taken, cell, down", LINE_CASES)
@pytest.mark.parametrize("top", [0, 1])
def test_dg6_a_suited_line_discards_its_two_outer_cards_the_player_choosing_the_top(
    line, overrides, taken, cell, down, top
):
    layout = lay(*PLAIN0.values(), **overrides)
    state = make_state(layouts=[layout, PLAIN1], face_up=[up_except(down), []], discard=["AY", taken])
    play(state, "take", f"replace {cell}")
    after = {**layout, cell: taken}
    assert suited_lines(after, up_except(down)) == [line]
    position = pos(state)
    assert position["phase"] == "ontop" and position["lines"] == [line] and state.current_player == 0
    first, second = OUTER[line]
    assert legal(state) == {f"ontop {first}", f"ontop {second}"}
    chosen, other = (first, second) if top == 0 else (second, first)
    state.apply(f"ontop {chosen}")
    position = pos(state)
    assert position["discard"] == ["AY", layout[cell], after[other], after[chosen]]
    assert set(position["layouts"][0]) == set(CELLS) - {first, second}
    assert all(c in position["layouts"][0] for c in CORE)
    assert position["turn"] == 1 and position["phase"] == "start" and position["line_discards"] == 2


# PLAIN0 with row 2 (4MS XM PMYK 5ML) and column B (2MK XM AM 8MS) suited in Moons
ROW2_COLB = lay(*PLAIN0.values(), C2="PMYK", B3="AM")


@pytest.mark.parametrize(
    "layout, face_up, lines, why",
    [
        (PLAIN0, CELLS, ["2"], "none, not 2"),  # 4MS XM 2WL 5ML share no suit
        (ROW2_COLB, CELLS, ["B", "2"], "2 B, not B 2"),  # in the order row 2, column B
        (ROW2_COLB, CELLS, ["B"], "2 B, not B"),  # every suited line is pending
        (ROW2_COLB, up_except("A2"), ["2", "B"], "B, not 2 B"),  # a face-down card never counts
    ],
)
def test_dg6_a_position_pends_exactly_the_suited_lines_in_order(layout, face_up, lines, why):
    """DG-6: in the ontop phase the lines still to discard are the mover's suited lines, in order."""
    assert suited_lines(ROW2_COLB, CELLS) == ["2", "B"]
    with pytest.raises(parlour.PositionError) as info:
        make_state(layouts=[layout, PLAIN1], face_up=[face_up, []], phase="ontop", lines=lines)
    assert why in str(info.value) and "DG-6" in str(info.value)
    # allowed: both suited lines pending; row 2 is asked first
    state = make_state(layouts=[ROW2_COLB, PLAIN1], face_up=[CELLS, []], phase="ontop", lines=["2", "B"])
    assert legal(state) == {"ontop A2", "ontop D2"}
    state.apply("ontop D2")
    assert legal(state) == {"ontop B1", "ontop B4"}


def test_dg6_a_position_without_lines_pends_the_movers_suited_lines():
    """DESIGN.md "Positions": in the ontop phase a missing ``lines`` is the mover's suited lines."""
    state = make_state(layouts=[ROW2_COLB, PLAIN1], face_up=[CELLS, []], phase="ontop")
    assert pos(state)["lines"] == ["2", "B"] and legal(state) == {"ontop A2", "ontop D2"}
    with pytest.raises(parlour.PositionError, match="lines are pending exactly in the ontop phase"):
        make_state(layouts=[PLAIN0, PLAIN1], face_up=[CELLS, []], phase="ontop")  # no suited line to pend


def test_dg6_ontop_refusals_say_which_cells():
    layout = lay(*PLAIN0.values())
    state = make_state(layouts=[layout, PLAIN1], face_up=[up_except("B4"), []], discard=["AY", "AM"])
    play(state, "take", "replace C2")
    refuse(state, "ontop B2", "A2 or D2")
    refuse(state, "ontop C1", "A2 or D2")
    refuse(state, "take", "ontop")
    message = refuse(state, "ontop", "ambiguous", error=parlour.NotationError)
    assert "ontop A2" in message and "ontop D2" in message


def test_dg6_face_down_cards_never_count_until_turned_up():
    state = make_state(
        layouts=[PLAIN0, PLAIN1], face_up=[up_except("A2", "B4"), []], discard=["AY", "AM"], pile=["AK"]
    )
    play(state, "take", "replace C2")  # Moons on 4MS(down) XM AM 5ML
    position = pos(state)
    assert position["phase"] == "start" and position["turn"] == 1 and "A2" in position["layouts"][0]
    play(state, "take", "replace B1")  # seat 1
    play(state, "draw", "discard", "flip A2")  # now all four are face up
    position = pos(state)
    assert position["phase"] == "ontop" and position["lines"] == ["2"]


def test_dg6_a_line_with_an_empty_cell_never_counts():
    layout = lay(*PLAIN0.values(), A2=None, D2=None)
    state = make_state(layouts=[layout, PLAIN1], face_up=[up_except("A2", "D2"), []], discard=["AY", "AM"])
    play(state, "take", "replace C2")  # B2 XM and C2 AM share Moons, but row 2 has two cards
    assert pos(state)["phase"] == "start" and pos(state)["turn"] == 1


@pytest.mark.parametrize(
    "down, cell, order",
    [
        (("B2", "C3"), "B2", ["2", "B"]),
        (("B2", "C3"), "C3", ["3", "C"]),
        (("B3", "C2"), "B3", ["3", "B"]),
        (("B3", "C2"), "C2", ["2", "C"]),
    ],
)
def test_dg6_lines_are_handled_in_order_row_2_row_3_column_b_column_c(down, cell, order):
    state = make_state(layouts=[M12, PLAIN1], face_up=[up_except(*down), []], discard=["AY", "AM"])
    play(state, "take", f"replace {cell}")
    after = {**M12, cell: "AM"}
    assert suited_lines(after, up_except(down[1] if cell == down[0] else down[0])) == order
    first, second = order
    assert pos(state)["lines"] == order
    assert legal(state) == {f"ontop {c}" for c in OUTER[first]}
    refuse(state, f"ontop {OUTER[second][0]}", f"{OUTER[first][0]} or {OUTER[first][1]}")
    state.apply(f"ontop {OUTER[first][1]}")
    assert pos(state)["lines"] == [second] and pos(state)["phase"] == "ontop"
    assert legal(state) == {f"ontop {c}" for c in OUTER[second]}
    state.apply(f"ontop {OUTER[second][0]}")
    position = pos(state)
    assert position["discard"] == [
        "AY", M12[cell],
        after[OUTER[first][0]], after[OUTER[first][1]],
        after[OUTER[second][1]], after[OUTER[second][0]],
    ]
    assert position["turn"] == 1 and position["line_discards"] == 4


@pytest.mark.parametrize("b4, column_b", [("PMSL", True), ("CSLK", False)])
def test_dg6_identical_twin_outer_cards_ask_no_choice(b4, column_b):
    """DG-6: in a double deck, row 2 ending in two copies of 4MS discards both without asking."""
    twin = lay(*M12.values(), D2="4MS", B4=b4)
    state = make_state(
        {"players": 3},
        layouts=[twin, PLAIN1, PLAIN1],
        face_up=[up_except("B2", "C3"), [], []],
        discard=["AY", "AM"],
    )
    play(state, "take", "replace B2")
    position = pos(state)
    assert position["discard"] == ["AY", "5ML", "4MS", "4MS"]
    assert "A2" not in position["layouts"][0] and "D2" not in position["layouts"][0]
    if column_b:  # column B (2MK AM 9MS PMSL) still asks
        assert position["phase"] == "ontop" and position["lines"] == ["B"]
        assert legal(state) == {"ontop B1", "ontop B4"}
        state.apply("ontop B4")
        assert pos(state)["discard"][-2:] == ["2MK", "PMSL"]
    assert pos(state)["phase"] == "start" and pos(state)["turn"] == 1


def test_dg6_lines_are_checked_for_the_mover_only():
    """DG-6: the check follows the draw step of the player whose turn it is; others' lines wait."""
    # seat 1 has a suited row 2 face up (unreachable in play, but the point is whose lines are checked)
    other = lay(*PLAIN1.values(), C2="AW")  # 4WL XW AW 5SW: Waves
    state = make_state(layouts=[PLAIN0, other], face_up=[[], CELLS[:-1]], discard=["AY", "AM"])
    play(state, "take", "replace B1")
    assert pos(state)["phase"] == "start" and pos(state)["turn"] == 1
    assert "A2" in pos(state)["layouts"][1]
    play(state, "take", "replace B1")  # seat 1's own draw step: now its row 2 goes
    assert pos(state)["phase"] == "ontop" and pos(state)["lines"] == ["2"]


# ---------------------------------------------------------------------------------------
# DG-8 Round end (with the final DG-6 check, DG-9 values and DG-10 results)
# ---------------------------------------------------------------------------------------


def round_end_state(options: dict[str, Any] | None = None, **kw: Any):
    """Seat 0 (PLAIN1, D3 face down) is about to turn its last card; seat 1 holds M12 with B2, C3 down."""
    base = dict(layouts=[PLAIN1, M12], face_up=[up_except("D3"), up_except("B2", "C3")], pile=["AK", "AS"])
    return make_state(options, **{**base, **kw})


# Seat 1's layout at the round end: row 2 is broken by AK; row 3, columns B and C are Moons.
FINAL_M12 = {"A2": "AK", "B2": "5ML", "C2": "6MW", "D2": "7ML", "B3": "9MS", "C3": "XM"}


def test_dg8_the_last_face_down_card_gives_everyone_else_one_last_turn_then_all_turn_up():
    state = round_end_state({"rounds": 1})
    play(state, "draw", "discard")
    assert legal(state) == {"flip D3"}
    state.apply("flip")  # the one face-down card: a unique abbreviation
    position = pos(state)
    assert position["ender"] == 0 and position["turn"] == 1 and position["end"] is None
    assert position["round_scores"] == [] and not state.is_terminal()
    play(state, "take", "replace A2")  # seat 1's last turn; B2 and C3 are still face down
    position = pos(state)
    assert state.is_terminal() and position["end"] == "rounds"
    assert state.current_player is None and legal(state) == set()
    # all cards turned up; DG-6 checked once more without asking: row 3, columns B, C of seat 1
    assert position["layouts"][1] == FINAL_M12
    assert sorted(position["face_up"][1]) == sorted(FINAL_M12)
    assert sorted(position["face_up"][0]) == sorted(CELLS)
    assert position["lines"] == []
    # engine notes: seat by seat, lines in order, outer cards in reading order
    assert position["discard"][-7:] == ["4MS", "8MS", "PMYK", "2MK", "PMSL", "3MW", "CMWK"]
    assert position["round_scores"] == [[69, 38]]
    assert state.scores() == [69, 38] and state.winners() == [1]


@pytest.mark.parametrize("options", [{"target": 1000}, {"rounds": 2}])
def test_dg6_the_final_check_at_round_end_discards_without_asking(options):
    """DG-6: at the round end seat 1's row 3 and columns B, C (all Moons once turned up) lose
    their outer cards with no ontop choice; the next round is dealt at once."""
    state = round_end_state(options)
    play(state, "draw", "discard", "flip D3", "take")
    assert legal(state) == {f"replace {c}" for c in CELLS}
    state.apply("replace A2")
    position = pos(state)
    assert position["end"] is None and position["phase"] == "opening" and position["round"] == 2
    assert position["round_scores"] == [[69, sum(value(c) for c in FINAL_M12.values())]] == [[69, 38]]


@pytest.mark.parametrize("face_up, turn", [(up_except("D3"), 0), (CELLS, 1)])
def test_dg8_a_position_with_an_ender_has_it_face_up_and_waiting(face_up, turn):
    """DG-8: the seat that ended the round has no face-down card and plays no more this round."""
    with pytest.raises(parlour.PositionError) as info:
        make_state(layouts=[PLAIN0, PLAIN1], face_up=[[], face_up], ender=1, turn=turn)
    assert "DG-8" in str(info.value) and "seat 1 must have every card face up" in str(info.value)
    state = make_state({"rounds": 1}, layouts=[PLAIN0, PLAIN1], face_up=[[], CELLS], ender=1, turn=0)
    play(state, "take", "replace B1")
    assert state.is_terminal()


def test_dg8_replacing_the_last_face_down_card_also_ends_the_round():
    state = round_end_state()
    play(state, "take", "replace D3")
    position = pos(state)
    assert position["ender"] == 0 and position["turn"] == 1 and position["phase"] == "start"


def test_dg8_the_terminal_announces_the_last_turns_however_the_last_card_went():
    """DG-8: replacing the last face-down card ends the round as a flip does; the text says so."""
    from parlour.games.decktet_golf.text import situation

    state = round_end_state()
    assert not any("last turn" in line for line in situation(state.observation(1)))
    play(state, "take", "replace D3")
    assert "Seat 0 has no face-down card left" in " ".join(situation(state.observation(1)))


def test_dg8_three_players_each_other_seat_gets_one_turn():
    state = make_state(
        {"players": 3, "rounds": 1},
        layouts=[PLAIN0, PLAIN1, PLAIN0],
        face_up=[["B1"], up_except("D3"), []],
        turn=1,
        pile=["AK", "AS", "AW"],
    )
    play(state, "draw", "discard", "flip D3")  # seat 1 turns its last card
    assert pos(state)["ender"] == 1 and state.current_player == 2
    play(state, "take", "replace B1")  # seat 2: AK for 2MK
    assert state.current_player == 0 and not state.is_terminal()
    play(state, "draw", "replace C4")  # seat 0: AS for 9MS; seat 1 gets no further turn
    assert state.is_terminal()
    assert pos(state)["round_scores"] == [[61, 69, 68]]
    assert state.scores() == [61, 69, 68] and state.winners() == [0]


# ---------------------------------------------------------------------------------------
# DG-7 Empty draw pile
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("finish", [("replace C3",), ("discard", "flip C3")])
def test_dg7_a_turn_that_empties_the_pile_ends_with_a_reshuffle(finish):
    state = make_state(
        layouts=[PLAIN0, PLAIN1], face_up=[["B1"], []], discard=["AY"], pile=["AK"], rest="discard"
    )
    old_discard = pos(state)["discard"]
    state.apply("draw")
    position = pos(state)
    assert position["draw_pile"] == [] and position["reshuffles"] == 0  # not yet: at the turn's end
    play(state, *finish)
    position = pos(state)
    assert position["reshuffles"] == 1 and position["pile_known"] is True
    assert len(position["discard"]) == 1  # the new pile's top card, turned up
    gone = "XS" if finish[0] == "replace C3" else "AK"
    assert Counter(position["draw_pile"]) + Counter(position["discard"]) == Counter(old_discard + [gone])
    assert len(position["draw_pile"]) == len(old_discard)
    assert position["turn"] == 1 and position["phase"] == "start" and legal(state) == {"take", "draw"}


def test_dg7_no_reshuffle_while_the_pile_has_cards():
    state = make_state(layouts=[PLAIN0, PLAIN1], pile=["AK", "AS"], rest="discard")
    play(state, "draw", "replace C3")
    position = pos(state)
    assert position["reshuffles"] == 0 and position["draw_pile"] == ["AS"] and not position["pile_known"]


def test_dg7_no_reshuffle_after_a_rounds_last_turn():
    state = make_state(
        {"rounds": 1}, layouts=[PLAIN0, PLAIN1], face_up=[[], CELLS], pile=["AK"], rest="discard", ender=1
    )
    play(state, "draw", "replace C3")
    position = pos(state)
    assert state.is_terminal() and position["reshuffles"] == 0 and position["draw_pile"] == []


# ---------------------------------------------------------------------------------------
# DG-9 Values
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code, points",
    [("CMWK", -2), ("CMLY", -2), ("PMYK", -1), ("PWLY", -1), ("AM", 1), ("AK", 1),
     ("8WL", 8), ("9LK", 9), ("XY", 10), ("XK", 10), ("EX", 15)],
)
def test_dg9_card_values(code, points):
    """DG-9: seat 1's B2 holds the card (no line through it); seat 1 scores 69 - 10 + value."""
    assert value(code) == points
    layout = lay(*PLAIN1.values(), B2=code)
    assert suited_lines(layout, CELLS) == []
    state = make_state(
        {"rounds": 1, "excuse": code == "EX"}, layouts=[PLAIN0, layout], face_up=[[], CELLS], ender=1,
    )
    play(state, "take", "replace B1")  # AY (1) for 2MK (2)
    assert state.is_terminal()
    assert state.scores() == [68, 59 + points]


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("excuse", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_dg9_round_scores_are_the_sum_of_the_cards_left(players, excuse, seed):
    """DG-8/DG-9: a random round; each seat scores the values of its remaining cards."""
    state = parlour.load("decktet-golf", players=players, excuse=excuse, rounds=1).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    position = pos(state)
    for seat in range(players):
        layout = position["layouts"][seat]
        assert sorted(position["face_up"][seat]) == sorted(layout)
        assert suited_lines(layout, layout) == []  # the final check left no suited line
        assert all(c in layout for c in CORE)
    expected = [sum(value(c) for c in layout.values()) for layout in position["layouts"]]
    assert position["round_scores"] == [expected] and state.scores() == expected


# ---------------------------------------------------------------------------------------
# DG-10 Match
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, before, end, totals, winners",
    [
        ({}, [], "target", [69, 38], [1]),  # 69 reaches 50
        ({"target": 70}, [], None, [69, 38], []),  # nobody at 70: another round
        ({"target": 69}, [], "target", [69, 38], [1]),  # exactly the target ends it
        ({"target": 70}, [[1, 50]], "target", [70, 88], [0]),  # a later round reaches it
        ({}, [[-20, 0]], None, [49, 38], []),  # the default target 50: 49 plays on
        ({}, [[-19, 0]], "target", [50, 38], [1]),  # and 50 ends the match
        ({"rounds": 1, "target": 1000}, [], "rounds", [69, 38], [1]),
        ({"rounds": 2, "target": 10}, [], None, [69, 38], []),  # target ignored with rounds
        ({"rounds": 2}, [[0, 31]], "rounds", [69, 69], [0, 1]),  # equal lowest share the win
        ({"rounds": 3}, [[5, 80], [0, 0]], "rounds", [74, 118], [0]),
    ],
)
def test_dg10_match_to_target_or_fixed_rounds_lowest_wins(options, before, end, totals, winners):
    n_round = len(before) + 1
    state = round_end_state(
        options,
        round=n_round, dealer=(n_round - 1) % 2,
        round_scores=before, totals=[sum(r[s] for r in before) for s in range(2)],
    )
    assert state.winners() == [] and state.scores() == [sum(r[s] for r in before) for s in range(2)]
    play(state, "draw", "discard", "flip D3", "take", "replace A2")
    position = pos(state)
    assert position["end"] == end and state.is_terminal() == (end is not None)
    assert state.scores() == totals and position["totals"] == totals
    assert position["round_scores"] == before + [[69, 38]]
    assert state.winners() == winners
    if end is None:
        assert position["round"] == n_round + 1 and position["dealer"] == n_round % 2
        assert position["phase"] == "opening"


def finished_match(options: dict[str, Any]) -> dict[str, Any]:
    game = parlour.load("decktet-golf", **options)
    state, rng = game.new_state(seed=6), random.Random(6)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.to_position()


@pytest.mark.parametrize("options, end", [({"rounds": 1}, "rounds"), ({"target": 20}, "target")])
def test_dg10_a_position_without_end_is_over_when_the_rounds_or_totals_say_so(options, end):
    """DESIGN.md "Positions": a missing ``end`` is what the rounds played or the totals imply;
    a given one must agree, and an ended match has every card face up (DG-8)."""
    position = finished_match(options)
    assert position["end"] == end
    game = parlour.load("decktet-golf", **options)
    state = game.from_position({k: v for k, v in position.items() if k != "end"})
    assert state.is_terminal() and state.end_reason == end and state.legal_actions() == []
    assert state.winners() == game.from_position(position).winners() != []
    other = "target" if end == "rounds" else "rounds"
    for wrong in (other, None):
        with pytest.raises(parlour.PositionError, match=r"does not agree with the match: .*\(DG-10\)"):
            game.from_position({**position, "end": wrong})
    seat = next(s for s, cells in enumerate(position["face_up"]) if cells)
    hidden = [cells[1:] if s == seat else cells for s, cells in enumerate(position["face_up"])]
    with pytest.raises(parlour.PositionError, match="every card face up"):
        game.from_position({**position, "face_up": hidden})


def test_dg10_a_live_position_is_not_over_and_a_round_too_many_is_refused():
    state = make_state({"rounds": 2}, layouts=[PLAIN0, PLAIN1], round_scores=[[3, 4]], totals=[3, 4])
    assert not state.is_terminal()
    with pytest.raises(parlour.PositionError, match="does not agree with the match: 1 of 2 rounds played"):
        make_state({"rounds": 2}, layouts=[PLAIN0, PLAIN1], round_scores=[[3, 4]], totals=[3, 4], end="rounds")
    with pytest.raises(parlour.PositionError, match="no total has reached 50, so the end is null"):
        make_state(layouts=[PLAIN0, PLAIN1], end="target")
    with pytest.raises(parlour.PositionError, match="round_scores has 3 rounds, but the match has 2"):
        make_state({"rounds": 2}, layouts=[PLAIN0, PLAIN1], round_scores=[[1, 1]] * 3, totals=[3, 3])


# ---------------------------------------------------------------------------------------
# DG-11 The Excuse
# ---------------------------------------------------------------------------------------

EXCUSE = {"excuse": True}
ALL_SWAPS = {f"swap {a} {b}" for a, b in combinations(CELLS, 2)}


def test_dg11_a_discarded_excuse_goes_under_the_discard_pile_and_everyone_swaps():
    state = make_state(
        EXCUSE,
        layouts=[lay(*PLAIN0.values(), C4="EX"), PLAIN1],
        face_up=[["B1", "C4"], ["B1"]],
        discard=["AW", "AY"],
    )
    play(state, "take", "replace C4")
    position = pos(state)
    assert position["discard"] == ["EX", "AW"]  # to the bottom: AW is still the top
    assert position["phase"] == "swap" and position["swappers"] == [0, 1]
    assert position["player"] == 0 and position["turn"] == 0
    assert legal(state) == ALL_SWAPS
    assert len(ALL_SWAPS) == 66
    refuse(state, "take", "swap")
    refuse(state, "swap A2 A2", "two different", error=parlour.NotationError)
    refuse(state, "swap A2", "ambiguous", error=parlour.NotationError)
    state.apply("swap B1 A2")  # face-up 2MK with face-down 4MS: each keeps its orientation
    position = pos(state)
    assert position["layouts"][0]["B1"] == "4MS" and position["layouts"][0]["A2"] == "2MK"
    assert sorted(position["face_up"][0]) == ["A2", "C4"]
    assert position["player"] == 1 and position["turn"] == 0 and state.current_player == 1
    assert legal(state) == ALL_SWAPS
    state.apply("swap C4 C1")  # two face-down cards may swap; notation in either order
    position = pos(state)
    assert position["layouts"][1]["C1"] == "7WY" and position["layouts"][1]["C4"] == "3SK"
    assert position["face_up"][1] == ["B1"]
    assert position["phase"] == "start" and position["turn"] == 1 and position["player"] == 1


def test_dg11_swaps_go_in_turn_order_from_the_discarder():
    state = make_state(
        {"players": 3, **EXCUSE},
        layouts=[PLAIN0, lay(*PLAIN1.values(), C4="EX"), PLAIN0],
        turn=1,
    )
    play(state, "take", "replace C4")
    assert pos(state)["swappers"] == [1, 2, 0]
    seen = []
    while pos(state)["phase"] == "swap":
        seen.append(state.current_player)
        assert pos(state)["turn"] == 1
        state.apply("swap B1 C1")
    assert seen == [1, 2, 0]
    assert state.current_player == 2 and pos(state)["turn"] == 2


@pytest.mark.parametrize(
    "swappers, player, why",
    [
        ([1], 0, "the last 1 of the turn order from seat 0 (2, DG-11)"),  # seat 2 is the one left
        ([0, 1], 1, "(1 2, DG-11)"),  # seat 0, the discarder, swapped first
        ([2, 1], 2, "(1 2, DG-11)"),  # out of turn order
        ([0, 0], 0, "(1 2, DG-11)"),
        ([1, 2], 2, "the first of them the player"),
    ],
)
def test_dg11_a_position_pends_the_swaps_in_turn_order_from_the_discarder(swappers, player, why):
    """DG-11: the swaps go in turn order from the seat whose turn it is; a position pending others is refused."""
    position = dict(layouts=[PLAIN0, PLAIN1, PLAIN0], phase="swap", turn=0, after_swaps="lines", discard=["EX", "AY"])
    with pytest.raises(parlour.PositionError) as info:
        make_state({"players": 3, **EXCUSE}, **position, swappers=swappers, player=player)
    assert why in str(info.value)
    state = make_state({"players": 3, **EXCUSE}, **position, swappers=[1, 2], player=1)
    seen = []
    while pos(state)["phase"] == "swap":
        seen.append(state.current_player)
        state.apply("swap B1 C1")
    assert seen == [1, 2] and state.current_player == 1  # then seat 0's lines, and seat 1's turn


def test_dg11_a_position_without_swappers_pends_the_player_and_the_seats_after_it():
    """DESIGN.md "Positions": in the swap phase the swappers are the player and the seats after
    it up to the turn's seat; after an Excuse discarded in a turn (others on the discard pile)
    the turn's lines follow. An Excuse alone on the discard pile may wait for its cover: said."""
    options = {"players": 3, **EXCUSE}
    state = make_state(options, layouts=[PLAIN0, PLAIN1, PLAIN0], phase="swap", turn=0, player=1, discard=["EX", "AY"])
    assert (pos(state)["swappers"], pos(state)["after_swaps"]) == ([1, 2], "lines")
    with pytest.raises(parlour.PositionError, match="set exactly in the swap phase"):
        make_state(options, layouts=[PLAIN0, PLAIN1, PLAIN0], phase="swap", turn=0, discard=["EX"])
    state = make_state(options, layouts=[PLAIN0, PLAIN1, PLAIN0], phase="swap", turn=0, discard=["EX"],
                       after_swaps="cover")
    assert pos(state)["swappers"] == [0, 1, 2]


def test_dg11_a_swap_takes_two_different_occupied_cells():
    layout = lay(*PLAIN0.values(), A2=None, D2=None, C4="EX")
    state = make_state(EXCUSE, layouts=[layout, PLAIN1], face_up=[["C4"], []])
    play(state, "take", "replace C4")
    occupied = [c for c in CELLS if c in layout]
    assert legal(state) == {f"swap {a} {b}" for a, b in combinations(occupied, 2)}
    refuse(state, "swap A2 B2", "A2 is empty")
    refuse(state, "swap B2 D2", "D2 is empty")


@pytest.mark.parametrize("all_up", [False, True])
def test_dg11_a_drawn_excuse_discarded_flip_first_then_swaps(all_up):
    state = make_state(
        EXCUSE, layouts=[PLAIN0, PLAIN1], face_up=[CELLS if all_up else ["B1"], []], discard=["AW", "AY"],
        pile=["EX", "AK"],
    )
    play(state, "draw", "discard")
    position = pos(state)
    assert position["discard"] == ["EX", "AW", "AY"]
    if not all_up:
        assert position["phase"] == "flip" and legal(state) == {f"flip {c}" for c in up_except("B1")}
        refuse(state, "swap A2 B2", "flip")
        state.apply("flip A2")
    position = pos(state)
    assert position["phase"] == "swap" and position["swappers"] == [0, 1] and position["player"] == 0


def test_dg11_after_the_swaps_lines_are_checked_for_the_mover_only():
    mover = lay(*PLAIN0.values(), C4="EX")
    state = make_state(
        EXCUSE,
        layouts=[mover, PLAIN1],
        face_up=[up_except("B4"), up_except("B4")],
        discard=["AW", "AY"],
        pile=["AK"],
    )
    play(state, "take", "replace C4", "swap C1 C2")  # seat 0: row 2 becomes 4MS XM 3MW 5ML
    assert pos(state)["phase"] == "swap" and state.current_player == 1
    state.apply("swap C2 C4")  # seat 1: row 2 becomes 4WL XW 7WY 5SW, all Waves, face up
    position = pos(state)
    assert position["phase"] == "ontop" and position["lines"] == ["2"] and state.current_player == 0
    state.apply("ontop A2")
    position = pos(state)
    assert position["turn"] == 1 and position["phase"] == "start"
    assert {"A2", "D2"} <= set(position["layouts"][1])  # seat 1's line waits for its own turn
    play(state, "draw", "replace B4")
    position = pos(state)
    assert position["phase"] == "ontop" and position["lines"] == ["2"] and state.current_player == 1


def test_dg11_the_excuse_has_no_suit_so_it_makes_no_line():
    layout = lay(*PLAIN0.values(), D2="EX")  # 4MS XM AM EX
    state = make_state(EXCUSE, layouts=[layout, PLAIN1], face_up=[up_except("B4"), []], discard=["AY", "AM"])
    play(state, "take", "replace C2")
    assert pos(state)["phase"] == "start" and pos(state)["turn"] == 1


@pytest.mark.parametrize("flip, first", [("C4", 0), ("C1", 1)])
def test_dg11_the_excuse_as_the_opening_discard(flip, first):
    """DG-11: after the opening flips and DG-4, all swap from the first player; then a card covers it."""
    state = make_state(
        EXCUSE,
        layouts=[PLAIN0, PLAIN1],
        face_up=[["B1"], ["B1", "C1"]],
        discard=["EX"],
        pile=["AK", "AS"],
        phase="opening", dealer=0, turn=0, player=0, flips_left=1,
    )
    state.apply(f"flip {flip}")
    position = pos(state)
    assert position["phase"] == "swap" and position["discard"] == ["EX"]
    assert position["swappers"] == [first, 1 - first] and state.current_player == first
    assert position["turn"] == first
    refuse(state, "take", "swap")
    state.apply("swap B1 C1")
    assert state.current_player == 1 - first and pos(state)["discard"] == ["EX"]
    state.apply("swap A2 D2")
    position = pos(state)
    assert position["discard"] == ["EX", "AK"] and position["draw_pile"][0] == "AS"
    assert position["phase"] == "start" and state.current_player == first
    assert legal(state) == {"take", "draw"}


@pytest.mark.parametrize(
    "position, said",
    [
        (dict(discard=["EX", "AY"], after_swaps="lines"), "The Excuse went under the discard pile"),
        (dict(discard=["EX"], after_swaps="cover"), "The Excuse was turned up to start the discard pile"),
    ],
)
def test_dg11_the_terminal_says_why_everyone_swaps(position, said):
    """DG-11: a discarded Excuse goes under the pile; one turned up to start it is swapped for, then covered."""
    from parlour.games.decktet_golf.text import situation

    state = make_state(EXCUSE, layouts=[PLAIN0, PLAIN1], phase="swap", swappers=[0, 1], **position)
    text = " ".join(situation(state.observation(0)))
    assert said in text and "seat 0 now; then 1" in text
    assert ("then a card from the pile covers it" in text) == (position["after_swaps"] == "cover")


def test_dg11_an_opening_excuse_covered_by_the_other_excuse_swaps_again():
    state = make_state(
        {"players": 3, **EXCUSE},
        layouts=[PLAIN0, PLAIN1, PLAIN0],
        face_up=[["B1"], ["B1", "C1"], ["B1", "C1"]],
        discard=["EX"],
        pile=["EX", "AK"],
        phase="opening", dealer=0, turn=0, player=0, flips_left=1,
    )
    state.apply("flip C1")  # all three show 5: seat 1 goes first
    seen = []
    while pos(state)["phase"] == "swap":
        seen.append(state.current_player)
        state.apply("swap B1 C1")
    assert seen == [1, 2, 0, 1, 2, 0]
    position = pos(state)
    assert position["discard"] == ["EX", "EX", "AK"] and state.current_player == 1


def test_dg11_an_excuse_turned_up_after_a_reshuffle_swaps_from_the_player_about_to_move():
    base = make_position(
        layouts=[PLAIN0, PLAIN1], face_up=[["B1"], []], discard=["EX", "AY"], pile=["AK"], rest="discard",
        options=EXCUSE,
    )
    game = parlour.load("decktet-golf", **EXCUSE)
    for chance in range(400):
        state = game.from_position({**base, "chance": chance})
        play(state, "draw", "replace C3")
        if pos(state)["phase"] == "swap":
            break
    else:
        pytest.fail("no chance seed turned the Excuse up")
    position = pos(state)
    assert position["reshuffles"] == 1 and position["discard"] == ["EX"]
    assert position["turn"] == 1 and position["player"] == 1 and position["swappers"] == [1, 0]
    cover = position["draw_pile"][0]
    play(state, "swap B1 C1", "swap B1 C1")
    position = pos(state)
    assert position["discard"] == ["EX", cover] and position["phase"] == "start" and state.current_player == 1


def test_dg11_an_excuse_covering_the_excuse_after_a_reshuffle_swaps_again_from_the_player_about_to_move():
    """DG-11: a reshuffle turns up one Excuse, the card that covers it is the other: everyone swaps
    twice, both times from seat 1 (about to move), and a third card covers the two Excuses."""
    base = make_position(
        layouts=[PLAIN0, PLAIN1, PLAIN0], face_up=[["B1"], [], []], discard=["AY"], pile=["AK"], rest="discard",
        options={"players": 3, **EXCUSE},
    )
    base["discard"] = ["EX", "EX"] + [c for c in base["discard"] if c != "EX"]  # both under the pile
    game = parlour.load("decktet-golf", players=3, **EXCUSE)
    for chance in range(20000):
        state = game.from_position({**base, "chance": chance})
        play(state, "draw", "replace C3")
        if pos(state)["phase"] == "swap" and pos(state)["draw_pile"][0] == "EX":
            break
    else:
        pytest.fail("no chance seed turned up both Excuses")
    position = pos(state)
    assert position["reshuffles"] == 1 and position["discard"] == ["EX"] and position["swappers"] == [1, 2, 0]
    refuse(state, "take", "swap")
    cover = position["draw_pile"][1]
    seen = []
    while pos(state)["phase"] == "swap":
        assert pos(state)["turn"] == 1
        seen.append(state.current_player)
        state.apply("swap B1 C1")
    assert seen == [1, 2, 0, 1, 2, 0]
    position = pos(state)
    assert position["discard"] == ["EX", "EX", cover] and position["phase"] == "start"
    assert state.current_player == 1 and legal(state) == {"take", "draw"}


def test_dg11_an_opening_excuse_without_opening_flips_swaps_from_the_dealers_left():
    """DG-11 with opening_flips=0: nobody shows a card, seat 1 (left of the dealer) goes first (DG-4)
    and swaps first; then a card covers the Excuse."""
    game = parlour.load("decktet-golf", opening_flips=0, **EXCUSE)
    state = next(s for s in map(game.new_state, range(500)) if pos(s)["discard"] == ["EX"])
    position = pos(state)
    assert position["face_up"] == [[], []] and position["dealer"] == 0
    assert position["phase"] == "swap" and position["swappers"] == [1, 0] and state.current_player == 1
    assert legal(state) == ALL_SWAPS
    refuse(state, "draw", "swap")
    cover = position["draw_pile"][0]
    play(state, "swap B2 C3", "swap A2 D3")
    position = pos(state)
    assert position["discard"] == ["EX", cover] and position["phase"] == "start" and state.current_player == 1
    assert position["face_up"] == [[], []]  # two face-down cards swapped stay face down


def test_dg11_an_excuse_discarded_onto_an_empty_discard_pile_can_be_taken():
    state = make_state(
        EXCUSE, layouts=[lay(*PLAIN0.values(), C4="EX"), PLAIN1], face_up=[["C4"], []], discard=[], pile=["AK"],
    )
    play(state, "draw", "replace C4", "swap B1 C1", "swap B1 C1")
    assert pos(state)["discard"] == ["EX"] and state.current_player == 1
    assert legal(state) == {"take", "draw"}
    state.apply("take")
    assert pos(state)["drawn"] == "EX" and pos(state)["drawn_from"] == "discard"


# ---------------------------------------------------------------------------------------
# DG-12 Information
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_dg12_the_observation_never_shows_a_face_down_card_not_even_to_its_owner(players, seed):
    state = finish_opening(parlour.load("decktet-golf", players=players).new_state(seed=seed))
    position = pos(state)
    for seat in range(players):
        obs = state.observation(seat)
        assert "draw_pile" not in obs and "chance" not in obs
        assert obs["draw_pile_size"] == len(position["draw_pile"]) and obs["pile_contents"] is None
        assert obs["discard"] == position["discard"]
        for s in range(players):
            for cell, code in position["layouts"][s].items():
                shown = obs["layouts"][s][cell]
                assert shown == (code if cell in position["face_up"][s] else "?"), (seat, s, cell)


def test_dg12_states_differing_only_in_hidden_cards_look_the_same():
    one = make_position(layouts=[PLAIN0, PLAIN1], face_up=[["B1", "C1"], ["B1"]], discard=["AW", "AY"])
    other = make_position(
        layouts=[lay(*PLAIN0.values(), C3="XL"), lay(*PLAIN1.values(), C3="XS")],
        face_up=[["B1", "C1"], ["B1"]], discard=["AW", "AY"],
    )
    other["draw_pile"] = other["draw_pile"][::-1]
    game = parlour.load("decktet-golf")
    for seat in (0, 1):
        assert game.from_position(one).observation(seat) == game.from_position(other).observation(seat)


def test_dg12_a_card_drawn_from_the_pile_is_shown_to_the_drawer_alone():
    state = make_state(layouts=[PLAIN0, PLAIN1], discard=["AW", "AY"], pile=["AK"])
    state.apply("draw")
    assert state.observation(0)["drawn"] == "AK"
    assert state.observation(1)["drawn"] is None and state.observation(1)["drawn_from"] == "pile"
    assert state.observation(None)["drawn"] is None  # a spectator is never the drawer
    state.apply("discard")
    assert state.observation(1)["discard"][-1] == "AK"
    taken = play(make_state(layouts=[PLAIN0, PLAIN1], discard=["AW", "AY"]), "take")
    assert taken.observation(0)["drawn"] == taken.observation(1)["drawn"] == "AY"


def test_dg12_the_whole_discard_pile_is_public():
    state = make_state(layouts=[PLAIN0, PLAIN1], pile=["AK"], rest="discard")
    position = pos(state)
    assert len(position["discard"]) == 19
    for seat in (0, 1):
        assert state.observation(seat)["discard"] == position["discard"]


def test_dg12_after_a_reshuffle_the_pile_contents_are_public():
    state = make_state(layouts=[PLAIN0, PLAIN1], face_up=[["B1"], []], pile=["AK"], rest="discard")
    assert state.observation(1)["pile_contents"] is None
    play(state, "draw", "replace C3")
    pile = pos(state)["draw_pile"]
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs["pile_contents"] == sorted(pile) and obs["draw_pile_size"] == len(pile)
    state.apply("draw")  # seat 1 draws a card of the known pile
    drawn = pos(state)["drawn"]
    assert state.observation(1)["pile_contents"] == sorted(pile[1:]) and state.observation(1)["drawn"] == drawn
    assert state.observation(0)["pile_contents"] == sorted(pile) and state.observation(0)["drawn"] is None
    assert state.observation(None)["pile_contents"] == sorted(pile)


def test_dg12_a_new_deal_hides_the_pile_again():
    """DG-12: the pile's contents are public only after a reshuffle of this round; the next deal's pile is not."""
    state = make_state(
        {"target": 1000}, layouts=[PLAIN0, PLAIN1], face_up=[[], CELLS], ender=1, pile_known=True, reshuffles=1,
    )
    assert state.observation(0)["pile_contents"] is not None
    play(state, "take", "replace B1")  # the round's last turn; round 2 is dealt
    position = pos(state)
    assert position["round"] == 2 and position["pile_known"] is False and position["reshuffles"] == 0
    for seat in (0, 1, None):
        obs = state.observation(seat)
        assert obs["pile_contents"] is None and obs["draw_pile_size"] == len(position["draw_pile"]) == 19


# ---------------------------------------------------------------------------------------
# Notation (DESIGN.md)
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "setup, text, canonical",
    [
        ((), "TAKE", "take"),
        ((), "  Draw ", "draw"),
        (("take",), "REPLACE c3", "replace C3"),
        (("take",), "replace   b1", "replace B1"),
        (("draw",), "Discard", "discard"),
        (("draw", "discard"), "flip  a2", "flip A2"),
    ],
)
def test_notation_any_case_and_spacing(setup, text, canonical):
    state = play(make_state(layouts=[PLAIN0, PLAIN1]), *setup)
    assert str(state.game.parse_action(state, text)) == canonical
    state.apply(text)
    assert state.history()[-1] == state.game.parse_action(play(make_state(layouts=[PLAIN0, PLAIN1]), *setup), canonical)


def test_notation_swap_in_either_order_is_one_action():
    state = make_state(EXCUSE, layouts=[lay(*PLAIN0.values(), C4="EX"), PLAIN1], face_up=[["C4"], []])
    play(state, "take", "replace C4")
    assert str(state.game.parse_action(state, "swap c3 A2")) == "swap A2 C3"
    assert str(state.game.parse_action(state, "SWAP A2 C3")) == "swap A2 C3"


@pytest.mark.parametrize("text", ["", "   ", "pass", "flipp B1", "take B1", "draw 2", "replace C3 C4", "xyzzy"])
def test_notation_unparseable_text_is_a_notation_error_saying_what_is_expected(text):
    state = make_state(layouts=[PLAIN0, PLAIN1])
    message = refuse(state, text, error=parlour.NotationError)
    assert "expected" in message or "takes" in message, message


@pytest.mark.parametrize("text", ["replace A1", "replace D4", "replace E3", "replace 11", "replace BB"])
def test_notation_unknown_cells(text):
    state = play(make_state(layouts=[PLAIN0, PLAIN1]), "take")
    refuse(state, text, "not a cell", "B1 C1 A2", error=parlour.NotationError)


def test_notation_flipping_a_face_up_card_is_refused():
    state = make_state(
        layouts=[PLAIN0, PLAIN1], face_up=[[], []], phase="opening", turn=1, player=1, flips_left=2
    )
    state.apply("flip B1")
    refuse(state, "flip B1", "B1 is already face up")
    refuse(state, "flip b1", "already face up")


def test_notation_replacing_when_no_card_was_drawn_is_refused():
    state = make_state(layouts=[PLAIN0, PLAIN1])
    refuse(state, "replace C3", "take the discard top or draw")
    refuse(state, "discard", "take the discard top or draw")


@pytest.mark.parametrize(
    "setup, text, candidates",
    [
        ((), "flip", []),  # not now: start phase, refused as illegal below
        (("take",), "replace", [f"replace {c}" for c in CELLS]),
        (("draw", "discard"), "flip", [f"flip {c}" for c in CELLS]),
    ],
)
def test_notation_ambiguous_abbreviations_list_the_candidates(setup, text, candidates):
    state = play(make_state(layouts=[PLAIN0, PLAIN1]), *setup)
    if not candidates:
        refuse(state, text, "take the discard top or draw")
        return
    message = refuse(state, text, "ambiguous", error=parlour.NotationError)
    for candidate in candidates:
        assert candidate in message


def test_notation_opening_flip_abbreviation_is_ambiguous_among_the_eight():
    state = parlour.load("decktet-golf").new_state(seed=1)
    message = refuse(state, "flip", "ambiguous", error=parlour.NotationError)
    for cell in OUTER_CELLS:
        assert f"flip {cell}" in message
    for cell in CORE:
        assert f"flip {cell}" not in message


def test_notation_str_of_every_legal_action_parses_back_to_it():
    state = parlour.load("decktet-golf", excuse=True, players=3).new_state(seed=6)
    rng = random.Random(6)
    for _ in range(200):
        if state.is_terminal():
            break
        for action in state.legal_actions():
            assert state.game.parse_action(state, str(action)) == action
        state.apply(rng.choice(state.legal_actions()))
