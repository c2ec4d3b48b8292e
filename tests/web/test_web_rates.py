"""Bounds on what one client may make a socket cost (session 29's audit): a socket must join
within ``Limits.join_seconds``; messages past ``Limits.message_rate`` are dropped unread; a
client that reads nothing is closed and leaves its table; a finished table watched past
``Limits.finished_cache`` others is refused rather than copied; bad names and seat numbers
in requests are refused. In process (TestClient); every wait is bounded, no timing asserted."""

from __future__ import annotations

import asyncio
import contextlib
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tablekit import Socket, create, open_client, play_to_end
from test_web_bots import wait_until
from test_web_limits import store_finished_game

from parlour.web import app as web_app
from parlour.web.limits import Limits
from parlour.web.protocol import WebError
from parlour.web.tables import CLOSE, CLOSE_TOO_SLOW, Connection


def test_a_socket_that_does_not_join_in_time_is_told_and_closed(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db", limits=Limits(join_seconds=0.2)) as client:
        table = create(client, "psalter-row", ["human"])
        idle = Socket(client, table["id"])
        told = idle.receive(timeout=10)
        assert told["type"] == "error" and told["code"] == "join_timeout" and "no join within 0.2 s" in told["message"]
        assert idle.receive(timeout=10) == {"type": "closed", "code": 4002}
        player = Socket(client, table["id"])  # one that joins at once plays as ever
        player.join(table["seats"][0]["token"])


def test_messages_past_the_rate_are_dropped_unread_and_said_once(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db", limits=Limits(message_rate=0.01, message_burst=3)) as client:
        table = create(client, "psalter-row", ["human"])
        socket = Socket(client, table["id"])
        for _ in range(8):
            socket.send({"type": "ping"})
        answers = [socket.receive(timeout=10) for _ in range(4)]
        assert [a["type"] for a in answers[:3]] == ["pong"] * 3
        assert answers[3]["code"] == "too_fast" and "dropped unread" in answers[3]["message"]
        # the other four pings were dropped: nothing answers them (the bucket fills in 100 s)
        try:
            extra = socket.receive(timeout=0.5)
        except TimeoutError:
            extra = None
        assert extra is None


class Unread:
    """A websocket whose client reads nothing: a send never completes."""

    def __init__(self) -> None:
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(3600)

    async def close(self, code: int) -> None:
        self.closed_with = code


def test_a_client_that_reads_nothing_is_closed_with_4008(monkeypatch) -> None:
    monkeypatch.setattr(web_app, "SEND_TIMEOUT", 0.05)
    socket, conn = Unread(), Connection()
    conn.send({"type": "pong"})

    async def write() -> None:
        await asyncio.wait_for(web_app._write(socket, conn), 5)

    done = threading.Thread(target=asyncio.run, args=(write(),))  # a loop of its own, whatever runs here
    done.start()
    done.join(10)
    assert not done.is_alive() and socket.closed_with == CLOSE_TOO_SLOW == 4008
    assert CLOSE != CLOSE_TOO_SLOW


def test_a_finished_table_is_watched_only_within_the_cache(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    for name in ("DoneA000", "DoneB000"):
        store_finished_game(db, name, "psalter-row", {}, seed=len(name))
    with open_client(db, limits=Limits(finished_cache=1)) as client:
        first = Socket(client, "DoneA000")
        first.join(None)
        busy = Socket(client, "DoneB000")
        busy.send({"type": "join", "token": None})
        refused = busy.receive(timeout=10)
        assert refused["code"] == "server_busy" and "finished tables for their watchers" in refused["message"]
        assert busy.receive(timeout=10) == {"type": "closed", "code": 4029}
        again = Socket(client, "DoneA000")  # the one watched takes more watchers: the same table
        again.join(None)
        held = client.get("/api/server").json()
        assert held["connections"] == 2 and held["tables"]["finished_in_memory"] <= 2
        first.close(), again.close()
        later = Socket(client, "DoneB000")
        later.join(None)  # no one watches the other now: this one may be watched


def test_names_that_are_not_a_list_and_seats_in_other_digits_are_refused(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db") as client:
        for names in (0, {}, "", False):
            body = {"game": "psalter-row", "seats": ["human"], "names": names}
            response = client.post("/api/tables", json=body)
            assert response.status_code == 400 and '"names"' in response.json()["error"]["message"], names
        assert client.post("/api/tables", json={"game": "psalter-row", "seats": ["human"], "names": None}).status_code == 201
        table = create(client, "psalter-row", ["human"])
        headers = {"Authorization": f"Bearer {table['admin']}"}
        assert client.post(f"/api/tables/{table['id']}/seats/0/invite", headers=headers).status_code == 200
        refused = client.post(f"/api/tables/{table['id']}/seats/\u0660/invite", headers=headers)  # an Arabic-Indic 0
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "unknown_seat"


def test_one_address_makes_tables_within_its_rate_and_refusals_do_not_count(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db", limits=Limits(tables_per_minute=2)) as client:
        bad = client.post("/api/tables", json={"game": "no-such-game", "seats": ["human"]})
        assert bad.status_code == 422
        create(client, "psalter-row", ["human"])
        create(client, "psalter-row", ["human"])
        refused = client.post("/api/tables", json={"game": "psalter-row", "seats": ["human"]})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "too_fast"
        assert "2 tables a minute" in refused.json()["error"]["message"]
        assert len(client.get("/api/tables").json()["tables"]) == 2


def test_a_table_nobody_acted_at_or_joined_is_closed_after_waiting_hours(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db", limits=Limits(waiting_hours=1)) as client:
        left, watched, played = (create(client, "psalter-row", ["human"]) for _ in range(3))
        live = client.app.state.tables.live
        for table in (left, watched, played):
            live[table["id"]].stored.created = "2000-01-01T00:00:00Z"
        watcher = Socket(client, watched["id"])
        watcher.join(None)
        player = Socket(client, played["id"])
        _, state = player.join(played["seats"][0]["token"])
        player.send({"type": "act", "action": state["legal"][0], "state_id": state["state_id"]})
        player.expect("state")
        player.close()
        create(client, "psalter-row", ["human"])  # a new table looks for old ones left waiting
        assert client.get(f"/api/tables/{left['id']}").status_code == 404
        assert client.get(f"/api/tables/{watched['id']}").status_code == 200  # someone is there
        assert client.get(f"/api/tables/{played['id']}").status_code == 200  # someone played


def test_a_finished_table_is_rebuilt_once_for_requests_together_and_lets_other_tables_run(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    actions = store_finished_game(db, "LongOne1", "decktet-golf", {"players": 4, "rounds": 8})
    assert len(actions) > 2 * 500  # more than two rebuild steps
    with open_client(db) as client:
        tables = client.app.state.tables

        async def together() -> tuple:
            ticks = 0

            async def ticker() -> None:
                nonlocal ticks
                while True:
                    ticks += 1
                    await asyncio.sleep(0)

            other = asyncio.ensure_future(ticker())
            first, second = await asyncio.gather(tables.fetch("LongOne1"), tables.fetch("LongOne1"))
            other.cancel()
            return first, second, ticks

        first, second, ticks = client.portal.call(together)
        assert first is second is tables.get("LongOne1") and first.state_id == len(actions)
        assert ticks >= 2  # the loop ran other work between the rebuild's steps


def test_pages_refuse_other_sites_frames_and_bodies_get_plain_words(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db") as client:
        table = create(client, "psalter-row", ["human"])
        for path in ("/", f"/t/{table['id']}"):
            page = client.get(path)
            assert page.headers["x-frame-options"] == "DENY"
            assert page.headers["content-security-policy"] == "frame-ancestors 'none'"
        headers = {"Content-Type": "application/json"}
        for body, words in ((b"\xff", "not UTF-8 text"), (b"1" * 5000, "more than 4,300 digits")):
            message = client.post("/api/tables", content=body, headers=headers).json()["error"]["message"]
            assert words in message and "sys." not in message and "codec" not in message


@contextlib.contextmanager
def evicted_before_join(tmp_path: Path) -> Iterator[tuple[Any, Socket]]:
    """A server caching one finished table, and a socket on DoneA000 that connected (so the
    table was fetched) but has not joined while DoneB000 took the cache's one slot."""
    db = tmp_path / "t.db"
    for name in ("DoneA000", "DoneB000"):
        store_finished_game(db, name, "psalter-row", {}, seed=len(name))
    with open_client(db, limits=Limits(finished_cache=1)) as client:
        late = Socket(client, "DoneA000")
        client.get("/api/tables/DoneB000")
        yield client.app.state.tables, late


def test_a_table_evicted_between_a_sockets_connect_and_its_join_is_held_again(tmp_path: Path) -> None:
    with evicted_before_join(tmp_path) as (tables, late):
        late.join(None)
        held = tables._held("DoneA000")
        assert held is not None and len(held.subscribers) == 1  # the socket's table, the one the server holds


def test_a_table_closed_while_it_is_rebuilt_is_not_brought_back(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    store_finished_game(db, "LongOne1", "decktet-golf", {"players": 4, "rounds": 8})
    with open_client(db) as client:
        tables = client.app.state.tables

        async def scenario() -> str:
            loading = asyncio.ensure_future(tables.fetch("LongOne1"))
            for _ in range(3):
                await asyncio.sleep(0)  # the rebuild has begun and yields between its steps
            tables.storage.delete_table("LongOne1")
            try:
                await loading
            except WebError as err:
                return err.code
            return "served"

        assert client.portal.call(scenario) == "unknown_table"
        assert tables._held("LongOne1") is None


def test_a_refused_table_gives_back_its_place_in_the_rate(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db", limits=Limits(tables_per_minute=2, max_live_tables=1)) as client:
        first = create(client, "psalter-row", ["human"])
        assert client.post("/api/tables", json={"game": "psalter-row", "seats": ["human"]}).status_code == 503
        client.delete(f"/api/tables/{first['id']}", headers={"Authorization": f"Bearer {first['admin']}"})
        create(client, "psalter-row", ["human"])  # the 503 did not count: this is the second of two


def test_behind_a_trusted_proxy_the_address_is_the_one_the_proxy_added() -> None:
    class Asked:
        def __init__(self, trust: bool, forwarded: str) -> None:
            self.app = type("App", (), {"state": type("State", (), {"limits": Limits(trust_proxy=trust)})})
            self.headers = {"x-forwarded-for": forwarded}
            self.client = type("Peer", (), {"host": "10.0.0.1"})

    assert web_app._address(Asked(True, "6.6.6.6, 203.0.113.7")) == "203.0.113.7"  # not what the client wrote
    assert web_app._address(Asked(False, "6.6.6.6")) == "10.0.0.1"


def test_pages_answer_head_with_their_headers_and_no_body(tmp_path: Path) -> None:
    with open_client(tmp_path / "t.db") as client:
        table = create(client, "psalter-row", ["human"])
        for path in ("/", f"/t/{table['id']}", f"/t/{table['id']}/replay", "/static/favicon.svg"):
            full, head = client.get(path), client.head(path)
            assert head.status_code == 200 == full.status_code, path
            assert head.headers.get("content-length") == full.headers.get("content-length") and full.content
            assert head.headers["content-type"] == full.headers["content-type"]
        assert client.head("/t/NoSuch00").status_code == 404
        assert client.head("/static/nothing.js").status_code == 404
        assert client.head("/api/tables").status_code == 405  # the API answers GET only


def test_the_store_keeps_the_finished_tables_that_ended_last(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    for name in ("Old00001", "Old00002", "Old00003"):
        store_finished_game(db, name, "decktet-golf", {"rounds": 1}, seed=len(name))
    with open_client(db, limits=Limits(keep_finished=2)) as client:
        assert client.get("/api/tables/Old00001").status_code == 404  # gone at the start: the first made
        watched = Socket(client, "Old00002")
        watched.join(None)
        for _ in range(2):  # two bot matches end: each pushes out the one that ended first, but not a watched one
            made = create(client, "decktet-golf", ["random", "random"], rounds=1)
            wait_until(lambda: client.get(f"/api/tables/{made['id']}").json()["status"] == "finished", "the match's end")
        assert client.get("/api/tables/Old00003").status_code == 404
        assert client.get("/api/tables/Old00002").status_code == 200  # watched, so kept
        assert client.get(f"/api/tables/{made['id']}").status_code == 200
        watched.close()
    with open_client(db, limits=Limits(keep_finished=2)) as client:  # unwatched now: it goes at the next start
        assert client.get("/api/tables/Old00002").status_code == 404
        assert len(client.get("/api/tables?status=finished").json()["tables"]) == 2


def test_an_older_database_gets_when_its_finished_tables_ended(tmp_path: Path) -> None:
    import sqlite3

    from parlour.web.storage import SCHEMA, Storage

    db = tmp_path / "old.db"
    with sqlite3.connect(db) as old:  # the schema before the ended column (and its index)
        old.executescript(SCHEMA)
        for n, (name, status) in enumerate((("A", "finished"), ("B", "finished"), ("C", "stopped"), ("D", "playing"))):
            old.execute("INSERT INTO tables (id, game, options_json, seed, seats_json, token_hashes_json, created, "
                        "status) VALUES (?, 'psalter-row', '{}', 1, '[]', '[]', '2026-01-01T00:00:00Z', ?)", (name, status))
        for name in ("B", "A", "D"):  # B's last action came first, then A's
            old.execute("INSERT INTO actions VALUES (?, 1, 0, 'place 7H', '2026-01-01T00:00:00Z')", (name,))
    store = Storage(db)
    ended = dict(store._db.execute("SELECT id, ended FROM tables").fetchall())
    assert ended["D"] is None and ended["C"] == 0 and 0 < ended["B"] < ended["A"]
    assert store.over_beyond(1) == ["C", "B"] and store.over_beyond(3) == []  # those that ended first go first
    plan = " ".join(str(row) for row in store._db.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM tables WHERE ended IS NOT NULL ORDER BY ended DESC, rowid DESC"))
    assert "tables_ended" in plan and "TEMP B-TREE" not in plan  # read from the index, no sort
    store.close()


def test_a_finished_table_deleted_between_a_sockets_connect_and_its_join_is_not_brought_back(tmp_path: Path) -> None:
    with evicted_before_join(tmp_path) as (tables, late):
        tables.storage.delete_table("DoneA000")  # out of the store too (as keep_finished would)
        late.send({"type": "join", "token": None})
        told = late.receive(timeout=10)
        assert told["code"] == "unknown_table"
        assert tables._held("DoneA000") is None and tables.storage.table("DoneA000") is None


def test_an_ending_action_is_told_even_if_the_old_tables_cannot_be_deleted(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    store_finished_game(db, "DoneA000", "psalter-row", {}, seed=8)
    with open_client(db, limits=Limits(keep_finished=1)) as client:
        tables = client.app.state.tables

        def broken(table_id: str) -> None:
            raise OSError("disk I/O error")

        tables.storage.delete_table = broken
        made = create(client, "psalter-row", ["human"])
        player = Socket(client, made["id"])
        player.join(made["seats"][0]["token"])
        final = play_to_end({0: player}, random.Random(2))  # the last action's state comes like any other
        assert final["end"] is not None and final["state_id"] == tables.get(made["id"]).state_id
        assert tables.storage.table("DoneA000") is not None  # the deletion failed (logged), nothing else did
