"""Undo at a solitaire table, against a real ``parlour serve`` over real websockets: the
player of a one-seat table takes back their last action (the terminal's ``undo``); the store
keeps only the line finally played, so the record, the log and a restarted server hold
nothing undone, and the same line deals the same cards again. Every other undo is refused
with its own code and changes nothing: a spectator, a table of several seats (with a bot or
people), nothing to undo, a stale state, a finished game, a malformed message."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browserkit import Server
from websockets.sync.client import ClientConnection, connect

import parlour

TIMEOUT = 10.0  # seconds for any one request or message


class Seat:
    """One websocket joined to a table, reading every message with a time limit."""

    def __init__(self, server: Server, table_id: str, token: str | None, secret: str | None = None) -> None:
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
                                            open_timeout=TIMEOUT).__enter__()
        self.ws.send(json.dumps({"type": "join", "token": token, "secret": secret}))
        joined = self.receive()
        assert joined["type"] == "joined", joined
        self.secret = joined["secret"] or secret
        self.state = self.receive()
        assert self.state["type"] == "state", self.state

    def receive(self) -> dict[str, Any]:
        return json.loads(self.ws.recv(timeout=TIMEOUT))

    def send(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send, then the answer: the next state (kept) or an error."""
        self.ws.send(json.dumps(message))
        answer = self.receive()
        if answer["type"] == "state":
            self.state = answer
        return answer

    def act(self, action: str) -> dict[str, Any]:
        answer = self.send({"type": "act", "action": action, "state_id": self.state["state_id"]})
        assert answer["type"] == "state", answer
        return answer

    def undo(self, state_id: int | None = None) -> dict[str, Any]:
        sid = self.state["state_id"] if state_id is None else state_id
        return self.send({"type": "undo", "state_id": sid})

    def close(self) -> None:
        self.ws.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("undo") / "parlour.db").start()
    yield srv
    srv.stop()


def token(table: dict[str, Any], seat: int = 0) -> str:
    return table["seats"][seat]["invite"].split("#token=")[1]


def stored(db: Path, table_id: str) -> list[tuple[int, str]]:
    """The actions the store holds for a table, read with a connection of its own."""
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT n, notation FROM actions WHERE table_id = ? ORDER BY n", (table_id,)).fetchall()


def whole_log(server: Server, table_id: str) -> list[str]:
    return [e["action"] for e in server.get(f"/api/tables/{table_id}/log?start=1")["entries"]]


def other_action(legal: list[str], not_this: str) -> str:
    """Another legal action than ``not_this``; the only one where there is no other (the
    table's deal is random: a hand may hold one placeable Page)."""
    return next((a for a in legal if a != not_this), legal[0])


def test_an_undo_takes_back_the_last_action_and_the_record_holds_the_final_line(server: Server) -> None:
    table = server.create("psalter-row", ["human"])
    seat = Seat(server, table["id"], token(table))
    rng = random.Random(5)
    for _ in range(3):
        seat.act(rng.choice(seat.state["legal"]))
    before = seat.state
    first = before["legal"][0]
    after_first = seat.act(first)
    # the undo: back to the state before, as the engine has it, and the store forgot the action
    back = seat.undo()
    assert back["type"] == "state" and back["state_id"] == before["state_id"]
    assert back["observation"] == before["observation"] and back["legal"] == before["legal"]
    assert [e["action"] for e in back["log"]] == [e["action"] for e in before["log"]]
    assert len(stored(server.db, table["id"])) == before["state_id"]
    # chance derives from the seed and the state: the same action again draws the same cards
    again = seat.act(first)
    assert again["observation"] == after_first["observation"]
    seat.undo()
    # a second undo in a row takes back the action before, too
    undone = before["log"][-1]["action"]
    two_back = seat.undo()
    assert two_back["state_id"] == before["state_id"] - 1
    # another line, played to the end: the record, the log and the store hold only it
    seat.act(other_action(seat.state["legal"], undone))
    while seat.state["end"] is None:
        if rng.random() < 0.2 and seat.state["state_id"] > 0:
            assert seat.undo()["type"] == "state"
        else:
            seat.act(rng.choice(seat.state["legal"]))
    final = whole_log(server, table["id"])
    assert len(final) == seat.state["state_id"]
    record = httpx.get(server.url(f"/api/tables/{table['id']}/record"), timeout=TIMEOUT).json()
    assert record["actions"] == final == [notation for _, notation in stored(server.db, table["id"])]
    replayed = parlour.replay(record)
    assert replayed.is_terminal() and replayed.scores() == seat.state["scores"]
    assert [str(a) for a in replayed.history()] == final
    # the replay the page steps through is the final line too
    replay = server.get(f"/api/tables/{table['id']}/replay?seat=0&start=0")
    assert replay["total"] == len(final) + 1
    assert [s["action"] for s in replay["steps"][1:]] == final[: len(replay["steps"]) - 1]
    # and now that the game is over, nothing can be taken back
    refused = seat.undo()
    assert refused["type"] == "error" and refused["code"] == "finished", refused
    assert whole_log(server, table["id"]) == final
    seat.close()


def refuses(seat: Seat, code: str, state_id: int | None = None) -> str:
    """An undo that is refused with ``code`` and changes nothing; its message."""
    before = seat.state["state_id"]
    answer = seat.undo(state_id)
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert answer["state_id"] == before
    assert seat.send({"type": "ping"})["type"] == "pong", "nothing else came: no state changed"
    return answer["message"]


def refused_amid_a_bot(seat: Seat, code: str) -> str:
    """An undo refused with ``code`` at a table where a bot may move meanwhile (its states are
    read past); the message."""
    seat.ws.send(json.dumps({"type": "undo", "state_id": seat.state["state_id"]}))
    answer = seat.receive()
    while answer["type"] == "state":
        assert answer["log"][-1]["seat"] != 0, "the undo took nothing back"
        answer = seat.receive()
    assert answer["type"] == "error" and answer["code"] == code, answer
    return answer["message"]


def test_every_other_undo_is_refused_with_a_clear_code(server: Server) -> None:
    table = server.create("psalter-row", ["human"])
    seat = Seat(server, table["id"], token(table))
    assert "nothing to take back" in refuses(seat, "nothing_to_undo")
    seat.act(seat.state["legal"][0])
    seat.act(seat.state["legal"][0])
    assert "not the current one" in refuses(seat, "stale", state_id=1)
    assert "not the current one" in refuses(seat, "stale", state_id=3)
    watcher = Seat(server, table["id"], None)
    seat.receive()  # the state telling of the spectator who joined
    assert "spectators cannot undo" in refuses(watcher, "not_your_turn", state_id=2)
    assert stored(server.db, table["id"]) == [(1, seat.state["log"][0]["action"]), (2, seat.state["log"][1]["action"])]
    # a malformed undo: bad_message, saying what an undo looks like
    for bad in ({"type": "undo"}, {"type": "undo", "state_id": "2"}, {"type": "undo", "state_id": -1}):
        answer = seat.send(bad)
        assert answer["type"] == "error" and answer["code"] == "bad_message", answer
        assert '{"type": "undo", "state_id": 3}' in answer["message"]
    watcher.close()
    seat.close()

    # tables of several seats: the other players (people, a bot) have seen the move
    table = server.create("decktet-golf", ["human", "human"], rounds=1)
    first, second = Seat(server, table["id"], token(table, 0)), Seat(server, table["id"], token(table, 1))
    mover = second if first.state["current_player"] == 1 else first
    if mover is first:
        first.receive()  # the state telling of the second seat's join
    mover.act(mover.state["legal"][0])
    assert "only at a table of one seat (a solitaire): this one has 2" in refuses(mover, "no_undo")
    assert len(stored(server.db, table["id"])) == 1
    first.close()
    second.close()
    table = server.create("decktet-golf", ["human", "heuristic"], rounds=1)
    seat = Seat(server, table["id"], token(table))
    while seat.state["current_player"] != 0:
        seat.state = seat.receive()
    seat.act(seat.state["legal"][0])
    made = len(stored(server.db, table["id"]))
    assert "the others have seen your move" in refused_amid_a_bot(seat, "no_undo")
    assert len(stored(server.db, table["id"])) >= made
    seat.close()

    # a bot's solitaire: nobody may take its moves back (a socket there is a spectator's)
    table = server.create("psalter-row", ["random"])
    watcher = Seat(server, table["id"], None)
    answer = watcher.ws.send(json.dumps({"type": "undo", "state_id": watcher.state["state_id"]}))
    answer = watcher.receive()
    while answer["type"] == "state":
        answer = watcher.receive()
    assert answer["code"] == "not_your_turn" and "spectators cannot undo" in answer["message"], answer
    watcher.close()


def test_an_undo_survives_a_restart(tmp_path: Path) -> None:
    srv = Server(tmp_path / "parlour.db").start()
    try:
        table = srv.create("psalter-row", ["human"])
        seat = Seat(srv, table["id"], token(table))
        for _ in range(4):
            seat.act(seat.state["legal"][-1])
        kept = seat.state
        seat.act(seat.state["legal"][0])
        assert seat.undo()["state_id"] == kept["state_id"]
        secret = seat.secret
        seat.close()
        srv.stop()  # killed: only what was stored counts
        srv.start()
        back = Seat(srv, table["id"], None, secret)
        assert back.state["state_id"] == kept["state_id"]
        assert back.state["observation"] == kept["observation"] and back.state["legal"] == kept["legal"]
        assert whole_log(srv, table["id"]) == [e["action"] for e in kept["log"]]
        # the undo goes on working after the restart, down to the deal
        while back.state["state_id"]:
            assert back.undo()["type"] == "state"
        assert refuses(back, "nothing_to_undo")
        assert srv.get(f"/api/tables/{table['id']}")["status"] == "waiting"
        assert stored(srv.db, table["id"]) == []
        back.close()
    finally:
        srv.stop()
