"""Rules tests for Psalter Row: one or more tests per ruling PR-1 .. PR-14 (shared/RULINGS.md),
every variant option in both readings, every worked example of the rule text, and the
lenient notation of DESIGN.md.

Everything goes through the public API (``parlour.load``, ``from_position``,
``legal_actions``, ``apply``, ``to_position``, ``scores``, ``winners``), never the
game's internals. Positions are written by hand; with an explicit ``draw_pile`` the
cards named nowhere else go to ``removed`` so that all 52 cards are placed.
"""

from __future__ import annotations

import random
from typing import Any, Iterable

import pytest
from helpers import legal, refuse

import parlour

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(rank + suit for suit in "CDHS" for rank in RANKS)
VALUE = {code: RANKS.index(code[:-1]) + 1 for code in DECK}


def make_position(
    row: Iterable[str] = (),
    hand: Iterable[str] = (),
    draw_pile: Iterable[str] | None = None,
    discard: Iterable[str] = (),
    removed: Iterable[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A hand-written position.

    With an explicit ``draw_pile`` every card must be placed: the cards named
    nowhere are put in ``removed`` (so the discard pile is exactly as given).
    """
    position: dict[str, Any] = {"row": list(row), "hand": list(hand), "discard": list(discard), **extra}
    if draw_pile is not None:
        position["draw_pile"] = list(draw_pile)
        named = set(position["row"]) | set(position["hand"]) | set(position["draw_pile"])
        named |= set(position["discard"]) | set(removed or ())
        position["removed"] = list(removed or ()) + [c for c in DECK if c not in named]
    elif removed is not None:
        position["removed"] = list(removed)
    return position


def make_state(options: dict[str, Any] | None = None, **position: Any):
    """``parlour.load("psalter-row", **options).from_position(make_position(**position))``."""
    return parlour.load("psalter-row", **(options or {})).from_position(make_position(**position))


def reference_score(row: list[str]) -> int:
    """PR-13 written out independently of the engine, for cross-checks."""
    values = [VALUE[c] for c in row]
    pages = len(row)
    total = pages - (9 - pages)
    suit = lambda cards: len({c[-1] for c in cards}) == 1  # noqa: E731
    colour = lambda cards: len({c[-1] in "DH" for c in cards}) == 1  # noqa: E731
    if pages == 9:
        return total + (5 if suit(row) else 2 if colour(row) else 0)
    runs: list[list[str]] = []
    for card, value in zip(row, values):
        if runs and value == VALUE[runs[-1][-1]] + 1:
            runs[-1].append(card)
        else:
            runs.append([card])
    quires = [r for r in runs if len(r) >= 2]
    if not quires:
        return total
    size = max(len(q) for q in quires)
    return total + max(2 if suit(q) else 1 if colour(q) else 0 for q in quires if len(q) == size)


def hand_of(state) -> list[str]:
    return state.to_position()["hand"]


def row_of(state) -> list[str]:
    return state.to_position()["row"]


# A hand of Patrons only: it can never place a Page nor issue a Directive, so a player
# holding it is stuck whatever the Row (PR-7).
PATRONS_ONLY = ["JC", "JD", "QC", "QD", "JH"]
# The Row of the rule text's Revision example: Quires [3 through 5] and [8 through 9].
EXAMPLE_ROW = ["3H", "4H", "5H", "8S", "9S"]
# A hand that is stuck against EXAMPLE_ROW: 6 and 7 fall inside the Row, 4 is already
# there, no King for a Directive, and an Ace (that is no way out, PR-7).
STUCK_HAND = ["6C", "7D", "4C", "QS", "AS"]


# ---------------------------------------------------------------------------------------
# Options (every variant of RULINGS.md, both readings; bad ones are OptionError)
# ---------------------------------------------------------------------------------------

DEFAULTS = {
    "first_page_cost": 0,
    "errand_draw": 2,
    "errand_when_stuck": False,
    "revision_discard": "hand",
    "revision_target": "largest",
    "end_on": "empty",
}


def test_default_options():
    assert parlour.load("psalter-row").options == DEFAULTS


@pytest.mark.parametrize(
    "name, value",
    [("first_page_cost", v) for v in range(9)]
    + [("errand_draw", 2), ("errand_draw", 1)]
    + [("errand_when_stuck", False), ("errand_when_stuck", True)]
    + [("revision_discard", "hand"), ("revision_discard", 2)]
    + [("revision_target", "largest"), ("revision_target", "smallest")]
    + [("end_on", "empty"), ("end_on", "failed_draw")],
)
def test_every_variant_value_is_accepted(name, value):
    game = parlour.load("psalter-row", **{name: value})
    assert game.options == {**DEFAULTS, name: value}
    # the option travels with the positions of that game
    state = game.from_position(make_position(row=["5H"], hand=["6H", "2C", "3C", "4C", "9C"]))
    assert state.to_position()["options"][name] == value


def test_unknown_option_is_refused_naming_the_valid_ones():
    with pytest.raises(parlour.OptionError) as info:
        parlour.load("psalter-row", errand_draws=1)
    message = str(info.value)
    assert "errand_draws" in message
    for name in DEFAULTS:
        assert name in message


@pytest.mark.parametrize(
    "name, value, allowed",
    [
        ("first_page_cost", 9, ["0", "8"]),
        ("first_page_cost", -1, ["0", "8"]),
        ("first_page_cost", "cheap", ["0", "8"]),
        ("errand_draw", 3, ["2", "1"]),
        ("errand_draw", 0, ["2", "1"]),
        ("errand_when_stuck", "maybe", ["true", "false"]),
        ("revision_discard", 3, ["hand", "2"]),
        ("revision_discard", "all", ["hand", "2"]),
        ("revision_target", "middle", ["largest", "smallest"]),
        ("end_on", "never", ["empty", "failed_draw"]),
    ],
)
def test_out_of_range_option_is_refused_naming_the_allowed_values(name, value, allowed):
    with pytest.raises(parlour.OptionError) as info:
        parlour.load("psalter-row", **{name: value})
    message = str(info.value)
    assert name in message
    for word in allowed:
        assert word in message, message


# ---------------------------------------------------------------------------------------
# PR-1 Row order
# ---------------------------------------------------------------------------------------


def test_pr1_row_grows_only_at_its_ends_and_stays_ascending():
    """PR-1: the low end takes a lower Page, the high end a higher one; the Row stays ascending."""
    state = make_state(row=["5H"], hand=["4C", "6D", "JS", "QS", "KS"], draw_pile=["2C", "3C", "7C", "8C"])
    assert {"place 4C low", "place 6D high"} <= legal(state)
    state.apply("place 4C low")
    assert row_of(state) == ["4C", "5H"]
    state.apply("place 6D high")
    assert row_of(state) == ["4C", "5H", "6D"]
    assert hand_of(state) == ["JS", "QS", "KS", "2C", "3C"]
    assert "place 3C low" in legal(state)
    assert "place 2C low pay 3C" in legal(state)  # 2 below 4: N = 2


def test_pr1_a_gap_inside_the_row_is_never_filled():
    """PR-1: nothing is inserted between Pages, so 5 cannot enter the Row 3 4 . 6 7."""
    state = make_state(row=["3H", "4H", "6H", "7H"], hand=["5C", "9D", "10D", "JS", "QS"])
    assert not any(a.startswith("place 5C") for a in legal(state))
    assert "place 10D high pay 9D" in legal(state)  # the hand can pay, 5C just has no end
    refuse(state, "place 5C", "inside")
    refuse(state, "place 5C high pay 10D", "inside")
    refuse(state, "place 5C low pay 9D", "inside")


def test_pr1_no_value_appears_twice():
    """PR-1: a Page whose value is already in the Row cannot be placed."""
    state = make_state(row=["5H", "6H"], hand=["5C", "6C", "10D", "JS", "QS"])
    assert not any(a.startswith(("place 5C", "place 6C")) for a in legal(state))
    refuse(state, "place 5C", "already")
    refuse(state, "place 6C high pay 10D", "already")


def test_pr1_each_page_has_only_its_own_end():
    """PR-1: a lower Page goes to the low end only, a higher one to the high end only."""
    state = make_state(row=["5H", "6H"], hand=["4C", "7C", "JS", "QS", "KS"])
    assert {"place 4C low", "place 7C high"} <= legal(state)
    refuse(state, "place 4C high", "low end")
    refuse(state, "place 7C low", "high end")


@pytest.mark.parametrize(
    "row",
    [["6H", "5H"], ["5H", "5C"], ["5H", "KS"], ["AS", "2S"], ["2H", "JH"]],
)
def test_pr1_a_position_row_must_be_ascending_pages_without_repeats(row):
    """PR-1: a Row out of order, with a value twice, or with a non-Page is not a position."""
    with pytest.raises(parlour.PositionError):
        make_state(row=row, hand=["9C", "9D", "10C", "10D", "JS"])


# ---------------------------------------------------------------------------------------
# PR-2 Gap
# ---------------------------------------------------------------------------------------


def test_pr2_exact_neighbours_are_free_at_both_ends():
    """PR-2: N = 1 is an exact neighbour and costs nothing."""
    state = make_state(row=["5H", "6H", "7H"], hand=["4C", "8C", "JS", "QS", "KS"])
    assert legal(state) == {"place 4C low", "place 8C high"}


def test_pr2_an_exact_neighbour_takes_no_payment():
    """PR-2 (engine note): a free placement names no payment; one is refused."""
    state = make_state(row=["5H"], hand=["6H", "4D", "9C", "JS", "QS"])
    assert not any(a.startswith("place 6H high pay") for a in legal(state))
    refuse(state, "place 6H high pay 4D", "neighbour")


def test_pr2_gap_is_measured_from_the_chosen_end():
    """PR-2: N = |placed - value at the chosen end|: Row 5..7, a 9 has N = 2, a 3 has N = 2."""
    state = make_state(row=["5H", "6H", "7H"], hand=["9C", "3C", "2D", "JS", "KS"])
    actions = legal(state)
    assert "place 9C high pay 2D" in actions  # N = 9 - 7, not 9 - 5
    assert "place 3C low pay 2D" in actions  # N = 5 - 3
    assert "place 2D low pay 3C" in actions  # N = 5 - 2 = 3


def test_pr2_worked_example_row_ends_at_5_a_9_has_gap_4():
    """PR-2 (text example): Row ends at 5, placing a 9 gives N = 4: a 3 cannot pay, a 4 can."""
    state = make_state(row=["4H", "5H"], hand=["9C", "3D", "4D", "KS", "AS"])
    assert "place 9C high pay 4D" in legal(state)
    assert "place 9C high pay 3D" not in legal(state)
    refuse(state, "place 9C high pay 3D", "gap is 4")


@pytest.mark.parametrize("payer, ok", [("4D", False), ("5D", True), ("10D", True)])
def test_pr2_gap_at_the_low_end(payer, ok):
    """PR-2: Row starts at 7, placing a 2 low gives N = 5."""
    state = make_state(row=["7H", "8H"], hand=["2C", payer, "KS", "AS", "KD"])
    action = f"place 2C low pay {payer}"
    if ok:
        assert action in legal(state)
        state.apply(action)
        assert row_of(state) == ["2C", "7H", "8H"]
    else:
        assert not any(a.startswith("place 2C") for a in legal(state))
        refuse(state, action, "gap is 5")


def test_pr2_unpaid_gap_is_refused():
    """PR-2: a Page at gap N >= 2 cannot be placed for free (3 + nothing cannot pay 4)."""
    state = make_state(row=["5H"], hand=["9C", "3D", "KS", "AS", "KD"])
    assert legal(state) == {"place 3D low pay 9C", "errand AS"}
    refuse(state, "place 9C high", "gap is 4")


# ---------------------------------------------------------------------------------------
# PR-3 Empty Row (variant first_page_cost)
# ---------------------------------------------------------------------------------------


def test_pr3_first_page_into_an_empty_row_is_free():
    """PR-3: the first Page, any value, is free by default; no end is named."""
    state = make_state(hand=["9C", "2D", "10H", "JS", "KS"], draw_pile=["3C", "4C", "5C", "6C"])
    assert legal(state) == {"place 9C", "place 2D", "place 10H"}
    state.apply("place 10H")
    assert row_of(state) == ["10H"]
    assert hand_of(state) == ["9C", "2D", "JS", "KS", "3C"]


def test_pr3_empty_row_refuses_an_end_and_a_payment():
    """PR-3: into the empty Row there is no end, and a free first Page takes no payment."""
    state = make_state(hand=["9C", "2D", "10H", "JS", "KS"])
    refuse(state, "place 9C high", "empty")
    refuse(state, "place 9C pay 2D", "free")


def _first_page_expected(cost: int, hand: list[str]) -> set[str]:
    """PR-3 + PR-4 written out: what may be placed into an empty Row at this cost."""
    aid = {"J": 2, "Q": 3}
    pages = [c for c in hand if 2 <= VALUE[c] <= 10]
    patrons = [c for c in hand if c[:-1] in aid]
    out: set[str] = set()
    for card in pages:
        if cost <= 1:
            out.add(f"place {card}")
            continue
        for q in pages:
            if q == card:
                continue
            if VALUE[q] >= cost:
                out.add(f"place {card} pay {q}")
            for r in patrons:
                if VALUE[q] + aid[r[:-1]] >= cost:
                    out.add(f"place {card} pay {q} {r}")
    return out


@pytest.mark.parametrize("cost", range(9))
def test_pr3_first_page_cost_variant(cost):
    """PR-3 variant first_page_cost 0..8: the first Page pays gap N = cost as in PR-4 (N <= 1 free)."""
    hand = ["9C", "2D", "3D", "JS", "QS"]
    state = make_state({"first_page_cost": cost}, hand=hand)
    expected = _first_page_expected(cost, hand)
    assert expected  # this hand can always pay something
    assert legal(state) == expected


def test_pr3_first_page_cost_refusals_say_why():
    """PR-3: with first_page_cost=4, an unpaid or underpaid first Page is refused."""
    unpayable = make_state({"first_page_cost": 4}, hand=["9C", "2D", "KS", "AS", "KD"])
    assert legal(unpayable) == {"place 2D pay 9C", "errand AS"}
    refuse(unpayable, "place 9C", "first")
    state = make_state({"first_page_cost": 4}, hand=["9C", "2D", "3D", "JS", "QS"])
    refuse(state, "place 9C pay 3D", "3")
    refuse(state, "place 9C pay 2D 3D", "two pages")
    state.apply("place 9C pay 2D JS")
    assert row_of(state) == ["9C"]
    assert state.to_position()["discard"] == ["2D"]
    assert "JS" in state.to_position()["removed"]


def test_pr3_first_page_cost_applies_to_the_first_page_only():
    """PR-3: with first_page_cost=8, later exact neighbours are still free."""
    state = make_state({"first_page_cost": 8}, row=["5H"], hand=["6H", "4C", "JS", "QS", "KS"])
    assert legal(state) == {"place 6H high", "place 4C low"}


def test_pr3_unpayable_first_page_leaves_the_player_stuck():
    """PR-3 with PR-7: first_page_cost=8 and nothing that pays 8: only the Revision of an empty Row."""
    state = make_state({"first_page_cost": 8}, hand=["2C", "3C", "4C", "5C", "JS"])
    assert legal(state) == {"revise"}
    assert legal(make_state({"first_page_cost": 0}, hand=["2C", "3C", "4C", "5C", "JS"])) == {
        "place 2C", "place 3C", "place 4C", "place 5C"}


# ---------------------------------------------------------------------------------------
# PR-4 Payment
# ---------------------------------------------------------------------------------------


def test_pr4_worked_example_gap_4_single_page_or_2_plus_jack():
    """PR-4 (text example, N = 4): Row ends at 5, place a 9: a single 4 pays, 2 + Jack pays."""
    state = make_state(
        row=["4H", "5H"], hand=["9C", "4D", "2H", "JS", "KS"], draw_pile=["2C", "3C", "6C", "7C"]
    )
    nines = {a for a in legal(state) if a.startswith("place 9C")}
    assert nines == {"place 9C high pay 4D", "place 9C high pay 4D JS", "place 9C high pay 2H JS"}
    state.apply("place 9C high pay 2H JS")
    position = state.to_position()
    assert position["row"] == ["4H", "5H", "9C"]
    assert position["discard"] == ["2H"]  # the 2 is discarded
    assert "JS" in position["removed"]  # the Jack is removed from the game
    assert position["hand"] == ["4D", "KS", "2C", "3C", "6C"]


@pytest.mark.parametrize("value", range(2, 11))
def test_pr4_single_page_pays_when_its_value_reaches_the_gap(value):
    """PR-4: one Page 2-10 of value >= N pays (text example: a single 4 through 10 pays N = 4)."""
    payer = f"{value}D"
    state = make_state(row=["4H", "5H"], hand=["9C", payer, "KS", "AS", "KD"])
    action = f"place 9C high pay {payer}"
    if value >= 4:
        assert action in legal(state)
        state.apply(action)
        assert row_of(state)[-1] == "9C"
        assert state.to_position()["discard"] == [payer]
    else:
        refuse(state, action, "gap is 4")


def test_pr4_worked_example_gap_5_two_plus_queen_pays_exactly():
    """PR-4 (text example, N = 5): 2 + Queen pays exactly; 2 + Jack does not."""
    state = make_state(
        row=["5H"], hand=["10C", "2D", "QS", "JS", "KS"], draw_pile=["2C", "3C", "6C", "7C"]
    )
    assert "place 10C high pay 2D QS" in legal(state)
    assert "place 10C high pay 2D JS" not in legal(state)
    refuse(state, "place 10C high pay 2D JS", "gap is 5")
    refuse(state, "place 10C high pay 2D", "gap is 5")
    state.apply("place 10C high pay 2D QS")
    position = state.to_position()
    assert position["row"] == ["5H", "10C"]
    assert position["discard"] == ["2D"]
    assert "QS" in position["removed"] and "QS" not in position["hand"]


@pytest.mark.parametrize(
    "hand, pay, why",
    [
        # Jack + Queen would reach 5 >= 4, but a Patron never pays alone, nor two together
        (["9C", "2D", "3D", "JS", "QS"], "JS QS", "patron"),
        (["9C", "2D", "3D", "JS", "QS"], "QS", "patron"),
        # 2 + 3 would reach 5 >= 4, but two Pages never pay together
        (["9C", "2D", "3D", "JS", "QS"], "2D 3D", "two pages"),
        # Aces and Kings never pay, alone or with a Page
        (["9C", "2D", "KS", "AS", "QD"], "KS", "never pay"),
        (["9C", "2D", "KS", "AS", "QD"], "AS", "never pay"),
        (["9C", "2D", "KS", "AS", "QD"], "2D KS", "never pay"),
        (["9C", "2D", "KS", "AS", "QD"], "2D AS", "never pay"),
    ],
)
def test_pr4_worked_example_illegal_payments(hand, pay, why):
    """PR-4 (text example): Jack + Queen, two Pages, Aces and Kings are never a payment."""
    state = make_state(row=["4H", "5H"], hand=hand)
    assert f"place 9C high pay {pay}" not in legal(state)
    refuse(state, f"place 9C high pay {pay}", why)


def test_pr4_a_king_is_no_patron():
    """PR-4: a King cannot assist a Page (Q&A: can a King act as a Patron? No)."""
    state = make_state(row=["5H"], hand=["9C", "2D", "KS", "KD", "AS"])
    assert not any(a.startswith("place 9C") for a in legal(state))


def test_pr4_the_placed_page_cannot_pay_for_itself():
    """PR-4: the paying Page is another card than the placed Page."""
    state = make_state(row=["5H"], hand=["9C", "JS", "QS", "KS", "AS"])
    assert not any(a.startswith("place 9C") for a in legal(state))
    refuse(state, "place 9C high pay 9C", "itself")
    refuse(state, "place 9C high pay 9C QS", "itself")


def test_pr4_overpaying_is_allowed_and_a_patron_may_assist_a_sufficient_page():
    """PR-4: a 10 pays N = 2, and a 10 with a Queen pays it too."""
    state = make_state(row=["5H"], hand=["7C", "10D", "QS", "KS", "AS"])
    assert {"place 7C high pay 10D", "place 7C high pay 10D QS"} <= legal(state)
    state.apply("place 7C high pay 10D QS")
    assert "QS" in state.to_position()["removed"]
    assert state.to_position()["discard"] == ["10D"]


def test_pr4_no_payment_of_more_than_one_patron():
    """PR-4: exactly one Page plus exactly one Patron: a Page with two Patrons is refused."""
    state = make_state(row=["5H"], hand=["10C", "2D", "JS", "QS", "KS"])
    assert all(len(a.split()) <= 6 for a in legal(state))  # place X end pay Page [Patron]
    refuse(state, "place 10C high pay 2D JS QS", error=parlour.ParlourError)


# ---------------------------------------------------------------------------------------
# PR-5 Abbot's Directive
# ---------------------------------------------------------------------------------------


def test_pr5_worked_example_abbots_directive():
    """PR-5 (text example): Row has the 6 of hearts; King + 6 of spades swap it in place."""
    state = make_state(
        row=["5C", "6H", "7C"],
        hand=["KS", "6S", "2D", "9D", "JH"],
        draw_pile=["2C", "3C", "4C", "8C"],
        discard=["10C"],
    )
    assert "swap 6S KS" in legal(state)
    state.apply("swap 6S KS")
    position = state.to_position()
    assert position["row"] == ["5C", "6S", "7C"]  # replaced in place
    assert position["discard"] == ["10C", "6H"]  # the 6 of hearts goes to the discard
    assert "KS" in position["removed"] and "KS" not in position["discard"]
    assert position["hand"] == ["2D", "9D", "JH", "2C", "3C"]  # draw to 5
    assert position["draw_pile"] == ["4C", "8C"]


def test_pr5_directive_at_an_end_of_the_row():
    """PR-5: the copy at an end is replaced in place too."""
    state = make_state(row=["5C", "6H", "7C"], hand=["KH", "7S", "2D", "9D", "JH"])
    state.apply("swap 7S KH")
    assert row_of(state) == ["5C", "6H", "7S"]


def test_pr5_each_king_and_each_matching_page_is_its_own_directive():
    """PR-5: every (hand Page in the Row's numbers, King) pair is a Directive."""
    state = make_state(row=["5C", "6H"], hand=["KS", "KD", "5S", "6D", "9D"])
    swaps = {a for a in legal(state) if a.startswith("swap")}
    assert swaps == {"swap 5S KS", "swap 5S KD", "swap 6D KS", "swap 6D KD"}


@pytest.mark.parametrize(
    "hand, text, why",
    [
        # the Row has no 9 to replace
        (["KS", "6S", "9D", "2D", "JH"], "swap 9D KS", "no 9"),
        # the Directive needs a King: a Jack is no King
        (["JS", "6S", "9D", "2D", "JH"], "swap 6S JS", "king"),
        # the King must be in hand
        (["KS", "6S", "9D", "2D", "JH"], "swap 6S KD", "not in your hand"),
        # the Page must be in hand
        (["KS", "6S", "9D", "2D", "JH"], "swap 6D KS", "not in your hand"),
    ],
)
def test_pr5_directive_refusals(hand, text, why):
    """PR-5: a Directive needs a King and a hand Page whose number is in the Row."""
    state = make_state(row=["5C", "6H", "7C"], hand=hand)
    refuse(state, text, why)


def test_pr5_no_directive_without_a_king():
    """PR-5: a matching Page without a King gives no Directive."""
    state = make_state(row=["5C", "6H", "7C"], hand=["6S", "5S", "9D", "2D", "JH"])
    assert not any(a.startswith("swap") for a in legal(state))


# ---------------------------------------------------------------------------------------
# PR-6 Supply Errand (variant errand_draw)
# ---------------------------------------------------------------------------------------


def test_pr6_worked_example_supply_errand_draw_2_discard_1():
    """PR-6 (text example): hand 3, 8, J, Q, A: draw 2, discard 1, Ace removed, 5 cards."""
    state = make_state(
        hand=["3C", "8D", "JS", "QH", "AS"], draw_pile=["4C", "5C", "6C", "7C"], discard=["10C"]
    )
    assert "errand AS" in legal(state)
    state.apply("errand AS")
    position = state.to_position()
    assert position["hand"] == ["3C", "8D", "JS", "QH", "4C", "5C"]
    assert position["pending"] == "errand_discard"
    assert "AS" in position["removed"]
    assert legal(state) == {f"discard {c}" for c in position["hand"]}
    state.apply("discard 8D")
    position = state.to_position()
    assert position["hand"] == ["3C", "JS", "QH", "4C", "5C"]  # ends at 5 cards
    assert position["discard"] == ["10C", "8D"]
    assert position["draw_pile"] == ["6C", "7C"]  # no further draw
    assert position["pending"] is None
    assert position["row"] == []  # the Errand does not touch the Row


def test_pr6_errand_draw_1_variant():
    """PR-6 variant errand_draw=1: draw 1, discard 1, then draw back up to 5 (PR-10)."""
    state = make_state(
        {"errand_draw": 1}, hand=["3C", "8D", "JS", "QH", "AS"], draw_pile=["4C", "5C", "6C", "7C"]
    )
    state.apply("errand AS")
    position = state.to_position()
    assert position["hand"] == ["3C", "8D", "JS", "QH", "4C"]
    assert position["pending"] == "errand_discard"
    state.apply("discard 8D")
    position = state.to_position()
    assert position["hand"] == ["3C", "JS", "QH", "4C", "5C"]
    assert position["draw_pile"] == ["6C", "7C"]
    assert position["discard"] == ["8D"]


def test_pr6_errand_refusals():
    """PR-6: only an Ace runs an Errand; while its discard is owed nothing else is legal."""
    state = make_state(hand=["3C", "8D", "JS", "QH", "AS"], draw_pile=["4C", "5C", "6C", "7C"])
    refuse(state, "errand 3C", "ace")
    refuse(state, "errand AD", "not in your hand")
    refuse(state, "discard 3C", "nothing is owed")
    state.apply("errand AS")
    refuse(state, "place 3C", "discard")
    refuse(state, "errand AS", "discard")
    refuse(state, "discard 9H", "not in your hand")


def test_pr6_errand_is_a_choice_when_not_stuck():
    """PR-6, PR-10: an Errand is one of the turn's actions alongside a placement."""
    state = make_state(row=["5H"], hand=["6H", "AS", "AD", "JS", "QS"])
    assert legal(state) == {"place 6H high", "errand AS", "errand AD"}


# ---------------------------------------------------------------------------------------
# PR-7 Stuck and Revision (variant errand_when_stuck)
# ---------------------------------------------------------------------------------------


def test_pr7_stuck_player_must_revise_and_an_errand_is_no_way_out():
    """PR-7: stuck (no placement, no Directive): only Revisions; an Errand is refused."""
    state = make_state(row=EXAMPLE_ROW, hand=STUCK_HAND)
    assert legal(state) == {"revise 3H", "revise 4H", "revise 5H"}
    refuse(state, "errand AS", "stuck")


def test_pr7_errand_when_stuck_variant():
    """PR-7 variant errand_when_stuck=true: a stuck player holding an Ace may run an Errand."""
    state = make_state(
        {"errand_when_stuck": True}, row=EXAMPLE_ROW, hand=STUCK_HAND, draw_pile=["2C", "10C", "3C"]
    )
    assert legal(state) == {"revise 3H", "revise 4H", "revise 5H", "errand AS"}
    state.apply("errand AS")
    assert state.to_position()["pending"] == "errand_discard"
    assert row_of(state) == EXAMPLE_ROW


def test_pr7_errand_when_stuck_needs_an_ace():
    """PR-7 variant: without an Ace the stuck player still has only the Revision."""
    state = make_state({"errand_when_stuck": True}, row=EXAMPLE_ROW, hand=PATRONS_ONLY)
    assert legal(state) == {"revise 3H", "revise 4H", "revise 5H"}


@pytest.mark.parametrize("errand_when_stuck", [False, True])
def test_pr7_revision_is_never_allowed_when_not_stuck(errand_when_stuck):
    """PR-7: a player who can place a Page or issue a Directive cannot revise."""
    state = make_state(
        {"errand_when_stuck": errand_when_stuck}, row=EXAMPLE_ROW, hand=["2C", "6C", "7D", "QS", "AS"]
    )
    assert legal(state) == {"place 2C low", "errand AS"}
    refuse(state, "revise 4H", "stuck")
    refuse(state, "revise 3H", "stuck")


def test_pr7_a_directive_is_a_way_out():
    """PR-7: a legal Directive means the player is not stuck; without the King they are."""
    with_king = make_state(row=["5H", "6H"], hand=["5C", "6C", "JS", "QS", "KS"])
    assert legal(with_king) == {"swap 5C KS", "swap 6C KS"}
    refuse(with_king, "revise 5H", "stuck")
    without_king = make_state(row=["5H", "6H"], hand=["5C", "6C", "JS", "QS", "AS"])
    assert legal(without_king) == {"revise 5H", "revise 6H"}


def test_pr7_an_unpayable_gap_leaves_the_player_stuck():
    """PR-7: Pages that fit an end but cannot be paid for do not count as a way out."""
    state = make_state(row=["9H"], hand=["2C", "3C", "JS", "KS", "AS"])  # 2 needs 7, 3 needs 6
    assert legal(state) == {"revise 9H"}


# ---------------------------------------------------------------------------------------
# PR-8 Revision (variant revision_discard)
# ---------------------------------------------------------------------------------------


def test_pr8_revision_removes_one_page_and_discards_the_whole_hand():
    """PR-8: remove a Row Page, discard the entire hand, draw 5 (the rule text's reading)."""
    pile = ["2C", "10C", "3C", "8C", "9C", "10D"]
    state = make_state(row=EXAMPLE_ROW, hand=STUCK_HAND, draw_pile=pile, discard=["2D"])
    state.apply("revise 4H")
    position = state.to_position()
    assert position["row"] == ["3H", "5H", "8S", "9S"]
    # the removed Row Page first, then the hand in hand order (engine note); the Ace too (PR-14)
    assert position["discard"] == ["2D", "4H"] + STUCK_HAND
    assert position["hand"] == pile[:5]
    assert position["draw_pile"] == pile[5:]
    assert "AS" not in position["removed"]


def test_pr8_worked_example_revision_discard_2_variant():
    """PR-8 variant revision_discard=2 (text example: 'discard 2 cards from hand', player's choice)."""
    pile = ["2C", "10C", "3C", "8C"]
    state = make_state(
        {"revision_discard": 2}, row=EXAMPLE_ROW, hand=STUCK_HAND, draw_pile=pile, discard=["2D"]
    )
    state.apply("revise 4H")
    position = state.to_position()
    assert position["pending"] == "revision_discard"
    assert position["pending_discards"] == 2
    assert position["hand"] == STUCK_HAND
    assert position["row"] == ["3H", "5H", "8S", "9S"]
    assert legal(state) == {f"discard {c}" for c in STUCK_HAND}
    refuse(state, "revise 5H", "discard")
    state.apply("discard 7D")
    assert state.to_position()["pending_discards"] == 1
    refuse(state, "discard 7D", "not in your hand")
    state.apply("discard AS")
    position = state.to_position()
    assert position["pending"] is None
    assert position["pending_discards"] == 0
    assert position["discard"] == ["2D", "4H", "7D", "AS"]
    assert position["hand"] == ["6C", "4C", "QS", "2C", "10C"]
    assert position["draw_pile"] == ["3C", "8C"]


def test_pr8_revision_discard_2_with_one_card_in_hand_discards_it():
    """PR-8 variant (engine note): with fewer than 2 cards in hand, all of them are discarded."""
    pile = ["2C", "10C", "3C", "8C", "9C", "10D"]
    state = make_state({"revision_discard": 2}, row=EXAMPLE_ROW, hand=["JC"], draw_pile=pile)
    state.apply("revise 3H")
    assert state.to_position()["pending_discards"] == 1
    state.apply("discard JC")
    position = state.to_position()
    assert position["pending"] is None
    assert position["hand"] == pile[:5]


def test_pr8_a_position_cannot_owe_more_revision_discards_than_the_hand_holds():
    """PR-8 variant revision_discard=2: a Revision owes at most the cards in hand, so a position
    owing 2 discards from a one-card hand (no action left after the first, yet no end) is refused;
    owing 1 from it, or 2 from two cards, is accepted and plays out."""
    options = {"revision_discard": 2}
    for owed, hand in ((2, ["JC"]), (2, [])):
        with pytest.raises(parlour.PositionError) as info:
            make_state(options, row=["3H"], hand=hand, pending="revision_discard", pending_discards=owed)
        assert "pending" in str(info.value)
    state = make_state(options, row=["3H"], hand=["JC"], pending="revision_discard", pending_discards=1)
    assert legal(state) == {"discard JC"}
    state.apply("discard JC")
    assert state.to_position()["pending"] is None and len(hand_of(state)) == 5
    state = make_state(options, row=["3H"], hand=["JC", "QD"], pending="revision_discard", pending_discards=2)
    state.apply("discard QD")
    state.apply("discard JC")
    assert state.to_position()["discard"] == ["QD", "JC"] and len(hand_of(state)) == 5


@pytest.mark.parametrize("revision_discard", ["hand", 2])
def test_pr8_revision_of_an_empty_row(revision_discard):
    """PR-8, PR-9: an empty Row loses nothing; the Revision is written `revise`."""
    pile = ["2C", "10C", "3C", "8C", "9C", "10D", "4D", "5D"]
    state = make_state({"revision_discard": revision_discard}, hand=PATRONS_ONLY, draw_pile=pile)
    assert legal(state) == {"revise"}
    refuse(state, "revise 5H", "empty")
    state.apply("revise")
    if revision_discard == 2:
        state.apply("discard JC")
        state.apply("discard QD")
        assert state.to_position()["discard"] == ["JC", "QD"]
        assert hand_of(state) == ["JD", "QC", "JH", "2C", "10C"]
    else:
        assert state.to_position()["discard"] == PATRONS_ONLY
        assert hand_of(state) == pile[:5]
    assert row_of(state) == []


# ---------------------------------------------------------------------------------------
# PR-9 Which Page a Revision removes (variant revision_target)
# ---------------------------------------------------------------------------------------


def test_pr9_worked_example_remove_from_the_largest_quire():
    """PR-9 (text example): Quires [3-5] and [8-9]: the Page must come from [3-5]."""
    state = make_state(row=EXAMPLE_ROW, hand=STUCK_HAND)
    assert legal(state) == {"revise 3H", "revise 4H", "revise 5H"}
    refuse(state, "revise 8S", "quire")
    refuse(state, "revise 9S", "quire")
    refuse(state, "revise 7H", "not in the row")


def test_pr9_removing_an_inner_page_splits_the_quire():
    """PR-9: within the chosen Quire the player picks any Page, an inner one included."""
    state = make_state(row=["3H", "4H", "5H", "6H", "9S"], hand=PATRONS_ONLY)
    assert legal(state) == {"revise 3H", "revise 4H", "revise 5H", "revise 6H"}
    state.apply("revise 5H")
    assert row_of(state) == ["3H", "4H", "6H", "9S"]


@pytest.mark.parametrize(
    "row, targets",
    [
        # largest first, even when a smaller Quire shares a suit
        (["2H", "3S", "4D", "6H", "7H"], ["2H", "3S", "4D"]),
        # tied largest: the suited Quire beats the one-colour Quire
        (["2H", "3H", "6S", "7C"], ["2H", "3H"]),
        # tied largest: a one-colour Quire beats a mixed one
        (["2H", "3D", "6S", "7H"], ["2H", "3D"]),
        # suited beats colour among three tied
        (["2H", "3H", "5D", "6H", "8S", "9C"], ["2H", "3H"]),
        # tied, three long: the suited one
        (["2C", "3D", "4C", "6S", "7S", "8S"], ["6S", "7S", "8S"]),
        # still tied after suit and colour: the player's choice among the tied
        (["2H", "3S", "6S", "7H"], ["2H", "3S", "6S", "7H"]),
        (["2H", "3H", "5S", "6S", "8D", "9D"], ["2H", "3H", "5S", "6S", "8D", "9D"]),
        (["2H", "3D", "5S", "6C"], ["2H", "3D", "5S", "6C"]),
        # no Quire: an end Page (the lowest or the highest)
        (["3H", "6C", "9D"], ["3H", "9D"]),
        (["3H", "9D"], ["3H", "9D"]),
        (["5H"], ["5H"]),
    ],
)
def test_pr9_largest_quire_and_its_tie_breaks(row, targets):
    """PR-9: largest Quire, ties broken by one suit, then one colour, then choice; no Quire: an end."""
    state = make_state(row=row, hand=PATRONS_ONLY)
    assert legal(state) == {f"revise {c}" for c in targets}
    for card in row:
        if card not in targets:
            refuse(state, f"revise {card}", "revision removes")


@pytest.mark.parametrize(
    "row, targets",
    [
        # the text's example under the other reading: the smaller Quire [8-9]
        (EXAMPLE_ROW, ["8S", "9S"]),
        # tied smallest: suited beats mixed
        (["2H", "3S", "5D", "6D", "8C", "9C", "10C"], ["5D", "6D"]),
        # tied smallest: one colour beats mixed
        (["2H", "3S", "5D", "6H", "8C", "9C", "10C"], ["5D", "6H"]),
        # no Quire: still an end Page
        (["3H", "6C", "9D"], ["3H", "9D"]),
    ],
)
def test_pr9_revision_target_smallest_variant(row, targets):
    """PR-9 variant revision_target="smallest": the smallest Quire, with the same tie-breaks."""
    state = make_state({"revision_target": "smallest"}, row=row, hand=PATRONS_ONLY)
    assert legal(state) == {f"revise {c}" for c in targets}
    other = next(c for c in row if c not in targets)
    refuse(state, f"revise {other}", "revision removes")


def test_pr9_revision_target_largest_is_the_default_reading():
    """PR-9: the same Row removes from [3-5] by default, from [8-9] with "smallest"."""
    largest = make_state({"revision_target": "largest"}, row=EXAMPLE_ROW, hand=PATRONS_ONLY)
    smallest = make_state({"revision_target": "smallest"}, row=EXAMPLE_ROW, hand=PATRONS_ONLY)
    assert legal(largest) == {"revise 3H", "revise 4H", "revise 5H"}
    assert legal(smallest) == {"revise 8S", "revise 9S"}


# ---------------------------------------------------------------------------------------
# PR-10 Turn
# ---------------------------------------------------------------------------------------


def test_pr10_one_action_then_draw_back_up_to_5_in_pile_order():
    """PR-10: one action (here a placement with Patronage, 3 cards leave), then draw 3 from the top."""
    pile = ["2C", "3C", "6C", "7C", "8C"]
    state = make_state(row=["5H"], hand=["9C", "2H", "JS", "KS", "AD"], draw_pile=pile)
    state.apply("place 9C high pay 2H JS")
    position = state.to_position()
    assert position["hand"] == ["KS", "AD", "2C", "3C", "6C"]
    assert position["draw_pile"] == ["7C", "8C"]
    assert position["pending"] is None
    assert not state.is_terminal()


def test_pr10_no_passing():
    """PR-10: there is no pass; a turn always has an action (the Revision when stuck)."""
    state = make_state(row=EXAMPLE_ROW, hand=PATRONS_ONLY)
    assert state.legal_actions()
    refuse(state, "pass", error=parlour.NotationError)


# ---------------------------------------------------------------------------------------
# PR-11 Reshuffle and end (variant end_on)
# ---------------------------------------------------------------------------------------

# Row [5H]; placing 6H is free and needs one draw; placing 9C paid by 4D needs two.
R11_ROW = ["5H"]
R11_HAND = ["6H", "9C", "4D", "KS", "KD"]


@pytest.mark.parametrize("end_on", ["empty", "failed_draw"])
def test_pr11_first_emptying_reshuffles_the_discard_at_once(end_on):
    """PR-11: when the pile first empties, the discard pile at once becomes the new pile."""
    discard = ["2C", "3C", "JC"]
    state = make_state(
        {"end_on": end_on}, row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=discard
    )
    state.apply("place 6H high")  # one draw: the last card of the pile
    position = state.to_position()
    assert position["hand"] == ["9C", "4D", "KS", "KD", "8C"]
    assert position["reshuffled"] is True
    assert position["discard"] == []
    assert sorted(position["draw_pile"]) == sorted(discard)  # at once, though no draw is due
    assert not state.is_terminal()
    assert state.end_reason is None


def test_pr11_reshuffle_in_the_middle_of_a_draw_includes_this_turns_discards():
    """PR-11: the second draw of the turn comes from the new pile, which holds the paid Page."""
    discard = ["2C", "3C"]
    state = make_state(row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=discard)
    state.apply("place 9C high pay 4D")
    position = state.to_position()
    assert position["reshuffled"] is True
    assert position["discard"] == []
    assert position["hand"][:4] == ["6H", "KS", "KD", "8C"]
    assert len(position["hand"]) == 5
    assert sorted(position["hand"][4:] + position["draw_pile"]) == sorted(discard + ["4D"])
    assert not state.is_terminal()


def test_pr11_second_emptying_ends_the_game_at_once():
    """PR-11: after the reshuffle, the pile emptying again ends the game; remaining draws don't happen."""
    state = make_state(
        row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=["2C", "3C"], reshuffled=True
    )
    state.apply("place 9C high pay 4D")  # two draws due, only one happens
    position = state.to_position()
    assert state.is_terminal()
    assert state.end_reason == "exhausted"
    assert position["end"] == "exhausted"
    assert position["hand"] == ["6H", "KS", "KD", "8C"]
    assert position["draw_pile"] == []
    assert position["discard"] == ["2C", "3C", "4D"]  # no second reshuffle
    assert state.legal_actions() == []
    assert state.winners() == []
    assert state.scores() == [reference_score(["5H", "9C"])]
    refuse(state, "place 6H low", "over")


def test_pr11_second_emptying_on_the_last_draw_still_ends_the_game():
    """PR-11 (end_on="empty"): the pile becoming empty ends the game even if no draw is due."""
    state = make_state(row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=["2C"], reshuffled=True)
    state.apply("place 6H high")
    assert state.end_reason == "exhausted"
    assert hand_of(state) == ["9C", "4D", "KS", "KD", "8C"]


def test_pr11_empty_discard_at_the_reshuffle_ends_the_game():
    """PR-11: if the discard pile is empty when the pile first empties, the game ends then."""
    state = make_state(row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=[])
    state.apply("place 6H high")
    position = state.to_position()
    assert state.end_reason == "exhausted"
    assert position["reshuffled"] is False
    assert position["draw_pile"] == [] and position["discard"] == []
    assert position["hand"] == ["9C", "4D", "KS", "KD", "8C"]


def test_pr11_an_errands_draws_trigger_the_reshuffle():
    """PR-11: the first emptying during an Errand's draws reshuffles; the Errand goes on."""
    discard = ["2C", "3C"]
    state = make_state(row=R11_ROW, hand=["6H", "9C", "4D", "KS", "AS"], draw_pile=["8C"], discard=discard)
    state.apply("errand AS")
    position = state.to_position()
    assert position["reshuffled"] is True
    assert position["pending"] == "errand_discard"
    assert position["hand"][:5] == ["6H", "9C", "4D", "KS", "8C"]
    assert len(position["hand"]) == 6
    assert sorted(position["hand"][5:] + position["draw_pile"]) == sorted(discard)
    state.apply("discard 8C")
    position = state.to_position()
    assert position["discard"] == ["8C"]
    assert len(position["hand"]) == 5 and len(position["draw_pile"]) == 1
    assert not state.is_terminal()


def test_pr11_an_errands_draws_end_the_game_on_the_second_emptying():
    """PR-11: the pile emptying again during an Errand ends the game at once (no discard, no 2nd draw)."""
    state = make_state(
        row=R11_ROW, hand=["6H", "9C", "4D", "KS", "AS"], draw_pile=["8C"], discard=["2C"], reshuffled=True
    )
    state.apply("errand AS")
    position = state.to_position()
    assert state.end_reason == "exhausted"
    assert position["pending"] is None
    assert position["hand"] == ["6H", "9C", "4D", "KS", "8C"]
    assert "AS" in position["removed"]
    assert state.legal_actions() == []


@pytest.mark.parametrize("pending", ["errand_discard", "revision_discard"])
def test_pr11_a_position_that_has_ended_owes_no_discard(pending):
    """PR-11: the game ends at once (an Errand cut short owes no discard), so a position with an
    end and a pending discard is refused; the same position without the end is accepted."""
    row, hand = ["5H"], ["6H", "9C", "4D", "KS", "8C"]
    options = {"revision_discard": 2}
    with pytest.raises(parlour.PositionError) as info:
        make_state(options, row=row, hand=hand, draw_pile=[], discard=["2C"], reshuffled=True,
                   pending=pending, end="exhausted")
    assert "pending" in str(info.value) and "over" in str(info.value)
    state = make_state(options, row=row, hand=hand, draw_pile=[], discard=["2C"], reshuffled=True, end="exhausted")
    assert state.is_terminal() and state.legal_actions() == []
    state = make_state(options, row=row, hand=hand, draw_pile=["3C"], discard=["2C"], reshuffled=True, pending=pending)
    assert legal(state) == {f"discard {c}" for c in hand}


@pytest.mark.parametrize("reshuffled, discard", [(True, ["2C"]), (False, [])])
def test_pr11_a_position_with_the_pile_spent_and_no_end_has_ended(reshuffled, discard):
    """PR-11: with the draw pile empty and no reshuffle left (used, or nothing to reshuffle) the
    game ended when the pile emptied; a position that leaves "end" out has that end (DESIGN.md
    "Positions"), and owes no discard. With ``end_on="failed_draw"`` play goes on."""
    row, hand = ["5H"], ["6H", "9C", "4D", "KS", "8C"]
    state = make_state(row=row, hand=hand, draw_pile=[], discard=discard, reshuffled=reshuffled)
    assert state.end_reason == "exhausted" and state.legal_actions() == [] and state.scores() == [-7]
    assert parlour.replay(state.record()).to_position() == state.to_position()
    with pytest.raises(parlour.PositionError, match="implies"):
        make_state(row=row, hand=hand, draw_pile=[], discard=discard, reshuffled=reshuffled, pending="errand_discard")
    going_on = make_state({"end_on": "failed_draw"}, row=row, hand=hand, draw_pile=[], discard=discard,
                          reshuffled=reshuffled)
    assert going_on.end_reason is None and "place 6H high" in legal(going_on)


def test_pr11_failed_draw_variant_plays_on_with_an_empty_pile():
    """PR-11 variant end_on="failed_draw": the emptied pile ends nothing until a card must be drawn."""
    state = make_state(
        {"end_on": "failed_draw"},
        row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=["2C"], reshuffled=True,
    )
    state.apply("place 6H high")
    position = state.to_position()
    assert state.end_reason is None
    assert position["draw_pile"] == [] and position["hand"] == ["9C", "4D", "KS", "KD", "8C"]
    assert "place 8C high pay 4D" in legal(state)
    state.apply("place 8C high pay 4D")  # a card must now be drawn and none can be
    position = state.to_position()
    assert state.end_reason == "exhausted"
    assert position["row"] == ["5H", "6H", "8C"]
    assert position["hand"] == ["9C", "KS", "KD"]
    assert position["discard"] == ["2C", "4D"]  # the reshuffle was used: no second one


def test_pr11_failed_draw_variant_ends_when_a_draw_of_the_same_turn_fails():
    """PR-11 variant end_on="failed_draw": the second of two draws finds no card: the game ends."""
    state = make_state(
        {"end_on": "failed_draw"},
        row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=["2C"], reshuffled=True,
    )
    state.apply("place 9C high pay 4D")
    assert state.end_reason == "exhausted"
    assert hand_of(state) == ["6H", "KS", "KD", "8C"]


def test_pr11_failed_draw_variant_with_an_empty_discard_keeps_the_reshuffle():
    """PR-11 variant (engine note): an empty discard at the first emptying leaves the reshuffle unused
    until a draw finds the pile empty and the discard pile holds cards."""
    state = make_state({"end_on": "failed_draw"}, row=R11_ROW, hand=R11_HAND, draw_pile=["8C"], discard=[])
    state.apply("place 6H high")
    position = state.to_position()
    assert state.end_reason is None
    assert position["reshuffled"] is False
    assert position["hand"] == ["9C", "4D", "KS", "KD", "8C"]
    state.apply("place 8C high pay 4D")  # 4D to the discard; two draws due
    position = state.to_position()
    # the first draw reshuffles [4D] and takes it; the second finds no card and ends the game
    assert position["reshuffled"] is True
    assert position["hand"] == ["9C", "KS", "KD", "4D"]
    assert state.end_reason == "exhausted"


@pytest.mark.parametrize("end_on", ["empty", "failed_draw"])
def test_pr11_failed_draw_variant_errand_on_an_empty_pile_ends_the_game(end_on):
    """PR-11: an Errand that must draw from an exhausted pile ends the game in both readings."""
    state = make_state(
        {"end_on": end_on},
        row=R11_ROW, hand=["6H", "9C", "4D", "KS", "AS"], draw_pile=["8C"], discard=["2C"], reshuffled=True,
    )
    state.apply("errand AS")
    assert state.end_reason == "exhausted"
    assert state.to_position()["pending"] is None


# ---------------------------------------------------------------------------------------
# PR-12 Completion
# ---------------------------------------------------------------------------------------

EIGHT_HEARTS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]


def test_pr12_completing_2_to_10_ends_the_game_at_once_without_drawing():
    """PR-12: the Row holds 2-10: the game ends at once, no draw; winners [0]."""
    pile = ["3C", "4C", "5C"]
    state = make_state(row=EIGHT_HEARTS, hand=["10H", "2C", "JS", "QS", "KS"], draw_pile=pile)
    assert state.winners() == []
    state.apply("place 10H high")
    position = state.to_position()
    assert state.is_terminal()
    assert state.end_reason == "complete"
    assert position["end"] == "complete"
    assert position["row"] == EIGHT_HEARTS + ["10H"]
    assert position["hand"] == ["2C", "JS", "QS", "KS"]  # no draw back up
    assert position["draw_pile"] == pile
    assert state.winners() == [0]
    assert state.scores() == [14]
    assert state.legal_actions() == []
    refuse(state, "discard 2C", "over")


def test_pr12_completion_at_the_low_end_scores_the_colour_bonus():
    """PR-12 with PR-13: completing with a 2 of diamonds under 3-10 of hearts: one colour, 11."""
    row = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    state = make_state(row=row, hand=["2D", "2C", "JS", "QS", "KS"], draw_pile=["3C"])
    state.apply("place 2D low")
    assert state.end_reason == "complete"
    assert state.winners() == [0]
    assert state.scores() == [11]


def test_pr12_a_complete_row_is_a_finished_game_in_a_position():
    """PR-12: a position whose Row holds 2-10 is over with end "complete", and only such a one.
    Without "end" that end is implied (DESIGN.md "Positions": a missing key takes the value the
    rest implies) and the game is scored; an explicit null end contradicts it."""
    with pytest.raises(parlour.PositionError, match="PR-12"):
        make_state(row=EIGHT_HEARTS + ["10H"], hand=["2C"], end=None)
    with pytest.raises(parlour.PositionError, match="PR-12"):
        make_state(row=EIGHT_HEARTS, hand=["2C"], end="complete")
    for given in ({"end": "complete"}, {}):
        state = make_state(row=EIGHT_HEARTS + ["10H"], hand=["2C"], **given)
        assert state.is_terminal() and state.end_reason == "complete" and state.winners() == [0]
        assert state.scores() == [9 + 5] and state.legal_actions() == []  # all of 2-10, one suit (PR-13)
        assert state.to_position()["end"] == "complete"
        assert parlour.replay(state.record()).to_position() == state.to_position()


# ---------------------------------------------------------------------------------------
# PR-13 Scoring
# ---------------------------------------------------------------------------------------

ALL_HEARTS = EIGHT_HEARTS + ["10H"]


@pytest.mark.parametrize(
    "row, expected",
    [
        # complete Psalters
        (ALL_HEARTS, 14),  # one suit: 9 + 5
        (["2H", "3D", "4H", "5D", "6H", "7D", "8H", "9D", "10H"], 11),  # one colour: 9 + 2
        (["2S", "3C", "4S", "5C", "6S", "7C", "8S", "9C", "10C"], 11),  # one colour, black
        (["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10S"], 9),  # mixed: 9 + 0
    ],
)
def test_pr13_complete_psalter_scores(row, expected):
    """PR-13: complete Psalter: one suit 14, one colour 11, mixed 9."""
    state = make_state(row=row, hand=["2C"], end="complete")
    assert state.scores() == [expected]
    assert state.winners() == [0]


@pytest.mark.parametrize(
    "row, expected",
    [
        ([], -9),  # empty Row
        (["5H"], -7),  # a single Page: 1 - 8
        (["2H", "4H", "6H"], -3),  # single Pages only: no Quire, no bonus though one suit
        (["3H", "4H", "5H", "8S", "9C"], 3),  # 5 - 4, largest [3-5] suited +2
        (["3H", "4D", "5H", "8S", "9S"], 2),  # largest [3-5] one colour +1
        (["3H", "4S", "5H", "8S", "9S"], 1),  # largest [3-5] mixed: the suited [8-9] is not largest
        (["2H", "3H", "6S", "7C"], 1),  # tied: suited and one colour: best of the tied, +2
        (["2H", "3S", "6S", "7C"], 0),  # tied: mixed and one colour: +1
        (["2H", "3D", "6S", "7C"], 0),  # tied: both one colour: +1
        (["2H", "3S", "6D", "7C"], -1),  # tied: both mixed: +0
        (["2H", "3S", "5D", "6D", "8C", "9C", "10H"], 7 - 2 + 0),  # largest [8-10] mixed
        (["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"], 8 - 1 + 2),  # 8 Pages one suit, not complete
        (["2C", "3C", "4C", "5C", "6C", "7C", "8C", "10C"], 8 - 1 + 2),  # Quire 2-8 suited
    ],
)
def test_pr13_partial_row_scores(row, expected):
    """PR-13: +1 per Page, -1 per missing value, style bonus of the best largest Quire only."""
    state = make_state(row=row, hand=["JC"])
    assert state.scores() == [expected]
    assert expected == reference_score(row)
    assert state.winners() == []


def test_pr13_score_follows_the_row_at_every_moment():
    """PR-13: scores() is the score of the current Row while the game goes on; a refused
    action changes nothing, a Revision can lower it."""
    state = make_state(
        hand=["5H", "6H", "9C", "JS", "KS"], draw_pile=["7D", "2C", "3C", "10C", "10D", "4D", "8D"]
    )
    assert state.scores() == [-9]
    state.apply("place 5H")
    assert state.scores() == [1 - 8]
    state.apply("place 6H high")
    assert state.scores() == [2 - 7 + 2]  # the Quire 5-6 of hearts
    state.apply("place 7D high")
    assert state.scores() == [3 - 6 + 1]  # 5-7 now only one colour
    refuse(state, "place 9C low pay 2C", "high end")
    refuse(state, "place 9C high pay JS", "patron")
    assert state.scores() == [-2]
    assert state.winners() == []


def test_pr11_errand_at_the_first_emptying_with_an_empty_discard_ends_the_game():
    """PR-11: an Errand empties the pile, the discard pile is empty: the game ends, no discard owed."""
    state = make_state(row=R11_ROW, hand=["6H", "9C", "4D", "KS", "AS"], draw_pile=["8C"], discard=[])
    state.apply("errand AS")
    position = state.to_position()
    assert state.end_reason == "exhausted"
    assert position["pending"] is None and position["reshuffled"] is False
    assert position["hand"] == ["6H", "9C", "4D", "KS", "8C"]


# ---------------------------------------------------------------------------------------
# PR-14 Discard pile: where every card goes
# ---------------------------------------------------------------------------------------


def test_pr14_paid_page_to_the_discard_patron_out_of_the_game():
    """PR-14: the paying Page goes on top of the discard pile, the used Patron is removed."""
    state = make_state(
        row=["5H"], hand=["10C", "2D", "QS", "JS", "KS"], draw_pile=["2C", "3C", "4C", "6C"], discard=["7D"]
    )
    removed_before = state.to_position()["removed"]
    state.apply("place 10C high pay 2D QS")
    position = state.to_position()
    assert position["discard"] == ["7D", "2D"]
    assert sorted(position["removed"]) == sorted(removed_before + ["QS"])
    assert "JS" in position["hand"]  # the unused Patron stays in hand


def test_pr14_directive_king_out_replaced_page_to_the_discard():
    """PR-14: the replaced Row Page goes to the discard, the used King out of the game."""
    state = make_state(row=["6H"], hand=["KS", "6S", "KD", "9D", "JH"], draw_pile=["2C", "3C", "4C"])
    removed_before = state.to_position()["removed"]
    state.apply("swap 6S KS")
    position = state.to_position()
    assert position["discard"] == ["6H"]
    assert sorted(position["removed"]) == sorted(removed_before + ["KS"])
    assert "KD" in position["hand"]


@pytest.mark.parametrize("card", ["KD", "QH", "AD", "5C", "4C"])
def test_pr14_errand_discard_may_be_any_card_and_goes_to_the_discard_pile(card):
    """PR-14: the Errand's discard is any hand card, the just drawn ones included; an unused
    King, Patron or Ace so discarded goes to the discard pile, not out of the game."""
    state = make_state(hand=["3C", "KD", "QH", "AD", "AS"], draw_pile=["4C", "5C", "6C"])
    state.apply("errand AS")
    assert f"discard {card}" in legal(state)
    removed_before = state.to_position()["removed"]
    refuse(state, "discard AS", "not in your hand")  # the spent Ace is gone
    state.apply(f"discard {card}")
    position = state.to_position()
    assert position["discard"] == [card]
    assert position["removed"] == removed_before
    assert card not in position["hand"]


def test_pr14_revision_sends_unused_kings_aces_and_patrons_to_the_discard():
    """PR-14: a Revision discards the hand, Kings, Aces and Patrons included, to the discard pile."""
    hand = ["KS", "AS", "QS", "JS", "AD"]  # no Page: stuck whatever the Row holds but a King swap
    state = make_state(row=EXAMPLE_ROW, hand=hand, draw_pile=["2C", "3C", "6C", "7C", "10C", "10D"])
    removed_before = state.to_position()["removed"]
    state.apply("revise 5H")
    position = state.to_position()
    assert position["discard"] == ["5H"] + hand
    assert position["removed"] == removed_before


def test_pr14_discarded_kings_come_back_after_the_reshuffle():
    """PR-14, PR-11: an unused King on the discard pile returns with the reshuffle."""
    state = make_state(hand=["3C", "KD", "QH", "AD", "AS"], draw_pile=["4C", "5C"], discard=["7H"])
    state.apply("errand AS")  # draws 4C and 5C: the pile empties, [7H] becomes the pile
    position = state.to_position()
    assert position["reshuffled"] is True and position["draw_pile"] == ["7H"]
    state.apply("discard KD")
    state.apply("place 3C")  # needs one draw: 7H, and the pile empties for good
    position = state.to_position()
    assert state.end_reason == "exhausted"
    assert position["discard"] == ["KD"]
    # a second try where the King is in the discard at the reshuffle
    state = make_state(hand=["3C", "KD", "QH", "AD", "AS"], draw_pile=["4C", "5C", "6C"], discard=["7H"])
    state.apply("errand AS")
    state.apply("discard KD")  # discard [7H, KD], pile [6C]
    state.apply("place 3C")  # draws 6C: the pile empties, the discard is reshuffled
    position = state.to_position()
    assert position["reshuffled"] is True
    assert sorted(position["draw_pile"]) == ["7H", "KD"]
    assert "KD" not in position["removed"]


def test_pr14_removed_and_discard_are_public():
    """PR-14: the discard pile's contents (and what left the game) are in the observation."""
    state = make_state(row=["5H"], hand=["10C", "2D", "QS", "JS", "KS"], draw_pile=["2C", "3C", "4C", "6C"])
    state.apply("place 10C high pay 2D QS")
    obs = state.observation(0)
    assert obs["discard"] == ["2D"]
    assert "QS" in obs["removed"]
    assert "draw_pile" not in obs


def test_pr14_a_spectators_sample_deals_the_hand_as_unknown_as_the_pile():
    """PR-14 and DESIGN.md "Hidden information": a spectator sees the hand's size, not its cards
    (``observation(None)``); a sample from that view holds a hand of that size, dealt with the
    pile from the cards nobody has seen, and shows the spectator what it saw."""
    state = make_state(row=["5H"], hand=["10C", "2D", "QS", "JS", "KS"], draw_pile=["2C", "3C", "4C", "6C"],
                       discard=["7D"], reshuffled=True)
    state.apply("place 10C high pay 2D QS")
    public = state.observation(None)
    assert public["hand"] is None and public["hand_size"] == 5 and public["draw_pile_size"] == 1
    hidden = set(state.to_position()["hand"]) | set(state.to_position()["draw_pile"])
    hands = set()
    for k in range(40):
        sample = state.game.sample(public, random.Random(k))
        position = sample.to_position()
        assert sample.observation(None) == public
        assert len(position["hand"]) == 5 and len(position["draw_pile"]) == 1
        assert set(position["hand"]) | set(position["draw_pile"]) == hidden  # the unseen cards, nothing else
        hands.add(tuple(sorted(position["hand"])))
    assert len(hands) == 6  # which five of the six unseen cards are in hand is unknown: every choice comes


# ---------------------------------------------------------------------------------------
# Notation input (DESIGN.md "Notation input")
# ---------------------------------------------------------------------------------------

NOTATION_ROW = ["5H"]
NOTATION_HAND = ["10C", "2D", "QS", "JS", "KS"]


@pytest.mark.parametrize(
    "text",
    [
        "place 10C high pay 2D QS",  # canonical
        "PLACE 10c HIGH PAY 2d qs",  # any case
        "Place 10C High Pay 2D Qs",
        "place TC high pay 2D QS",  # T for 10
        "place tc high pay 2d qs",
        "place 10C high pay QS 2D",  # payment cards in either order
        "  place   10C   high  pay   2D    QS  ",  # any spacing
        "place 10C pay 2D QS",  # the end left out: only one end fits
    ],
)
def test_notation_is_lenient(text):
    """DESIGN Notation input: any case, any spacing, T for 10, payment in either order."""
    state = make_state(row=NOTATION_ROW, hand=NOTATION_HAND, draw_pile=["3C", "4C", "6C", "7C"])
    game = parlour.load("psalter-row")
    assert str(game.parse_action(state, text)) == "place 10C high pay 2D QS"
    state.apply(text)
    position = state.to_position()
    assert position["row"] == ["5H", "10C"]
    assert position["discard"] == ["2D"]
    assert "QS" in position["removed"]


def test_notation_t_for_ten_as_a_payer_and_swap_in_either_order():
    """DESIGN Notation input: TH names 10H anywhere; a Directive's two cards in either order."""
    state = make_state(row=["5H"], hand=["9C", "TH", "JS", "QS", "AS"])
    assert str(parlour.load("psalter-row").parse_action(state, "place 9c high pay th")) == "place 9C high pay 10H"
    state = make_state(row=["5C", "6H", "7C"], hand=["KS", "6S", "2D", "9D", "JH"])
    game = parlour.load("psalter-row")
    assert str(game.parse_action(state, "swap KS 6S")) == "swap 6S KS"
    assert str(game.parse_action(state, "SWAP 6s ks")) == "swap 6S KS"
    assert str(game.parse_action(state, "swap 6S")) == "swap 6S KS"  # the only King: unique


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("place 9C", "place 9C high pay 4D"),  # end and payment left out: one way to pay
        ("place 9C high", "place 9C high pay 4D"),
        ("place 9C pay 4D", "place 9C high pay 4D"),
        ("place 4D", "place 4D low"),
        ("errand", "errand AS"),
    ],
)
def test_notation_unique_abbreviations(text, canonical):
    """DESIGN Notation input: an abbreviation is accepted when exactly one legal action matches."""
    state = make_state(row=["5H"], hand=["9C", "4D", "KS", "AS", "KD"], draw_pile=["2C", "3C", "6C"])
    assert str(parlour.load("psalter-row").parse_action(state, text)) == canonical
    state.apply(text)
    assert str(state.history()[-1]) == canonical


@pytest.mark.parametrize(
    "row, hand, text, canonical",
    [
        (["5H"], ["6H", "KS", "AS", "JS", "QS"], "place", "place 6H high"),  # the only Page that fits
        (["5C", "6H", "7C"], ["KS", "6S", "2D", "9D", "JH"], "swap", "swap 6S KS"),  # the only Directive
        (["5C", "6H", "7C"], ["KS", "6S", "2D", "9D", "JH"], " SWAP , ", "swap 6S KS"),
    ],
)
def test_notation_a_bare_place_or_swap_names_the_only_one(row, hand, text, canonical):
    """DESIGN Notation input, issue 18: a bare verb is an abbreviation, ``place`` and ``swap``
    too (as ``errand`` and ``revise`` are), when exactly one legal action matches it."""
    state = make_state(row=row, hand=hand)
    assert [str(a) for a in state.legal_actions() if str(a).startswith(text.strip(" ,").lower())] == [canonical]
    assert str(parlour.load("psalter-row").parse_action(state, text)) == canonical


@pytest.mark.parametrize(
    "row, hand, text, candidates",
    [
        (["5H"], ["6H", "4D", "KS", "AS", "JS"], "place", ["place 6H high", "place 4D low"]),
        (["5C", "6H", "7C"], ["KS", "KD", "6S", "5D", "JH"], "swap",
         ["swap 5D KD", "swap 5D KS", "swap 6S KD", "swap 6S KS"]),
    ],
)
def test_notation_a_bare_place_or_swap_with_several_lists_them(row, hand, text, candidates):
    state = make_state(row=row, hand=hand)
    message = refuse(state, text, "ambiguous", *candidates, error=parlour.NotationError)
    assert message.count(f"{text} ") == len(candidates)  # every candidate of that kind, no other


@pytest.mark.parametrize(
    "row, hand, text, why",
    [
        (["5H", "6H"], ["KS", "AS", "JS", "QS", "AD"], "place", "no Page in your hand can be placed now: you are stuck"),
        (["5H"], ["9C", "4D", "6D", "JS", "AS"], "swap", "you hold no King"),
        (["5H"], ["9C", "2D", "KS", "JS", "AS"], "swap", "no Page in your hand has a copy in the Row"),
    ],
)
def test_notation_a_bare_place_or_swap_when_none_is_legal_says_why(row, hand, text, why):
    refuse(make_state(row=row, hand=hand), text, why)


def test_notation_revise_alone_is_an_abbreviation_when_unique():
    """DESIGN Notation input: `revise` names the only Revision (here the one-Page Row)."""
    state = make_state(row=["9H"], hand=["2C", "3C", "JS", "KS", "AS"])
    assert str(parlour.load("psalter-row").parse_action(state, "revise")) == "revise 9H"


@pytest.mark.parametrize(
    "row, hand, text, candidates",
    [
        (["5H"], ["9C", "4D", "6D", "JS", "KS"], "place 9C",
         ["place 9C high pay 4D", "place 9C high pay 6D", "place 9C high pay 4D JS", "place 9C high pay 6D JS"]),
        (["5H"], ["9C", "4D", "6D", "JS", "KS"], "place 9C high",
         ["place 9C high pay 4D", "place 9C high pay 6D", "place 9C high pay 4D JS", "place 9C high pay 6D JS"]),
        (["5H"], ["9C", "4D", "6D", "AS", "AD"], "errand", ["errand AS", "errand AD"]),
        (EXAMPLE_ROW, STUCK_HAND, "revise", ["revise 3H", "revise 4H", "revise 5H"]),
    ],
)
def test_notation_ambiguous_abbreviation_lists_candidates(row, hand, text, candidates):
    """DESIGN Notation input: an abbreviation matching several legal actions is a NotationError
    that lists the candidates, and the state is unchanged."""
    state = make_state(row=row, hand=hand)
    assert set(candidates) <= legal(state)
    message = refuse(state, text, "ambiguous", error=parlour.NotationError)
    for candidate in candidates:
        assert candidate in message


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "fly away",
        "pass",
        ",",
        " , ",
        "place 9²",
        "place 9C high pay ²D",
        "place 9X high",
        "place 1C high",
        "place 9C sideways",
        "place 9C high pay",
        "place 9C high 4D",
        "place 9C high pay 2D 3D 4D",
        "swap 6S KS 5S",
        "discard 3C 4C",
        "errand AS AD",
        "revise 9X",
    ],
)
def test_notation_unparseable_text_is_a_notation_error(text):
    """DESIGN Notation input: text that does not parse is a NotationError; nothing changes."""
    state = make_state(row=["5H"], hand=["9C", "2D", "3D", "4D", "JS"])
    message = refuse(state, text, error=parlour.NotationError)
    assert message  # says what was expected


@pytest.mark.parametrize("text", ["swap 6S 6S", "swap KS KS", "SWAP 6s 6S"])
def test_notation_a_directive_naming_one_card_twice_is_a_notation_error(text):
    """DESIGN Notation input, PR-5: a Directive names a hand Page and a King; naming one card twice
    is a NotationError (as for a payment), not an abbreviation of the only Directive."""
    state = make_state(row=["5C", "6H", "7C"], hand=["KS", "6S", "2D", "9D", "JH"])
    assert legal(state) >= {"swap 6S KS"}
    refuse(state, text, "named twice", error=parlour.NotationError)
    game = parlour.load("psalter-row")
    for allowed in ("swap 6S KS", "swap KS 6S", "swap 6S", "swap KS"):
        assert str(game.parse_action(state, allowed)) == "swap 6S KS"


def test_notation_parses_but_illegal_is_illegal_action_not_notation_error():
    """DESIGN: well-formed notation that is not legal now is an IllegalAction saying why."""
    state = make_state(row=["5H"], hand=["9C", "2D", "3D", "4D", "JS"])
    refuse(state, "place 9C high pay 3D", "gap is 4")
    assert not isinstance(parlour.IllegalAction("x"), parlour.NotationError)


def test_actions_print_in_canonical_form_and_apply_as_objects():
    """DESIGN: str(action) is the full canonical form; applying the Action object works alike."""
    state = make_state(row=["5H"], hand=["9C", "2H", "JS", "KS", "4D"], draw_pile=["2C", "3C", "6C", "7C"])
    actions = {str(a): a for a in state.legal_actions()}
    assert "place 9C high pay 2H JS" in actions
    assert "place 9C high pay JS 2H" not in actions
    state.apply(actions["place 9C high pay 2H JS"])
    assert row_of(state) == ["5H", "9C"]
    # an Action that was legal before is refused now, with IllegalAction, nothing changed
    refuse(state, actions["place 2H low pay 9C"], "not in your hand")


# ---------------------------------------------------------------------------------------
# Whole games: invariants of every ruling along random playouts
# ---------------------------------------------------------------------------------------

PLAYOUT_OPTIONS = [
    {},
    {"errand_draw": 1, "errand_when_stuck": True},
    {"revision_discard": 2, "revision_target": "smallest"},
    {"end_on": "failed_draw", "first_page_cost": 5},
    {"first_page_cost": 8, "revision_discard": 2, "end_on": "failed_draw", "errand_when_stuck": True},
]


@pytest.mark.parametrize("options", PLAYOUT_OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("seed", range(12))
def test_random_playouts_keep_every_ruling(options, seed):
    """PR-1, PR-7, PR-10, PR-11, PR-12, PR-13, PR-14 along whole games with random legal moves."""
    import random

    rng = random.Random(seed)
    game = parlour.load("psalter-row", **options)
    state = game.new_state(seed=seed)
    for _ in range(2000):
        position = state.to_position()
        places = [position[k] for k in ("row", "hand", "draw_pile", "discard", "removed")]
        cards = [c for pile in places for c in pile]
        assert sorted(cards) == sorted(DECK)  # every card in exactly one place
        values = [VALUE[c] for c in position["row"]]
        assert values == sorted(set(values)) and all(2 <= v <= 10 for v in values)  # PR-1
        assert all(c[:-1] in "JQKA" for c in position["removed"])  # PR-14: only used J Q K A
        assert state.scores() == [reference_score(position["row"])]  # PR-13
        assert -9 <= state.scores()[0] <= 14
        if state.is_terminal():
            break
        actions = [str(a) for a in state.legal_actions()]
        assert actions  # PR-10: no passing, always an action
        if position["pending"] is None:
            assert len(position["hand"]) == 5  # PR-10: drawn back up to 5
            kinds = {a.split()[0] for a in actions}
            if "revise" in kinds:  # PR-7: a Revision only when stuck
                assert not kinds & {"place", "swap"}
            elif "errand" in kinds and not options.get("errand_when_stuck"):
                assert kinds & {"place", "swap"}
        state.apply(rng.choice(state.legal_actions()))
    else:
        pytest.fail("the game did not end")
    position = state.to_position()
    assert state.end_reason in ("complete", "exhausted")
    assert (state.end_reason == "complete") == (len(position["row"]) == 9)  # PR-12
    assert state.winners() == ([0] if state.end_reason == "complete" else [])
    if state.end_reason == "exhausted":
        assert position["draw_pile"] == []  # PR-11
