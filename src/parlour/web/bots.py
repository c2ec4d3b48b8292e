"""Where the web table's bots think: a bounded pool of worker processes, fair across tables,
with a deadline on every move.

A table hands :meth:`BotPool.think` a :class:`Job` (small and picklable: the game and its
options, the position, the seat, the agent's class and settings, the rng seed) and gets back
the notation of the chosen action, which it parses and commits itself. A hint is a job of
``advice``: :meth:`BotPool.advise` gives back the notation and the agent's reason, which the
table shows to the seat that asked (it commits nothing). The search runs in
another process, so CPU-bound thinking never holds up the event loop or other tables through
the GIL.

- **Bounded.** At most ``Limits.bot_workers`` processes, each started when first needed: a
  fresh interpreter (``python -c``, fork and exec: safe in a process with threads; unlike
  multiprocessing's ``spawn`` it never runs the server's main module again), given the
  server's ``sys.path``, held to ``Limits.worker_memory`` bytes of address space
  (``RLIMIT_AS``, where the system has it) and, on Linux, killed by the kernel if the server
  dies (``PR_SET_PDEATHSIG``), so no bot outlives its server.
- **Fair (round robin).** Jobs wait for a free worker in turn by *group* (the client address
  that made the table: one client's many tables count as one), first come first served within
  a group, and each table has at most one job queued or running: a table that wants another
  move queues behind every group that was waiting before it, so neither one table's bots nor
  one client's tables can hold the pool.
- **A deadline.** A job not answered ``think_seconds + deadline_grace`` after it was handed
  over has its worker killed (a fresh one is started when next needed) and :class:`BotFailed`
  raised: the table plays a random legal move instead. So for a worker that dies (out of its
  memory, a crash) and an agent that raises.
- **Cancellation.** Cancelling the task that awaits :meth:`BotPool.think` takes its job out of
  the queue, or kills the worker thinking on it. :meth:`BotPool.close` kills every worker at
  once (the server's shutdown).

The worker process itself runs :func:`think`:

>>> import parlour, random
>>> state = parlour.load("quisquilian").new_state(seed=3)
>>> seat = state.current_player
>>> job = Job.of(state, seat, parlour.agent("heuristic"), seed=9)
>>> think(job) == str(parlour.agent("heuristic").move(state, seat, random.Random(9)))
True
>>> advise(Job.of(state, seat, parlour.agent("heuristic"), seed=9, advice=True)) == (think(job), None)
True
"""

from __future__ import annotations

import asyncio
import ctypes
import multiprocessing
import os
import pickle
import random
import signal
import subprocess
import sys
import traceback
from collections import OrderedDict, deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import parlour
from parlour.agents import Agent, agent_class, agent_names
from parlour.core.game import State
from parlour.web.limits import Limits

#: How a worker process starts: the fd of its end of the pipe follows.
WORKER = "from parlour.web.bots import work; work()"
START_TIMEOUT = 60.0  # seconds a new worker may take to start (import parlour) before it counts as dead
KILL_WAIT = 2.0  # seconds to wait for a killed worker to be gone
READY, OK, FAILED = "ready", "ok", "failed"
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


class BotFailed(Exception):
    """A bot's move did not come: past its deadline, its worker died, or the agent raised."""


@dataclass(frozen=True)
class Job:
    """One decision to make: all a worker needs to rebuild the state and the agent."""

    game: str
    options: dict[str, Any]
    position: dict[str, Any]
    seat: int
    agent: type[Agent]  # pickled by reference (module and name): the worker imports it
    settings: dict[str, Any]
    seed: int
    advice: bool = False  # a hint: the move and its reason (see :func:`advise`)

    @classmethod
    def of(cls, state: State, seat: int, agent: Agent, seed: int, advice: bool = False) -> Job:
        return cls(state.game.name, dict(state.game.options), state.to_position(), seat, type(agent),
                   dict(agent.settings), seed, advice)


def think(job: Job) -> str:
    """The notation of the agent's move in the job's position (with ``random.Random(seed)``).
    The agent is made afresh for every decision: nothing is kept between moves."""
    state, agent = _rebuilt(job)
    return str(agent.move(state, job.seat, random.Random(job.seed)))


def advise(job: Job) -> tuple[str, str | None]:
    """The notation and the reason of the agent's advice for the job's seat, from that seat's
    view only (a hint: the agent is fair, so it is handed the view, never the state)."""
    state, agent = _rebuilt(job)
    if agent.cheats:
        raise ValueError(f"{agent.spec} sees the hidden cards: it gives no hints")
    advice = agent.advise(state.view(job.seat), random.Random(job.seed))
    return str(advice.action), advice.reason


def _rebuilt(job: Job) -> tuple[State, Agent]:
    return parlour.load(job.game, **job.options).from_position(job.position), job.agent(**job.settings)


# -- the worker process ---------------------------------------------------------------------
def work() -> None:
    """A worker process (``python -c WORKER FD``): answer jobs, one at a time, until the server
    closes the pipe."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the whole group: the server stops its workers
    conn = Connection(int(sys.argv[1]))
    setup = conn.recv()
    sys.path[:] = setup["path"]  # the server's: a job's agent class is imported from it
    _die_with(setup["server"])
    _limit_memory(setup["memory"])
    for name in agent_names():  # imported now, not in the first move's time
        agent_class(name)
    conn.send(READY)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):
            return  # the server has gone
        try:
            job = pickle.loads(data)
            reply = (OK, advise(job) if job.advice else think(job))
        except MemoryError:
            reply = (FAILED, f"ran out of memory (a worker may hold {setup['memory']:,} bytes)")
        except Exception:  # an agent's bug: say what it was
            reply = (FAILED, traceback.format_exc())
        try:
            conn.send(reply)
        except OSError:
            return  # the server has gone
        if reply[0] == FAILED:
            return  # the server replaces a worker that failed


def _die_with(server: int) -> None:
    """On Linux, have the kernel kill this worker when the server dies, even by SIGKILL (or
    rather when the server's thread that started it ends: the one running the event loop)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # no prctl here: the worker ends at its next job instead
        return
    if os.getppid() != server:  # the server died before that took hold
        os._exit(0)


def _limit_memory(memory: int) -> None:
    try:
        import resource
    except ImportError:  # not on this system (Windows): no cap
        return
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = memory if hard == resource.RLIM_INFINITY else min(memory, hard)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):  # a system that will not take it (macOS): no cap
        pass


# -- the server's side ------------------------------------------------------------------------
class WorkerDied(Exception):
    pass


class Worker:
    """One worker process and the pipe to it."""

    def __init__(self, memory: int) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.process = subprocess.Popen([sys.executable, "-c", WORKER, str(child.fileno())], pass_fds=[child.fileno()],
                                        stdin=subprocess.DEVNULL)
        child.close()  # the worker holds the only other end: its death reads as the end of the pipe
        self.conn.send({"path": sys.path, "server": os.getpid(), "memory": memory})

    @property
    def pid(self) -> int:
        return self.process.pid

    def send(self, job: Job) -> None:
        try:
            self.conn.send_bytes(pickle.dumps(job))
        except OSError as err:  # a broken pipe: the worker is gone
            raise WorkerDied(self._death()) from err

    async def receive(self, timeout: float) -> Any:
        """The worker's next message; TimeoutError after ``timeout`` seconds, WorkerDied if it ends."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()
        fd = self.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if answer.done():
                return
            try:
                answer.set_result(self.conn.recv())
            except (EOFError, OSError):
                answer.set_exception(WorkerDied(self._death()))

        loop.add_reader(fd, readable)
        try:
            return await asyncio.wait_for(answer, timeout)
        finally:
            loop.remove_reader(fd)

    def alive(self) -> bool:
        return self.process.poll() is None

    def _death(self) -> str:
        self._wait()
        return f"its worker process died (exit code {self.process.returncode})"

    def kill(self) -> None:
        """Stop the process now (SIGKILL); :meth:`close` waits for it to be gone."""
        if self.alive():
            self.process.kill()

    def close(self) -> None:
        self.kill()
        self._wait()
        self.conn.close()

    def _wait(self) -> None:
        try:
            self.process.wait(KILL_WAIT)
        except subprocess.TimeoutExpired:  # not gone yet: reaped by a later poll, or by init
            pass


class BotPool:
    """At most ``limits.bot_workers`` worker processes, shared fairly by every table.

    >>> BotPool(Limits(bot_workers=0))
    Traceback (most recent call last):
    ...
    ValueError: bot_workers is 0: the bots need at least one worker process
    """

    def __init__(self, limits: Limits) -> None:
        if limits.bot_workers < 1:
            raise ValueError(f"bot_workers is {limits.bot_workers}: the bots need at least one worker process")
        self.limits = limits
        self.deadline = limits.think_seconds + limits.deadline_grace
        self.workers: set[Worker] = set()  # every worker started and not yet stopped
        self._idle: list[Worker] = []
        self._free = limits.bot_workers  # turns (worker slots) that no job holds
        # jobs waiting for a turn: per group, oldest first; the groups in the order they take turns
        self._queue: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._owners: set[str] = set()

    async def think(self, owner: str, job: Job, group: str | None = None) -> str:
        """The notation of the move ``job`` asks for, thought in a worker when ``owner`` (a
        table) gets its turn, in its ``group``'s (None: a group of its own). BotFailed when no
        move came (the deadline, a dead worker, an agent's error); RuntimeError if ``owner``
        already has a job queued or running."""
        return await self._answer(owner, job, group or owner)

    async def advise(self, owner: str, job: Job, group: str | None = None) -> tuple[str, str | None]:
        """The notation and the reason of the advice ``job`` asks for (``job.advice``), as
        :meth:`think` thinks a move: the same queue, the same deadline."""
        notation, reason = await self._answer(owner, job, group or owner)
        return notation, reason

    async def _answer(self, owner: str, job: Job, group: str) -> Any:
        if owner in self._owners:
            raise RuntimeError(f"{owner} already has a bot job queued or running: one at a time per table")
        self._owners.add(owner)
        try:
            await self._turn(group)
            try:
                return await self._run(job)
            finally:
                self._free += 1
                self._hand_on()
        finally:
            self._owners.discard(owner)

    def close(self) -> None:
        """Kill every worker at once (shutdown; cancel the tasks awaiting :meth:`think` first,
        or each ends with BotFailed)."""
        for worker in self.workers:
            worker.kill()
        for worker in list(self.workers):
            worker.close()
        self.workers.clear()
        self._idle.clear()

    # -- turns: the free workers go round the groups' queues ----------------------------------
    async def _turn(self, group: str) -> None:
        if self._free > 0 and not self._queue:
            self._free -= 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.setdefault(group, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # the turn came just as the job was cancelled
                self._free += 1
                self._hand_on()
            elif turn in self._queue.get(group, ()):
                self._queue[group].remove(turn)
                if not self._queue[group]:
                    del self._queue[group]
            raise

    def _hand_on(self) -> None:
        """Free workers to the first job of each waiting group in turn: a group served goes
        to the back of the round."""
        while self._free > 0 and self._queue:
            group, turns = next(iter(self._queue.items()))
            turn = turns.popleft()
            if turns:
                self._queue.move_to_end(group)
            else:
                del self._queue[group]
            if not turn.done():  # a cancelled job's turn is skipped
                self._free -= 1
                turn.set_result(None)

    # -- workers ---------------------------------------------------------------------------------
    async def _run(self, job: Job) -> Any:
        worker = await self._worker()
        try:
            worker.send(job)
            status, answer = await worker.receive(self.deadline)
        except TimeoutError:
            self._stop(worker)
            raise BotFailed(f"did not move within {self.deadline:g} s (the think limit and its grace); its "
                            "worker process was stopped") from None
        except WorkerDied as died:
            self._stop(worker)
            raise BotFailed(str(died)) from None
        except BaseException:  # cancelled: stop the search it is making
            self._stop(worker)
            raise
        if status != OK:  # the worker ends after a failure: a fresh one takes its place
            self._stop(worker)
            raise BotFailed(f"failed: {answer}")
        self._idle.append(worker)
        return answer

    async def _worker(self) -> Worker:
        """An idle worker, or a new one once it has started."""
        while self._idle:
            worker = self._idle.pop()
            if worker.alive():
                return worker
            self._stop(worker)  # died while idle (killed from outside)
        try:
            worker = Worker(self.limits.worker_memory)
        except OSError as err:  # no process to be had (out of memory, of pids)
            raise BotFailed(f"no worker process could be started ({err})") from None
        self.workers.add(worker)
        try:
            if await worker.receive(START_TIMEOUT) != READY:
                raise WorkerDied("its worker process did not start")
        except TimeoutError:
            self._stop(worker)
            raise BotFailed(f"its worker process did not start within {START_TIMEOUT:g} s") from None
        except WorkerDied as died:
            self._stop(worker)
            raise BotFailed(str(died)) from None
        except BaseException:
            self._stop(worker)
            raise
        return worker

    def _stop(self, worker: Worker) -> None:
        self.workers.discard(worker)
        worker.close()
