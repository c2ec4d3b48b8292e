"""``parlour serve``: the web card table on uvicorn (fastapi and uvicorn imported only here,
when the command runs, so the rest of the CLI starts without them)."""

from __future__ import annotations

import socket
from pathlib import Path

import click

from parlour.extras import install_hint
from parlour.web.limits import Limits, default_bot_workers  # the standard library only

GRACEFUL_SHUTDOWN = 1.0  # seconds open connections get to close on Ctrl+C before they are cut


@click.command(short_help="Serve the web card table: play in the browser against bots and friends.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 to let other machines join; see docs/web.md for hosting).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=Path("parlour.db"),
              show_default=True, help="SQLite file holding every table and action (made if missing).")
@click.option("--bot-delay", type=click.FloatRange(min=0), default=0.7, show_default=True,
              help="Seconds a bot waits before it moves, so that people see each move.")
@click.option("--bot-workers", type=click.IntRange(min=1), default=None, show_default="the cores but one, at least 1",
              help="Worker processes the bots think in.")
@click.option("--think-limit", type=click.FloatRange(min=0.01, max=3600), default=Limits.think_seconds,
              show_default=True, help="Seconds a bot may think per decision (an agent asking for more is refused).")
def serve(host: str, port: int, db_path: Path, bot_delay: float, bot_workers: int | None, think_limit: float) -> None:
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
    check_port_free(host, port)
    limits = Limits(think_seconds=think_limit, bot_workers=bot_workers or default_bot_workers())
    app = create_app(db_path, bot_delay=bot_delay, limits=limits)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"parlour web table at http://{shown}:{port}/  (tables stored in {db_path}; Ctrl+C stops)")
    # A client that does not answer the close of its websocket must not hold up the shutdown.
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=GRACEFUL_SHUTDOWN)


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
