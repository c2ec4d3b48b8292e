"""Every kind of bad input gets its error code and a clear message, changes nothing, and
the socket stays open (except a failed join, which is closed with 4001 or 4004)."""

from __future__ import annotations

import json
import random

import pytest
from tablekit import Socket, create, play_to_end, private_codes


@pytest.fixture
def duel(client):
    """A two-human Decktet Golf table, both seats and a spectator joined."""
    table = create(client, "decktet-golf", ["human", "human"])
    sockets = {}
    for seat in table["seats"]:
        sockets[seat["seat"]] = Socket(client, table["id"])
        sockets[seat["seat"]].join(seat["token"])
    watcher = Socket(client, table["id"])
    watcher.join(None)
    for socket in [*sockets.values(), watcher]:
        socket.sync()  # read the presence updates of the later joins
    return client, table, sockets, watcher


def actions_stored(client, table_id: str) -> int:
    return client.get(f"/api/tables/{table_id}").json()["actions"]


def refused(client, table, socket: Socket, message, code: str, others: list[Socket]) -> dict:
    """Send ``message``; the error must have ``code``, and nothing may change for anyone."""
    before = actions_stored(client, table["id"])
    state_id = socket.last_state["state_id"]
    socket.send(message)
    error = socket.receive()
    assert error["type"] == "error" and error["code"] == code, error
    assert error["message"] and error["state_id"] == state_id
    for other in [socket, *others]:  # no state message came before the pong: nothing changed
        other.send({"type": "ping"})
        assert other.receive()["type"] == "pong"
    assert actions_stored(client, table["id"]) == before
    return error


def mover(sockets: dict[int, Socket]) -> tuple[Socket, Socket]:
    state = next(iter(sockets.values())).last_state
    me = state["current_player"]
    return sockets[me], next(s for seat, s in sockets.items() if seat != me)


BAD_MESSAGES = [
    ("not json {", "not JSON"),
    ("[1, 2]", "JSON object"),
    (json.dumps({"type": "dance"}), "unknown message type"),
    (json.dumps({"action": "take", "state_id": 0}), "unknown message type"),
    (json.dumps({"type": "act", "action": "take"}), "state_id"),
    (json.dumps({"type": "act", "state_id": 0}), "action"),
    (json.dumps({"type": "act", "action": "take", "state_id": "0"}), "state_id"),
    (json.dumps({"type": "act", "action": ["take"], "state_id": 0}), "action"),
    (json.dumps({"type": "join", "token": 5}), "token"),
    (json.dumps({"type": "join", "token": None, "secret": ["x"]}), "secret"),
]


@pytest.mark.parametrize(("text", "says"), BAD_MESSAGES)
def test_malformed_messages_are_bad_message(duel, text: str, says: str) -> None:
    client, table, sockets, watcher = duel
    me, other = mover(sockets)
    error = refused(client, table, me, text, "bad_message", [other, watcher])
    assert says.lower() in error["message"].lower()


def test_a_binary_frame_is_bad_message(duel) -> None:
    client, table, sockets, watcher = duel
    me, other = mover(sockets)
    before = actions_stored(client, table["id"])
    me.ws.send_bytes(b'{"type": "ping"}')
    error = me.expect("error")
    assert error["code"] == "bad_message" and "text" in error["message"]
    me.sync()
    assert actions_stored(client, table["id"]) == before


def test_unknown_action_text_is_notation(duel) -> None:
    client, table, sockets, watcher = duel
    me, other = mover(sockets)
    sid = me.last_state["state_id"]
    error = refused(client, table, me, {"type": "act", "action": "frobnicate B1", "state_id": sid}, "notation", [other, watcher])
    assert "expected" in error["message"] and "flip <cell>" in error["message"]
    error = refused(client, table, me, {"type": "act", "action": "flip Z9", "state_id": sid}, "notation", [other, watcher])
    assert "is not a cell" in error["message"]


def test_an_illegal_move_is_illegal(duel) -> None:
    client, table, sockets, watcher = duel
    me, other = mover(sockets)
    sid = me.last_state["state_id"]
    error = refused(client, table, me, {"type": "act", "action": "take", "state_id": sid}, "illegal", [other, watcher])
    assert "opening flips" in error["message"]
    error = refused(client, table, me, {"type": "act", "action": "flip B2", "state_id": sid}, "illegal", [other, watcher])
    assert "core" in error["message"]


def test_out_of_turn_and_spectators_are_not_your_turn(duel) -> None:
    client, table, sockets, watcher = duel
    me, other = mover(sockets)
    state = me.last_state
    act = {"type": "act", "action": state["legal"][0], "state_id": state["state_id"]}
    error = refused(client, table, other, act, "not_your_turn", [me, watcher])
    assert f"seat {state['current_player']}'s turn" in error["message"]
    error = refused(client, table, watcher, act, "not_your_turn", [me, other])
    assert "spectators cannot act" in error["message"]


def test_a_stale_state_id_is_stale(duel) -> None:
    client, table, sockets, watcher = duel
    me, other = mover(sockets)
    state = me.last_state
    ahead = {"type": "act", "action": state["legal"][0], "state_id": state["state_id"] + 1}
    error = refused(client, table, me, ahead, "stale", [other, watcher])
    assert f"not the current one ({state['state_id']})" in error["message"]
    me.send({"type": "act", "action": state["legal"][0], "state_id": state["state_id"]})  # a good one
    now = me.state_where(lambda m: m["state_id"] == state["state_id"] + 1)
    for socket in (other, watcher):
        socket.state_where(lambda m: m["state_id"] == now["state_id"])
    me, other = mover(sockets)
    old = {"type": "act", "action": me.last_state["legal"][0], "state_id": state["state_id"]}
    refused(client, table, me, old, "stale", [other, watcher])


def test_acting_before_joining_and_joining_twice_are_bad_message(client) -> None:
    table = create(client, "psalter-row", ["human"])
    socket = Socket(client, table["id"])
    socket.send({"type": "act", "action": "place 7H", "state_id": 0})
    error = socket.expect("error")
    assert error["code"] == "bad_message" and "join first" in error["message"]
    socket.join(table["seats"][0]["token"])
    socket.send({"type": "join", "token": None})
    error = socket.expect("error")
    assert error["code"] == "bad_message" and "already joined as seat 0" in error["message"]
    socket.sync()


@pytest.mark.parametrize("token", ["wrong-token", "", "x" * 500])
def test_a_wrong_token_is_refused_and_closed(client, token: str) -> None:
    table = create(client, "psalter-row", ["human"])
    socket = Socket(client, table["id"])
    socket.send({"type": "join", "token": token})
    error = socket.expect("error")
    assert error["code"] == "bad_token" and "invite link" in error["message"]
    assert socket.receive() == {"type": "closed", "code": 4001}
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][0]["connected"] is False


def test_a_token_of_another_table_is_refused(client) -> None:
    mine = create(client, "psalter-row", ["human"])
    theirs = create(client, "psalter-row", ["human"])
    socket = Socket(client, mine["id"])
    socket.send({"type": "join", "token": theirs["seats"][0]["token"]})
    assert socket.expect("error")["code"] == "bad_token"
    assert socket.receive() == {"type": "closed", "code": 4001}


def test_a_missing_token_joins_as_a_spectator_who_cannot_act(client) -> None:
    table = create(client, "psalter-row", ["human"])
    socket = Socket(client, table["id"])
    socket.send({"type": "join"})
    joined = socket.expect("joined")
    state = socket.expect("state")
    assert joined["seat"] is None and state["seat"] is None and state["legal"] == []
    assert state["observation"]["hand"] is None and state["observation"]["hand_size"] == 5
    socket.send({"type": "act", "action": "revise", "state_id": 0})
    assert socket.expect("error")["code"] == "not_your_turn"


@pytest.mark.parametrize("table_id", ["nosuchtable", "AAAA", "a.b", "a" * 41, "t%2F..%2Fx", "ta ble", "x/y"])
def test_an_unknown_table_is_refused_and_closed(client, table_id: str) -> None:
    socket = Socket(client, table_id)
    error = socket.expect("error")
    assert error["code"] == "unknown_table" and "there is no table" in error["message"]
    assert socket.receive() == {"type": "closed", "code": 4004}


def test_acting_after_the_end_is_finished(client) -> None:
    table = create(client, "psalter-row", ["human"])
    socket = Socket(client, table["id"])
    socket.join(table["seats"][0]["token"])
    last = play_to_end({0: socket}, random.Random(3))
    socket.send({"type": "act", "action": "revise", "state_id": last["state_id"]})
    error = socket.expect("error")
    assert error["code"] == "finished" and last["end"] in error["message"]
    socket.sync()
    assert actions_stored(client, table["id"]) == last["state_id"]


def test_an_out_of_turn_error_shows_no_hidden_card(client) -> None:
    """Nothing is parsed for a seat that is not to move: its error cannot show the mover's hand."""
    table = create(client, "quisquilian", ["human", "human", "human"])
    sockets = {s["seat"]: Socket(client, table["id"]) for s in table["seats"]}
    for seat in table["seats"]:
        sockets[seat["seat"]].join(seat["token"])
    engine = client.app.state.tables.live[table["id"]].state
    player = engine.current_player
    other = (player + 1) % 3
    hand = engine.observation(player)["hand"]
    sockets[other].sync()
    sid = sockets[other].last_state["state_id"]
    for text in (f"discard {hand[0]} 5", f"run {' '.join(hand[:3])}", "frobnicate"):
        sockets[other].send({"type": "act", "action": text, "state_id": sid})
        error = sockets[other].expect("error")
        assert error["code"] == "not_your_turn"
        assert not set(error["message"].split()) & private_codes(engine, other)
