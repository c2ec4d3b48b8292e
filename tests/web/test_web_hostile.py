"""A real ``parlour serve`` against hostile and careless clients (issue 17, findings 6, 8, 9, 10
and the database lock of 11): cross-site requests, malformed and oversized input, names with
control and bidi characters, a second server on the same file. Each one is refused with a
clear JSON error, changes nothing, and the server logs no traceback for it.

Every request has a time limit and every input a bounded size (at most about 1 MB).
"""

from __future__ import annotations

import contextlib
import json
import time
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from browserkit import Server, free_port
from click.testing import CliRunner
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from parlour.cli import cli
from parlour.web.limits import Limits

TIMEOUT = 10.0  # seconds for any one request or message
LIMITS = Limits()
EVIL = "http://evil.example"
FRIEND = "https://cards.example"  # the --allow-origin of the second server
GOOD_TABLE = {"game": "decktet-golf", "seats": ["human", "random"]}
JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One default server for the module (each test checks what it made)."""
    srv = Server(tmp_path_factory.mktemp("hostile") / "parlour.db").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def friendly(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server that allows FRIEND's pages and trusts a proxy's X-Forwarded headers."""
    srv = Server(tmp_path_factory.mktemp("friendly") / "parlour.db",
                 args=("--allow-origin", FRIEND, "--trust-proxy")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def finished(server: Server) -> str:
    """The id of a finished table of the default server (a bot's game of Psalter Row)."""
    table_id = server.create("psalter-row", ["random"])["id"]
    for _ in range(400):  # the bot plays the game out at once (it may be over before any socket joins)
        if httpx.get(server.url(f"/api/tables/{table_id}"), timeout=TIMEOUT).json()["status"] == "finished":
            return table_id
        time.sleep(0.05)
    raise AssertionError(f"the bot's game {table_id} did not end")


@pytest.fixture(autouse=True)
def no_traceback(request: pytest.FixtureRequest) -> Iterator[None]:
    """The servers a test used log no traceback and no error while it runs."""
    servers = [request.getfixturevalue(name) for name in ("server", "friendly") if name in request.fixturenames]
    before = [len(srv.output()) for srv in servers]
    yield
    for srv, start in zip(servers, before):
        output = srv.output()[start:]
        assert "Traceback" not in output and "ERROR" not in output, output[-3000:]


def post(srv: Server, body: bytes | str, headers: dict[str, str]) -> httpx.Response:
    return httpx.post(srv.url("/api/tables"), content=body, headers=headers, timeout=TIMEOUT)


def error_of(response: httpx.Response, status: int, code: str) -> str:
    """The JSON error's message, once its status and code are the expected ones."""
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    return error["message"]


def table_ids(srv: Server) -> set[str]:
    return {t["id"] for t in srv.get("/api/tables")["tables"]}


def socket(srv: Server, table_id: str, origin: str | None = None) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{table_id}", origin=origin, open_timeout=TIMEOUT)


def receive(ws: ClientConnection) -> dict[str, Any]:
    return json.loads(ws.recv(timeout=TIMEOUT))


@contextlib.contextmanager
def watch(srv: Server, table_id: str) -> Iterator[ClientConnection]:
    """A spectator's socket, joined (the joined and first state messages read)."""
    with socket(srv, table_id) as ws:
        ws.send(json.dumps({"type": "join", "token": None}))
        assert receive(ws)["type"] == "joined"
        assert receive(ws)["type"] == "state"
        yield ws


def still_answers(ws: ClientConnection) -> None:
    ws.send(json.dumps({"type": "ping"}))
    assert answer(ws) == {"type": "pong"}


def answer(ws: ClientConnection) -> dict[str, Any]:
    """The next message that is not the table's own news (a bot's move, someone joining)."""
    message = receive(ws)
    while message["type"] == "state":
        message = receive(ws)
    return message


def bad_message(ws: ClientConnection, text: str) -> str:
    """Send ``text``; the answer is a bad_message error (its message) and the socket still works."""
    ws.send(text)
    error = answer(ws)
    assert error["type"] == "error" and error["code"] == "bad_message", error
    still_answers(ws)
    return error["message"]


# -- finding 6: cross-site requests ----------------------------------------------------------
def test_a_cross_site_text_plain_post_makes_no_table(server: Server) -> None:
    before = table_ids(server)
    body = json.dumps(GOOD_TABLE)
    message = error_of(post(server, body, {"Content-Type": "text/plain", "Origin": EVIL}), 403, "bad_origin")
    assert "evil.example" in message and "--allow-origin" in message
    error_of(post(server, body, {**JSON, "Origin": EVIL}), 403, "bad_origin")
    error_of(post(server, body, {**JSON, "Origin": "null"}), 403, "bad_origin")  # a sandboxed page
    message = error_of(post(server, body, {"Content-Type": "text/plain"}), 415, "unsupported_media_type")
    assert "application/json" in message and "text/plain" in message
    error_of(post(server, body, {"Content-Type": "application/x-www-form-urlencoded"}), 415, "unsupported_media_type")
    error_of(post(server, body, {"Content-Type": "application/json; charset=latin-1"}), 415, "unsupported_media_type")
    error_of(post(server, body, {}), 415, "unsupported_media_type")  # a body with no type
    assert table_ids(server) == before


def test_the_servers_own_pages_and_clients_without_origin_make_tables(server: Server) -> None:
    for headers in ({"Origin": server.base, **JSON}, {"Content-Type": "application/json; charset=UTF-8"}, JSON):
        response = post(server, json.dumps(GOOD_TABLE), headers)
        assert response.status_code == 201, response.text
        assert response.json()["id"] in table_ids(server)


def test_an_allowed_origin_makes_tables_and_a_trusted_proxy_sets_the_servers_own(friendly: Server,
                                                                                 server: Server) -> None:
    body = json.dumps(GOOD_TABLE)
    made = post(friendly, body, {**JSON, "Origin": FRIEND})
    assert made.status_code == 201 and made.json()["id"] in table_ids(friendly)
    error_of(post(friendly, body, {"Content-Type": "text/plain", "Origin": FRIEND}), 415, "unsupported_media_type")
    error_of(post(friendly, body, {**JSON, "Origin": EVIL}), 403, "bad_origin")
    proxied = {**JSON, "Origin": "https://tables.example", "X-Forwarded-Proto": "https",
               "X-Forwarded-Host": "tables.example"}
    assert post(friendly, body, proxied).status_code == 201  # --trust-proxy: the proxy's host is this server's
    before = table_ids(server)
    error_of(post(server, body, proxied), 403, "bad_origin")  # no --trust-proxy: the headers count for nothing
    error_of(post(server, body, {**JSON, "Origin": FRIEND}), 403, "bad_origin")
    assert table_ids(server) == before


def test_a_websocket_from_another_site_is_refused_before_it_opens(server: Server, friendly: Server) -> None:
    table = server.create("decktet-golf", ["human", "random"])
    for origin in (EVIL, "null", FRIEND):
        with pytest.raises(InvalidStatus) as refused:
            socket(server, table["id"], origin=origin)
        assert refused.value.response.status_code == 403
    with watch(server, table["id"]) as ws:  # no Origin: not a browser
        still_answers(ws)
    with socket(server, table["id"], origin=server.base) as ws:  # the server's own page
        still_answers(ws)
    theirs = friendly.create("psalter-row", ["human"])
    with socket(friendly, theirs["id"], origin=FRIEND) as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert receive(ws) == {"type": "pong"}


# -- finding 8: malformed input --------------------------------------------------------------------
def test_malformed_bodies_are_bad_request(server: Server) -> None:
    before = table_ids(server)
    deep = "[" * LIMITS.max_body  # nested too deeply for the parser, within the body limit
    assert "not JSON" in error_of(post(server, deep, JSON), 400, "bad_request")
    huge = '{"game": "decktet-golf", "options": {"target": ' + "9" * 5000 + '}, "seats": ["human", "random"]}'
    assert "not JSON" in error_of(post(server, huge, JSON), 400, "bad_request")
    for constant in ("NaN", "Infinity", "-Infinity"):
        body = '{"game": "decktet-golf", "options": {"target": ' + constant + '}, "seats": ["human", "random"]}'
        assert constant.lstrip("-") in error_of(post(server, body, JSON), 400, "bad_request")
    for body in (b'{"game": "\xff"}', "\ufeff{}".encode(), b"", b"{nope"):
        error_of(post(server, body, JSON), 400, "bad_request")
    error_of(post(server, "[" * 100_000, JSON), 413, "body_too_large")
    assert table_ids(server) == before


@pytest.mark.parametrize(("options", "says"), [
    ({"target": int("9" * 4300)}, "target=999"),  # the most digits Python's JSON reads
    ({"target": 1e300}, "target=1e+300"),
    ({"target": [1]}, "target=[1]"),
    ({"target": {"a": 1}}, "target={'a': 1}"),
    ({"target": "x" * 5000}, "target='xxx"),
    ({"self": 1}, "no option 'self'"),
    ({"name": 1}, "no option 'name'"),
    ({"x" * 5000: 1}, "no option 'xxx"),
])
def test_option_values_and_names_of_odd_types_are_bad_option(server: Server, options: dict, says: str) -> None:
    before = table_ids(server)
    message = error_of(post(server, json.dumps({**GOOD_TABLE, "options": options}), JSON), 422, "bad_option")
    assert says in message and len(message) < 300
    assert table_ids(server) == before


@pytest.mark.parametrize("body", [
    {"game": ["decktet-golf"], "seats": ["human"]},
    {"game": "x" * 5000, "seats": ["human"]},
    {"game": "decktet-golf", "seats": "human"},
    {"game": "decktet-golf", "seats": ["human", 7]},
    {"game": "decktet-golf", "seats": ["human", {"agent": "random"}]},
    {"game": "decktet-golf", "seats": ["human", "random"], "names": [["Ann"], None]},
    {"game": "decktet-golf", "seats": ["human", "random"], "names": "Ann"},
    {"game": "decktet-golf", "seats": ["human", "ismcts:=,=="]},
    {"game": "decktet-golf", "seats": ["human", "x" * 150 + ":a=1"]},
    {"game": "decktet-golf", "seats": ["human", "random"], "x" * 5000: 1},
])
def test_bodies_of_odd_shapes_are_clear_4xx(server: Server, body: dict) -> None:
    response = post(server, json.dumps(body), JSON)
    assert response.status_code in (400, 422), response.text
    assert response.json()["error"]["code"] in ("bad_request", "bad_option", "bad_agent")
    assert len(response.json()["error"]["message"]) < 400


@pytest.mark.parametrize("path", [
    "/api/tables?status=" + "x" * 3000,
    "/api/tables?status=%ff",
    "/api/tables/" + "x" * 3000,
    "/api/tables/%00",
    "/api/tables/{finished}/replay?seat=" + "9" * 5000,
    "/api/tables/{finished}/replay?seat=-1",
    "/api/tables/{finished}/replay?seat=%D9%A1",  # an Arabic-Indic digit one
    "/api/tables/{finished}/replay?seat=7",
    "/static/%00",
    "/static/" + "a" * 3000,
    "/nowhere/" + "x" * 3000,
])
def test_odd_paths_and_query_parameters_are_clear_4xx(server: Server, finished: str, path: str) -> None:
    response = httpx.get(server.url(path.replace("{finished}", finished)), timeout=TIMEOUT)
    assert 400 <= response.status_code < 500, response.text
    assert len(response.json()["error"]["message"]) < 300


def test_a_websocket_message_with_a_huge_state_id_is_bad_message(server: Server) -> None:
    table = server.create("decktet-golf", ["human", "random"])
    with watch(server, table["id"]) as ws:
        for state_id in ("9" * 5000, "-1", str(2**60), "1.5", "true"):
            message = bad_message(ws, '{"type": "act", "action": "take", "state_id": ' + state_id + "}")
            assert "state_id" in message or "not JSON" in message
        for text in ("[" * 5000, '{"type": []}', '{"type": {"a": 1}}', '{"type": "act", "action": "x", "state_id": NaN}'):
            bad_message(ws, text)


# -- finding 9: sizes ----------------------------------------------------------------------------
MEGABYTE = 1_000_000


def test_a_megabyte_body_is_413_with_or_without_content_length(server: Server) -> None:
    before = table_ids(server)
    chunk = b"[" * 16_384
    pieces = [chunk] * (MEGABYTE // len(chunk) + 1)
    head = f"POST /api/tables HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: {MEGABYTE}"
    status, headers, body = server.raw(head, [b"[" * MEGABYTE])
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"
    status, headers, body = server.raw(head)  # refused on the header alone: no byte of the body is awaited
    assert status == 413 and headers["connection"] == "close"
    chunked = "POST /api/tables HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked"
    frames = [b"%x\r\n%s\r\n" % (len(c), c) for c in pieces] + [b"0\r\n\r\n"]
    status, headers, body = server.raw(chunked, frames)
    assert status == 413 and json.loads(body)["error"]["code"] == "body_too_large"
    # refused once the bytes read pass the limit, though the body has not ended
    status, _, body = server.raw(chunked, frames[:2])
    assert status == 413
    assert table_ids(server) == before
    assert httpx.get(server.url("/api/games"), timeout=TIMEOUT).status_code == 200


def test_a_frame_over_max_frame_is_bad_message_and_the_socket_goes_on(server: Server) -> None:
    table = server.create("decktet-golf", ["human", "random"])
    with watch(server, table["id"]) as ws:
        padded = json.dumps({"type": "ping", "pad": "x" * LIMITS.max_frame})
        message = bad_message(ws, padded)
        assert f"at most {LIMITS.max_frame} bytes" in message
        almost = json.dumps({"type": "ping", "pad": "x" * (LIMITS.max_frame - 100)})  # within it: answered
        ws.send(almost)
        assert receive(ws) == {"type": "pong"}


def test_a_frame_over_64_kib_closes_the_socket_with_1009(server: Server) -> None:
    table = server.create("decktet-golf", ["human", "random"])
    with watch(server, table["id"]) as ws:
        ws.send("x" * (LIMITS.ws_max_size + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=TIMEOUT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with watch(server, table["id"]) as ws:  # the server is fine
        still_answers(ws)


def test_echoed_input_is_cut_short(server: Server) -> None:
    table = server.create("decktet-golf", ["human", "random"])
    with watch(server, table["id"]) as ws:
        long_type = "y" * (LIMITS.max_frame - 100)
        message = bad_message(ws, json.dumps({"type": long_type}))
        assert "unknown message type 'yyy" in message and "…" in message
        assert len(message) < LIMITS.echo + 100
    message = error_of(post(server, json.dumps({**GOOD_TABLE, "z" * 10_000: 1}), JSON), 400, "bad_request")
    assert "unknown field 'zzz" in message and len(message) < LIMITS.echo + 100
    with socket(server, "t" * 2000) as ws:
        error = receive(ws)
        assert error["code"] == "unknown_table" and len(error["message"]) < LIMITS.echo + 100
    spec = "random:" + "w" * 150  # within max_spec: the agent refuses it, the message quotes a prefix
    message = error_of(post(server, json.dumps({"game": "decktet-golf", "seats": ["human", spec]}), JSON),
                       422, "bad_agent")
    assert "seat 'random:www" in message and len(message) < 400


# -- finding 10: names ----------------------------------------------------------------------------
@pytest.mark.parametrize(("char", "code"), [
    ("\x00", "U+0000"), ("\x07", "U+0007"), ("\n", "U+000A"), ("\u202e", "U+202E"), ("\u2066", "U+2066"),
    ("\u2028", "U+2028"), ("\ue000", "U+E000"), ("\u200b", "U+200B"), ("\ud800", "U+D800"), ("\U000e0001", "U+E0001"),
])
def test_names_with_control_and_bidi_characters_are_refused(server: Server, char: str, code: str) -> None:
    before = table_ids(server)
    body = json.dumps({**GOOD_TABLE, "names": [f"An{char}n", None]})
    message = error_of(post(server, body, JSON), 400, "bad_request")
    assert code in message and "not" in message
    assert table_ids(server) == before


@pytest.mark.parametrize("name", ["Z" + "\u0336\u0335\u0334\u0337\u0338", "\u0301Ann", "  \u0301Ann",
                                  "Z" + "\u0336\u200d" * 6, "\u200d\u0301Ann"])  # a joiner carries no marks
def test_zalgo_names_and_names_that_start_with_a_combining_mark_are_refused(server: Server, name: str) -> None:
    before = table_ids(server)
    message = error_of(post(server, json.dumps({**GOOD_TABLE, "names": [name, None]}), JSON), 400, "bad_request")
    assert "combining mark" in message and "U+03" in message
    assert table_ids(server) == before


def test_names_with_a_few_combining_marks_a_character_are_kept(server: Server) -> None:
    names = ["Tiê\u0301n", "क्षि\u0902"]  # Vietnamese stacks two marks; Devanagari a few
    made = post(server, json.dumps({**GOOD_TABLE, "names": names}), JSON)
    assert made.status_code == 201, made.text
    assert [s["name"] for s in server.get(f"/api/tables/{made.json()['id']}")["seats"]] == names


def test_a_long_name_is_refused_and_accented_and_emoji_names_are_kept(server: Server) -> None:
    too_long = "é" * (LIMITS.max_name + 1)
    message = error_of(post(server, json.dumps({**GOOD_TABLE, "names": [too_long, None]}), JSON), 400, "bad_request")
    assert f"at most {LIMITS.max_name}" in message
    names = ["  Zoë Ångström 👩‍👩‍👧 ", "Łukasz ♠️"]
    made = post(server, json.dumps({**GOOD_TABLE, "names": names}), JSON)
    assert made.status_code == 201, made.text
    summary = server.get(f"/api/tables/{made.json()['id']}")
    assert [s["name"] for s in summary["seats"]] == [n.strip() for n in names]


@pytest.mark.parametrize("spec", ["random\x00", "rand\u202eom", "ismcts:iterations=10\n", "r" * (LIMITS.max_spec + 1)])
def test_agent_specs_with_control_characters_or_too_long_are_refused(server: Server, spec: str) -> None:
    before = table_ids(server)
    message = error_of(post(server, json.dumps({"game": "decktet-golf", "seats": ["human", spec]}), JSON),
                       422, "bad_agent")
    assert "U+" in message or f"at most {LIMITS.max_spec}" in message
    assert table_ids(server) == before


# -- finding 11: one server per database ------------------------------------------------------------
def test_a_second_server_on_the_same_database_is_refused(server: Server) -> None:
    command = [sys.executable, "-m", "parlour.cli", "serve", "--port", str(free_port()), "--db", str(server.db)]
    try:
        second = subprocess.run(command, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("a second parlour serve on the same database started serving")
    assert second.returncode == 1, second.stdout + second.stderr
    assert server.process is not None
    said = second.stderr
    assert f"another parlour serve (pid {server.process.pid}) uses {server.db}" in said and "--db" in said
    assert "parlour web table at" not in second.stdout
    assert httpx.get(server.url("/api/games"), timeout=TIMEOUT).status_code == 200  # the first goes on


def test_the_database_is_free_again_once_its_server_is_gone(tmp_path: Path) -> None:
    db = tmp_path / "parlour.db"
    first = Server(db).start()
    table = first.create("psalter-row", ["human"])
    first.stop()  # killed: the lock goes with the process
    again = Server(db).start()
    try:
        assert again.get(f"/api/tables/{table['id']}")["id"] == table["id"]
        assert (tmp_path / "parlour.db.lock").read_text().strip() == str(again.process.pid)
    finally:
        again.stop()


def test_an_allow_origin_that_is_no_origin_is_a_usage_error(tmp_path: Path) -> None:
    for value in ("cards.example", "ftp://cards.example", "https://cards.example/lobby", "null"):
        result = CliRunner().invoke(cli, ["serve", "--db", str(tmp_path / "t.db"), "--allow-origin", value])
        assert result.exit_code == 2 and "is not an origin" in result.output and "scheme://host" in result.output
        assert "parlour web table at" not in result.output
