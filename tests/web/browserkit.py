"""Helpers of the end-to-end browser tests: a real ``parlour serve`` in a subprocess, the
system Chromium driven by Playwright, and a player that acts by clicking the table.

The browser is Debian's Chromium at :data:`CHROMIUM` (``apt-get install chromium``;
``make test`` installs it); no browser is ever downloaded. A missing one fails the tests
with a message saying so. The server is started on a free port with its own SQLite file
and bots that move at once (``--bot-delay 0``), and can be stopped and started again on
the same port and file (a restart in the middle of a game).
"""

from __future__ import annotations

import atexit
import json
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT_MS = 20_000  # any one wait in a page (a stuck table fails the test, never hangs it)
START_TIMEOUT = 30.0  # seconds for the server to answer after it is started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``parlour serve`` as a subprocess on 127.0.0.1 with its own database file."""

    def __init__(self, db: Path, bot_delay: float = 0.0, args: tuple[str, ...] = (), prelude: str = "") -> None:
        """``args``: more ``parlour serve`` options; ``prelude``: Python run in the server
        process before the command (a test's way to make a part of the server fail)."""
        self.db = db
        self.bot_delay = bot_delay
        self.args, self.prelude = tuple(args), prelude
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log = db.with_suffix(".log")

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str) -> str:
        return self.base + path

    def start(self) -> Server:
        command = [sys.executable, "-c", f"{self.prelude}\nfrom parlour.cli import main; main()", "serve",
                   "--host", "127.0.0.1", "--port", str(self.port), "--db", str(self.db),
                   "--bot-delay", str(self.bot_delay), *self.args]
        out = self.log.open("ab")
        self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        out.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"parlour serve exited with {self.process.returncode}:\n{self.output()}")
            try:
                self.get("/api/games")
                return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        pytest.fail(f"parlour serve did not answer within {START_TIMEOUT} s:\n{self.output()}")

    def stop(self) -> None:
        """Stop the server the hard way (SIGKILL): a crash, not a shutdown."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def interrupt(self, timeout: float = 20.0) -> float:
        """Stop the server as Ctrl+C does (SIGINT); the seconds it took to exit."""
        assert self.process is not None
        began = time.monotonic()
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=timeout)
        finally:
            self.stop()
        return time.monotonic() - began

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url(path), timeout=10) as answer:
            return json.load(answer)

    def create(self, game: str, seats: list[str], names: list[str | None] | None = None,
               **options: Any) -> dict[str, Any]:
        """POST a table; the answer (``seats[i]["invite"]`` is the path of a human seat)."""
        body = json.dumps({"game": game, "options": options, "seats": seats, "names": names or [None] * len(seats)})
        request = urllib.request.Request(self.url("/api/tables"), data=body.encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return json.load(answer)
        except urllib.error.HTTPError as err:
            pytest.fail(f"POST /api/tables refused: {err.code} {err.read().decode()}")

    def raw(self, head: str, body: Iterable[bytes] = (), timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
        """A request written by hand: ``head`` is its request line and headers, joined by CRLF
        (``Host`` is added where it has none); its body the ``body`` chunks, sent from a thread
        so that the server may answer before it is all sent (a server that stops reading ends
        the sending). The answer as (status, headers by lower-case name, body); every read is
        bounded by ``timeout``."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as conn:
            if "\nhost:" not in "\n" + head.lower():
                head = f"{head.rstrip()}\r\nHost: 127.0.0.1:{self.port}"
            conn.sendall(f"{head.rstrip()}\r\n\r\n".encode())

            def pump() -> None:
                try:
                    for chunk in body:
                        conn.sendall(chunk)
                except OSError:  # the server answered and closed: the rest is not wanted
                    pass

            sender = threading.Thread(target=pump, daemon=True)
            sender.start()
            answer = _read_answer(conn)
            sender.join(timeout)
        return answer


def _read_answer(conn: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one HTTP answer: its status line and headers, then its Content-Length of body."""
    data = b""
    while b"\r\n\r\n" not in data:
        part = conn.recv(65536)
        if not part:
            raise AssertionError(f"the server closed the connection before answering: {data!r}")
        data += part
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        part = conn.recv(65536)
        if not part:
            break
        rest += part
    return int(lines[0].split()[1]), headers, rest


def require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need the system Chromium at {CHROMIUM}: install it with "
                    "`apt-get install chromium` (`make test` does that)", pytrace=False)


_SHARED: dict[str, Any] = {}


def shared_browser() -> Any:
    """One Chromium for the whole process, started at the first use, closed at exit.

    (A fixture of scope "session" would not do: each test module imports its own copy
    of it, and Playwright's sync API runs one instance at a time.)
    """
    if "browser" not in _SHARED:
        require_chromium()
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        _SHARED["playwright"] = playwright
        _SHARED["browser"] = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        atexit.register(_close_shared)
    return _SHARED["browser"]


def _close_shared() -> None:
    try:
        _SHARED.pop("browser").close()
    finally:
        _SHARED.pop("playwright").stop()


@pytest.fixture(name="browser")
def browser_fixture() -> Any:
    """Chromium, headless (one for all the tests of a process)."""
    return shared_browser()


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[Server]:
    """A fresh ``parlour serve`` (own port and database), bots without delay."""
    srv = Server(tmp_path / "parlour.db").start()
    yield srv
    srv.stop()


@pytest.fixture(name="context")
def context_fixture(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (its own localStorage), 1400x1000."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.set_default_timeout(TIMEOUT_MS)
    yield ctx
    ctx.close()


class Player:
    """One seat's page, acting by clicking what the table offers.

    ``act(notation)`` clicks, in order, the board's things that carry the action's tokens
    (a hand card, a Row end, a cell, a spot, ...); when several legal actions are still left
    after the last one, it clicks the wanted one among the offered candidates. It then
    waits for the next state message.
    """

    def __init__(self, page: Any, name: str = "") -> None:
        self.page = page
        self.name = name
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    # -- what the page shows --------------------------------------------------------------
    def state(self) -> dict[str, Any] | None:
        return self.page.evaluate("() => window.parlour && window.parlour.state")

    def state_id(self) -> int:
        value = self.page.evaluate("() => document.body?.dataset.stateId")
        return -1 if value in (None, "") else int(value)

    def legal(self) -> list[str]:
        state = self.state()
        return list(state["legal"]) if state else []

    def wait_for_state(self, older_than: int = -1) -> dict[str, Any]:
        """The state message once its state_id is beyond ``older_than``."""
        self.page.wait_for_function(f"() => Number(document.body?.dataset.stateId ?? -1) > {older_than}")
        return self.state()  # type: ignore[return-value]

    def wait_my_turn_or_end(self) -> dict[str, Any]:
        self.page.wait_for_function("() => document.body?.dataset.toPlay === 'me' || !!document.body?.dataset.end")
        return self.state()  # type: ignore[return-value]

    def status(self) -> str:
        return self.page.get_attribute("#conn", "data-status") or ""

    # -- acting ---------------------------------------------------------------------------
    def act(self, notation: str) -> dict[str, Any]:
        before = self.state_id()
        tokens = self.page.evaluate("(n) => window.parlour.tokenize(n)", notation)
        sent = f"() => window.parlour.waiting || Number(document.body?.dataset.stateId) > {before}"
        for token in tokens:
            if self.page.evaluate(sent):
                break
            target = self.page.locator(f'#board [data-token="{token}"]')
            if target.count() == 0:
                continue  # a verb such as "place" or "run": nothing on the table names it
            # the top-left corner: the part of a card that a fanned stack leaves visible
            target.first.click(position={"x": 10, "y": 8})
        if not self.page.evaluate(sent):
            self.page.locator(f'#choices button[data-action="{notation}"]').click()
        return self.wait_for_state(before)

    def type_notation(self, text: str) -> None:
        self.page.fill("#notation", text)
        self.page.press("#notation", "Enter")

    def error_text(self) -> str:
        self.page.wait_for_selector("#error:not([hidden])")
        return self.page.inner_text("#error")


def play_out(player: Player, rng: random.Random, max_actions: int = 400, until=None) -> int:
    """Play ``player``'s seat by clicking random legal actions until the game ends (or
    ``until(state)`` holds); returns how many actions it made."""
    made = 0
    while made < max_actions:
        state = player.wait_my_turn_or_end()
        if state["end"] or (until and until(state)):
            return made
        notation = rng.choice(state["legal"])
        player.act(notation)
        made += 1
    raise AssertionError(f"{player.name}: no end after {max_actions} actions")


def kept_seats(page: Any, table_id: str) -> dict[int, dict[str, Any]]:
    """What the page's browser keeps of its seats at a table (localStorage
    ``parlour-seat-{id}-{seat}``): seat -> ``{"secret", "invite", "at"}``."""
    entries = page.evaluate("""(head) => Object.keys(localStorage).filter((k) => k.startsWith(head))
        .map((k) => [k.slice(head.length), localStorage.getItem(k)])""", f"parlour-seat-{table_id}-")
    return {int(seat): json.loads(value) for seat, value in entries}


def open_seat(context: Any, server: Server, path: str, name: str = "") -> Player:
    page = context.new_page()
    player = Player(page, name)
    page.goto(server.url(path))
    player.wait_for_state()
    return player
