"""Issue 17, findings 3, 5 and 11 against a real ``parlour serve`` on loopback: replays in
bounded pages built off the event loop, tables whose games must end, state messages that
carry the log's last entries only, finished tables held in a bounded cache, and an action
that stands when its broadcast fails. Every wait is bounded; no timing is asserted."""

from __future__ import annotations

import json
import random
import sqlite3
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from browserkit import Server
from websockets.sync.client import connect

import parlour
from parlour.web.limits import Limits
from parlour.web.storage import Storage, StoredTable, now

LIMITS = Limits()


def store_finished_game(db: Path, table_id: str, game: str, options: dict[str, Any], seed: int = 5) -> list[str]:
    """Write a finished all-random game straight into a server's database; its actions."""
    g = parlour.load(game, **options)
    state, rng, agent = g.new_state(seed), random.Random(seed), parlour.agent("random")
    rows = []
    while not state.is_terminal():
        seat = state.current_player
        action = str(agent.move(state, seat, rng))
        state.apply(action)
        rows.append((table_id, len(rows) + 1, seat, action, now()))
    storage = Storage(db)
    seats = [{"seat": i, "kind": "agent", "name": "random", "spec": "random"} for i in range(g.num_players)]
    storage.create_table(StoredTable(table_id, game, dict(g.options), seed, seats, [None] * g.num_players, now(),
                                     status="finished", end_reason=state.end_reason))
    storage.close()
    with sqlite3.connect(db) as db_file:
        db_file.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", rows)
    return [row[3] for row in rows]


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Server, list[str]]:
    """A server holding a finished five-player Decktet Golf match of over 5,000 actions."""
    db = tmp_path_factory.mktemp("long") / "t.db"
    actions = store_finished_game(db, "LongGame1", "decktet-golf", {"players": 5, "rounds": 25})
    assert len(actions) > 5000
    server = Server(db).start()
    yield server, actions
    server.stop()


def test_a_replay_comes_in_bounded_pages_that_make_the_whole_game(long_game) -> None:
    """Finding 3: the replay of a 5,400-action game was one 24 MB answer built on the loop."""
    server, actions = long_game
    base = server.url("/api/tables/LongGame1/replay")
    first = httpx.get(base, timeout=30)
    assert first.status_code == 200 and len(first.content) < 1_000_000, len(first.content)
    page = first.json()
    assert page["total"] == len(actions) + 1 and page["from"] == 0
    assert len(page["steps"]) == LIMITS.replay_page and "text" not in page["steps"][0]
    seen, start = [], 0
    while start < page["total"]:  # every page, each bounded, together the whole game
        answer = httpx.get(base, params={"start": start, "seat": 2}, timeout=30)
        assert len(answer.content) < 1_000_000
        steps = answer.json()["steps"]
        assert 0 < len(steps) <= LIMITS.replay_page and steps[0]["n"] == start
        seen.extend(steps)
        start += len(steps)
    assert [s["action"] for s in seen[1:]] == actions and [s["n"] for s in seen] == list(range(len(actions) + 1))
    game = parlour.load("decktet-golf", players=5, rounds=25)
    state = game.new_state(5)
    for n in (0, 1, 777, len(actions)):  # what seat 2 saw, step by step
        replayed = state.clone()
        for action in actions[:n]:
            replayed.apply(action)
        assert seen[n]["observation"] == replayed.observation(2)
    with_text = httpx.get(base, params={"start": len(actions), "text": "1"}, timeout=30).json()["steps"]
    assert len(with_text) == 1 and "Match over after 25 rounds" in with_text[0]["text"]
    seat_text = httpx.get(base, params={"start": 1, "seat": 2, "text": "1"}, timeout=30).json()["steps"][0]["text"]
    assert "Seat 2 (viewed)" in seat_text and "(you)" not in seat_text  # a replay's reader is not the seat
    for bad in ("-1", str(len(actions) + 1), "x", "9" * 5000):
        answer = httpx.get(base, params={"start": bad}, timeout=30)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"


def test_replays_are_built_off_the_event_loop(long_game) -> None:
    """While replays of the long game are asked for, another socket is answered at once."""
    server, actions = long_game
    errors: list[Exception] = []

    def hammer() -> None:
        try:
            for start in range(len(actions) - 400, len(actions), 100):
                httpx.get(server.url("/api/tables/LongGame1/replay"), params={"start": start, "text": "1"}, timeout=60)
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=hammer) for _ in range(3)]
    for thread in threads:
        thread.start()
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/LongGame1", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "token": None}))
        for _ in range(5):
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(timeout=10))["type"] != "pong":
                pass
    for thread in threads:
        thread.join(timeout=120)
    assert not errors


def test_the_log_comes_in_pages_and_each_state_carries_only_its_last_entries(long_game) -> None:
    """Finding 5: every state message carried the whole log (2.3 MB at 50,000 actions)."""
    server, actions = long_game
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/LongGame1", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "token": None}))
        assert json.loads(ws.recv(timeout=10))["type"] == "joined"
        raw = ws.recv(timeout=10)
        state = json.loads(raw)
        assert state["type"] == "state" and state["state_id"] == len(actions) and len(raw) < 100_000
        assert [e["action"] for e in state["log"]] == actions[-LIMITS.log_window:] and "text" not in state
        ws.send(json.dumps({"type": "log", "from": 1}))
        page = json.loads(ws.recv(timeout=10))
        assert page["type"] == "log" and [e["action"] for e in page["entries"]] == actions[: LIMITS.log_page]
        ws.send(json.dumps({"type": "log", "from": 0}))
        assert json.loads(ws.recv(timeout=10))["code"] == "bad_message"
        ws.send(json.dumps({"type": "text", "on": True}))
        assert "Match over after 25 rounds" in json.loads(ws.recv(timeout=10))["text"]
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/LongGame1", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "join", "token": None, "log_from": len(actions) - 600}))  # the join asks for it
        kinds = [json.loads(ws.recv(timeout=10)) for _ in range(4)]
        assert [m["type"] for m in kinds] == ["joined", "log", "log", "state"]
        assert [e["n"] for m in kinds[1:3] for e in m["entries"]] == list(range(len(actions) - 600, len(actions) + 1))
    over = httpx.get(server.url("/api/tables/LongGame1/log"), params={"start": 5001}, timeout=10).json()
    assert [e["action"] for e in over["entries"]] == actions[5000 : 5000 + LIMITS.log_page]


def test_a_table_takes_only_options_whose_games_end(tmp_path: Path) -> None:
    """Finding 5: target=10**9 with five random bots made 50,000 actions in 30 s."""
    server = Server(tmp_path / "t.db").start()
    try:
        for options in ({"target": 10**9}, {"target": 501}, {"rounds": 31}):
            answer = httpx.post(server.url("/api/tables"), timeout=10,
                                json={"game": "decktet-golf", "seats": ["random"] * 5, "options": options})
            assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_option", answer.text
            assert "at most" in answer.json()["error"]["message"]
        answer = httpx.post(server.url("/api/tables"), timeout=10, json={"game": "quisquilian", "seats": ["random"] * 3,
                                                                          "options": {"max_turns": 2001}})
        assert answer.status_code == 422
        assert httpx.get(server.url("/api/tables"), timeout=10).json()["tables"] == []
        assert httpx.post(server.url("/api/tables"), timeout=10, json={"game": "decktet-golf", "seats": ["random"] * 2,
                                                                        "options": {"target": 500}}).status_code == 201
    finally:
        server.stop()


def test_a_table_stops_at_its_action_limit(tmp_path: Path) -> None:
    """Finding 5: a table of bots whose game goes on stops at --max-actions, stored as stopped."""
    server = Server(tmp_path / "t.db", args=("--max-actions", "60")).start()
    try:
        table = server.create("decktet-golf", ["random"] * 5, target=500)
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "token": None}))
            state: dict[str, Any] = {"end": None}
            while state.get("end") is None:
                state = json.loads(ws.recv(timeout=30))
        assert state["state_id"] == 60 and state["end"] == "action_limit" and state["current_player"] is None
        summary = httpx.get(server.url(f"/api/tables/{table['id']}"), timeout=10).json()
        assert summary["status"] == "stopped" and summary["actions"] == 60
        record = httpx.get(server.url(f"/api/tables/{table['id']}/record"), timeout=10).json()
        assert len(record["actions"]) == 60
        assert httpx.get(server.url("/api/tables"), timeout=10).json()["tables"] == []  # not among the open ones
        listed = httpx.get(server.url("/api/tables?status=stopped"), timeout=10).json()["tables"]
        assert [t["id"] for t in listed] == [table["id"]]
    finally:
        server.stop()
    server.start()  # after a restart it stays stopped: no bot moves again
    try:
        summary = httpx.get(server.url(f"/api/tables/{table['id']}"), timeout=10).json()
        assert summary["status"] == "stopped" and summary["actions"] == 60
    finally:
        server.stop()


def test_finished_tables_in_memory_are_bounded(tmp_path: Path) -> None:
    """Finding 11: every finished table fetched once stayed in memory for ever."""
    db = tmp_path / "t.db"
    for i in range(LIMITS.finished_cache + 20):
        store_finished_game(db, f"Done{i:04d}", "psalter-row", {}, seed=i)
    server = Server(db).start()
    try:
        for i in range(LIMITS.finished_cache + 20):
            assert httpx.get(server.url(f"/api/tables/Done{i:04d}"), timeout=10).json()["status"] == "finished"
        held = httpx.get(server.url("/api/server"), timeout=10).json()
        assert held["tables"]["finished_in_memory"] == LIMITS.finished_cache
        assert held["limits"]["finished_cache"] == LIMITS.finished_cache
        assert httpx.get(server.url("/api/tables/Done0000/replay"), timeout=10).json()["total"] > 1  # fetched again
    finally:
        server.stop()


FAIL_ONE_BROADCAST = """
import parlour.web.tables as tables
_act, _broadcast, _done = tables.Table.act, tables.Table.broadcast, []
def act(self, *args):
    self.acted = True
    return _act(self, *args)
def broadcast(self):  # the first broadcast after a person's action that leaves a bot to move fails
    player = self.state.current_player
    if getattr(self, "acted", False) and player is not None and self.seats[player].kind == "agent" and not _done:
        _done.append(1)
        raise OSError("a broadcast that fails once")
    self.acted = False
    _broadcast(self)
tables.Table.act, tables.Table.broadcast = act, broadcast
"""


def test_an_action_stored_stands_when_its_broadcast_fails(tmp_path: Path) -> None:
    """Finding 11: the client was told that nothing changed, and the bots did not wake."""
    server = Server(tmp_path / "t.db", prelude=FAIL_ONE_BROADCAST).start()
    try:
        table = server.create("decktet-golf", ["human", "random"], rounds=1, opening_flips=1)
        token = table["seats"][0]["invite"].split("#token=")[1]
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table['id']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "join", "token": token}))
            told = None
            for _ in range(30):  # act until an action hands the turn to the bot: its broadcast fails
                state: dict[str, Any] = {"type": "", "current_player": None}
                while state["type"] != "state" or state["current_player"] != 0:
                    state = json.loads(ws.recv(timeout=20))
                    if state["type"] == "error":
                        told = state
                        break
                if told:
                    break
                ws.send(json.dumps({"type": "act", "action": state["legal"][0], "state_id": state["state_id"]}))
                made = state["state_id"] + 1
            assert told and told["state_id"] == made and "was made" in told["message"], told
            later = json.loads(ws.recv(timeout=20))  # the bot woke and moved: its state comes
            assert later["type"] == "state" and later["state_id"] > made and later["log"][-1]["seat"] == 1, later
        assert httpx.get(server.url(f"/api/tables/{table['id']}"), timeout=10).json()["actions"] > made
        assert "a broadcast that fails once" in server.output()
    finally:
        server.stop()
