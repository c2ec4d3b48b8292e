"""Levels at the web table, and hints: the lobby's catalogue offers the levels, a level sits as
a bot, and the seat to move (only it) may ask for the strongest level's move, worked out from its
own view in the bots' worker pool, within the pool's deadline, one at a time, at a table made
with hints on."""

from __future__ import annotations

import random
import re
import sqlite3
from pathlib import Path
from typing import Any, Iterator

import pytest
from rogue_agents import StubbornAgent
from tablekit import Socket, check_messages, create, open_client, play_to_end, private_codes, words
from test_web_claims import OLD_SCHEMA

import parlour
from parlour.agents.levels import LEVELS, find, level_names, strongest
from parlour.web.bots import Job, advise
from parlour.web.limits import Limits
from parlour.web.storage import Storage

#: Bots and hints held to a few iterations a decision, so that the tests stay quick.
QUICK = Limits(max_iterations=30)


@pytest.fixture
def quick(db_path: Path) -> Iterator[Any]:
    with open_client(db_path, limits=QUICK) as client:
        yield client


def post(client: Any, game: str, seats: list[str], **fields: Any) -> Any:
    return client.post("/api/tables", json={"game": game, "seats": seats, **fields})


def seated(client: Any, table: dict[str, Any], seat: int = 0) -> Socket:
    socket = Socket(client, table["id"])
    socket.join(table["seats"][seat]["token"])
    return socket


def next_of(socket: Socket, *kinds: str) -> dict[str, Any]:
    """The next message of one of ``kinds`` (state messages before it are read and kept)."""
    while True:
        message = socket.receive()
        if message["type"] in kinds:
            return message


def refused(socket: Socket, message: dict[str, Any]) -> dict[str, Any]:
    socket.send(message)
    return next_of(socket, "error", "hint")


# -- levels at the table -----------------------------------------------------------------------
def test_the_games_catalogue_offers_every_level_with_its_line(client) -> None:
    for game in client.get("/api/games").json()["games"]:
        assert [level["name"] for level in game["levels"]] == level_names()
        for entry in game["levels"]:
            level = find(entry["name"])
            assert entry == {"name": level.name, "spec": f"level:{level.name}", "summary": level.summary,
                             "seconds": level.seconds, "agent": level.spec_for(game["name"])}


def test_the_catalogue_offers_only_the_levels_this_server_seats(db_path) -> None:
    with open_client(db_path, limits=Limits(think_seconds=1.0)) as client:
        for game in client.get("/api/games").json()["games"]:
            assert [level["name"] for level in game["levels"]] == [l.name for l in LEVELS if l.seconds <= 1.0]
        answer = post(client, "psalter-row", ["level:expert"])  # thinks up to 2 s: over this server's limit
        assert answer.status_code == 422 and "over the think limit of this server" in answer.json()["error"]["message"]
        assert client.app.state.tables.advisor.budget().seconds == 1.0  # hints come from it, held to the limit


def test_levels_sit_at_a_table_as_bots_and_play_legal_moves(quick) -> None:
    # The strong level held to this server's few iterations (the spec caps it, as a person may).
    seats = ["level:strong,iterations=20", "level:casual", "level:novice"]
    table = create(quick, "quisquilian", seats, max_turns=12)
    assert [(s["kind"], s["spec"], s["name"]) for s in table["seats"]] == [("agent", spec, spec) for spec in seats]
    watcher = Socket(quick, table["id"])
    watcher.join(None)
    last = watcher.state_where(lambda m: m["end"] is not None)
    record = quick.get(f"/api/tables/{table['id']}/record").json()
    assert record["players"] == seats
    assert parlour.replay(record).is_terminal() and len(record["actions"]) == last["state_id"]
    assert check_messages(record, watcher.received, None) > 0


def test_a_person_plays_a_level_to_the_end(quick) -> None:
    table = create(quick, "decktet-golf", ["human", "level:expert,iterations=20"], rounds=1)
    last = play_to_end({0: seated(quick, table)}, random.Random(2))
    assert last["end"] is not None


def test_an_unknown_level_is_refused_listing_the_levels(client) -> None:
    answer = post(client, "decktet-golf", ["human", "level:master"])
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_agent"
    assert "there is no level 'master': the levels are novice, casual, strong, expert" in answer.json()["error"]["message"]
    assert client.get("/api/tables").json()["tables"] == []


# -- hints ---------------------------------------------------------------------------------------
def test_a_hint_is_the_strongest_levels_legal_move_told_to_the_asking_connection_alone(quick) -> None:
    table = create(quick, "psalter-row", ["human"])
    seat, other_tab = seated(quick, table), seated(quick, table)
    watcher = Socket(quick, table["id"])
    watcher.join(None)
    first = seat.state_where(lambda m: True)
    assert first["hints"] is True and quick.get(f"/api/tables/{table['id']}").json()["hints"] is True
    seat.send({"type": "hint", "state_id": 0})
    hint = next_of(seat, "hint", "error")
    assert hint["type"] == "hint", hint
    assert (hint["state_id"], hint["seat"], hint["by"]) == (0, 0, f"level:{strongest().name}")
    assert hint["action"] in first["legal"]
    if len(first["legal"]) == 1:  # a deal whose hand holds one placeable Page and no Ace: no search
        assert hint["reason"] == "the only legal move"
    else:
        # The next best move still in the expert's race, and how many moves the race dropped.
        reason = (r"^after it a search of 30 samples a move scores -?\d+\.\d over \d+ samples"
                  r"(; next best '[^']+' -?\d+\.\d)?(; \d+ moves? fell behind in the race)?$")
        assert re.match(reason, hint["reason"]) and ";" in hint["reason"], hint["reason"]
    live = quick.app.state.tables.live[table["id"]]
    assert not private_codes(live.state, 0) & words(hint), "a hint names only what the seat may know"
    for socket in (seat, other_tab, watcher):
        socket.sync()
    assert live.state_id == 0  # a hint moves nothing
    assert [m for s in (other_tab, watcher) for m in s.received if m["type"] == "hint"] == []
    seat.send({"type": "act", "action": hint["action"], "state_id": 0})
    seat.state_where(lambda m: m["state_id"] == 1)
    seat.send({"type": "hint", "state_id": 1})
    assert next_of(seat, "hint", "error")["state_id"] == 1  # the next decision's hint


def test_a_hint_is_refused_to_a_spectator_another_seat_a_stale_state_and_a_finished_game(quick) -> None:
    table = create(quick, "decktet-golf", ["human", "human"], rounds=1)
    sockets = {seat: seated(quick, table, seat) for seat in (0, 1)}
    watcher = Socket(quick, table["id"])
    watcher.join(None)
    state = sockets[0].state_where(lambda m: True)
    mover = state["current_player"]
    sid = state["state_id"]
    error = refused(watcher, {"type": "hint", "state_id": sid})
    assert (error["type"], error["code"]) == ("error", "not_your_turn") and "spectators get no hints" in error["message"]
    error = refused(sockets[1 - mover], {"type": "hint", "state_id": sid})
    assert error["code"] == "not_your_turn" and "a hint is for the seat to move" in error["message"]
    error = refused(sockets[mover], {"type": "hint", "state_id": sid + 5})
    assert error["code"] == "stale"
    assert refused(sockets[mover], {"type": "hint"})["code"] == "bad_message"
    assert quick.app.state.tables.live[table["id"]].hint_task is None  # no refusal started a search
    solitaire = create(quick, "psalter-row", ["human"])
    player = seated(quick, solitaire)
    last = play_to_end({0: player}, random.Random(1))
    error = refused(player, {"type": "hint", "state_id": last["state_id"]})
    assert error["code"] == "finished"


def test_a_table_made_with_hints_off_refuses_every_hint_also_after_a_restart(db_path) -> None:
    with open_client(db_path, limits=QUICK) as client:
        table = create(client, "psalter-row", ["human"], hints=False)
        assert client.get(f"/api/tables/{table['id']}").json()["hints"] is False
        seat = seated(client, table)
        assert seat.state_where(lambda m: True)["hints"] is False
        error = refused(seat, {"type": "hint", "state_id": 0})
        assert error["code"] == "hints_off" and "made with hints off" in error["message"]
        bad = post(client, "psalter-row", ["human"], hints="no")
        assert bad.status_code == 400 and '"hints" is true' in bad.json()["error"]["message"]
    with open_client(db_path, limits=QUICK) as client:  # rebuilt from the store: still off
        seat = seated(client, table)
        assert seat.state_where(lambda m: True)["hints"] is False
        assert refused(seat, {"type": "hint", "state_id": 0})["code"] == "hints_off"


def test_a_table_stored_before_hints_existed_has_them_on(tmp_path: Path) -> None:
    db_path = tmp_path / "old.db"
    db = sqlite3.connect(db_path)
    with db:
        db.executescript(OLD_SCHEMA)
        db.execute("INSERT INTO tables VALUES ('oldTable1', 'psalter-row', '{}', 9, '[]', '[]', "
                   "'2026-01-01T00:00:00Z', 'waiting', NULL)")
    db.close()
    storage = Storage(db_path)
    try:
        assert storage.table("oldTable1").hints is True
    finally:
        storage.close()


def test_one_hint_at_a_time_and_one_that_does_not_come_fails_within_the_deadline(db_path) -> None:
    with open_client(db_path, limits=Limits(think_seconds=0.5, max_iterations=30)) as client:
        tables = client.app.state.tables
        quick_advisor, tables.advisor = tables.advisor, StubbornAgent()  # says it does not search, then sleeps
        table = create(client, "psalter-row", ["human"])
        seat = seated(client, table)
        seat.send({"type": "hint", "state_id": 0})
        busy = refused(seat, {"type": "hint", "state_id": 0})
        assert busy["code"] == "hint_busy" and "at most 2.5 s" in busy["message"]
        failed = next_of(seat, "error", "hint")  # the deadline: 0.5 s and its grace of 2 s (receive waits 20 s at most)
        assert failed["code"] == "hint_failed" and "did not move within 2.5 s" in failed["message"]
        legal = seat.state_where(lambda m: True)["legal"]
        seat.send({"type": "act", "action": legal[0], "state_id": 0})  # the table goes on
        seat.state_where(lambda m: m["state_id"] == 1)
        tables.advisor = quick_advisor
        seat.send({"type": "hint", "state_id": 1})  # the pool took the next hint
        assert next_of(seat, "hint", "error")["type"] == "hint"


@pytest.mark.parametrize(("name", "options"), [("decktet-golf", {"players": 2, "rounds": 1}),
                                               ("quisquilian", {"players": 3})])
def test_a_hint_is_worked_out_from_the_seat_s_view_alone(name, options) -> None:
    """Two positions that differ only in what the seat cannot know get the same hint."""
    advisor = parlour.agent(f"level:{strongest().name},iterations=40")
    state, rng = parlour.load(name, **options).new_state(7), random.Random(7)
    checked = 0
    while checked < 4 and not state.is_terminal():
        seat = state.current_player
        if len(state.legal_actions()) > 1:
            other = state.view(seat).sample(random.Random(rng.random()))  # the hidden cards dealt anew
            assert other.to_position() != state.to_position()
            hint = advise(Job.of(state, seat, advisor, seed=5, advice=True))
            assert advise(Job.of(other, seat, advisor, seed=5, advice=True)) == hint
            assert hint[0] in [str(a) for a in state.legal_actions()] and hint[1]
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked == 4
    with pytest.raises(ValueError, match="sees the hidden cards: it gives no hints"):
        advise(Job.of(parlour.load("psalter-row").new_state(1), 0, parlour.agent("clairvoyant"), 1, advice=True))


def test_every_level_of_the_ladder_is_a_bot_a_table_accepts(client) -> None:
    for level in LEVELS:
        answer = post(client, "psalter-row", [f"level:{level.name}"])
        assert answer.status_code == 201, answer.text
