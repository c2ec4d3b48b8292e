"""Many games on many cores, or on a Ray cluster, with the same rows as one process.

A run is described by a :class:`Run` (the game, its options, the agent specs and the
seed), which pickles, so every worker rebuilds the game and its agents itself. Game ``i``
is dealt by ``derive_seed(seed, i)`` and its agents draw from their own generator (see
:func:`~parlour.analysis.simulate.play_game`), so the rows do not depend on which worker
played which game: :func:`run_games` yields them in game order whatever the backend.

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
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.core.errors import OptionError

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import Game

BACKENDS = ("process", "ray")


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


def play_chunk(run: Run, indices: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games ``indices`` of ``run`` in this process: their rows."""
    import parlour

    game = parlour.load(run.game, **run.options)
    agents = [parlour.agent(spec) for spec in run.agents]
    return [run.play(game, agents, index) for index in indices]


def default_workers() -> int:
    """All the cores this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def chunks(indices: Sequence[int], workers: int, most: int = 64) -> list[list[int]]:
    """Runs of consecutive games small enough to balance the workers and show progress.

    >>> chunks(range(10), workers=1)
    [[0], [1], [2], [3], [4], [5], [6], [7], [8], [9]]
    >>> [len(part) for part in chunks(range(1000), workers=2, most=300)]
    [62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 62, 8]
    """
    size = max(1, min(most, len(indices) // (8 * workers) or 1))
    return [list(indices[i:i + size]) for i in range(0, len(indices), size)]


def run_games(run: Run, indices: Sequence[int], workers: int | None = None, backend: str = "process",
              address: str | None = None) -> Iterator[dict[str, Any]]:
    """The rows of games ``indices`` in order, played by ``workers`` processes (all cores by
    default) or on Ray (``backend="ray"``, a local Ray instance or the cluster at ``address``).

    Interrupted (Ctrl-C), it yields every game already finished, in order, then re-raises."""
    if backend not in BACKENDS:
        raise OptionError(f"unknown backend {backend!r}: use one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise OptionError("--address names a Ray cluster: give it with --backend ray")
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise OptionError(f"workers must be 1 or more, not {workers}")
    parts = chunks(indices, workers)
    if backend == "ray":
        from parlour.analysis.ray_backend import ray_chunks

        return _in_order(ray_chunks(run, parts, address), parts)
    if workers == 1 or len(parts) == 1:
        return (row for part in parts for row in play_chunk(run, part))
    return _in_order(_process_chunks(run, parts, workers), parts)


def _process_chunks(run: Run, parts: list[list[int]], workers: int) -> Iterator[tuple[int, list[dict[str, Any]]]]:
    """(chunk number, rows) as each chunk finishes; on Ctrl-C the chunks not begun are
    cancelled and the workers stopped at once."""
    context = multiprocessing.get_context("spawn")  # no fork of a parent that may run threads
    pool = ProcessPoolExecutor(min(workers, len(parts)), mp_context=context, initializer=_ignore_interrupts)
    try:
        futures = {pool.submit(play_chunk, run, part): number for number, part in enumerate(parts)}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        # ProcessPoolExecutor has no public way to stop a running task before Python 3.14.
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which keeps what is finished and stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_order(done: Iterable[tuple[int, list[dict[str, Any]]]], parts: list[list[int]]) -> Iterator[dict[str, Any]]:
    """Rows in game order from chunks that finish in any order; on an interruption the
    finished chunks still waiting for an earlier one are yielded (in order) before it is raised."""
    waiting: dict[int, list[dict[str, Any]]] = {}
    following = 0
    try:
        for number, rows in done:
            waiting[number] = rows
            while following in waiting:
                yield from waiting.pop(following)
                following += 1
    except KeyboardInterrupt:
        for number in sorted(waiting):
            yield from waiting.pop(number)
        raise
