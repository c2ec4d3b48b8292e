"""Many games on many cores, or on a Ray cluster, with the same rows as one process.

A run is described by a :class:`Run` (the game, its options, the agent specs and the
seed), which pickles, so every worker rebuilds the game and its agents itself. Game ``i``
is dealt by ``derive_seed(seed, i)`` and its agents draw from their own generator (see
:func:`~parlour.analysis.simulate.play_game`), so the rows do not depend on which worker
played which game: :func:`run_games` yields them in game order whatever the backend.

Memory does not grow with the games: the games are handed out a chunk at a time, at most
:data:`AHEAD` chunks per worker out at once (playing, or finished and waiting for an earlier
one), and each chunk's rows are passed on as soon as the chunks before it are.

>>> run = Run("psalter-row", {}, ("random",), seed=1)
>>> rows = list(run_games(run, range(4), workers=1))
>>> [row["index"] for row in rows]
[0, 1, 2, 3]
>>> rows == list(run_games(run, range(4, 8), workers=1))
False
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.core.errors import OptionError

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import Game

BACKENDS = ("process", "ray")
#: Chunks out per worker at once: enough that no worker waits for the next, few enough that
#: the rows waiting for a slow chunk stay a handful of chunks.
AHEAD = 4


@dataclass(frozen=True)
class Run:
    """What every game of a run shares: the game, its options, the agents (one spec per
    seat), the seed."""

    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    seed: int
    #: Extra columns for every row (a variant's label in a comparison).
    extra: dict[str, Any] = field(default_factory=dict)
    #: ``native`` (the compiled kernels where the agents have them) or ``python``: the rows are the same.
    engine: str = "native"

    def play(self, game: Game, agents: list[Agent], index: int) -> dict[str, Any]:
        """Game ``index``: dealt by ``derive_seed(seed, index)``, its row."""
        from parlour.analysis.simulate import play_game
        from parlour.core.chance import derive_seed

        row = play_game(game, agents, self.agents, index, derive_seed(self.seed, index), self.seed, self.engine)
        row.update(self.extra)
        return row

    def play_rows(self, game: Game, agents: list[Agent], index: int) -> list[dict[str, Any]]:
        """The rows of game ``index``: its row (a duplicate match's deal gives a row per seat)."""
        return [self.play(game, agents, index)]


@dataclass(frozen=True)
class TournamentRun(Run):
    """A tournament: ``agents`` are the entrants, and game ``index`` is the
    ``index``-th of its schedule (blocks of the seatings ``orders`` on one deal each)."""

    orders: tuple[tuple[int, ...], ...] = ()

    def play(self, game: Game, agents: list[Agent], index: int) -> dict[str, Any]:
        from parlour.analysis.tournament import Match, agent_labels, play_match

        block, number = divmod(index, len(self.orders))
        return play_match(game, agents, agent_labels(list(self.agents)), Match(index, block, self.orders[number]),
                          self.seed, self.engine)


@dataclass(frozen=True)
class DuplicateRun(Run):
    """A duplicate match (:mod:`parlour.analysis.duplicate`): ``agents`` are the tried agent and
    the base agent, and "game" ``index`` is deal ``index``, its base game and a trial per seat,
    which gives a row per seat."""

    def play(self, game: Game, agents: list[Agent], index: int) -> dict[str, Any]:
        raise TypeError("a duplicate deal gives a row per seat: use play_rows")

    def play_rows(self, game: Game, agents: list[Agent], index: int) -> list[dict[str, Any]]:
        from parlour.analysis.duplicate import duplicate_deal

        tried, base = agents
        return duplicate_deal(game, tried, base, index, self.seed)


def play_chunk(run: Run, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games ``indices`` of ``run`` in this process: their rows."""
    import parlour

    game = parlour.load(run.game, **run.options)
    agents = [parlour.agent(spec) for spec in run.agents]
    return [row for index in indices for row in run.play_rows(game, agents, index)]


def default_workers() -> int:
    """All the cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def chunks(indices: Sequence[int], workers: int, most: int = 64) -> Iterator[Sequence[int]]:
    """Runs of consecutive games small enough to balance the workers and show progress, made
    as they are asked for (of a range, ranges: a million games are not a list of a million).

    >>> [list(part) for part in chunks(range(5), workers=1)]
    [[0], [1], [2], [3], [4]]
    >>> [len(part) for part in chunks(range(1000), workers=2, most=300)]
    [62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 8]
    """
    size = max(1, min(most, len(indices) // (8 * workers) or 1))
    return (indices[i:i + size] for i in range(0, len(indices), size))


def run_games(runs: Run | Sequence[Run], indices: Sequence[int], workers: int | None = None,
              backend: str = "process", address: str | None = None) -> Iterator[dict[str, Any]]:
    """The rows of games ``indices`` in order, played by ``workers`` processes (all cores by
    default) or on Ray (``backend="ray"``, a local Ray instance or the cluster at ``address``).
    Several runs (the variants of a comparison) play each chunk of games in turn: the rows of
    game ``i`` of every run come close together, so what pairs them need not wait long.

    Interrupted (Ctrl-C), it yields every game already finished, in order, then re-raises."""
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise OptionError("--address names a Ray cluster: give it with --backend ray")
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise OptionError(f"workers must be 1 or more, not {workers}")
    runs = [runs] if isinstance(runs, Run) else list(runs)
    jobs = ((run, part) for part in chunks(indices, workers) for run in runs)
    if backend == "ray":
        from parlour.analysis.ray_backend import ray_chunks

        return ray_chunks(jobs, workers, address)
    if workers == 1 or len(indices) * len(runs) <= 1:
        return (row for run, part in jobs for row in play_chunk(run, part))
    return _process_chunks(jobs, workers)


Job = tuple[Run, Sequence[int]]


def _process_chunks(jobs: Iterator[Job], workers: int) -> Iterator[dict[str, Any]]:
    """The rows of the jobs in order, as the chunks finish on ``workers`` processes; on Ctrl-C
    the chunks not begun are cancelled and the workers stopped at once."""
    context = multiprocessing.get_context("spawn")  # no fork of a parent that may run threads
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupts)

    def finished(futures: Iterable[Any]) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        return ((future, future.result()) for future in done)

    try:
        yield from in_order(lambda job: pool.submit(play_chunk, *job), finished, jobs, AHEAD * workers)
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        # ProcessPoolExecutor has no public way to stop a running task before Python 3.14.
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which keeps what is finished and stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def in_order(submit: Callable[[Job], Any], finished: Callable[[Iterable[Any]], Iterable[tuple[Any, list[Any]]]],
             jobs: Iterable[Job], ahead: int) -> Iterator[Any]:
    """The rows of ``jobs`` in their order, from chunks that finish in any order: ``submit``
    hands a job out (a handle back), ``finished`` waits for one or more of the handles given
    and says which are done with their rows. At most ``ahead`` chunks are out or waiting at
    once, so memory holds that many chunks' rows at most. On an interruption the finished
    chunks still waiting for an earlier one are yielded (in order) before it is raised.

    >>> jobs = [(None, range(3 * i, 3 * i + 3)) for i in range(4)]
    >>> last_first = lambda handles: [(h, list(h[1])) for h in sorted(handles, key=lambda h: -h[1][0])[:1]]
    >>> list(in_order(lambda job: job, last_first, jobs, ahead=2))
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
    """
    jobs = iter(jobs)
    out: dict[Any, int] = {}  # handle -> chunk number, the chunks being played
    waiting: dict[int, list[Any]] = {}  # chunk number -> rows, finished before an earlier one
    following = handed = 0
    try:
        while True:
            while len(out) + len(waiting) < ahead and (job := next(jobs, None)) is not None:
                out[submit(job)] = handed
                handed += 1
            if not out:
                return
            for handle, rows in finished(list(out)):
                waiting[out.pop(handle)] = rows
            while following in waiting:
                yield from waiting.pop(following)
                following += 1
    except KeyboardInterrupt:
        for number in sorted(waiting):
            yield from waiting.pop(number)
        raise
