"""Whole games through the websocket: every game to its end, human seats played by the
test with legal actions, bots with no delay, a spectator watching; every message checked
against the engine (nothing a seat may not know, legal actions only to the seat to move)."""

from __future__ import annotations

import random

import pytest
from tablekit import Socket, check_messages, create, play_to_end

import parlour

GAMES = [
    ("psalter-row", ["human"], {}),
    ("decktet-golf", ["human", "random"], {"target": 30}),
    ("decktet-golf", ["human", "human", "random"], {"rounds": 1}),
    ("quisquilian", ["human", "random", "human", "random"], {}),
]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=lambda v: str(v) if isinstance(v, str) else None)
def test_full_game_over_websocket(client, game: str, seats: list[str], options: dict) -> None:
    table = create(client, game, seats, **options)
    humans = {}
    for seat in table["seats"]:
        if seat["kind"] == "human":
            humans[seat["seat"]] = socket = Socket(client, table["id"])
            joined, _ = socket.join(seat["token"])
            assert joined["seat"] == seat["seat"]
    spectator = Socket(client, table["id"])
    joined, _ = spectator.join(None)
    assert joined["seat"] is None and joined["table"]["id"] == table["id"]

    last = play_to_end(humans, random.Random(7))
    spectator.state_where(lambda m: m["state_id"] == last["state_id"])

    assert last["end"] is not None and last["current_player"] is None and last["legal"] == []
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "finished" and summary["actions"] == last["state_id"]
    record = client.get(f"/api/tables/{table['id']}/record").json()
    final = parlour.replay(record)  # the record replays, its result checked by the engine
    assert final.scores() == last["scores"] and final.winners() == last["winners"]
    assert last["breakdown"] == final.game.breakdown(final.observation(None))
    assert [b["score"] for b in last["breakdown"]] == (final.scores() if game != "quisquilian" else
                                                         [int(s in final.winners()) for s in range(len(seats))])
    assert record["players"] == [s["name"] for s in table["seats"]]

    for seat, socket in humans.items():
        assert check_messages(record, socket.received, seat) > 0
    assert check_messages(record, spectator.received, None) > 0
    seen = [m["state_id"] for m in spectator.received if m["type"] == "state"]
    assert set(seen) == set(range(seen[0], last["state_id"] + 1))  # told of every change since it joined
    assert client.get("/api/tables").json()["tables"] == []  # the lobby lists unfinished tables only
    assert [t["id"] for t in client.get("/api/tables?status=finished").json()["tables"]] == [table["id"]]
    for socket in [*humans.values(), spectator]:
        socket.close()


def test_a_table_of_bots_plays_itself_out(client) -> None:
    table = create(client, "quisquilian", ["random", "heuristic", "random"])
    watcher = Socket(client, table["id"])
    watcher.join(None)
    last = watcher.state_where(lambda m: m["end"] is not None)
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert len(record["actions"]) == last["state_id"]
    assert check_messages(record, watcher.received, None) > 0
    watcher.close()


def test_the_message_check_catches_a_leak(client) -> None:
    """The checks above prove something: a hidden card slipped into a message is caught."""
    table = create(client, "quisquilian", ["human", "random", "random"])
    spectator = Socket(client, table["id"])
    _, state = spectator.join(None)
    stored = client.app.state.tables.live[table["id"]]
    record = {**stored.state.record(), "seed": stored.stored.seed}
    assert check_messages(record, [state], None) == 1
    hand = stored.state.observation(0)["hand"]
    with pytest.raises(AssertionError, match="hidden cards"):
        check_messages(record, [{**state, "text": state["text"] + " " + hand[0]}], None)
    with pytest.raises(AssertionError):
        check_messages(record, [{**state, "observation": stored.state.observation(0)}], None)
