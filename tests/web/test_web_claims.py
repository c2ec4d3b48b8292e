"""Seats belong to the browser that claimed them, and the creator controls the table (issue
17, finding 7), against a real ``parlour serve`` process: the first join with an invite
claims the seat and gets a secret; the invite alone is then refused; the secret rejoins (any
number of tabs, counted); the creator's secret re-issues an invite (ending the old claim) and
closes the table; everyone else gets 403; a table's sockets are bounded; an old database opens."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from browserkit import Server, server_fixture  # noqa: F401 (fixture)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import parlour
from parlour.web.seats import token_hash

TIMEOUT = 20.0  # seconds any one message may take: a stuck server fails the test, never hangs it


class Ws:
    """A websocket to a table of ``server``; a close comes back as ``{"type": "closed", "code"}``."""

    def __init__(self, server: Server, table_id: str) -> None:
        self.ws = connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}", open_timeout=TIMEOUT).__enter__()
        self.last_state: dict[str, Any] | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def receive(self) -> dict[str, Any]:
        try:
            message = json.loads(self.ws.recv(timeout=TIMEOUT))
        except ConnectionClosed as closed:
            return {"type": "closed", "code": closed.rcvd.code if closed.rcvd else None}
        if message["type"] == "state":
            self.last_state = message
        return message

    def join(self, token: str | None = None, secret: str | None = None) -> dict[str, Any]:
        """Join; the ``joined`` message (its first state is read too)."""
        self.send({"type": "join", "token": token, "secret": secret})
        joined = self.receive()
        assert joined["type"] == "joined", joined
        assert self.receive()["type"] == "state"
        return joined

    def refused(self, token: str | None, secret: str | None = None) -> tuple[dict[str, Any], int | None]:
        """Join, expecting a refusal: the error message and the close code that follows it."""
        self.send({"type": "join", "token": token, "secret": secret})
        error = self.receive()
        assert error["type"] == "error", error
        closed = self.receive()
        assert closed["type"] == "closed", closed
        return error, closed["code"]

    def state_where(self, test: Any) -> dict[str, Any]:
        if self.last_state is not None and test(self.last_state):
            return self.last_state
        while True:
            message = self.receive()
            assert message["type"] == "state", message
            if test(message):
                return message

    def alive(self) -> bool:
        """Ping; True when the pong comes (whatever state messages came first)."""
        self.send({"type": "ping"})
        while (message := self.receive())["type"] == "state":
            pass
        return message["type"] == "pong"

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


def token_of(invite: str) -> str:
    return invite.split("#token=")[1]


def creator(server: Server, method: str, path: str, admin: str | None = None,
            scheme: str = "Bearer") -> httpx.Response:
    headers = {} if admin is None else {"Authorization": f"{scheme} {admin}"}
    return httpx.request(method, server.url(path), headers=headers, timeout=TIMEOUT)


def error_of(response: httpx.Response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text
    return response.json()["error"]["message"]


def reissue_path(table: dict[str, Any], seat: Any) -> str:
    return f"/api/tables/{table['id']}/seats/{seat}/invite"


@pytest.fixture
def sockets() -> Any:
    """Every Ws a test opens, closed at its end."""
    opened: list[Ws] = []

    def open_ws(server: Server, table_id: str) -> Ws:
        opened.append(Ws(server, table_id))
        return opened[-1]

    yield open_ws
    for ws in opened:
        ws.close()


def test_the_first_join_claims_the_seat_and_only_its_secret_rejoins(server, sockets) -> None:
    table = server.create("psalter-row", ["human"], names=["Ann"])
    invite = token_of(table["seats"][0]["invite"])
    first = sockets(server, table["id"])
    joined = first.join(invite)
    secret = joined["secret"]
    assert joined["seat"] == 0 and isinstance(secret, str) and len(secret) >= 32 and secret != invite
    assert first.last_state["players"][0]["connections"] == 1

    # another browser with the invite alone (or a made-up secret) is refused, and closed
    for guess in (None, "not-the-secret", invite):
        error, code = sockets(server, table["id"]).refused(invite, guess)
        assert error["code"] == "seat_claimed" and code == 4003 and error["seat"] == 0
        assert "held by another browser" in error["message"] and "creator" in error["message"]
        assert "re-issue" in error["message"] and secret not in json.dumps(error)
    # the same browser: the link again (invite and secret), and the bare link (the secret alone)
    second = sockets(server, table["id"])
    again = second.join(invite, secret)
    assert again["seat"] == 0 and again["secret"] is None
    assert second.last_state["players"][0]["connections"] == 2
    first.state_where(lambda m: m["players"][0]["connections"] == 2)
    third = sockets(server, table["id"])
    assert third.join(None, secret)["seat"] == 0
    watcher = sockets(server, table["id"])
    watcher.join()
    state = watcher.state_where(lambda m: True)
    assert state["players"][0]["connections"] == 3 and state["spectators"] == 1
    summary = server.get(f"/api/tables/{table['id']}")
    assert summary["seats"][0]["connections"] == 3 and summary["seats"][0]["connected"] and summary["spectators"] == 1
    assert secret not in json.dumps(summary) and invite not in json.dumps(summary)

    # any tab of the seat plays it, and every tab sees the move
    legal = second.state_where(lambda m: m["spectators"] == 1)["legal"]
    second.send({"type": "act", "action": legal[0], "state_id": 0})
    for ws in (first, second, third, watcher):
        assert ws.state_where(lambda m: m["state_id"] == 1)["log"][-1]["action"] == legal[0]
    third.close()
    state = watcher.state_where(lambda m: m["players"][0]["connections"] == 2)
    assert state["players"][0]["connected"] and state["state_id"] == 1


def test_the_creator_reissues_an_invite_and_the_old_claim_ends(server, sockets) -> None:
    table = server.create("decktet-golf", ["human", "human"], names=["Ann", "Bea"])
    old = token_of(table["seats"][1]["invite"])
    tabs = [sockets(server, table["id"]) for _ in range(2)]
    secret = tabs[0].join(old)["secret"]
    tabs[1].join(old, secret)
    ann = sockets(server, table["id"])
    ann.join(token_of(table["seats"][0]["invite"]))
    watcher = sockets(server, table["id"])
    watcher.join()

    answer = creator(server, "POST", reissue_path(table, 1), table["admin"])
    assert answer.status_code == 200, answer.text
    new = answer.json()
    assert new["seat"] == 1 and new["id"] == table["id"] and new["invite"].startswith(f"/t/{table['id']}#token=")
    assert token_of(new["invite"]) not in (old, secret)
    for tab in tabs:  # the sockets of the old claim are told why, then closed
        message = tab.receive()
        while message["type"] == "state":
            message = tab.receive()
        assert message["type"] == "error" and message["code"] == "seat_reissued" and message["seat"] == 1
        assert "re-issued the invite of seat 1 (Bea)" in message["message"]
        assert tab.receive() == {"type": "closed", "code": 4005}
    state = watcher.state_where(lambda m: m["players"][1]["connections"] == 0)
    assert state["players"][1]["connected"] is False and state["players"][0]["connections"] == 1
    assert ann.alive() and watcher.alive()  # the other seat and the spectator stay

    # the old invite and the old secret are refused; the new invite claims the seat afresh
    for token, old_secret in ((old, None), (None, secret), (old, secret)):
        error, code = sockets(server, table["id"]).refused(token, old_secret)
        assert error["code"] == "bad_token" and code == 4001
        assert "re-issued" in error["message"]
    newcomer = sockets(server, table["id"])
    claimed = newcomer.join(token_of(new["invite"]))
    assert claimed["seat"] == 1 and claimed["secret"] not in (None, secret)
    error, code = sockets(server, table["id"]).refused(token_of(new["invite"]))
    assert error["code"] == "seat_claimed" and code == 4003

    # the claims are stored: after a restart the new secret rejoins, the invite alone does not
    server.stop()
    server.start()
    back = sockets(server, table["id"])
    assert back.join(None, claimed["secret"])["seat"] == 1
    assert back.last_state["players"][1]["connections"] == 1
    assert sockets(server, table["id"]).refused(token_of(new["invite"]))[0]["code"] == "seat_claimed"


def test_creator_requests_need_the_creator_secret_and_a_person_s_seat(server, sockets) -> None:
    table = server.create("decktet-golf", ["human", "random"])
    other = server.create("psalter-row", ["human"])
    secret = sockets(server, table["id"]).join(token_of(table["seats"][0]["invite"]))["secret"]
    for method, path in (("POST", reissue_path(table, 0)), ("POST", reissue_path(table, 1)),
                         ("POST", reissue_path(table, 9)), ("DELETE", f"/api/tables/{table['id']}")):
        for admin, scheme in ((None, "Bearer"), ("wrong", "Bearer"), (other["admin"], "Bearer"),
                              (table["admin"], "Basic"), (table["admin"][:-1], "Bearer"), (secret, "Bearer")):
            message = error_of(creator(server, method, path, admin, scheme), 403, "forbidden")
            assert "only the table's creator" in message and "Authorization: Bearer" in message
    # nothing changed: the seat's claim holds, the table is there
    assert sockets(server, table["id"]).join(None, secret)["seat"] == 0
    assert server.get(f"/api/tables/{table['id']}")["id"] == table["id"]

    admin = table["admin"]
    assert "is a bot" in error_of(creator(server, "POST", reissue_path(table, 1), admin), 409, "agent_seat")
    for seat in (2, 9, -1, "x", "0x1", "1" * 30):
        message = error_of(creator(server, "POST", reissue_path(table, seat), admin), 404, "unknown_seat")
        assert "seats are 0..1" in message
    for method, path in (("POST", "/api/tables/nosuchtable/seats/0/invite"), ("DELETE", "/api/tables/nosuchtable")):
        error_of(creator(server, method, path, admin), 404, "unknown_table")
    assert sockets(server, table["id"]).join(None, secret)["seat"] == 0  # still claimed


def test_closing_a_table_closes_its_sockets_and_it_stays_gone(server, sockets) -> None:
    table = server.create("decktet-golf", ["human", "random"])
    player = sockets(server, table["id"])
    player.join(token_of(table["seats"][0]["invite"]))
    watcher = sockets(server, table["id"])
    watcher.join()
    answer = creator(server, "DELETE", f"/api/tables/{table['id']}", table["admin"])
    assert answer.status_code == 200 and answer.json() == {"id": table["id"], "closed": True}
    for ws in (player, watcher):  # told why, then closed
        message = ws.receive()
        while message["type"] == "state":
            message = ws.receive()
        assert message["type"] == "error" and message["code"] == "table_closed"
        assert "creator closed this table" in message["message"]
        assert ws.receive() == {"type": "closed", "code": 4006}
    # gone: the API, the page, the lobby, the websocket, a second delete; after a restart too
    for restarted in (False, True):
        if restarted:
            server.stop()
            server.start()
        error_of(httpx.get(server.url(f"/api/tables/{table['id']}")), 404, "unknown_table")
        assert httpx.get(server.url(f"/t/{table['id']}")).status_code == 404
        assert table["id"] not in [t["id"] for t in server.get("/api/tables")["tables"]]
        late = sockets(server, table["id"])
        assert late.receive()["code"] == "unknown_table" and late.receive() == {"type": "closed", "code": 4004}
        error_of(creator(server, "DELETE", f"/api/tables/{table['id']}", table["admin"]), 404, "unknown_table")
    assert "Traceback" not in server.output()


def test_closing_a_table_stops_its_bots_and_leaves_nothing_stored(tmp_path: Path, sockets) -> None:
    server = Server(tmp_path / "parlour.db", bot_delay=0.02).start()
    try:
        table = server.create("quisquilian", ["random", "random", "random"])
        watcher = sockets(server, table["id"])
        watcher.join()
        watcher.state_where(lambda m: m["state_id"] >= 3)  # its bots are playing
        clock = server.create("quisquilian", ["random", "random", "random"])
        assert creator(server, "DELETE", f"/api/tables/{table['id']}", table["admin"]).status_code == 200
        # while the other table's bots make 20 moves, the closed table's bots make none
        ticks = sockets(server, clock["id"])
        ticks.join()
        ticks.state_where(lambda m: m["state_id"] >= 20 or m["end"] is not None)
    finally:
        server.stop()
    db = sqlite3.connect(server.db)
    try:
        assert db.execute("SELECT COUNT(*) FROM tables WHERE id = ?", (table["id"],)).fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table["id"],)).fetchone() == (0,)
        assert db.execute("SELECT COUNT(*) FROM actions WHERE table_id = ?", (clock["id"],)).fetchone()[0] >= 20
    finally:
        db.close()
    assert "Traceback" not in server.output()


def test_a_table_takes_a_bounded_number_of_sockets_and_keeps_room_for_its_players(tmp_path: Path, sockets) -> None:
    server = Server(tmp_path / "parlour.db", args=("--max-subscribers", "4")).start()
    try:
        table = server.create("decktet-golf", ["human", "human"])
        invites = [token_of(s["invite"]) for s in table["seats"]]
        watchers = [sockets(server, table["id"]) for _ in range(2)]
        for ws in watchers:
            ws.join()
        # two of the four are kept for the two players not connected: a third spectator is refused
        error, code = sockets(server, table["id"]).refused(None)
        assert error["code"] == "table_full" and code == 4029
        assert "at most 4" in error["message"] and "2 of them kept for the people not connected" in error["message"]
        secret = sockets(server, table["id"]).join(invites[0])["secret"]  # a player's first socket has room
        error, code = sockets(server, table["id"]).refused(None, secret)  # its second tab would take the last one
        assert error["code"] == "table_full" and code == 4029
        sockets(server, table["id"]).join(invites[1])
        for token, secret_of in ((None, None), (invites[0], secret)):
            assert sockets(server, table["id"]).refused(token, secret_of)[0]["code"] == "table_full"
        assert server.get(f"/api/tables/{table['id']}")["spectators"] == 2
        watchers[0].close()
        watchers[1].state_where(lambda m: m["spectators"] == 1)  # the server saw it go
        assert sockets(server, table["id"]).join(None, secret)["seat"] == 0  # now there is room again
    finally:
        server.stop()


OLD_SCHEMA = """
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, options_json TEXT NOT NULL, seed INTEGER NOT NULL,
    seats_json TEXT NOT NULL, token_hashes_json TEXT NOT NULL, created TEXT NOT NULL, status TEXT NOT NULL,
    end_reason TEXT);
CREATE TABLE actions (table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, seat INTEGER,
    notation TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, n));
"""


def test_a_database_of_before_claims_opens_and_its_seats_are_unclaimed(tmp_path: Path, sockets) -> None:
    db_path = tmp_path / "old.db"
    game = parlour.load("psalter-row")
    first = str(game.new_state(99).legal_actions()[0])
    db = sqlite3.connect(db_path)
    with db:
        db.executescript(OLD_SCHEMA)
        db.execute("INSERT INTO tables VALUES ('oldTable1', 'psalter-row', ?, 99, ?, ?, '2026-01-01T00:00:00Z', "
                   "'playing', NULL)", (json.dumps(dict(game.options)),
                                        json.dumps([{"seat": 0, "kind": "human", "name": "Ann", "spec": None}]),
                                        json.dumps([token_hash("old-invite")])))
        db.execute("INSERT INTO actions VALUES ('oldTable1', 1, 0, ?, '2026-01-01T00:00:01Z')", (first,))
    db.close()
    server = Server(db_path).start()
    try:
        summary = server.get("/api/tables/oldTable1")
        assert summary["actions"] == 1 and summary["seats"][0]["connections"] == 0
        ws = sockets(server, "oldTable1")
        joined = ws.join("old-invite")  # unclaimed: the old invite claims it
        assert joined["seat"] == 0 and joined["secret"] and ws.last_state["log"][0]["action"] == first
        assert sockets(server, "oldTable1").refused("old-invite")[0]["code"] == "seat_claimed"
        ws.send({"type": "act", "action": ws.last_state["legal"][0], "state_id": 1})
        assert ws.state_where(lambda m: m["state_id"] == 2)["players"][0]["connections"] == 1
        # it has no creator secret: nobody may re-issue or close it
        error_of(creator(server, "DELETE", "/api/tables/oldTable1", "anything"), 403, "forbidden")
        error_of(creator(server, "POST", "/api/tables/oldTable1/seats/0/invite", "anything"), 403, "forbidden")
    finally:
        server.stop()
    db = sqlite3.connect(db_path)
    try:
        columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
        claims, admin = db.execute("SELECT claim_hashes_json, admin_hash FROM tables").fetchone()
    finally:
        db.close()
    assert {"claim_hashes_json", "admin_hash"} <= columns
    assert json.loads(claims) == [token_hash(joined["secret"])] and admin is None
