"""Persistence and reconnecting: every action is stored before anyone hears of it; a new
app on the same database continues every unfinished game (bots too); a closed tab
reopened with its token gets its seat back; everyone sees who is connected."""

from __future__ import annotations

import random
import sqlite3
import time

from tablekit import Socket, check_messages, create, open_client, play_to_end


def stored_actions(db_path) -> list[tuple]:
    db = sqlite3.connect(db_path)
    try:
        return db.execute("SELECT table_id, n, seat, notation FROM actions ORDER BY n").fetchall()
    finally:
        db.close()


def test_actions_are_committed_before_they_are_broadcast(client, db_path) -> None:
    table = create(client, "decktet-golf", ["human", "random"], rounds=1)
    socket = Socket(client, table["id"])
    socket.join(table["seats"][0]["token"])
    rng = random.Random(2)
    state = socket.last_state
    for _ in range(12):
        if state["current_player"] == 0:
            socket.send({"type": "act", "action": rng.choice(state["legal"]), "state_id": state["state_id"]})
        sid = state["state_id"]
        state = socket.state_where(lambda m: m["state_id"] > sid)
        # another connection to the file sees the action already: it was committed first
        assert len(stored_actions(db_path)) >= state["state_id"]
        assert [row[3] for row in stored_actions(db_path)][: state["state_id"]] == [e["action"] for e in state["log"]]


def test_a_new_app_continues_where_the_old_one_stopped(db_path) -> None:
    rng = random.Random(4)
    with open_client(db_path) as client:
        table = create(client, "quisquilian", ["human", "random", "human"])
        tokens = {s["seat"]: s["token"] for s in table["seats"] if s["token"]}
        sockets = {seat: Socket(client, table["id"]) for seat in tokens}
        for seat, socket in sockets.items():
            socket.join(tokens[seat])
        done = 0
        state = sockets[0].state_where(lambda m: True)
        # a few human moves, then the server stops mid-game, at a person's turn (a bot to move
        # could still move between the snapshot below and the stop)
        while done < 6 or state["current_player"] not in sockets:
            player = state["current_player"]
            if player in sockets:
                sid = state["state_id"]
                mine = sockets[player].state_where(lambda m: m["state_id"] >= sid)
                sockets[player].send({"type": "act", "action": rng.choice(mine["legal"]), "state_id": sid})
                done += 1
            sid = state["state_id"]
            state = sockets[0].state_where(lambda m: m["state_id"] > sid)
        before = client.get(f"/api/tables/{table['id']}").json()
        seen_by_0 = sockets[0].state_where(lambda m: m["state_id"] == before["actions"])

    with open_client(db_path) as client:  # a restart: the table is rebuilt from its actions
        after = client.get(f"/api/tables/{table['id']}").json()
        assert after["actions"] == before["actions"] and after["status"] == "playing"
        assert [s["connected"] for s in after["seats"]] == [False, True, False]
        sockets = {seat: Socket(client, table["id"]) for seat in tokens}
        for seat, socket in sockets.items():
            joined, first = socket.join(tokens[seat])
            assert joined["seat"] == seat
        assert first_state(sockets[0])["observation"] == seen_by_0["observation"]
        assert first_state(sockets[0])["log"] == seen_by_0["log"]
        last = play_to_end(sockets, rng)
        record = client.get(f"/api/tables/{table['id']}/record").json()
        for seat, socket in sockets.items():
            assert check_messages(record, socket.received, seat) > 0
        assert len(stored_actions(db_path)) == last["state_id"]

    with open_client(db_path) as client:  # finished games stay: their records and replays
        assert client.get(f"/api/tables/{table['id']}/record").json() == record
        assert client.get("/api/tables").json()["tables"] == []


def test_bots_resume_after_a_restart(db_path) -> None:
    with open_client(db_path, bot_delay=600) as client:  # the bot is still waiting when the server stops
        table = create(client, "decktet-golf", ["human", "random"])
        assert client.get(f"/api/tables/{table['id']}").json()["actions"] == 0
    assert stored_actions(db_path) == []
    with open_client(db_path, bot_delay=0) as client:
        watcher = Socket(client, table["id"])
        watcher.join(None)
        state = watcher.state_where(lambda m: m["current_player"] == 0)  # the bot made its opening flips
        assert [e["seat"] for e in state["log"]] == [1, 1] and len(stored_actions(db_path)) == 2


def test_the_bots_play_the_same_after_a_restart(tmp_path) -> None:
    """A bot's rng derives from the table's seed and the state id, so a rebuilt table's bot
    makes the move the first server's bot would have made."""
    moves = []
    for run in range(2):
        path = tmp_path / f"run{run}.db"
        with open_client(path, bot_delay=600) as client:
            table = create(client, "quisquilian", ["random", "random", "random"])
        db = sqlite3.connect(path)  # the same deal in both runs (the seed is otherwise secret and random)
        with db:
            db.execute("UPDATE tables SET seed = 12345")
        db.close()
        with open_client(path, bot_delay=0) as client:
            watcher = Socket(client, table["id"])
            watcher.join(None)
            last = watcher.state_where(lambda m: m["end"] is not None)
            moves.append([e["action"] for e in last["log"]])
    assert moves[0] == moves[1] and len(moves[0]) > 10


def test_a_reopened_tab_gets_its_seat_back_and_everyone_sees_who_is_there(client) -> None:
    table = create(client, "decktet-golf", ["human", "human"])
    watcher = Socket(client, table["id"])
    _, state = watcher.join(None)
    assert [p["connected"] for p in state["players"]] == [False, False]
    tab = Socket(client, table["id"])
    tab.join(table["seats"][1]["token"])
    state = watcher.state_where(lambda m: m["players"][1]["connected"])
    assert state["players"][0]["connected"] is False and state["state_id"] == 0
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][1]["connected"] is True
    tab.close()
    watcher.state_where(lambda m: not m["players"][1]["connected"])
    reopened = Socket(client, table["id"])
    joined, state = reopened.join(table["seats"][1]["token"])
    assert joined["seat"] == 1 and state["seat"] == 1 and state["players"][1]["connected"]
    watcher.state_where(lambda m: m["players"][1]["connected"])
    second = Socket(client, table["id"])  # a second tab on the same seat
    second.join(table["seats"][1]["token"])
    reopened.close()
    second.sync()
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][1]["connected"] is True


def test_a_damaged_table_is_left_out_and_the_rest_are_served(db_path) -> None:
    with open_client(db_path, bot_delay=600) as client:
        good = create(client, "psalter-row", ["human"])
        bad = create(client, "psalter-row", ["human"])
    db = sqlite3.connect(db_path)
    with db:
        db.execute("INSERT INTO actions VALUES (?, 1, 0, 'fly away', 'now')", (bad["id"],))
    db.close()
    with open_client(db_path) as client:
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [good["id"]]
        response = client.get(f"/api/tables/{bad['id']}")
        assert response.status_code == 500 and response.json()["error"]["code"] == "damaged_table"
        assert "cannot be rebuilt" in response.json()["error"]["message"]
        socket = Socket(client, good["id"])
        socket.join(good["seats"][0]["token"])


def test_a_failing_store_changes_nothing_and_keeps_the_socket(client, monkeypatch) -> None:
    table = create(client, "psalter-row", ["human"])
    socket = Socket(client, table["id"])
    _, state = socket.join(table["seats"][0]["token"])
    tables = client.app.state.tables

    def full_disk(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(tables.storage, "add_action", full_disk)
    socket.send({"type": "act", "action": state["legal"][0], "state_id": 0})
    error = socket.expect("error")
    assert error["code"] == "server_error" and "nothing changed" in error["message"]
    assert tables.live[table["id"]].state_id == 0 and stored_actions(client.app.state.tables.storage.path) == []
    monkeypatch.undo()
    socket.send({"type": "act", "action": state["legal"][0], "state_id": 0})  # the same action, now stored
    assert socket.expect("state")["state_id"] == 1 and len(stored_actions(tables.storage.path)) == 1


def test_a_bot_whose_move_cannot_be_stored_tries_again(client, monkeypatch) -> None:
    import parlour.web.tables as tables_module

    monkeypatch.setattr(tables_module, "BOT_RETRY", 0.01)
    tables = client.app.state.tables
    real_add, failures = tables.storage.add_action, []

    def flaky(*args, **kwargs):
        if len(failures) < 3:
            failures.append(args)
            raise sqlite3.OperationalError("database is locked")
        return real_add(*args, **kwargs)

    monkeypatch.setattr(tables.storage, "add_action", flaky)
    table = create(client, "decktet-golf", ["human", "random"])  # the bot opens
    watcher = Socket(client, table["id"])
    watcher.join(None)
    state = watcher.state_where(lambda m: m["current_player"] == 0)
    assert len(failures) == 3 and [e["seat"] for e in state["log"]] == [1, 1]
    assert len(stored_actions(tables.storage.path)) == 2


def test_finished_tables_are_listed_without_replaying_them(db_path) -> None:
    with open_client(db_path) as client:
        table = create(client, "quisquilian", ["random", "random", "random"], max_turns=30)
        watcher = Socket(client, table["id"])
        watcher.join(None)
        watcher.state_where(lambda m: m["end"] is not None)
        watcher.close()  # nobody watches a table that is not loaded: the summaries agree once it has left
        for _ in range(500):
            live = client.get("/api/tables?status=finished").json()["tables"]
            if live[0]["spectators"] == 0:
                break
            time.sleep(0.01)
    with open_client(db_path) as client:
        listed = client.get("/api/tables?status=finished").json()["tables"]
        assert table["id"] not in client.app.state.tables.live  # listed from the store alone
        assert listed == live


def test_bots_wait_the_bot_delay_before_moving(tmp_path) -> None:
    with open_client(tmp_path / "slow.db", bot_delay=0.3) as client:
        made = time.monotonic()
        table = create(client, "decktet-golf", ["human", "random"])  # the bot opens: two flips
        watcher = Socket(client, table["id"])
        watcher.join(None)
        watcher.state_where(lambda m: m["state_id"] == 1)
        first = time.monotonic()
        watcher.state_where(lambda m: m["state_id"] == 2)
        # Each move waits: lower bounds from the table's making, which a late reader of the
        # first broadcast cannot shrink (the gap between two observed moves could).
        assert first - made >= 0.3 and time.monotonic() - made >= 0.6


def first_state(socket: Socket) -> dict:
    return next(m for m in socket.received if m["type"] == "state")
