"""``parlour serve``: the web card table on uvicorn (fastapi and uvicorn imported only here,
when the command runs, so the rest of the CLI starts without them)."""

from __future__ import annotations

import contextlib
import os
import socket
from pathlib import Path
from typing import IO

import click

from parlour.extras import install_hint
from parlour.web.limits import Limits  # the standard library only: no web extra needed for --help

GRACEFUL_SHUTDOWN = 1.0  # seconds open connections get to close on Ctrl+C before they are cut


def _origins(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    """--allow-origin values as the Guard compares them (lower-case, no default port)."""
    from parlour.web.guard import normal_origin  # imported when used, as the rest of the web package

    out = []
    for value in values:
        origin = normal_origin(value)
        if origin is None:
            raise click.BadParameter(f"{value!r} is not an origin: give scheme://host or scheme://host:port "
                                     "(http or https, no path), e.g. https://cards.example.org", ctx, param)
        out.append(origin)
    return tuple(out)


@click.command(short_help="Serve the web card table: play in the browser against bots and friends.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 to let other machines join; behind a reverse proxy keep 127.0.0.1 and use --allow-origin).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=Path("parlour.db"),
              show_default=True, help="SQLite file holding every table and action (made if missing).")
@click.option("--bot-delay", type=click.FloatRange(min=0), default=0.7, show_default=True,
              help="Seconds a bot waits before it moves, so that people see each move.")
@click.option("--bot-workers", type=click.IntRange(min=1), default=None, show_default="the cores but one, at least 1",
              help="Worker processes the bots think in.")
@click.option("--think-limit", type=click.FloatRange(min=0.01, max=3600), default=Limits.think_seconds,
              show_default=True, help="Seconds a bot may think per decision (an agent asking for more is refused).")
@click.option("--max-actions", type=click.IntRange(min=1), default=Limits.max_actions, show_default=True,
              help="Actions a table may hold; a game still going then stops (end action_limit).")
@click.option("--max-subscribers", type=click.IntRange(min=1), default=Limits.max_subscribers,
              show_default=True, help="Sockets joined to one table at once (seats' tabs and spectators); more are refused.")
@click.option("--max-connections", type=click.IntRange(min=8), default=Limits.max_connections, show_default=True,
              help="Connections and requests at once (sockets included); more are answered 503.")
@click.option("--tables-per-minute", type=click.FloatRange(min=0.1), default=Limits.tables_per_minute,
              show_default=True, help="Tables one client address may create a minute; more are answered 429.")
@click.option("--keep-finished", type=click.IntRange(min=1), default=Limits.keep_finished, show_default=True,
              help="Finished (or stopped) tables the database keeps; past it, those that ended first are deleted.")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="URL", callback=_origins,
              help="A site (scheme://host[:port]) whose pages may use this server besides its own; repeatable.")
@click.option("--trust-proxy", is_flag=True,
              help="Take this server's own origin from X-Forwarded-Proto/-Host and a client's address from the last "
                   "X-Forwarded-For entry (only behind a proxy that sets them).")
def serve(host: str, port: int, db_path: Path, bot_delay: float, bot_workers: int | None, think_limit: float,
          max_actions: int, max_subscribers: int, max_connections: int, tables_per_minute: float, keep_finished: int,
          allow_origins: tuple[str, ...], trust_proxy: bool) -> None:
    """Serve the web card table at http://HOST:PORT/ : a lobby to create tables (any game,
    options, human or bot seats), an invite link per human seat, spectating, replays.

    Every table and action is stored in the SQLite file --db; unfinished games continue
    after a restart.
    """
    try:
        import uvicorn

        from parlour.web.app import create_app
    except ImportError as err:  # the optional extra is not installed
        raise click.ClickException(f"{err.name} is missing: install the web extra, {install_hint('web')}") from None
    _lock = lock_database(db_path)  # held (open) until the process ends
    check_port_free(host, port)
    workers = {"bot_workers": bot_workers} if bot_workers else {}  # else Limits' own default
    limits = Limits(think_seconds=think_limit, max_actions=max_actions, max_subscribers=max_subscribers,
                    max_connections=connection_cap(max_connections), tables_per_minute=tables_per_minute,
                    keep_finished=keep_finished, allow_origins=allow_origins,
                    trust_proxy=trust_proxy, **workers)
    app = create_app(db_path, bot_delay=bot_delay, limits=limits)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"parlour web table at http://{shown}:{port}/  (tables stored in {db_path}; Ctrl+C stops)")
    # ws_max_size: a longer websocket message is refused (1009) before it is buffered whole;
    # the proxy headers are read by the app's Guard alone, and only with --trust-proxy; a client
    # that does not answer the close of its websocket must not hold up the shutdown; per-message
    # compression is off: it cost a quarter of the server's time per action (docs/benchmarks.md);
    # past max_connections a connection is answered 503 and closed, before the open files run out.
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=limits.ws_max_size, proxy_headers=False,
                timeout_graceful_shutdown=GRACEFUL_SHUTDOWN, ws_per_message_deflate=False,
                limit_concurrency=limits.max_connections)


#: Open files kept for the database, the bot workers' pipes and the log, beside the connections.
SPARE_FILES = 128


def connection_cap(wanted: int) -> int:
    """The connections the server may hold at once: ``wanted``, with the process's soft limit
    on open files raised to fit them where the hard limit allows, else as many as it fits
    (a server out of files stops accepting anyone, and logs every retry).

    >>> 8 <= connection_cap(2_000) <= 2_000
    True
    """
    try:
        import resource
    except ImportError:  # Windows: no such limit to fit
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(hard, needed)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
    if soft == resource.RLIM_INFINITY:
        return wanted
    cap = max(8, min(wanted, soft - SPARE_FILES))
    if cap < wanted:
        click.echo(f"parlour serve: the open-file limit ({soft}) fits {cap} connections, not {wanted}", err=True)
    return cap


def lock_database(db_path: Path) -> IO[str] | None:
    """Hold an exclusive lock on ``DB.lock`` beside the database for the life of the process:
    a clear error when another ``parlour serve`` holds it (two servers on one file would each
    play its tables from their own memory and store interleaved actions). None for ``:memory:``
    and where the system has no ``fcntl`` (Windows: no lock).

    >>> lock_database(Path(":memory:")) is None
    True
    """
    if str(db_path) == ":memory:":
        return None
    try:
        import fcntl
    except ImportError:
        return None
    path = Path(f"{db_path}.lock")
    try:
        handle = path.open("a+")
    except OSError as err:
        raise click.ClickException(f"cannot open the lock file {path} ({err.strerror}): check that its folder "
                                   "exists and is writable") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        pid = handle.read().strip()
        handle.close()
        holder = f" (pid {pid})" if pid.isdigit() else ""
        raise click.ClickException(f"another parlour serve{holder} uses {db_path} (it holds {path}): stop it "
                                   "first, or give this one another --db") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def check_port_free(host: str, port: int) -> None:
    """A clear error, before anything is printed as served, when another program listens there."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as err:
            raise click.ClickException(
                f"cannot listen on {host} port {port} ({err.strerror}): another server (another parlour serve?) "
                f"may hold it; give another with --port (make run ARGS='--port 8001')") from None
