"""Live tables: the authoritative state of each game, its seats, bots and subscribers.

The server holds the state; a client only ever receives ``observation(seat)`` (a
spectator the public ``observation(None)``), the notation log (public in every game)
and, to the seat to move, its legal actions. Each action is checked by the engine,
committed to the store, and only then told to the subscribers. Runs on one asyncio
event loop: nothing here blocks but the short SQLite commits; bots think in worker
processes (``web/bots.py``), and so do hints: the strongest level's move for the seat to move,
from that seat's view, told to the connection that asked and to nobody else.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import re
import secrets
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Iterator

import parlour
from parlour.agents import Agent, Budget
from parlour.agents.levels import strongest
from parlour.agents.random_agent import RandomAgent
from parlour.core.action import Action
from parlour.core.chance import SEED_BITS, derive_seed
from parlour.core.errors import IllegalAction, NotationError, OptionError, ParlourError
from parlour.core.game import Game, State
from parlour.core.registry import load_seated
from parlour.web import protocol
from parlour.web.bots import BotFailed, BotPool, Job
from parlour.web.limits import Limits, MessageRate
from parlour.web.protocol import TableRequest, WebError, error_message
from parlour.web.seats import AGENT, HUMAN, Seat, admit, check_admin, find, new_secret, token_hash
from parlour.web.storage import Storage, StoredTable, moment, now

log = logging.getLogger("parlour.web")

STOPPED = "stopped"  # a table's status once it holds Limits.max_actions actions and its game goes on
ACTION_LIMIT = "action_limit"  # the end reason of a stopped table
#: Why a table was closed, as its sockets are told.
CREATOR_CLOSED = "the table's creator closed this table"
WAITED_TOO_LONG = "this table was closed: nobody acted at it or joined it for {hours:g} hours"
KEPT_FEWER = "this finished table was deleted: the server keeps its {keep:,} finished tables that ended last"
REPLAY_CHUNK = 10  # replay steps made between two turns of the event loop
REBUILD_CHUNK = 500  # stored actions replayed between two turns of the event loop (about 6 ms)
BOT_RETRY = 1.0  # seconds before a bot tries again when its move could not be stored
#: The agent whose moves hints give: the strongest level (capped to the server's limits).
ADVISOR = f"level:{strongest().name}"

#: A tag of rich console markup, as rich finds them (``rich.markup.RE_TAGS``): backslashes, then
#: ``[`` and a lower-case name, ``#``, ``/`` or ``@``.
_TAG = re.compile(r"(\\*)\[([a-z#/@][^[]*?)]")
_BARE_TAG = re.compile(r"\[[a-z#/@][^[]*?]")


def plain_text(markup: str) -> str:
    r"""Rich console markup as plain text (the ``text`` field of a state message): what
    ``rich.text.Text.from_markup(markup).plain`` gives, many times faster (rich parses
    styles that are thrown away here, and took 80% of a broadcast's time).

    >>> plain_text(r"[bold]Row[/bold] 7H [dim]\[b] is literal[/dim]")
    'Row 7H [b] is literal'
    """

    if "\\" not in markup:  # the usual case: no escapes, so every tag simply goes
        return _BARE_TAG.sub("", markup)
    out, position = [], 0
    for match in _TAG.finditer(markup):  # the pieces between tags as rich's parser makes them
        out.append(markup[position : match.start()].replace("\\[", "["))
        backslashes, escaped = divmod(len(match.group(1)), 2)
        out.append("\\" * backslashes + (f"[{match.group(2)}]" if escaped else ""))
        position = match.end()
    out.append(markup[position:].replace("\\[", "["))
    return "".join(out)


CLOSE = "close"  # an outbox entry (CLOSE, code): close the socket after what was queued before
MAX_OUTBOX = 500  # messages a client may fall behind by before it is dropped
SEND_TIMEOUT = 20.0  # seconds one message may take to go out before the client counts as gone
CLOSE_TOO_SLOW = 4008
REMEMBERED_ADDRESSES = 10_000  # client addresses whose table-making rate is kept (about 1 MB)


@dataclass(eq=False)
class Connection:
    """One websocket's subscription: its seat (None: spectator) and an outbox that a
    writer task drains, so that a slow client never holds up a table. A client that
    reads nothing while ``MAX_OUTBOX`` messages pile up is closed (4008; what was queued for it
    is dropped at once, so it holds no memory); it may rejoin."""

    seat: int | None = None
    joined: bool = False
    outbox: asyncio.Queue = field(default_factory=asyncio.Queue)
    closing: bool = False
    text: bool = False  # whether its state messages carry the plain-text drawing (asked for at the join)

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            while not self.outbox.empty():  # it reads nothing: what it would never read goes now
                self.outbox.get_nowait()
            self.close(CLOSE_TOO_SLOW)
            return
        self.outbox.put_nowait(message if isinstance(message, str) else json.dumps(message))

    def close(self, code: int) -> None:
        """Close the socket once what is queued has been sent."""
        if not self.closing:
            self.closing = True
            self.outbox.put_nowait((CLOSE, code))


class Table:
    """A game in progress (or finished) with its seats and subscribers."""

    def __init__(self, stored: StoredTable, game: Game, seats: list[Seat], tables: Tables) -> None:
        self.stored, self.id, self.game, self.seats = stored, stored.id, game, seats
        self.tables = tables
        self.state: State = game.new_state(stored.seed)
        self.log: list[dict[str, Any]] = []
        self.subscribers: set[Connection] = set()
        self.seen = datetime.min.replace(tzinfo=timezone.utc)  # when a socket last joined (in this process)
        self.group = self.id  # whose share of the bot workers it takes: its maker's address, where known
        self.bot_task: asyncio.Task | None = None
        self.stopped = stored.status == STOPPED  # it reached the action limit: no more actions
        self.checkpoints: list[State] | None = None  # for replays: the state after every replay_page actions
        self._checkpointing: asyncio.Task | None = None
        self.closed: str | None = None  # why it was closed (its creator, its age): it takes nothing more
        self.hints = stored.hints  # whether its seats may ask for hints (chosen when it was made)
        self.hint_task: asyncio.Task | None = None  # the hint being worked out: one at a time

    # -- facts ----------------------------------------------------------------------------
    @property
    def state_id(self) -> int:
        """The number of actions applied: the id a client quotes when it acts."""
        return len(self.log)

    @property
    def status(self) -> str:
        if self.state.is_terminal():
            return "finished"
        if self.stopped:
            return STOPPED
        return "playing" if self.log else "waiting"

    @property
    def over(self) -> bool:
        """No more actions: the game ended, or the table reached its action limit."""
        return self.stopped or self.state.is_terminal()

    @property
    def end_reason(self) -> str | None:
        return ACTION_LIMIT if self.stopped else self.state.end_reason

    def connections(self) -> Counter[int | None]:
        """How many sockets hold each seat (key None: the spectators)."""
        return Counter(c.seat for c in self.subscribers)

    def connected(self, seat: int) -> bool:
        """An agent is always there; a human seat while any socket holds it."""
        return self.seats[seat].kind == AGENT or any(c.seat == seat for c in self.subscribers)

    def presence(self) -> list[dict[str, Any]]:
        """Each seat's public entry with ``connected`` and ``connections`` (its sockets; 0 for a bot)."""
        counts = self.connections()
        return [{**s.public(), "connected": s.kind == AGENT or counts[s.seat] > 0, "connections": counts[s.seat]}
                for s in self.seats]

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def summary(self) -> dict[str, Any]:
        """The lobby's entry for this table (public: no secret, no seed before the end)."""
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": dict(self.game.options),
            "status": self.status,
            "seats": self.presence(),
            "spectators": self.connections()[None],
            "created": self.stored.created,
            "actions": self.state_id,
            "current_player": None if self.stopped else self.state.current_player,
            "end": self.end_reason,
            "hints": self.hints,
        }

    def state_message(self, seat: int | None, text: bool = False) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) is told of the table now: the log's last
        ``log_window`` entries (the rest on request: :meth:`log_page`), and the plain-text
        drawing only when ``text`` is asked for (it costs as much as the rest together)."""
        state = self.state
        observation = state.observation(seat)
        over = state.is_terminal()
        player = None if self.stopped else state.current_player
        message = {
            "type": "state",
            "state_id": self.state_id,
            "seat": seat,
            "current_player": player,
            "observation": observation,
            "legal": [str(a) for a in state.legal_actions()] if seat is not None and seat == player else [],
            "log": self.log[-self.tables.limits.log_window:],
            "players": [{k: p[k] for k in ("seat", "name", "kind", "connected", "connections")} for p in self.presence()],
            "spectators": self.connections()[None],
            "scores": state.scores(),
            "winners": state.winners() if over else [],
            "end": self.end_reason,
            "breakdown": self.game.breakdown(state.observation(None)) if over else None,
            "hints": self.hints,
        }
        if text:
            message["text"] = plain_text(self.game.render(observation))
        return message

    def log_page(self, start: int) -> dict[str, Any]:
        """Log entries ``start``.. (1-based), at most ``log_page`` of them: the answer to a
        client's ``{"type": "log", "from": start}`` (the log is public in every game)."""
        if start < 1:
            raise WebError(protocol.BAD_MESSAGE, f"a log's \"from\" is an action number, 1 or more, not {start}")
        entries = self.log[start - 1 : start - 1 + self.tables.limits.log_page]
        return {"type": "log", "from": start, "entries": entries, "state_id": self.state_id}

    def record(self) -> dict[str, Any]:
        """The engine's game record, seed included: only once the game is over."""
        self._check_over("record")
        return self.state.record(self.names())

    async def replay(self, seat: int | None, start: int = 0, text: bool = False) -> dict[str, Any]:
        """Steps ``start``.. of a finished game (at most ``replay_page``) as ``seat`` (None: a
        spectator) saw them: step 0 is the deal, step n follows action n. Rebuilt from the
        stored actions, so the engine checks the replay as it is built, from the states
        :meth:`keep_checkpoints` keeps: a page costs at most ``replay_page`` actions. One page
        is made at a time on the whole server, handing the event loop back every
        ``REPLAY_CHUNK`` steps: however many replays are asked for, the tables' own messages
        wait for one chunk at most."""
        self.check_replay(seat, start)
        await self.keep_checkpoints()
        async with self.tables.replaying:
            page = self.tables.limits.replay_page
            state = self._checkpoint(start // page).clone()
            for entry in self.log[start - start % page : start]:
                state.apply(entry["action"])
            steps = [self._step(state, start, seat, text)]
            for entry in self.log[start : start + page - 1]:
                state.apply(entry["action"])
                steps.append(self._step(state, entry["n"], seat, text))
                if len(steps) % REPLAY_CHUNK == 0:
                    await asyncio.sleep(0)
        return {"id": self.id, "game": self.game.name, "seat": seat, "players": self.names(),
                "from": start, "total": self.state_id + 1, "steps": steps,
                "scores": self.state.scores(), "winners": self.state.winners() if self.state.is_terminal() else [],
                "end": self.end_reason, "breakdown": self.game.breakdown(self.state.observation(None))}

    def check_replay(self, seat: int | None, start: int) -> None:
        """Refuse (WebError) a replay before the end, of a seat or from a step that is not there."""
        self._check_over("replay")
        if seat is not None and not 0 <= seat < len(self.seats):
            raise WebError(protocol.BAD_REQUEST, f"seat {seat} does not exist: this table has seats 0..{len(self.seats) - 1}")
        if not 0 <= start <= self.state_id:
            raise WebError(protocol.BAD_REQUEST, f"step {start} does not exist: this replay has steps 0..{self.state_id}")

    async def keep_checkpoints(self) -> None:
        """Make the states :meth:`replay` starts from (after every ``replay_page`` actions),
        once: on the event loop, handing it back after each page of actions, so that a long
        game's first replay holds up no other table (and no thread shares the engine)."""
        if self.checkpoints is not None:
            return
        if self._checkpointing is None:
            self._checkpointing = asyncio.get_running_loop().create_task(self._make_checkpoints())
        await asyncio.shield(self._checkpointing)

    async def _make_checkpoints(self) -> None:
        page, state = self.tables.limits.replay_page, self.game.new_state(self.stored.seed)
        checkpoints = [state.clone()]
        for entry in self.log:
            state.apply(entry["action"])
            if entry["n"] % page == 0:
                checkpoints.append(state.clone())
                await asyncio.sleep(0)
        self.checkpoints = checkpoints

    def _checkpoint(self, k: int) -> State:
        """The state after ``k * replay_page`` actions (:meth:`keep_checkpoints` made them)."""
        assert self.checkpoints is not None, "keep_checkpoints first"
        return self.checkpoints[k]

    def _step(self, state: State, n: int, seat: int | None, text: bool) -> dict[str, Any]:
        entry = self.log[n - 1] if n else {"seat": None, "action": None}
        observation = state.observation(seat)
        step = {"n": n, "seat": entry["seat"], "action": entry["action"], "observation": observation}
        if text:
            step["text"] = plain_text(self.game.render(observation, you="viewed"))  # whoever reads the replay
        return step

    def _check_over(self, what: str) -> None:
        if not self.over:
            raise WebError(protocol.NOT_FINISHED, f"the game is not over yet ({self.state_id} actions so far): its "
                           f"{what} holds the deal's seed and is given only once the game ends", 409)

    # -- changes --------------------------------------------------------------------------
    def replay_stored(self, actions: list[Any]) -> None:
        """Rebuild the state from stored actions (on a restart)."""
        for stored in actions:
            seat = self.state.current_player
            self.state.apply(stored.notation)
            self.log.append({"n": stored.n, "seat": seat, "action": stored.notation})

    def act(self, seat: int | None, text: str, state_id: int) -> None:
        """A human seat's action: checked, committed, then told to everyone. Raises WebError
        (and changes nothing) when it is refused. Nothing about the state is parsed for a
        seat that is not to move, so no error message can show a card it may not know."""
        if seat is None:
            raise WebError(protocol.NOT_YOUR_TURN, "spectators cannot act: open a seat's invite link to play")
        self._check_open()
        self._check_turn(seat, state_id, "no more actions", "wait for your turn",
                         "the table changed since you looked; act on the latest state")
        try:
            action = self.game.parse_action(self.state, text)
        except NotationError as err:
            raise WebError(protocol.NOTATION, str(err)) from None
        except IllegalAction as err:
            raise WebError(protocol.ILLEGAL, str(err)) from None
        self.commit(seat, action)

    def _check_turn(self, seat: int, state_id: int, over: str, not_yours: str, stale: str) -> None:
        """Raise WebError unless the game goes on, ``seat`` is to move and ``state_id`` is the
        current state; each message ends with the words given for what was asked."""
        if self.over:
            raise WebError(protocol.FINISHED, f"the game is over ({self.end_reason}): {over}")
        player = self.state.player  # the game goes on, so someone is to move
        if seat != player:
            raise WebError(protocol.NOT_YOUR_TURN, f"it is seat {player}'s turn ({self.seats[player].name}), "
                           f"not yours (seat {seat}): {not_yours}")
        if state_id != self.state_id:
            raise WebError(protocol.STALE, f"state_id {state_id} is not the current one ({self.state_id}): {stale}")

    def hint(self, conn: Connection, state_id: int) -> None:
        """Start working out a hint for the connection's seat, which is to move at ``state_id``:
        the strongest level's move from the seat's own view, thought in the bots' worker pool and
        sent to this connection alone (``{"type": "hint", ...}``; ``hint_failed`` when none
        came). Raises WebError (and starts nothing) for a spectator, a table made with hints
        off, a seat not to move, a stale ``state_id``, or while the table's last hint is still
        being worked out (one at a time)."""
        seat = conn.seat
        self._check_open()
        if not self.hints:
            raise WebError(protocol.HINTS_OFF, "this table was made with hints off: nobody at it may ask for one")
        if seat is None:
            raise WebError(protocol.NOT_YOUR_TURN, "spectators get no hints: a hint is for the seat to move, from "
                           "its own cards; open a seat's invite link to play")
        self._check_turn(seat, state_id, "no more moves to hint at", "a hint is for the seat to move",
                         "ask for a hint on the latest state")
        if self.hint_task is not None and not self.hint_task.done():
            raise WebError(protocol.HINT_BUSY, "a hint for this table is still being worked out (at most "
                           f"{self.tables.bots.deadline:g} s): wait for it, then ask again")
        self.hint_task = asyncio.get_running_loop().create_task(self._hint(conn, seat), name=f"hint-{self.id}")

    async def _hint(self, conn: Connection, seat: int) -> None:
        """Think the hint in a worker (a seed of its own: it tells nothing of the deal's), then
        tell the connection, if its seat is still to move in the same state (else it is stale
        and dropped: the client asks again)."""
        state_id, advisor = self.state_id, self.tables.advisor
        job = Job.of(self.state, seat, advisor, secrets.randbits(SEED_BITS), advice=True)
        try:
            notation, reason = await self.tables.bots.advise(f"{self.id} hint", job, self.group)
            action = self.game.parse_action(self.state, notation) if self.state_id == state_id else None
        except (BotFailed, ParlourError) as err:
            log.warning("table %s: the hint for seat %s failed: %s", self.id, seat, err)
            failed = WebError(protocol.HINT_FAILED, f"no hint came ({err}); ask again, or play on without one")
            conn.send(error_message(failed, self.state_id))
            return
        if action is not None and conn in self.subscribers:
            conn.send({"type": "hint", "state_id": state_id, "seat": seat, "action": str(action), "reason": reason,
                       "by": self.tables.advisor_spec})

    def commit(self, seat: int, action: Any) -> None:
        """Apply a legal action on a copy, store it, then make it the state and tell everyone.
        The table stops once it holds ``max_actions`` actions (end ``action_limit``)."""
        after = self.state.clone()
        after.apply(action)
        notation = str(action)
        n = self.state_id + 1
        stopped = n >= self.tables.limits.max_actions and not after.is_terminal()
        status = "finished" if after.is_terminal() else STOPPED if stopped else "playing"
        end = ACTION_LIMIT if stopped else after.end_reason
        self.tables.storage.add_action(self.id, n, seat, notation, status=status, end_reason=end)
        self.state, self.stopped = after, stopped
        self.log.append({"n": n, "seat": seat, "action": notation})
        if self.over:
            self.tables.finished(self)
        try:
            self._announce(f"action {n} ({notation}) was made")
        finally:
            self.wake_bots()
        if self.over:  # after the action is told: a failure here is the store's, not the action's
            try:
                self.tables.keep_finished()
            except Exception:
                log.exception("table %s: the finished tables past keep_finished could not be deleted", self.id)

    def _announce(self, done: str) -> None:
        """Tell everyone the new state of a change already stored (``done`` says what it was):
        whatever happens now the change stands, and the clients are not told otherwise."""
        try:
            self.broadcast()
        except Exception:
            log.exception("table %s: %s and stored, but could not be sent to every subscriber", self.id, done)
            failed = WebError(protocol.SERVER_ERROR, f"{done}, but the server could not send the new state: "
                              "reload the page to see it", 500)
            for conn in list(self.subscribers):
                conn.send(protocol.error_message(failed, self.state_id))

    def undo(self, seat: int | None, state_id: int) -> None:
        """Take back the last action at a table of one seat whose game goes on (the terminal's
        solitaire ``undo``): its row leaves the store in the transaction that stores the undo,
        so the record, the replay and a restart hold only the line finally played. The state
        is rebuilt from the seed and the actions left (chance derives from the seed and the
        state, so the same line deals the same cards again): at most ``max_actions`` of them.
        Raises WebError (and changes nothing) when refused."""
        self._check_undo(seat, state_id)
        n = self.state_id
        state = self.game.new_state(self.stored.seed)
        for entry in self.log[:-1]:
            state.apply(entry["action"])
        self.tables.storage.remove_action(self.id, n, status="playing" if n > 1 else "waiting")
        self.state = state
        taken_back = self.log.pop()["action"]
        self._announce(f"action {n} ({taken_back}) was taken back")

    def _check_undo(self, seat: int | None, state_id: int) -> None:
        """Refuse an undo by a spectator, at a table of several seats, once the game is over,
        on a stale state or before any action."""
        if seat is None:
            raise WebError(protocol.NOT_YOUR_TURN, "spectators cannot undo: only the player of a one-seat table can")
        self._check_open()
        if len(self.seats) > 1:
            raise WebError(protocol.NO_UNDO, f"undo is only at a table of one seat (a solitaire): this one has "
                           f"{len(self.seats)}, and the others have seen your move")
        if self.over:
            raise WebError(protocol.FINISHED, f"the game is over ({self.end_reason}): nothing can be taken back")
        if state_id != self.state_id:
            raise WebError(protocol.STALE, f"state_id {state_id} is not the current one ({self.state_id}): undo "
                           "takes back the last action of the latest state")
        if not self.log:
            raise WebError(protocol.NOTHING_TO_UNDO, "no action has been made at this table yet: nothing to take back")

    def broadcast(self) -> None:
        """Send each subscriber its state message (built once per seat, with or without text)."""
        built: dict[tuple[int | None, bool], str] = {}
        for conn in list(self.subscribers):
            key = (conn.seat, conn.text)
            if key not in built:
                built[key] = json.dumps(self.state_message(*key))
            conn.send(built[key])

    def join(self, conn: Connection, token: str | None, secret: str | None, log_from: int | None = None) -> None:
        """Seat a connection by its invite ``token`` and/or claim ``secret`` (both None: a
        spectator; see :func:`parlour.web.seats.admit`) and subscribe it. The first join with
        an unclaimed seat's invite claims it: the new secret is stored (hashed) before it is
        sent in ``joined``. Everyone is told (the connection counts changed). Raises WebError
        (``bad_token``, ``seat_claimed``, ``table_full``, ``table_closed``); nothing changes then.
        With ``log_from`` the log from that action on comes first, in pages, before the state."""
        self._check_open()
        seat, claims = admit(self.seats, token, secret)
        self._check_room(seat)
        self.tables.check_watched(self)
        self.tables.adopt(self)
        made = None
        if claims:
            made = new_secret()
            self._store_hashes(seat, claim=token_hash(made))
        conn.seat, conn.joined = seat, True
        self.subscribers.add(conn)
        self.seen = datetime.now(timezone.utc)
        conn.send({"type": "joined", "seat": seat, "secret": made, "table": self.summary()})
        if log_from is not None:
            for start in range(log_from, self.state_id + 1, self.tables.limits.log_page):
                conn.send(self.log_page(start))
        self.broadcast()

    def _check_room(self, seat: int | None) -> None:
        """Refuse a join past ``Limits.max_subscribers`` sockets. A seat's first socket may use
        the room kept for it; a spectator or a further tab must leave one socket free for each
        person not connected, so that watchers can never keep a player out."""
        limit = self.tables.limits.max_subscribers
        first = seat is not None and not self.connected(seat)
        kept = 0 if first else sum(1 for s in self.seats if not self.connected(s.seat))
        if len(self.subscribers) + kept >= limit:
            kept_text = f", {kept} of them kept for the people not connected" if kept else ""
            raise WebError(protocol.TABLE_FULL, f"this table has {len(self.subscribers)} connections; it takes at most "
                           f"{limit}{kept_text}: close a tab you do not need, or try again later", 503)

    def leave(self, conn: Connection) -> None:
        if conn not in self.subscribers:
            return
        self.subscribers.discard(conn)
        self.broadcast()

    # -- the creator's ----------------------------------------------------------------------
    def check_admin(self, admin: str | None, what: str) -> None:
        """Refuse (403) unless ``admin`` is this table's creator secret."""
        check_admin(self.stored.admin_hash, admin, what)

    def human_seat(self, seat: str) -> Seat:
        """The human seat numbered ``seat`` (text, as in a path); WebError 404 or 409 otherwise."""
        number = int(seat) if seat.isascii() and seat.isdecimal() and len(seat) < 4 else None  # not "٠"
        if number is None or number >= len(self.seats):
            raise WebError(protocol.UNKNOWN_SEAT, f"there is no seat {seat[:20]!r} at this table: its seats are "
                           f"0..{len(self.seats) - 1}", 404)
        if self.seats[number].kind != HUMAN:
            raise WebError(protocol.AGENT_SEAT, f"{self.seats[number].label} is a bot ({self.seats[number].spec}): it "
                           "has no invite; only a person's seat has one", 409)
        return self.seats[number]

    def reissue(self, seat: Seat) -> str:
        """A new invite for ``seat`` (returned; stored hashed): the old invite and the old claim
        end, and the sockets that held the seat by it are told so and closed (4005)."""
        self._check_open()
        invite = new_secret()
        self._store_hashes(seat.seat, invite=token_hash(invite), claim=None)
        ended = WebError(protocol.SEAT_REISSUED, f"the table's creator re-issued the invite of {seat.label}: this "
                         "browser no longer holds the seat. Watch with the table's link, or ask the creator for the "
                         "new invite link", seat=seat.seat)
        for conn in [c for c in self.subscribers if c.seat == seat.seat]:
            self.subscribers.discard(conn)
            conn.send(error_message(ended, self.state_id))
            conn.close(protocol.CLOSE_SEAT_REISSUED)
        self.broadcast()
        return invite

    def close(self, why: str = CREATOR_CLOSED) -> None:
        """Close the table for good (``why``: its creator deleted it, or the server; the store
        forgot it first): its bots stop and every socket on it is told so and closed (4006)."""
        self.closed = why
        self.cancel_bots()
        if self.hint_task is not None:
            self.hint_task.cancel()
        gone = WebError(protocol.TABLE_CLOSED, f"{why}: it is gone from this server, with its game and record; "
                        "the lobby at / lists the open tables")
        for conn in self.subscribers:
            conn.send(error_message(gone, self.state_id))
            conn.close(protocol.CLOSE_TABLE_CLOSED)
        self.subscribers.clear()

    def _check_open(self) -> None:
        if self.closed:
            raise WebError(protocol.TABLE_CLOSED, f"{self.closed}: it takes nothing more", 410)

    def _store_hashes(self, seat: int, **changed: str | None) -> None:
        """Store a seat's new ``invite`` and/or ``claim`` hash, then take it (nothing changes if the store fails)."""
        invites = [s.token_hash for s in self.seats]
        claims = [s.claim_hash for s in self.seats]
        if "invite" in changed:
            invites[seat] = changed["invite"]
        if "claim" in changed:
            claims[seat] = changed["claim"]
        self.tables.storage.set_seat_hashes(self.id, invites, claims)
        self.seats[seat].token_hash, self.seats[seat].claim_hash = invites[seat], claims[seat]
        self.stored.token_hashes, self.stored.claim_hashes = invites, claims

    # -- bots -----------------------------------------------------------------------------
    def wake_bots(self) -> None:
        """Start the bot loop if an agent is to move and none is running."""
        seat = self.state.current_player
        if seat is None or self.stopped or self.closed or self.seats[seat].kind != AGENT:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.get_running_loop().create_task(self._bots(), name=f"bots-{self.id}")

    def cancel_bots(self) -> None:
        """Stop this table's bots now: a move queued or being thought is dropped (its worker
        process killed, a fresh one started when next needed); none is made until
        :meth:`wake_bots`. For a table being closed or deleted, and the server's shutdown."""
        if self.bot_task is not None:
            self.bot_task.cancel()

    async def _bots(self) -> None:
        while True:
            seat = self.state.current_player
            if seat is None or self.stopped or self.closed or self.seats[seat].kind != AGENT:
                return
            state_id = self.state_id
            if self.tables.bot_delay > 0:
                await asyncio.sleep(self.tables.bot_delay)
            action = await self._bot_move(seat)
            if self.state_id != state_id:  # cannot happen (only this seat may act), but never apply stale
                continue
            try:
                self.commit(seat, action)
            except Exception:  # the store failed (a full disk?): nothing changed; try again shortly
                log.exception("table %s: the move of seat %s could not be stored; retrying", self.id, seat)
                await asyncio.sleep(BOT_RETRY)
            await asyncio.sleep(0)

    async def _bot_move(self, seat: int) -> Action:
        """The bot's move, thought in a worker process (``web/bots.py``); when none comes (past
        the deadline, a dead worker, an agent's error or an illegal choice), a random legal
        move from the rng the bot had."""
        # The rng depends on the seed and the state id only: a restarted server plays the same.
        seed = derive_seed(self.stored.seed, self.state_id, "bot")
        job = Job.of(self.state, seat, self.seats[seat].agent, seed)
        try:
            notation = await self.tables.bots.think(self.id, job, self.group)
            return self.game.parse_action(self.state, notation)
        except BotFailed as err:
            why = str(err)
        except ParlourError as err:
            why = f"chose {notation!r}, which is not legal here ({err})"
        log.warning("table %s: the bot in seat %s %s; it plays a random legal move instead", self.id, seat, why)
        return RandomAgent().move(self.state, seat, random.Random(seed))


class Tables:
    """Every live table, the store behind them, the bots' pace and the server's limits."""

    def __init__(self, storage: Storage, bot_delay: float = 0.7, limits: Limits | None = None) -> None:
        self.storage, self.bot_delay = storage, bot_delay
        self.limits = limits or Limits()
        self.bots = BotPool(self.limits)
        self._catalogue: dict[str, Any] | None = None
        self.advisor_spec = ADVISOR
        self.advisor = self._capped(parlour.agent(ADVISOR))  # whose moves hints give, as it plays here
        self.replaying = asyncio.Semaphore(1)  # one replay page made at a time (Table.replay)
        self.live: dict[str, Table] = {}  # every table whose game goes on
        self.done: OrderedDict[str, Table] = OrderedDict()  # finished ones, least recently used first
        self._creators: OrderedDict[str, MessageRate] = OrderedDict()  # address -> its table-making rate
        self._loading: dict[str, asyncio.Future] = {}  # tables being rebuilt for a request or a socket

    def get(self, table_id: str) -> Table:
        """The live table, or a finished one (kept among the ``finished_cache`` last used, else
        loaded from the store); WebError 404 otherwise. On the event loop, :meth:`fetch`."""
        table = self._held(table_id)
        if table is not None:
            return table
        stored = self._stored(table_id)
        with _damaged(table_id):
            table = self._rebuild(stored)
        return self._placed(table)

    async def fetch(self, table_id: str) -> Table:
        """:meth:`get` for a request or a socket: a table not in memory is rebuilt
        ``REBUILD_CHUNK`` actions at a time, other tables' turns between (a long finished match
        never stalls the server), and requests for it meanwhile wait for that one rebuild."""
        table = self._held(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.ensure_future(self._load(table_id))
            loading.add_done_callback(lambda done: self._loaded(table_id, done))
        return await asyncio.shield(loading)

    def _loaded(self, table_id: str, done: asyncio.Future) -> None:
        self._loading.pop(table_id, None)
        if not done.cancelled():
            done.exception()  # retrieved: a failed load's error went to its waiters (if any are left)

    async def _load(self, table_id: str) -> Table:
        stored = self._stored(table_id)
        with _damaged(table_id):
            table = self._seated(stored)
            actions = self.storage.actions(stored.id)
            for start in range(0, len(actions), REBUILD_CHUNK):
                table.replay_stored(actions[start : start + REBUILD_CHUNK])
                await asyncio.sleep(0)
        self._stored(table_id)  # still there: the creator may have closed it meanwhile (404 then)
        return self._held(table_id) or self._placed(table)

    def _held(self, table_id: str) -> Table | None:
        """The table if it is in memory (a finished one becomes the most recently used)."""
        if not isinstance(table_id, str):
            return None
        table = self.live.get(table_id)
        if table is None and table_id in self.done:
            self.done.move_to_end(table_id)
            table = self.done[table_id]
        return table

    def _placed(self, table: Table) -> Table:
        """A table just rebuilt, among the live or the finished ones."""
        if table.over:
            self.finished(table)
        else:
            self.live[table.id] = table
        return table

    def catalogue(self) -> dict[str, Any]:
        """``GET /api/games``: every game with its options and the levels this server seats (those
        within its limits: a level is an agent like any other, refused over them)."""
        if self._catalogue is None:
            games = protocol.games_catalogue()
            for game in games["games"]:
                game["levels"] = [level for level in game["levels"]
                                  if over_budget(parlour.agent(level["spec"]).budget(), self.limits) is None]
            self._catalogue = games
        return self._catalogue

    def about(self) -> dict[str, Any]:
        """``GET /api/server``: what the server holds now, and the limits a client may meet."""
        held = [*self.live.values(), *self.done.values()]
        return {"tables": {"live": len(self.live), "finished_in_memory": len(self.done)},
                "connections": sum(len(t.subscribers) for t in held),
                "limits": self.limits.public()}

    def finished(self, table: Table) -> None:
        """Move a table whose game is over among the finished ones kept in memory (its sockets
        keep it as long as they are open)."""
        self.live.pop(table.id, None)
        self.done[table.id] = table
        self.done.move_to_end(table.id)
        # Least recently used first; never the table just come, which its caller is about to use
        # (a socket joining it must find it here, or a second copy would miss a re-issue or close).
        idle = [tid for tid, t in self.done.items() if not t.subscribers and tid != table.id]
        for table_id in idle[: max(0, len(self.done) - self.limits.finished_cache)]:
            del self.done[table_id]  # one held by sockets stays

    def adopt(self, table: Table) -> None:
        """A table a socket joins is the one the server holds: a finished one evicted since the
        socket fetched it goes back among the finished ones; if another copy came meanwhile,
        the join is refused (``server_busy``: connect again), never made to a second copy."""
        held = self._held(table.id)
        if held is None and table.over:
            self._stored(table.id)  # 404 unknown_table if it was deleted meanwhile (keep_finished)
            self.finished(table)
        elif held is not table:
            raise WebError(protocol.SERVER_BUSY, f"table {table.id} was loaded again meanwhile: connect again", 503)

    def check_watched(self, table: Table) -> None:
        """Refuse a first socket on a finished table while ``finished_cache`` others are held by
        sockets: what sockets keep in memory stays within the cache (503 ``server_busy``)."""
        if not table.over or table.subscribers:
            return
        watched = sum(1 for t in self.done.values() if t.subscribers)
        if watched >= self.limits.finished_cache:
            raise WebError(protocol.SERVER_BUSY, f"the server holds {watched} finished tables for their watchers, "
                           "its most: try again later (the record and the replay pages work meanwhile)", 503)

    def create(self, request: TableRequest, group: str | None = None) -> tuple[Table, list[str | None], str]:
        """A new table, each human seat's invite token and the creator's secret (shown once,
        stored only hashed)."""
        self.close_waiting()
        if len(self.live) >= self.limits.max_live_tables:
            raise WebError(protocol.TOO_MANY_TABLES, f"the server holds {len(self.live)} unfinished tables, its "
                           "limit: try again once some have finished", 503)
        game = _game_for(request, self.limits)
        seats: list[Seat] = []
        tokens: list[str | None] = []
        admin = new_secret()
        for i, (spec, name) in enumerate(zip(request.seats, request.names)):
            if spec.lower() == HUMAN:
                token = new_secret()
                tokens.append(token)
                seats.append(Seat(i, HUMAN, name or f"Player {i + 1}", token_hash=token_hash(token)))
            else:
                agent = _agent_for(spec, game, self.limits)
                tokens.append(None)
                seats.append(Seat(i, AGENT, name or agent.spec, spec=agent.spec, agent=self._capped(agent)))
        stored = StoredTable(
            id=self._new_id(), game=game.name, options=dict(game.options),
            seed=secrets.randbits(SEED_BITS),  # secret until the game ends (it fixes every shuffle)
            seats=[s.public() for s in seats], token_hashes=[s.token_hash for s in seats], created=now(),
            admin_hash=token_hash(admin), hints=request.hints,
        )
        self.storage.create_table(stored)
        table = self.live[stored.id] = Table(stored, game, seats, self)
        if group is not None:
            table.group = group
        table.wake_bots()
        return table, tokens, admin

    def create_from(self, address: str | None, request: TableRequest) -> tuple[Table, list[str | None], str]:
        """:meth:`create` for a client ``address``: at most ``Limits.tables_per_minute`` tables
        a minute from it (429 ``too_fast``); a request refused for another reason is not counted."""
        self.check_rate(address)
        try:  # one client's tables share one turn at the bots
            return self.create(request, None if address is None else f"address {address}")
        except WebError:
            if address in self._creators:
                self._creators[address].refund()
            raise

    def check_rate(self, address: str | None) -> None:
        """Refuse a table past ``Limits.tables_per_minute`` from one client address (429
        ``too_fast``); the addresses remembered are bounded (the longest silent go first)."""
        if address is None:
            return
        bucket = self._creators.pop(address, None) or MessageRate(self.limits.tables_per_minute / 60,
                                                                   max(1, int(self.limits.tables_per_minute)))
        self._creators[address] = bucket
        while len(self._creators) > REMEMBERED_ADDRESSES:
            self._creators.popitem(last=False)
        if not bucket.allow(time.monotonic()):
            raise WebError(protocol.TOO_FAST, f"more than {self.limits.tables_per_minute:g} tables a minute from "
                           "this address: try again in a while", 429)

    def close_waiting(self) -> None:
        """Close every unfinished table at which nobody has acted and nobody is joined since
        ``Limits.waiting_hours`` after it was made (a table made and left keeps no slot for
        ever): the creator's close, without the creator."""
        cutoff = datetime.now(timezone.utc) - timedelta(hours=self.limits.waiting_hours)
        stale = [t for t in self.live.values()
                 if t.state_id == 0 and not t.subscribers and max(moment(t.stored.created), t.seen) < cutoff]
        for table in stale:
            log.info("table %s closed: nobody acted at it or joined it for %g hours", table.id, self.limits.waiting_hours)
            self._remove(table.id, table, WAITED_TOO_LONG.format(hours=self.limits.waiting_hours))

    def delete(self, table_id: str, admin: str | None) -> None:
        """Close the table for good at its creator's request (``admin``: the creator's secret;
        403 otherwise): it leaves the store and memory, its sockets are closed. A damaged or
        an unloaded finished table is deleted without being rebuilt."""
        table = (self.live.get(table_id) or self.done.get(table_id)) if isinstance(table_id, str) else None
        stored = table.stored if table is not None else self._stored(table_id)
        check_admin(stored.admin_hash, admin, "close the table")
        self._remove(stored.id, table)

    def keep_finished(self) -> None:
        """Delete the tables over (finished or stopped) beyond the ``Limits.keep_finished`` that
        ended last, so that the store stays bounded; one that sockets watch stays until they go
        (it is deleted at a later game's end)."""
        for table_id in self.storage.over_beyond(self.limits.keep_finished):
            held = self._held(table_id)
            if held is None or not held.subscribers:
                self._remove(table_id, held, KEPT_FEWER.format(keep=self.limits.keep_finished))

    def _remove(self, table_id: str, table: Table | None, why: str = CREATOR_CLOSED) -> None:
        """A table out of the store and memory, its sockets closed and told ``why`` (``table``: it
        in memory, if it is)."""
        self.storage.delete_table(table_id)
        self.live.pop(table_id, None)
        self.done.pop(table_id, None)
        if table is not None:
            table.close(why)

    def restore(self) -> int:
        """Rebuild every unfinished table from the store and restart its bots; how many. (The
        finished ones past ``Limits.keep_finished`` go first.)"""
        self.keep_finished()
        count = 0
        for stored in self.storage.tables(finished=False):
            try:
                table = self._rebuild(stored)
            except (ParlourError, KeyError, TypeError) as err:  # a damaged row: keep serving the rest
                log.error("table %s cannot be rebuilt and is left out: %s", stored.id, err)
                continue
            self.live[stored.id] = table
            table.wake_bots()
            count += 1
        return count

    def listing(self, status: str | None) -> list[dict[str, Any]]:
        """The lobby: unfinished tables (``status`` None), or those of one status."""
        if status not in (None, "waiting", "playing", "finished", STOPPED):
            raise WebError(protocol.BAD_REQUEST, f"status {protocol.shown(status, self.limits.echo)} is not one of waiting, playing, "
                           "finished, stopped")
        over = status in ("finished", STOPPED)
        found = self.storage.tables(finished=over, newest=self.limits.list_page if over else None)
        counts = self.storage.action_counts([t.id for t in found]) if over else {}
        out = []
        for stored in found:
            try:
                if over and stored.id not in self.done:
                    summary = _stored_summary(stored, counts.get(stored.id, 0))  # no need to replay it
                else:
                    summary = self.get(stored.id).summary()
            except (WebError, ParlourError):
                continue
            if status is None or summary["status"] == status:
                out.append(summary)
        return out

    async def close(self) -> None:
        """Stop every bot at once (on shutdown): the moves being thought are dropped and every
        worker process killed; the tables continue after a restart."""
        held = [*self.live.values(), *self.done.values()]
        tasks = [task for t in held for task in (t.bot_task, t.hint_task) if task is not None and not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bots.close()

    def _stored(self, table_id: Any) -> StoredTable:
        """The stored row of a table; the 404 ``unknown_table`` WebError for any id that names none."""
        if not isinstance(table_id, str) or not protocol.TABLE_ID.match(table_id):
            raise protocol.unknown_table(str(table_id), self.limits.echo)
        stored = self.storage.table(table_id)
        if stored is None:
            raise protocol.unknown_table(table_id, self.limits.echo)
        return stored

    def _rebuild(self, stored: StoredTable) -> Table:
        table = self._seated(stored)
        table.replay_stored(self.storage.actions(stored.id))
        return table

    def _seated(self, stored: StoredTable) -> Table:
        """A stored table at its start: its game and seats (bots capped to this server's limits)."""
        game = parlour.load(stored.game, **stored.options)
        seats = []
        for i, (info, digest, claim) in enumerate(zip(stored.seats, stored.token_hashes, stored.claim_hashes)):
            agent = None
            if info["kind"] == AGENT:
                agent = parlour.agent(info["spec"])
                over = over_budget(agent.budget(), self.limits)
                agent = self._capped(agent)
                if over and stored.status not in ("finished", STOPPED):  # stored before the limits (or under larger ones)
                    log.warning("table %s seat %s: the agent %s is over this server's limits (%s); it plays as %s",
                                stored.id, i, info["spec"], over, agent.spec)
            seats.append(Seat(i, info["kind"], info["name"], info.get("spec"), digest, agent, claim))
        return Table(stored, game, seats, self)

    def _capped(self, agent: Agent) -> Agent:
        """The agent as it plays here: within the think limit and the iteration cap."""
        return agent.capped(self.limits.think_seconds, self.limits.max_iterations)

    def _new_id(self) -> str:
        while True:
            table_id = secrets.token_urlsafe(6)  # 8 characters of [A-Za-z0-9_-]
            if table_id not in self.live and self.storage.table(table_id) is None:
                return table_id


def _stored_summary(stored: StoredTable, actions: int) -> dict[str, Any]:
    """The summary of a finished table that is not loaded (what ``Table.summary`` gives,
    without replaying the game: nobody is connected to it)."""
    return {
        "id": stored.id,
        "game": stored.game,
        "title": parlour.load(stored.game, **stored.options).title,
        "options": stored.options,
        "status": stored.status,
        "seats": [{"seat": i, "kind": s["kind"], "name": s["name"], "spec": s.get("spec"), "connected": s["kind"] == AGENT,
                   "connections": 0} for i, s in enumerate(stored.seats)],
        "spectators": 0,
        "created": stored.created,
        "actions": actions,
        "current_player": None,
        "end": stored.end_reason,
        "hints": stored.hints,
    }


@contextlib.contextmanager
def _damaged(table_id: str) -> Iterator[None]:
    """A stored table whose rebuild fails is damaged (500 ``damaged_table``); the others stand."""
    try:
        yield
    except (ParlourError, KeyError, TypeError) as err:
        raise WebError(protocol.DAMAGED_TABLE, f"table {table_id} cannot be rebuilt from its stored "
                       f"actions ({err}); the other tables are not affected", 500) from None


def _game_for(request: TableRequest, limits: Limits) -> Game:
    """The game with its options; the number of seats sets ``players`` where the game has it.
    Options a game leaves unbounded are bounded at a table, so that every table's game ends."""
    try:
        game = load_seated(request.game, request.options, len(request.seats))
    except OptionError as err:
        raise WebError(protocol.BAD_OPTION, str(err), 422) from None
    for name, value in game.options.items():
        maximum = limits.option_maximum(game.name, name)
        if maximum is not None and isinstance(value, int) and value > maximum:
            raise WebError(protocol.BAD_OPTION, f"{game.name} option {name}={value} is more than a table takes: "
                           f"at most {maximum} here (the engine itself has no bound: parlour play takes more)", 422)
    return game


def _agent_for(spec: str, game: Game, limits: Limits) -> Agent:
    try:
        agent = parlour.agent(spec)
    except OptionError as err:
        raise WebError(protocol.BAD_AGENT, f"seat {protocol.shown(spec, limits.echo)}: {err}; a seat may also be \"human\" "
                       "(a person)", 422) from None
    if agent.cheats:
        raise WebError(protocol.CHEATING_AGENT, f"{agent.spec} sees the hidden cards (it is for analysis only): "
                       "it cannot sit at a table; choose a level (level:casual, level:strong, ...) or random, "
                       "heuristic or ismcts", 422)
    if agent.reads_files:
        raise WebError(protocol.BAD_AGENT, f"seat {protocol.shown(spec, limits.echo)}: the {agent.name} agent reads a "
                       "file on the server, which a table does not let a seat name; choose a level (level:casual, "
                       "level:strong, ...) or random, heuristic or ismcts", 422)
    over = over_budget(agent.budget(), limits)
    if over:
        raise WebError(protocol.BAD_AGENT, f"seat {protocol.shown(spec, limits.echo)}: {over}", 422)
    try:
        agent.check(game)
    except OptionError as err:
        raise WebError(protocol.BAD_AGENT, str(err), 422) from None
    return agent


def over_budget(budget: Budget, limits: Limits) -> str | None:
    """What in an agent's budget is over ``limits`` (None: nothing), said for the client.

    >>> over_budget(Budget(seconds=3600.0), Limits())
    'it thinks 3600 s per decision, over the think limit of this server: a bot may think at most 5 s per decision (time 0 to 5)'
    >>> over_budget(Budget(iterations=1000), Limits()) is None
    True
    """
    think, most = limits.think_seconds, limits.max_iterations
    if not budget.bounded:
        return (f"it sets no bound on its thinking: a bot here must think at most {think:g} s and {most} "
                "iterations per decision")
    if budget.seconds is not None and budget.seconds > think:
        return (f"it thinks {budget.seconds:g} s per decision, over the think limit of this server: a bot may "
                f"think at most {think:g} s per decision (time 0 to {think:g})")
    if budget.iterations is not None and budget.iterations > most:
        return (f"it searches {budget.iterations} iterations per decision, over the iteration limit of this "
                f"server: a bot may search at most {most} per decision (iterations 1 to {most})")
    return None
