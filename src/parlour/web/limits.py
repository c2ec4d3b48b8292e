"""The web table's limits: every bound on what a client may make the server spend.

One :class:`Limits` value is handed to ``create_app`` (``parlour serve`` builds it from its
options); every check in the server reads its bound from here, and docs/web.md ("Limits and
security") lists each one with its default, its option and what a client gets when it hits it.

>>> Limits().think_seconds, Limits(think_seconds=2.0).think_seconds
(5.0, 2.0)
>>> Limits().option_maximum("decktet-golf", "target")
500
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, fields
from typing import Any

#: The largest value a table accepts for a game's unbounded options (game, option) -> maximum:
#: every table's game must end in a bounded number of actions.
OPTION_MAXIMA: dict[tuple[str, str], int] = {
    ("decktet-golf", "target"): 500,
    ("decktet-golf", "rounds"): 30,
    ("quisquilian", "max_turns"): 2000,
}


def default_bot_workers() -> int:
    """One worker process per core but one (left to the event loop), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class Limits:
    """Every bound of the web table, with its default."""

    # -- what one request or message may be -----------------------------------------------
    max_body: int = 16_384  # bytes of an HTTP request body: more is 413 body_too_large
    max_frame: int = 8_192  # bytes of a websocket text frame: more is bad_message, unparsed
    ws_max_size: int = 65_536  # bytes of a websocket message uvicorn buffers at most: more closes the socket (1009)
    max_name: int = 40  # characters of a seat's name
    max_spec: int = 200  # characters of a seat's agent spec
    echo: int = 60  # characters of a client's input quoted back in an error message
    message_rate: float = 50.0  # websocket messages a second one socket may send, on average: more are dropped (too_fast)
    message_burst: int = 200  # messages a socket may send at once above that rate (a whole solitaire game)
    join_seconds: float = 10.0  # a socket that has not joined a table by then is closed (4002)
    max_connections: int = 2_000  # connections and requests at once: more are answered 503 (uvicorn's limit_concurrency)

    # -- bots --------------------------------------------------------------------------------
    think_seconds: float = 5.0  # a bot's think time per decision at most: more is refused, bots are capped (--think-limit)
    max_iterations: int = 20_000  # search iterations per decision at most: more is refused, bots are capped
    bot_workers: int = field(default_factory=default_bot_workers)  # worker processes bots think in (--bot-workers)
    deadline_grace: float = 2.0  # past think_seconds + this, a worker is stopped and a random legal move played
    worker_memory: int = 1 << 30  # bytes of address space a worker process may hold (RLIMIT_AS)

    # -- tables --------------------------------------------------------------------------------
    max_actions: int = 20_000  # actions a table may hold; then it stops (end "action_limit")
    max_live_tables: int = 1_000  # unfinished tables at once: more is 503 too_many_tables
    max_subscribers: int = 64  # sockets joined to one table at once: more is table_full (close 4029)
    finished_cache: int = 64  # finished tables kept in memory (least recently used goes)
    keep_finished: int = 10_000  # finished (or stopped) tables the store keeps: those that ended first go
    tables_per_minute: float = 30.0  # tables one client address may create a minute (as many at once): more is 429
    waiting_hours: float = 24.0  # an unfinished table nobody has acted at or joined for this long is closed

    # -- what one answer may be ----------------------------------------------------------------
    log_window: int = 20  # the last log entries each state message carries
    log_page: int = 500  # log entries one log request returns at most
    replay_page: int = 100  # replay steps one request returns at most
    list_page: int = 200  # finished (or stopped) tables the lobby lists at most: the newest

    # -- who may call ------------------------------------------------------------------------------
    allow_origins: tuple[str, ...] = ()  # Origins accepted besides the server's own (--allow-origin)
    trust_proxy: bool = False  # the server's own origin from X-Forwarded-Proto/-Host (--trust-proxy)

    def public(self) -> dict[str, Any]:
        """The limits a client may meet (``GET /api/server``): all but who may call.

        >>> Limits().public()["max_actions"]
        20000
        """
        shown = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in ("allow_origins", "trust_proxy")}
        shown["option_maxima"] = {f"{game} {option}": value for (game, option), value in OPTION_MAXIMA.items()}
        return shown

    def option_maximum(self, game: str, option: str) -> int | None:
        """The largest value a table takes for ``option`` of ``game`` (None: the game's own bound)."""
        return OPTION_MAXIMA.get((game, option))


class MessageRate:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once. ``allow``
    says whether one more may come now; ``tell`` whether to say so (once a second at most, so
    that a flood is not answered message by message).

    >>> bucket = MessageRate(rate=1.0, burst=2)
    >>> [bucket.allow(0.0), bucket.allow(0.0), bucket.allow(0.0), bucket.allow(1.0)]
    [True, True, False, True]
    >>> bucket.tell(0.0), bucket.tell(0.5), bucket.tell(1.0)
    (True, False, True)
    """

    __slots__ = ("rate", "burst", "tokens", "at", "told")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at, self.told = float(burst), None, None

    def allow(self, now: float) -> bool:
        if self.at is not None:
            self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def refund(self) -> None:
        """Give back the last one allowed (it turned out not to count)."""
        self.tokens = min(float(self.burst), self.tokens + 1)

    def tell(self, now: float) -> bool:
        if self.told is not None and now - self.told < 1.0:
            return False
        self.told = now
        return True
