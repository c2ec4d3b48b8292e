"""The HTTP side: games, creating tables (and what is refused), the lobby, records and
replays of finished games, the static client, and what is stored."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3

import pytest
from tablekit import Socket, create, open_client, play_to_end

import parlour


def error_of(response, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    return body["error"]["message"]


def test_games_lists_every_game_with_its_options(client) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert sorted(games) == parlour.game_names()
    assert (games["quisquilian"]["min_players"], games["quisquilian"]["max_players"]) == (3, 8)
    assert (games["psalter-row"]["min_players"], games["psalter-row"]["max_players"]) == (1, 1)
    errand = next(o for o in games["psalter-row"]["options"] if o["name"] == "errand_draw")
    assert errand == {"name": "errand_draw", "default": 2, "allowed": "one of 1, 2", "choices": [1, 2],
                      "kind": "choice", "nullable": False,
                      "doc": parlour.load("psalter-row").option_specs[1].doc}
    kinds = {o["name"]: o["kind"] for o in games["decktet-golf"]["options"]}
    assert kinds["excuse"] == "bool" and kinds["target"] == "int"


def test_a_new_table_has_invites_for_humans_only(client) -> None:
    response = client.post("/api/tables", json={"game": "quisquilian", "options": {"max_turns": 200},
                                                "seats": ["human", "heuristic", "human"], "names": ["Ann", None, None]})
    assert response.status_code == 201
    table = response.json()
    assert table["options"]["players"] == 3 and table["options"]["max_turns"] == 200  # the seats set players
    assert [(s["kind"], s["name"]) for s in table["seats"]] == [("human", "Ann"), ("agent", "heuristic"), ("human", "Player 3")]
    assert "invite" not in table["seats"][1] and table["seats"][1]["spec"] == "heuristic"
    invites = [s["invite"] for s in table["seats"] if "invite" in s]
    assert all(i.startswith(f"/t/{table['id']}#token=") for i in invites) and len(set(invites)) == 2
    assert table["spectate"] == f"/t/{table['id']}"
    assert isinstance(table["admin"], str) and len(table["admin"]) >= 32 and table["admin"] not in json.dumps(invites)
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] in ("waiting", "playing") and summary["game"] == "quisquilian"
    assert [s["connected"] for s in summary["seats"]] == [False, True, False]
    assert "token" not in json.dumps(summary) and "seed" not in summary


@pytest.mark.parametrize(("body", "status", "code", "says"), [
    ({"game": "chess", "seats": ["human"]}, 422, "bad_option", "there is no game 'chess'"),
    ({"game": "psalter-row", "seats": ["human", "human"]}, 422, "bad_option", "2 seats were given"),
    ({"game": "decktet-golf", "seats": ["human"] * 6}, 422, "bad_option", "players=6 is not allowed"),
    ({"game": "decktet-golf", "options": {"players": 3}, "seats": ["human", "human"]}, 422, "bad_option", "2 seats"),
    ({"game": "psalter-row", "options": {"errand_draw": 5}, "seats": ["human"]}, 422, "bad_option", "expected one of 1, 2"),
    ({"game": "psalter-row", "options": {"colour": "red"}, "seats": ["human"]}, 422, "bad_option", "has no option 'colour'"),
    ({"game": "decktet-golf", "seats": ["human", "randm"]}, 422, "bad_agent", "there is no agent 'randm'"),
    ({"game": "decktet-golf", "seats": ["human", "random:depth=3"]}, 422, "bad_agent", "depth"),
    ({"game": "psalter-row", "seats": ["clairvoyant"]}, 422, "cheating_agent", "sees the hidden cards"),
    ({"game": "psalter-row", "seats": ["policy:path=/etc/hostname"]}, 422, "bad_agent", "reads a file on the server"),
    ({"game": "psalter-row", "seats": []}, 400, "bad_request", "one entry per seat"),
    ({"game": "psalter-row"}, 400, "bad_request", "one entry per seat"),
    ({"game": "psalter-row", "seats": ["human"], "names": ["a", "b"]}, 400, "bad_request", "one entry"),
    ({"game": "psalter-row", "seats": ["human"], "names": ["x" * 41]}, 400, "bad_request", "at most 40"),
    ({"game": "psalter-row", "seats": ["human"], "seed": 3}, 400, "bad_request", "unknown field 'seed'"),
    ({"seats": ["human"]}, 422, "bad_option", "\"game\" names one of"),
    ({"game": "psalter-row", "options": [1], "seats": ["human"]}, 422, "bad_option", "maps option names"),
    ({"game": "quisquilian", "seats": ["random"] * 9}, 422, "bad_option", "at most 8"),
    ([1, 2], 400, "bad_request", "JSON object"),
])
def test_bad_tables_are_refused_with_a_reason(client, body, status: int, code: str, says: str) -> None:
    message = error_of(client.post("/api/tables", json=body), status, code)
    assert says in message
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def test_a_body_that_is_not_json_is_bad_request(client) -> None:
    message = error_of(client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"}),
                       400, "bad_request")
    assert "not JSON" in message


@pytest.mark.parametrize("path", ["/api/tables/{id}", "/api/tables/{id}/record", "/api/tables/{id}/replay"])
@pytest.mark.parametrize("table_id", ["nosuchtable", "x", "a" * 41, "t%2E%2E", "%00"])
def test_unknown_and_tampered_table_ids_are_404(client, path: str, table_id: str) -> None:
    create(client, "psalter-row", ["human"])
    response = client.get(path.replace("{id}", table_id))
    assert response.status_code == 404
    assert response.json()["error"]["code"] in ("unknown_table", "not_found")


def test_an_altered_table_id_is_unknown(client) -> None:
    table = create(client, "psalter-row", ["human"])
    altered = table["id"][:-1] + ("A" if table["id"][-1] != "A" else "B")
    message = error_of(client.get(f"/api/tables/{altered}"), 404, "unknown_table")
    assert altered in message and "lobby" in message


def test_the_lobby_lists_by_status(client) -> None:
    waiting = create(client, "psalter-row", ["human"])
    playing = create(client, "decktet-golf", ["human", "random"])  # the bot, left of the dealer, opens at once
    watcher = Socket(client, playing["id"])
    watcher.join(None)
    watcher.state_where(lambda m: m["state_id"] > 0)
    assert error_of(client.get("/api/tables?status=lost"), 400, "bad_request")
    ids = lambda status: [t["id"] for t in client.get(f"/api/tables?status={status}").json()["tables"]]  # noqa: E731
    assert ids("waiting") == [waiting["id"]] and ids("playing") == [playing["id"]] and ids("finished") == []
    assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [waiting["id"], playing["id"]]


def test_record_and_replay_wait_for_the_end(client) -> None:
    table = create(client, "psalter-row", ["human"], errand_draw=1)
    for path in ("record", "replay"):
        message = error_of(client.get(f"/api/tables/{table['id']}/{path}"), 409, "not_finished")
        assert "seed" in message
    socket = Socket(client, table["id"])
    socket.join(table["seats"][0]["token"])
    last = play_to_end({0: socket}, random.Random(11))

    response = client.get(f"/api/tables/{table['id']}/record")
    assert "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["options"]["errand_draw"] == 1 and len(record["actions"]) == last["state_id"]
    state = parlour.replay(record)

    replay = client.get(f"/api/tables/{table['id']}/replay").json()
    steps = replay["steps"]
    assert [s["n"] for s in steps] == list(range(last["state_id"] + 1))
    assert steps[0]["action"] is None and steps[0]["seat"] is None
    assert [s["action"] for s in steps[1:]] == record["actions"] and all(s["seat"] == 0 for s in steps[1:])
    assert steps[-1]["observation"] == state.observation(None) and steps[-1]["observation"]["hand"] is None
    assert replay["breakdown"] == last["breakdown"] and replay["end"] == last["end"]
    assert "text" not in steps[-1], "the text drawing comes only when asked for"
    mine = client.get(f"/api/tables/{table['id']}/replay?seat=0&text=1").json()["steps"]
    assert mine[-1]["observation"] == state.observation(0) and "Row" in mine[-1]["text"]
    assert "seat 3 does not exist" in error_of(client.get(f"/api/tables/{table['id']}/replay?seat=3"), 400, "bad_request")
    assert "not a seat number" in error_of(client.get(f"/api/tables/{table['id']}/replay?seat=me"), 400, "bad_request")


def test_secrets_are_stored_hashed_and_the_seed_stays_secret(client, db_path) -> None:
    table = create(client, "decktet-golf", ["human", "random"])
    token, admin = table["seats"][0]["token"], table["admin"]
    socket = Socket(client, table["id"])
    joined, _ = socket.join(token)
    secret = joined["secret"]
    socket.sync()
    db = sqlite3.connect(db_path)
    seed, hashes, claims, admin_hash = db.execute(
        "SELECT seed, token_hashes_json, claim_hashes_json, admin_hash FROM tables").fetchone()
    db.close()
    sha = lambda text: hashlib.sha256(text.encode()).hexdigest()  # noqa: E731
    assert json.loads(hashes)[0] == sha(token) and json.loads(claims) == [sha(secret), None] and admin_hash == sha(admin)
    stored = b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*")).decode("latin-1")  # and the WAL
    assert sha(secret) in stored and sha(admin) in stored  # what is read holds the rows
    assert token not in stored and secret not in stored and admin not in stored
    seen = json.dumps(socket.received[1:]) + json.dumps(client.get("/api/tables").json())
    assert str(seed) not in seen and token not in seen and secret not in seen and admin not in seen
    assert len({token, secret, admin}) == 3


STATIC_FILES = {"index.html": "<h1>lobby</h1>", "table.html": "<h1>table</h1>", "replay.html": "<h1>replay</h1>",
                "js/app.js": "export const x = 1;", "css/table.css": "body{}", "img/c.svg": "<svg/>"}


def test_the_static_client_is_served(tmp_path) -> None:
    static = tmp_path / "static"
    with open_client(tmp_path / "p.db", static_dir=static) as client:
        assert "not installed" in client.get("/").text and client.get("/").status_code == 404  # not there yet
        for name, text in STATIC_FILES.items():  # files that appear later are served
            (static / name).parent.mkdir(parents=True, exist_ok=True)
            (static / name).write_text(text)
        table = create(client, "psalter-row", ["human"])
        assert client.get("/").text == "<h1>lobby</h1>"
        assert client.get(f"/t/{table['id']}").text == "<h1>table</h1>"
        assert client.get(f"/t/{table['id']}/replay").text == "<h1>replay</h1>"
        response = client.get("/static/js/app.js")
        assert response.text == "export const x = 1;" and "javascript" in response.headers["content-type"]
        assert "css" in client.get("/static/css/table.css").headers["content-type"]
        assert "svg" in client.get("/static/img/c.svg").headers["content-type"]
        assert client.get("/t/nosuchtable").status_code == 404 and "no table" in client.get("/t/nosuchtable").text
        for path in ("/static/../p.db", "/static/%2E%2E/p.db", "/static/js", "/static/nothing.js"):
            assert client.get(path).status_code == 404


def test_the_packaged_client_is_served_when_present(client) -> None:
    from parlour.web.app import STATIC

    for page in ("index.html", "table.html", "replay.html"):
        path = STATIC / page
        response = client.get("/" if page == "index.html" else f"/t/{create(client, 'psalter-row', ['human'])['id']}"
                              + ("/replay" if page == "replay.html" else ""))
        if path.is_file():
            assert response.status_code == 200 and response.text == path.read_text()
        else:
            assert response.status_code == 404 and page in response.text
