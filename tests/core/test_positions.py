"""Positions written by hand: what from_position accepts, and PositionError for the rest.

Psalter Row is the game used (DESIGN.md "Positions", "Psalter Row"; engine-notes).
"""

from __future__ import annotations

import json

import pytest

import parlour
from parlour import ParlourError, PositionError

GAME = parlour.load("psalter-row")
HAND = ["6H", "9C", "KS", "2D", "QC"]


def full(**changes: object) -> dict:
    """A complete, legal position (all 52 cards placed) with some keys changed."""
    pos = GAME.new_state(3).to_position()
    pos.update(changes)
    return pos


def test_a_hand_written_position_without_the_optional_keys() -> None:
    state = GAME.from_position({"row": ["4H", "5H"], "hand": HAND})
    pos = state.to_position()
    assert pos["row"] == ["4H", "5H"] and pos["hand"] == HAND
    assert len(pos["draw_pile"]) == 52 - 7 and pos["discard"] == [] and pos["removed"] == []
    assert pos["end"] is None and pos["pending"] is None and pos["reshuffled"] is False
    assert pos["options"] == GAME.options and isinstance(pos["chance"], int)
    # The pile is fixed by the position: the same position gives the same pile.
    again = GAME.from_position({"row": ["4H", "5H"], "hand": HAND})
    assert again.to_position() == pos
    other = GAME.from_position({"row": ["4H", "5H"], "hand": HAND, "chance": 1})
    assert sorted(other.to_position()["draw_pile"]) == sorted(pos["draw_pile"])
    assert other.to_position()["draw_pile"] != pos["draw_pile"]


def test_options_in_the_position_win() -> None:
    state = GAME.from_position({"hand": HAND, "options": {**GAME.options, "errand_draw": 1}})
    assert state.game.options["errand_draw"] == 1
    assert GAME.options["errand_draw"] == 2


def test_a_full_position_round_trips() -> None:
    pos = full()
    assert GAME.from_position(json.loads(json.dumps(pos))).to_position() == pos


def _refused(pos: object, *words: str) -> str:
    with pytest.raises(PositionError) as err:
        GAME.from_position(pos)  # type: ignore[arg-type]
    message = str(err.value)
    for word in words:
        assert word in message, (word, message)
    return message


def test_duplicate_card() -> None:
    _refused({"row": ["5H"], "hand": ["5H", "2C"]}, "5H", "more than one place")
    pos = full()
    pos["discard"] = [pos["hand"][0]]
    _refused(pos, pos["hand"][0])


def test_missing_card() -> None:
    pos = full()
    lost = pos["draw_pile"].pop()
    _refused(pos, lost, "missing")


def test_row_not_ascending() -> None:
    _refused({"row": ["5H", "4H"]}, "ascending", "PR-1")
    _refused({"row": ["4H", "4C"]}, "ascending")  # no value twice


def test_row_of_pages_only() -> None:
    _refused({"row": ["4H", "KH"]}, "Pages 2-10")
    _refused({"row": ["AH", "2H"]}, "Pages 2-10")


@pytest.mark.parametrize("code", ["1H", "11C", "ZZ", "10X", 5, "", None])
def test_bad_card_code(code: object) -> None:
    _refused({"hand": ["2C", code]}, "hand")
    _refused({"removed": [code]}, "removed")


@pytest.mark.parametrize("key", ["row", "hand", "discard", "removed", "draw_pile"])
def test_a_place_that_is_not_a_list(key: str) -> None:
    _refused({key: "5H"}, key)


@pytest.mark.parametrize("pending", ["errand", "revision", "discard", 1, True, []])
def test_bad_pending_value(pending: object) -> None:
    _refused({"hand": HAND, "pending": pending}, "pending")


@pytest.mark.parametrize("owed", [3, -1, "1", 1.5])
def test_bad_pending_discards(owed: object) -> None:
    _refused({"hand": HAND, "pending": "revision_discard", "pending_discards": owed}, "pending_discards")


def test_pending_discards_true_is_not_a_count() -> None:
    # JSON true is not an int; accepted, it comes back from to_position as True.
    _refused({"hand": HAND, "pending": "revision_discard", "pending_discards": True,
              "options": {**GAME.options, "revision_discard": 2}}, "pending_discards")


@pytest.mark.parametrize("pending", ["errand_discard", "revision_discard"])
def test_a_discard_owed_from_an_empty_hand(pending: str) -> None:
    # Accepted, this is a game that is not over and has no legal action.
    _refused({"hand": [], "pending": pending, "options": {**GAME.options, "revision_discard": 2}})


def test_bad_end() -> None:
    _refused({"hand": HAND, "end": "won"}, "end")
    _refused({"hand": HAND, "end": "complete"}, "complete")
    row = [f"{v}H" for v in range(2, 11)]
    hand = ["9C", "KS", "2D", "QC", "3S"]
    _refused({"row": row, "hand": hand}, "complete")  # a full Row has ended the game
    assert GAME.from_position({"row": row, "hand": hand, "end": "complete"}).winners() == [0]
    _refused(full(end="exhausted"), "exhausted")


@pytest.mark.parametrize("chance", ["7", 7.0, True, [7]])
def test_bad_chance(chance: object) -> None:
    _refused({"hand": HAND, "chance": chance}, "chance")


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_bad_reshuffled(value: object) -> None:
    _refused({"hand": HAND, "reshuffled": value}, "reshuffled")


@pytest.mark.parametrize("pos", [None, [], "row 5H", 7])
def test_not_a_dict(pos: object) -> None:
    _refused(pos, "dict")


def test_unknown_options_in_a_position() -> None:
    with pytest.raises(ParlourError, match="errand_drew"):
        GAME.from_position({"hand": HAND, "options": {"errand_drew": 1}})


@pytest.mark.parametrize("options", [["errand_draw", 1], "errand_draw=1", 7])
def test_options_that_are_not_a_dict(options: object) -> None:
    # A malformed position must give a PositionError, never a TypeError from the engine.
    _refused({"hand": HAND, "options": options}, "options")
