"""Positions written by hand: what from_position accepts, and PositionError for the rest.

Psalter Row is the game used (DESIGN.md "Positions", "Psalter Row"; engine-notes), and at the
end every game with values of the wrong type at each level (issue 18; tests/core/
test_fuzz_positions.py looks for more at random).
"""

from __future__ import annotations

import copy
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


@pytest.mark.parametrize("owed", [3, -1, "1", 1.5, 0])
def test_bad_pending_discards(owed: object) -> None:
    _refused({"hand": HAND, "pending": "revision_discard", "pending_discards": owed,
              "options": {**GAME.options, "revision_discard": 2}}, "pending_discards")


def test_revision_discards_are_pending_only_with_the_option_that_asks_them() -> None:
    # PR-8: by default the Revision discards the whole hand at once; nothing is ever pending.
    _refused({"hand": HAND, "pending": "revision_discard"}, "revision_discard=2")
    state = GAME.from_position({"hand": HAND, "pending": "revision_discard",
                                "options": {**GAME.options, "revision_discard": 2}})
    assert state.to_position()["pending_discards"] == 2  # left out: what the rule owes


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
    _refused({"row": row, "hand": hand, "end": None}, "complete")  # a full Row has ended the game
    assert GAME.from_position({"row": row, "hand": hand, "end": "complete"}).winners() == [0]
    assert GAME.from_position({"row": row, "hand": hand}).end_reason == "complete"  # implied when left out
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


# ---------------------------------------------------------------------------------------
# Every game: a value of the wrong type, at any level, is a PositionError (never TypeError)
# ---------------------------------------------------------------------------------------

def _start(name: str, **options: object) -> dict:
    return parlour.load(name, **options).new_state(4).to_position()


def _set(position: dict, path: tuple, value: object) -> dict:
    changed = copy.deepcopy(position)
    node = changed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return changed


BAD_VALUES = [
    # Decktet Golf: a nested list or dict inside a seat's face_up was a TypeError (unhashable)
    ("decktet-golf", ("face_up", 0), [["B1"]], "cell"),
    ("decktet-golf", ("face_up", 0), [{"B1": 1}], "cell"),
    ("decktet-golf", ("face_up", 0), [1], "cell"),
    ("decktet-golf", ("face_up",), [["B1"], "C1"], "face_up"),
    ("decktet-golf", ("layouts", 0, "B1"), ["2MK"], "card codes"),
    ("decktet-golf", ("drawn",), 0, "card codes"),
    ("decktet-golf", ("lines",), [["2"]], "lines"),
    ("decktet-golf", ("totals",), [True, 0], "totals"),
    ("decktet-golf", ("totals",), [2**63, 0], "totals"),
    ("decktet-golf", ("round",), 10**400, "about 400 digits"),
    ("decktet-golf", ("first_players",), [True], "first_players"),
    ("decktet-golf", ("chance",), 2**200, "chance"),
    ("psalter-row", ("hand", 0), 10**5000, "card codes"),
    ("psalter-row", ("hand", 0), ["5H"], "card codes"),
    ("psalter-row", ("pending_discards",), 10**5000, "about 5000 digits"),
    ("psalter-row", ("end",), ["complete"], "end"),
    ("quisquilian", ("used_spots",), [True], "used_spots"),
    ("quisquilian", ("used_spots",), [[1]], "used_spots"),
    ("quisquilian", ("pool_counts",), [True, 0, 0, 0], "pool_counts"),
    ("quisquilian", ("pool_counts",), [10**400, 0, 0, 0], "pool_counts"),
    ("quisquilian", ("spots", 0), [["5H"]], "card codes"),
    ("quisquilian", ("runs", 0), "5H 6H 7H", "runs"),
    ("quisquilian", ("turns",), 2**64, "turns"),
    ("quisquilian", ("winner",), True, "winner"),
]


@pytest.mark.parametrize(("name", "path", "value", "words"), BAD_VALUES,
                         ids=[f"{case[0]}-{'.'.join(map(str, case[1]))}-{i}" for i, case in enumerate(BAD_VALUES)])
def test_a_value_of_the_wrong_type_is_a_position_error(name: str, path: tuple, value: object, words: str) -> None:
    position = _set(_start(name), path, value)
    before = copy.deepcopy(position)
    with pytest.raises(PositionError) as info:
        parlour.load(name).from_position(position)
    assert words in str(info.value), str(info.value)
    assert len(str(info.value)) < 500  # a huge or deep value is quoted cut short
    assert position == before  # the refused position is left as it was


@pytest.mark.parametrize("position", [
    {"hand": HAND, 1: "a key that is not text"},
    {"hand": HAND, "turns": 10**5000},  # (no chance: it is derived from the position's JSON)
], ids=["key", "number"])
def test_a_position_that_is_not_json_data_is_a_position_error(position: dict) -> None:
    _refused(position, "JSON")


def test_options_with_keys_that_are_not_text_or_values_of_any_type() -> None:
    with pytest.raises(ParlourError, match="option names"):
        GAME.from_position({"hand": HAND, "options": {1: 2}})
    with pytest.raises(ParlourError, match=r"errand_draw=\{'x': \[1\]\} is not allowed"):
        GAME.from_position({"hand": HAND, "options": {"errand_draw": {"x": [1]}}})
