"""Helpers of the web table's tests: an in-process client, websockets that never hang
(every receive has a time limit), a browser's memory of the seats it claimed, a driver
that plays a table to its end through the protocol, and the checks of what each message
may show."""

from __future__ import annotations

import contextlib
import json
import random
import re
import warnings
from pathlib import Path
from typing import Any, Iterator

import anyio

import parlour

LOG_WINDOW = 20  # Limits().log_window: the log entries a state message carries
TIMEOUT = 20.0  # seconds any one message may take (a stuck server fails the test, never hangs it)


@contextlib.contextmanager
def open_client(db_path: Path | str, bot_delay: float = 0, static_dir: Path | None = None,
                limits: Any = None) -> Iterator[Any]:
    """A TestClient of a fresh app on ``db_path`` (within ``limits``, default ``Limits()``);
    leaving it shuts the app down."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette's deprecation note about httpx, at import
        from fastapi.testclient import TestClient
    from parlour.web.app import create_app

    with TestClient(create_app(db_path, bot_delay=bot_delay, static_dir=static_dir, limits=limits)) as client:
        try:
            yield client
        finally:
            for socket in list(Socket.opened):
                socket.close()


def create(client: Any, game: str, seats: list[str], hints: bool = True, **options: Any) -> dict[str, Any]:
    """POST a table (with hints on or off); the response with each human seat's ``token`` added."""
    response = client.post("/api/tables", json={"game": game, "options": options, "seats": seats, "hints": hints})
    assert response.status_code == 201, response.text
    table = response.json()
    for seat in table["seats"]:
        seat["token"] = seat["invite"].split("#token=")[1] if "invite" in seat else None
    return table


class Browser:
    """What one browser keeps of the seats it claimed: each invite's seat secret (the page
    keeps it in localStorage). A join with an invite it holds a secret for sends both, as the
    page does, so the same browser gets its seat back."""

    def __init__(self) -> None:
        self.secrets: dict[str, str] = {}

    def secret(self, token: str | None) -> str | None:
        return self.secrets.get(token) if token is not None else None


#: The browser of every socket that names none: all the tests' players share it, so that a
#: seat claimed once is theirs in every later join (a test of another browser makes its own).
ONE_BROWSER = Browser()


class Socket:
    """A websocket to a table, with a time limit on every receive and a log of what came."""

    #: Every socket still open: closed when the test's client closes, pass or fail (an open
    #: test websocket would keep the app from shutting down).
    opened: list["Socket"] = []

    def __init__(self, client: Any, table_id: str, browser: Browser = ONE_BROWSER) -> None:
        self.browser = browser
        self._cm = client.websocket_connect(f"/ws/tables/{table_id}")
        self.ws = self._cm.__enter__()
        Socket.opened.append(self)
        self.received: list[dict[str, Any]] = []
        self.last_state: dict[str, Any] | None = None
        self.log: dict[int, dict[str, Any]] = {}  # every log entry this socket was sent, by n

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def receive_raw(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await self.ws._send_rx.receive()

        return self.ws.portal.call(get)

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (JSON); a close frame is returned as ``{"type": "closed", "code"}``."""
        raw = self.receive_raw(timeout)
        if raw["type"] == "websocket.close":
            return {"type": "closed", "code": raw.get("code")}
        message = json.loads(raw["text"])
        self.received.append(message)
        if message.get("type") == "log":
            self.log.update((e["n"], e) for e in message["entries"])
        if message.get("type") == "state":
            # The server sends the log's last entries with each state and the rest on request
            # (the join's log_from): kept as "log_window", and "log" made whole from both.
            self.log.update((e["n"], e) for e in message["log"])
            message["log_window"] = message["log"]
            message["log"] = [self.log[n] for n in range(1, message["state_id"] + 1) if n in self.log]
            self.last_state = message
        return message

    def join(self, token: str | None, text: bool = True, log_from: int | None = 1) -> tuple[dict[str, Any], dict[str, Any]]:
        """Join with an invite ``token`` (None: watch), and the secret the browser holds for it
        (by default with the text drawing and the whole log); the ``joined`` message and the
        first state (the log's pages, which come between, are read too). A secret the join
        makes is kept."""
        self.send({"type": "join", "token": token, "secret": self.browser.secret(token), "text": text,
                   "log_from": log_from})
        joined = self.receive()
        assert joined["type"] == "joined", joined
        if joined.get("secret") is not None:
            self.browser.secrets[token] = joined["secret"]
        state = self.receive()
        while state["type"] == "log":
            state = self.receive()
        assert state["type"] == "state", state
        return joined, state

    def expect(self, kind: str) -> dict[str, Any]:
        message = self.receive()
        assert message["type"] == kind, message
        return message

    def state_where(self, test: Any) -> dict[str, Any]:
        """Read until a state message passes ``test`` (the last one read counts too)."""
        if self.last_state is not None and test(self.last_state):
            return self.last_state
        while True:
            message = self.receive()
            assert message["type"] != "error", message
            if message["type"] == "state" and test(message):
                return message

    def sync(self) -> None:
        """Ping and read up to the pong: everything sent before it has been read."""
        self.send({"type": "ping"})
        while self.receive()["type"] != "pong":
            pass

    def close(self) -> None:
        if self in Socket.opened:
            Socket.opened.remove(self)
            with contextlib.suppress(Exception):
                self._cm.__exit__(None, None, None)


def play_to_end(humans: dict[int, Socket], rng: random.Random, max_actions: int = 5000) -> dict[str, Any]:
    """Drive every human seat with random legal actions until the game ends; the last state.

    Only the seat to move may act and bots move only on their turns, so a state in which
    a human seat is to move stays current until that seat acts.
    """
    first = next(iter(humans.values()))
    latest = first.state_where(lambda m: True)
    acted = 0
    while latest["end"] is None:
        player = latest["current_player"]
        if player in humans:
            sid = latest["state_id"]
            mine = humans[player].state_where(lambda m: m["state_id"] >= sid)
            assert mine["state_id"] == sid and mine["legal"], mine
            humans[player].send({"type": "act", "action": rng.choice(mine["legal"]), "state_id": sid})
            latest = humans[player].state_where(lambda m: m["state_id"] > sid)
            acted += 1
            assert acted < max_actions, "the game did not end"
        else:  # a bot is to move: wait for the next state on any human socket
            sid = latest["state_id"]
            latest = first.state_where(lambda m: m["state_id"] > sid)
    for socket in humans.values():
        socket.state_where(lambda m: m["state_id"] == latest["state_id"])
    return latest


# -- what a message may show ---------------------------------------------------------------------------
def engine_states(record: dict[str, Any]) -> list[Any]:
    """The engine's state after each action of a record (index = state_id)."""
    game = parlour.load(record["game"], **record["options"])
    state = game.new_state(record["seed"])
    states = [state.clone()]
    for action in record["actions"]:
        state.apply(action)
        states.append(state.clone())
    return states


_CODE = re.compile(r"[A-Za-z0-9]+")
_CARD = re.compile(r"\b(?:10|[2-9AJQK])[CDHS]\b")  # a standard card code (Decktet Golf's notation names none)


def words(value: Any) -> set[str]:
    return set(_CODE.findall(json.dumps(value)))


def private_codes(state: Any, seat: int | None) -> set[str]:
    """Card codes that are somewhere ``seat`` cannot see (None: a spectator) and nowhere it can."""
    position, seen = state.to_position(), words(state.observation(seat))
    places: list[Any] = []
    game = state.game.name
    if game == "psalter-row":
        places = position["draw_pile"] + ([] if seat == 0 else position["hand"])
    elif game == "quisquilian":
        places = position["draw_pile"] + [c for s, hand in enumerate(position["hands"]) if s != seat for c in hand]
    elif game == "decktet-golf":
        down = [layout[cell] for s, layout in enumerate(position["layouts"]) for cell in layout
                if cell not in position["face_up"][s]]
        held = [position["drawn"]] if position["drawn_from"] == "pile" and seat != position["turn"] else []
        places = position["draw_pile"] + down + held
    return set(places) - seen


def check_messages(record: dict[str, Any], received: list[dict[str, Any]], seat: int | None) -> int:
    """Every state message ``seat`` got equals what the engine gives that seat at that state id,
    names no card it cannot know (outside the log, whose every card was public once played), and
    offers legal actions only to the seat to move. How many state messages were checked."""
    states = engine_states(record)
    checked = 0
    for message in received:
        if message["type"] != "state":
            continue
        state = states[message["state_id"]]
        assert message["seat"] == seat
        assert message["observation"] == state.observation(seat)
        assert message["current_player"] == state.current_player
        expected_legal = [str(a) for a in state.legal_actions()] if seat is not None and seat == state.current_player else []
        assert message["legal"] == expected_legal
        assert [e["action"] for e in message["log"]] == record["actions"][: message["state_id"]]
        window = message.get("log_window", message["log"])
        assert window == message["log"][-LOG_WINDOW:], "a state carries the log's last entries, no more"
        outside_log = {k: v for k, v in message.items() if k not in ("log", "log_window")}
        leaked = private_codes(state, seat) & words(outside_log)
        assert not leaked, f"state {message['state_id']} shows {seat}'s hidden cards {leaked}"
        assert str(record["seed"]) not in json.dumps(message) or state.is_terminal()
        checked += 1
    for n, action in enumerate(record["actions"], 1):
        # Each card the log names was the actor's to know, and was public before or after the
        # action, or left the actor's hand in it (a paid Page goes to the discard, which the
        # draw after it may shuffle into the pile at once: seen going, then hidden again).
        actor = states[n - 1].current_player
        known = words(states[n - 1].observation(actor))
        before, after = states[n - 1].observation(None), states[n].observation(None)
        public = words(before) | words(after)
        kept = set(states[n].observation(actor).get("hand") or [])
        # A discard shuffled into the pile in the action may hand a card paid in it straight back.
        shuffled = not before.get("reshuffled") and after.get("reshuffled")
        for card in _CARD.findall(action):
            assert card in known, f"action {n} {action!r} names {card}, which its player could not know"
            assert card in public or card not in kept or shuffled, f"action {n} {action!r} names {card}, which stayed hidden"
    return checked
