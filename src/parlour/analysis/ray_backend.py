"""Chunks of games as Ray tasks, on a local Ray instance or a cluster (the ``ray`` extra).

Ray is imported only here, when ``--backend ray`` is asked for.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

from parlour.analysis.parallel import AHEAD, Job, in_order, play_chunk
from parlour.core.errors import OptionError
from parlour.extras import install_hint


def connect(address: str | None) -> Any:
    """Ray, started locally (``address`` None) or joined to the cluster at ``address``."""
    try:
        import ray
    except ImportError:
        raise OptionError(f"--backend ray needs Ray: {install_hint('ray')}") from None
    if address not in (None, "auto", "local"):
        check_answers(address)
    if ray.is_initialized():
        return ray
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as err:
        where = f"at {address}" if address else "locally"
        raise OptionError(f"no Ray cluster could be reached {where}: {err}. "
                          "Give the address of a running cluster (ray start --head prints it), or leave "
                          "--address out to start Ray on this machine") from None
    return ray


def check_answers(address: str, seconds: float = 5.0) -> None:
    """OptionError unless something listens at ``address`` (``host:port`` or ``ray://host:port``):
    Ray itself retries an address that does not answer for minutes before it gives up.

    >>> check_answers("no-port-here")
    Traceback (most recent call last):
    ...
    parlour.core.errors.OptionError: Ray address 'no-port-here' is not of the form host:port (or ray://host:port)
    >>> check_answers("head:²")  # a digit to isdigit(), not to int()
    Traceback (most recent call last):
    ...
    parlour.core.errors.OptionError: Ray address 'head:²' is not of the form host:port (or ray://host:port)
    """
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not (port.isascii() and port.isdigit()) or len(port) > 5:  # int() refuses "²"
        raise OptionError(f"Ray address {address!r} is not of the form host:port (or ray://host:port)")
    try:
        socket.create_connection((host, int(port)), timeout=seconds).close()
    except OSError as err:
        raise OptionError(f"no Ray cluster answers at {address} ({err.strerror or err}): start one with "
                          "`ray start --head` and give the address it prints, or leave --address out "
                          "to start Ray on this machine") from None


def ray_chunks(jobs: Iterator[Job], workers: int, address: str | None) -> Iterator[dict[str, Any]]:
    """The rows of the jobs in order, as Ray tasks finish, at most ``AHEAD`` tasks per worker
    (and per CPU of the cluster) out at once; the tasks left are cancelled on Ctrl-C."""
    ray = connect(address)
    task = ray.remote(play_chunk)
    ahead = AHEAD * max(workers, int(ray.cluster_resources().get("CPU", 1)))
    out: set[Any] = set()

    def submit(job: Job) -> Any:
        ref = task.remote(*job)
        out.add(ref)
        return ref

    def finished(refs: list[Any]) -> Iterator[tuple[Any, list[dict[str, Any]]]]:
        ready, _ = ray.wait(refs, num_returns=1)
        for ref in ready:
            out.discard(ref)
            yield ref, ray.get(ref)

    try:
        yield from in_order(submit, finished, jobs, ahead)
    finally:
        for ref in out:
            ray.cancel(ref, force=True)
