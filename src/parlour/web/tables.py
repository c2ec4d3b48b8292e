"""Live tables: the authoritative state of each game, its seats, bots and subscribers.

The server holds the state; a client only ever receives ``observation(seat)`` (a
spectator the public ``observation(None)``), the notation log (public in every game)
and, to the seat to move, its legal actions. Each action is checked by the engine,
committed to the store, and only then told to the subscribers. Runs on one asyncio
event loop: nothing here blocks but the short SQLite commits; bots think in worker
processes (``web/bots.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
import random
import re
import secrets
from dataclasses import dataclass, field
from typing import Any

import parlour
from parlour.agents import Agent, Budget
from parlour.agents.random_agent import RandomAgent
from parlour.core.action import Action
from parlour.core.chance import SEED_BITS, derive_seed
from parlour.core.errors import IllegalAction, NotationError, OptionError, ParlourError
from parlour.core.game import Game, State
from parlour.core.registry import load_seated
from parlour.web import protocol
from parlour.web.bots import BotFailed, BotPool, Job
from parlour.web.limits import Limits
from parlour.web.protocol import TableRequest, WebError
from parlour.web.storage import Storage, StoredTable, now

log = logging.getLogger("parlour.web")

HUMAN, AGENT = "human", "agent"
BOT_RETRY = 1.0  # seconds before a bot tries again when its move could not be stored


def token_hash(token: str) -> str:
    """How a seat token is stored: its SHA-256, in hex.

    >>> token_hash("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode()).hexdigest()


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


@dataclass
class Seat:
    """One seat: a human (holding a token, stored hashed) or an agent."""

    seat: int
    kind: str
    name: str
    spec: str | None = None
    token_hash: str | None = None
    agent: Agent | None = None  # as it plays here: capped to the limits

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind, "name": self.name, "spec": self.spec}


CLOSE = "close"  # an outbox entry (CLOSE, code): close the socket after what was queued before
MAX_OUTBOX = 2000  # messages a client may fall behind by before it is dropped
CLOSE_TOO_SLOW = 4008


@dataclass(eq=False)
class Connection:
    """One websocket's subscription: its seat (None: spectator) and an outbox that a
    writer task drains, so that a slow client never holds up a table. A client that
    reads nothing while ``MAX_OUTBOX`` messages pile up is closed (4008); it may rejoin."""

    seat: int | None = None
    joined: bool = False
    outbox: asyncio.Queue = field(default_factory=asyncio.Queue)
    closing: bool = False

    def send(self, message: dict[str, Any] | str) -> None:
        if self.closing:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
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
        self.bot_task: asyncio.Task | None = None

    # -- facts ----------------------------------------------------------------------------
    @property
    def state_id(self) -> int:
        """The number of actions applied: the id a client quotes when it acts."""
        return len(self.log)

    @property
    def status(self) -> str:
        if self.state.is_terminal():
            return "finished"
        return "playing" if self.log else "waiting"

    def connected(self, seat: int) -> bool:
        """An agent is always there; a human seat while any socket holds its token."""
        if self.seats[seat].kind == AGENT:
            return True
        return any(c.seat == seat for c in self.subscribers)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is; None when it is no seat's (compared in constant time)."""
        digest = token_hash(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = seat.seat
        return found

    def summary(self) -> dict[str, Any]:
        """The lobby's entry for this table (public: no token, no seed before the end)."""
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "options": dict(self.game.options),
            "status": self.status,
            "seats": [{**s.public(), "connected": self.connected(s.seat)} for s in self.seats],
            "created": self.stored.created,
            "actions": self.state_id,
            "current_player": self.state.current_player,
            "end": self.state.end_reason,
        }

    def state_message(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) is told of the table now."""
        state = self.state
        observation = state.observation(seat)
        over = state.is_terminal()
        return {
            "type": "state",
            "state_id": self.state_id,
            "seat": seat,
            "current_player": state.current_player,
            "observation": observation,
            "text": plain_text(self.game.render(observation)),
            "legal": [str(a) for a in state.legal_actions()] if seat is not None and seat == state.current_player else [],
            "log": self.log,
            "players": [{"seat": s.seat, "name": s.name, "kind": s.kind, "connected": self.connected(s.seat)}
                        for s in self.seats],
            "scores": state.scores(),
            "winners": state.winners() if over else [],
            "end": state.end_reason,
            "breakdown": self.game.breakdown(state.observation(None)) if over else None,
        }

    def record(self) -> dict[str, Any]:
        """The engine's game record, seed included: only once the game is over."""
        self._check_finished("record")
        return self.state.record(self.names())

    def replay(self, seat: int | None) -> dict[str, Any]:
        """Every step of a finished game as ``seat`` (None: a spectator) saw it, rebuilt
        from the record (so the replay is checked by the engine as it is built)."""
        self._check_finished("replay")
        if seat is not None and not 0 <= seat < len(self.seats):
            raise WebError(protocol.BAD_REQUEST, f"seat {seat} does not exist: this table has seats 0..{len(self.seats) - 1}")
        state = self.game.new_state(self.stored.seed)
        steps = [self._step(state, 0, None, None, seat)]
        for entry in self.log:
            state.apply(entry["action"])
            steps.append(self._step(state, entry["n"], entry["seat"], entry["action"], seat))
        return {"id": self.id, "game": self.game.name, "seat": seat, "players": self.names(), "steps": steps,
                "scores": self.state.scores(), "winners": self.state.winners(), "end": self.state.end_reason,
                "breakdown": self.game.breakdown(self.state.observation(None))}

    def _step(self, state: State, n: int, by: int | None, action: str | None, seat: int | None) -> dict[str, Any]:
        observation = state.observation(seat)
        return {"n": n, "seat": by, "action": action, "observation": observation,
                "text": plain_text(self.game.render(observation))}

    def _check_finished(self, what: str) -> None:
        if not self.state.is_terminal():
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
        if self.state.is_terminal():
            raise WebError(protocol.FINISHED, f"the game is over ({self.state.end_reason}): no more actions")
        player = self.state.player  # the game goes on, so someone is to move
        if seat != player:
            raise WebError(protocol.NOT_YOUR_TURN, f"it is seat {player}'s turn ({self.seats[player].name}), "
                           f"not yours (seat {seat}): wait for your turn")
        if state_id != self.state_id:
            raise WebError(protocol.STALE, f"state_id {state_id} is not the current one ({self.state_id}): the table "
                           "changed since you looked; act on the latest state")
        try:
            action = self.game.parse_action(self.state, text)
        except NotationError as err:
            raise WebError(protocol.NOTATION, str(err)) from None
        except IllegalAction as err:
            raise WebError(protocol.ILLEGAL, str(err)) from None
        self.commit(seat, action)

    def commit(self, seat: int, action: Any) -> None:
        """Apply a legal action on a copy, store it, then make it the state and tell everyone."""
        after = self.state.clone()
        after.apply(action)
        notation = str(action)
        n = self.state_id + 1
        status = "finished" if after.is_terminal() else "playing"
        self.tables.storage.add_action(self.id, n, seat, notation, status=status, end_reason=after.end_reason)
        self.state = after
        self.log = [*self.log, {"n": n, "seat": seat, "action": notation}]
        self.broadcast()
        self.wake_bots()

    def broadcast(self) -> None:
        """Send each subscriber its state message (built once per seat)."""
        built: dict[int | None, str] = {}
        for conn in list(self.subscribers):
            if conn.seat not in built:
                built[conn.seat] = json.dumps(self.state_message(conn.seat))
            conn.send(built[conn.seat])

    def join(self, conn: Connection) -> None:
        """Subscribe a joined connection; everyone hears when a seat comes online."""
        was = conn.seat is not None and self.connected(conn.seat)
        self.subscribers.add(conn)
        conn.send({"type": "joined", "seat": conn.seat, "table": self.summary()})
        if conn.seat is not None and not was:
            self.broadcast()
        else:
            conn.send(self.state_message(conn.seat))

    def leave(self, conn: Connection) -> None:
        if conn not in self.subscribers:
            return
        self.subscribers.discard(conn)
        if conn.seat is not None and not self.connected(conn.seat):
            self.broadcast()

    # -- bots -----------------------------------------------------------------------------
    def wake_bots(self) -> None:
        """Start the bot loop if an agent is to move and none is running."""
        seat = self.state.current_player
        if seat is None or self.seats[seat].kind != AGENT:
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
            if seat is None or self.seats[seat].kind != AGENT:
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
            notation = await self.tables.bots.think(self.id, job)
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
        self.live: dict[str, Table] = {}

    def get(self, table_id: str) -> Table:
        """The live table, or a finished one loaded from the store; WebError 404 otherwise."""
        if not isinstance(table_id, str) or not protocol.TABLE_ID.match(table_id):
            raise protocol.unknown_table(str(table_id))
        table = self.live.get(table_id)
        if table is None:
            stored = self.storage.table(table_id)
            if stored is None:
                raise protocol.unknown_table(table_id)
            try:
                table = self._rebuild(stored)
            except (ParlourError, KeyError, TypeError) as err:
                raise WebError(protocol.DAMAGED_TABLE, f"table {table_id} cannot be rebuilt from its stored "
                               f"actions ({err}); the other tables are not affected", 500) from None
            self.live[table_id] = table
        return table

    def create(self, request: TableRequest) -> tuple[Table, list[str | None]]:
        """A new table and each human seat's token (shown once, stored only hashed)."""
        game = _game_for(request)
        seats: list[Seat] = []
        tokens: list[str | None] = []
        for i, (spec, name) in enumerate(zip(request.seats, request.names)):
            if spec.lower() == HUMAN:
                token = secrets.token_urlsafe(24)
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
        )
        self.storage.create_table(stored)
        table = self.live[stored.id] = Table(stored, game, seats, self)
        table.wake_bots()
        return table, tokens

    def restore(self) -> int:
        """Rebuild every unfinished table from the store and restart its bots; how many."""
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
        if status not in (None, "waiting", "playing", "finished"):
            raise WebError(protocol.BAD_REQUEST, f"status {status!r} is not one of waiting, playing, finished")
        found = self.storage.tables(finished=status == "finished")
        counts = self.storage.action_counts() if status == "finished" else {}
        out = []
        for stored in found:
            try:
                if stored.status == "finished" and stored.id not in self.live:
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
        tasks = [t.bot_task for t in self.live.values() if t.bot_task and not t.bot_task.done()]
        for table in self.live.values():
            table.cancel_bots()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.bots.close()

    def _rebuild(self, stored: StoredTable) -> Table:
        game = parlour.load(stored.game, **stored.options)
        seats = []
        for i, (info, digest) in enumerate(zip(stored.seats, stored.token_hashes)):
            agent = None
            if info["kind"] == AGENT:
                agent = parlour.agent(info["spec"])
                over = over_budget(agent.budget(), self.limits)
                agent = self._capped(agent)
                if over and stored.status != "finished":  # stored before the limits (or under larger ones)
                    log.warning("table %s seat %s: the agent %s is over this server's limits (%s); it plays as %s",
                                stored.id, i, info["spec"], over, agent.spec)
            seats.append(Seat(i, info["kind"], info["name"], info.get("spec"), digest, agent))
        table = Table(stored, game, seats, self)
        table.replay_stored(self.storage.actions(stored.id))
        return table

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
        "status": "finished",
        "seats": [{"seat": i, "kind": s["kind"], "name": s["name"], "spec": s.get("spec"), "connected": s["kind"] == AGENT}
                  for i, s in enumerate(stored.seats)],
        "created": stored.created,
        "actions": actions,
        "current_player": None,
        "end": stored.end_reason,
    }


def _game_for(request: TableRequest) -> Game:
    """The game with its options; the number of seats sets ``players`` where the game has it."""
    try:
        return load_seated(request.game, request.options, len(request.seats))
    except OptionError as err:
        raise WebError(protocol.BAD_OPTION, str(err), 422) from None


def _agent_for(spec: str, game: Game, limits: Limits) -> Agent:
    try:
        agent = parlour.agent(spec)
    except OptionError as err:
        raise WebError(protocol.BAD_AGENT, f"seat {spec!r}: {err}; a seat may also be \"human\" (a person)", 422) from None
    if agent.cheats:
        raise WebError(protocol.CHEATING_AGENT, f"{agent.spec} sees the hidden cards (it is for analysis only): "
                       "it cannot sit at a table; choose random, heuristic or ismcts", 422)
    over = over_budget(agent.budget(), limits)
    if over:
        raise WebError(protocol.BAD_AGENT, f"seat {spec!r}: {over}", 422)
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
