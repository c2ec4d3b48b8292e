"""Unit tests of the live tables' pieces: the outbox of a slow client, seat tokens."""

from __future__ import annotations

from tablekit import create

from parlour.web.seats import find, token_hash
from parlour.web.tables import CLOSE, CLOSE_TOO_SLOW, MAX_OUTBOX, Connection


def test_a_client_that_reads_nothing_is_dropped_not_buffered_forever() -> None:
    conn = Connection()
    for i in range(MAX_OUTBOX + 50):
        conn.send({"type": "pong", "i": i})
    # what it would never read is dropped at once (it holds no memory); only the close is left
    assert conn.closing and conn.outbox.qsize() == 1
    assert conn.outbox.get_nowait() == (CLOSE, CLOSE_TOO_SLOW)


def test_a_seat_is_found_by_its_token_only(client) -> None:
    made = create(client, "decktet-golf", ["human", "human", "random"])
    table = client.app.state.tables.live[made["id"]]
    tokens = [seat["token"] for seat in made["seats"]]
    assert tokens[2] is None and tokens[0] != tokens[1]
    assert [find(table.seats, t, "token_hash") for t in tokens[:2]] == [0, 1]
    assert find(table.seats, tokens[0] + "x", "token_hash") is None and find(table.seats, "", "token_hash") is None
    assert table.seats[0].token_hash == token_hash(tokens[0]) and table.seats[2].token_hash is None
