"""Game records and parlour.replay, including records that have been tampered with."""

from __future__ import annotations

import copy
import json
import random

import pytest

import parlour
from parlour import OptionError, ParlourError, RecordError


def finished_game(seed: int = 5, **options: object) -> parlour.core.game.State:
    state = parlour.load("psalter-row", **options).new_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.fixture(scope="module")
def game_over() -> parlour.core.game.State:
    return finished_game()


@pytest.fixture()
def record(game_over: parlour.core.game.State) -> dict:
    return copy.deepcopy(game_over.record())


def test_record_has_the_design_keys(game_over: parlour.core.game.State, record: dict) -> None:
    assert list(record) == ["game", "version", "options", "seed", "players", "actions", "result"]
    assert record["game"] == "psalter-row" and record["version"] == parlour.__version__
    assert record["seed"] == 5 and record["players"] == ["seat 0"]
    assert record["options"] == parlour.load("psalter-row").options
    assert record["actions"] == [str(a) for a in game_over.history()] and len(record["actions"]) > 5
    assert record["result"] == {"scores": game_over.scores(), "winners": game_over.winners(),
                                "end": game_over.end_reason}
    json.dumps(record)


def test_replay_rebuilds_the_game(game_over: parlour.core.game.State, record: dict) -> None:
    for given in (record, json.dumps(record)):
        replayed = parlour.replay(given)
        assert replayed.to_position() == game_over.to_position()
        assert [str(a) for a in replayed.history()] == record["actions"]
        assert replayed.record() == record


def test_replay_records_options() -> None:
    state = finished_game(seed=9, errand_draw=1, revision_discard=2, end_on="failed_draw")
    record = json.loads(json.dumps(state.record()))
    assert record["options"]["errand_draw"] == 1 and record["options"]["revision_discard"] == 2
    assert parlour.replay(record).to_position() == state.to_position()


def test_player_names() -> None:
    state = parlour.load("psalter-row").new_state(1)
    assert state.record(players=["Hildegard"])["players"] == ["Hildegard"]
    for players, words in ((["a", "b"], "2 player names for 1 seats"), ("a", "a list of 1 names"),
                           (5, "a list of 1 names"), ([None], "not None"), (["x" * 4_097], "at most 4096")):
        with pytest.raises(OptionError, match=words):
            state.record(players=players)


@pytest.mark.parametrize(("key", "value", "words"), [
    ("version", 1.5, "version is text"), ("version", {}, "version is text"),
    ("players", "alice", "a list of 1 names"), ("players", ["a", "b", "c"], "3 player names for 1 seats"),
    ("players", [7], "not 7"), ("players", ["n" * 10_000_000], "at most 4096 characters"),
    ("result", {}, "an object of scores, winners and end"),
])
def test_a_record_header_of_the_wrong_kind_is_refused(record: dict, key: str, value: object, words: str) -> None:
    record[key] = value
    with pytest.raises(RecordError, match=words) as refused:
        parlour.replay(record)
    assert len(str(refused.value)) < 500  # a huge value is not repeated


def test_a_result_with_keys_nobody_checks_is_refused(record: dict) -> None:
    record["result"]["duration"] = 12
    with pytest.raises(RecordError, match="an object of scores, winners and end"):
        parlour.replay(record)


def test_a_long_action_text_is_quoted_short(record: dict) -> None:
    record["actions"][0] = "place " + "9C " * 100_000
    with pytest.raises(RecordError, match="action 1") as refused:
        parlour.replay(record)
    assert len(str(refused.value)) < 1_000


def _failing_text(record: dict, index: int) -> str:
    """Notation that is not legal as action ``index`` (1-based) of the record's game."""
    state = parlour.load(record["game"], **record["options"]).new_state(record["seed"])
    for text in record["actions"][: index - 1]:
        state.apply(text)
    candidates = [f"place {r}{s} high" for s in "CDHS" for r in range(2, 11)] + ["errand AS", "discard KD"]
    for text in candidates:
        try:
            state.clone().apply(text)
        except ParlourError:
            return text
    raise AssertionError("every candidate is legal")


@pytest.mark.parametrize("index", [1, 3, "last"])
def test_an_altered_action_names_its_number_and_text(record: dict, index: int | str) -> None:
    number = len(record["actions"]) if index == "last" else int(index)
    bad = _failing_text(record, number)
    record["actions"][number - 1] = bad
    with pytest.raises(RecordError) as err:
        parlour.replay(record)
    message = str(err.value)
    assert f"action {number} " in message and repr(bad) in message, message


def test_an_action_after_the_end_is_refused(record: dict) -> None:
    record["actions"].append(record["actions"][-1])
    with pytest.raises(RecordError, match=rf"action {len(record['actions'])} .*over"):
        parlour.replay(record)


def test_an_action_that_is_not_text_is_refused(record: dict) -> None:
    record["actions"][1] = 17
    with pytest.raises(RecordError, match="action 2 is 17: expected notation text"):
        parlour.replay(record)


def test_notation_that_does_not_parse_is_refused(record: dict) -> None:
    record["actions"][0] = "plaice 9C"
    with pytest.raises(RecordError, match="action 1 'plaice 9C'"):
        parlour.replay(record)


def test_truncated_or_invalid_json(record: dict) -> None:
    text = json.dumps(record)
    for bad in (text[: len(text) // 2], text[:-1], "", "{", "not json"):
        with pytest.raises(RecordError, match="not valid JSON"):
            parlour.replay(bad)
    for not_an_object in ("[]", "null", "7", '"psalter-row"'):
        with pytest.raises(RecordError, match="JSON object"):
            parlour.replay(not_an_object)


@pytest.mark.parametrize("key", ["game", "options", "actions"])
def test_missing_keys_are_named(record: dict, key: str) -> None:
    del record[key]
    with pytest.raises(RecordError) as err:
        parlour.replay(record)
    assert key in str(err.value)


def test_no_seed_and_no_start(record: dict) -> None:
    del record["seed"]
    with pytest.raises(RecordError, match="neither a seed"):
        parlour.replay(record)


@pytest.mark.parametrize("seed", ["5", 5.0, True, [5]])
def test_a_seed_that_is_not_an_integer(record: dict, seed: object) -> None:
    record["seed"] = seed
    with pytest.raises(RecordError, match="seed"):
        parlour.replay(record)


def test_options_and_actions_of_the_wrong_type(record: dict) -> None:
    for key, value in (("options", []), ("actions", "place 9C")):
        bad = {**record, key: value}
        with pytest.raises(RecordError, match="options must be an object and its actions a list"):
            parlour.replay(bad)


@pytest.mark.parametrize(
    ("key", "value"),
    [("scores", "other"), ("winners", [0]), ("end", "complete")],
)
def test_a_wrong_result_is_refused(game_over: parlour.core.game.State, record: dict, key: str,
                                   value: object) -> None:
    assert game_over.end_reason == "exhausted" and game_over.winners() == []
    if value == "other":
        value = [game_over.scores()[0] + 1]
    record["result"][key] = value
    replayed = {"scores": game_over.scores(), "winners": [], "end": "exhausted"}[key]
    with pytest.raises(RecordError) as err:
        parlour.replay(record)
    message = str(err.value)
    assert f"{key}={value!r}" in message and repr(replayed) in message, message


def test_a_result_that_is_not_an_object(record: dict) -> None:
    record["result"] = ["exhausted"]
    with pytest.raises(RecordError, match="result must be an object"):
        parlour.replay(record)


def test_unknown_game_in_the_record(record: dict) -> None:
    record["game"] = "psalter-wrong"
    with pytest.raises(RecordError) as err:
        parlour.replay(record)
    assert "psalter-wrong" in str(err.value) and "psalter-row" in str(err.value)


def test_bad_options_in_the_record(record: dict) -> None:
    record["options"]["errand_draw"] = 5
    with pytest.raises(RecordError, match="errand_draw"):
        parlour.replay(record)
    record["options"] = {"errand_drew": 1}
    with pytest.raises(RecordError, match="errand_drew"):
        parlour.replay(record)


@pytest.mark.parametrize("game", [["psalter-row"], {"name": "psalter-row"}, None, 7])
def test_a_game_name_that_is_not_text(record: dict, game: object) -> None:
    # A tampered record must give a RecordError, never a TypeError from inside the engine.
    record["game"] = game
    with pytest.raises(RecordError):
        parlour.replay(record)


def test_a_record_of_a_game_started_from_a_position() -> None:
    game = parlour.load("psalter-row", errand_draw=1)
    start = {"row": ["4H", "5H"], "hand": ["6H", "9C", "KS", "2D", "QC"], "chance": 12}
    state = game.from_position(start)
    rng = random.Random(3)
    for _ in range(6):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    record = json.loads(json.dumps(state.record()))
    assert record["seed"] is None
    assert record["start"] == game.from_position(start).to_position()
    assert record["options"]["errand_draw"] == 1
    replayed = parlour.replay(record)
    assert replayed.to_position() == state.to_position()
    assert replayed.record() == record
    # Tampered start: the record's actions no longer replay, or the start does not load.
    moved = copy.deepcopy(record)
    moved["start"]["hand"], moved["start"]["draw_pile"] = (
        moved["start"]["draw_pile"][:5], moved["start"]["hand"] + moved["start"]["draw_pile"][5:])
    with pytest.raises(RecordError, match=r"action \d+"):
        parlour.replay(moved)
    broken = copy.deepcopy(record)
    broken["start"]["row"] = ["5H", "4H"]
    with pytest.raises(RecordError, match="start does not load"):
        parlour.replay(broken)
    del broken["start"]
    with pytest.raises(RecordError, match="neither a seed"):
        parlour.replay(broken)


def test_a_start_whose_options_contradict_the_record_or_a_seed_beside_a_start_is_refused() -> None:
    state = parlour.load("psalter-row", errand_draw=1).from_position({"row": ["4H"], "hand": ["5H", "AS"]})
    record = state.record()
    record["options"]["errand_draw"] = 2  # the start says 1
    with pytest.raises(RecordError, match=r"other options than the record \(errand_draw\)"):
        parlour.replay(record)
    record = state.record()
    record["seed"] = 1
    with pytest.raises(RecordError, match="both a seed and a start position"):
        parlour.replay(record)
    without = state.record()
    del without["start"]["options"]  # missing: the record's own options, as for any position
    assert parlour.replay(without).game.options["errand_draw"] == 1


def test_a_start_position_with_options_that_are_not_an_object() -> None:
    record = {"game": "psalter-row", "options": {}, "seed": None, "actions": [],
              "start": {"row": ["4H"], "options": ["errand_draw", 1]}}
    with pytest.raises(RecordError):
        parlour.replay(record)
