"""The web card table as an ASGI app: the JSON API, the websocket, the static client.

``create_app(db_path)`` makes the app; ``parlour serve`` runs it on uvicorn. The
protocol is in docs/web.md.

>>> from fastapi.testclient import TestClient
>>> with TestClient(create_app(":memory:", bot_delay=0)) as client:
...     table = client.post("/api/tables", json={"game": "psalter-row", "seats": ["human"]}).json()
...     client.get(f"/api/tables/{table['id']}").json()["status"]
'waiting'
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import mimetypes
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from parlour.web import protocol
from parlour.web.guard import Guard
from parlour.web.limits import Limits, MessageRate
from parlour.web.protocol import (WebError, cut, error_message, parse_client_message, parse_json, parse_table_request,
                                  shown)
from parlour.web.seats import bearer
from parlour.web.storage import Storage
from parlour.web.tables import CLOSE, CLOSE_TOO_SLOW, SEND_TIMEOUT, Connection, Table, Tables

log = logging.getLogger("parlour.web")
STATIC = Path(__file__).resolve().parent / "static"
mimetypes.add_type("text/javascript", ".js")  # ES modules need a JavaScript type, whatever the system's table says
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("image/svg+xml", ".svg")
mimetypes.add_type("text/css", ".css")


def create_app(db_path: str | Path, bot_delay: float = 0.7, static_dir: Path | None = None,
               limits: Limits | None = None) -> FastAPI:
    """The app, storing every table in the SQLite file ``db_path`` (``":memory:"`` for none),
    within ``limits`` (default :class:`Limits()`; docs/web.md "Limits and security").

    On start it rebuilds every unfinished table from the store and restarts its bots;
    on shutdown it stops the bots (their tables go on after the next start).
    """
    static = static_dir or STATIC
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(db_path)
        app.state.tables = Tables(storage, bot_delay, limits)
        app.state.tables.restore()
        try:
            yield
        finally:
            await app.state.tables.close()
            storage.close()

    app = FastAPI(title="parlour", lifespan=lifespan, docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.limits = limits
    app.add_middleware(Guard, limits=limits)
    _errors(app)
    _api(app)
    _pages(app, static)
    app.add_api_websocket_route("/ws/tables/{table_id:path}", _socket)  # any id: a clear refusal
    return app


def _tables(request: Request | WebSocket) -> Tables:
    return request.app.state.tables


def _errors(app: FastAPI) -> None:
    @app.exception_handler(WebError)
    async def web_error(request: Request, err: WebError) -> JSONResponse:
        return JSONResponse(err.body(), status_code=err.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        code = "not_found" if err.status_code == 404 else "method_not_allowed" if err.status_code == 405 else "http_error"
        path = shown(request.url.path, request.app.state.limits.echo)
        failed = WebError(code, f"{request.method} {path}: {err.detail}; the API is under /api (see docs/web.md)",
                          err.status_code)
        return JSONResponse(failed.body(), status_code=failed.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, err: RequestValidationError) -> JSONResponse:
        first = err.errors()[0] if err.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        failed = WebError(protocol.BAD_REQUEST, f"{where}: {first.get('msg', 'not valid')}")
        return JSONResponse(failed.body(), status_code=failed.status)


def _api(app: FastAPI) -> None:
    @app.get("/api/games")
    async def games(request: Request) -> dict[str, Any]:
        return _tables(request).catalogue()

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        try:
            body = parse_json(await request.body() or b"null")
        except ValueError as err:
            raise WebError(protocol.BAD_REQUEST, f"the body is not JSON ({cut(str(err), 100)}): send e.g. "
                           '{"game": "psalter-row", "seats": ["human"]}') from None
        asked = parse_table_request(body, request.app.state.limits)
        table, tokens, admin = _tables(request).create_from(_address(request), asked)
        seats = []
        for seat, token in zip(table.seats, tokens):
            entry = seat.public()
            if token is not None:
                entry["invite"] = _invite(table.id, token)
            seats.append(entry)
        return {"id": table.id, "game": table.game.name, "title": table.game.title,
                "options": dict(table.game.options), "seats": seats, "spectate": f"/t/{table.id}", "admin": admin}

    @app.delete("/api/tables/{table_id}")
    async def delete_table(request: Request, table_id: str) -> dict[str, Any]:
        _tables(request).delete(table_id, bearer(request.headers.get("authorization")))
        return {"id": table_id, "closed": True}

    @app.post("/api/tables/{table_id}/seats/{seat}/invite")
    async def reissue_invite(request: Request, table_id: str, seat: str) -> dict[str, Any]:
        table = await _tables(request).fetch(table_id)
        table.check_admin(bearer(request.headers.get("authorization")), "re-issue an invite")
        chosen = table.human_seat(seat)
        return {"id": table.id, "seat": chosen.seat, "invite": _invite(table.id, table.reissue(chosen))}

    @app.get("/api/server")
    async def server(request: Request) -> dict[str, Any]:
        return _tables(request).about()

    @app.get("/api/tables")
    async def list_tables(request: Request, status: str | None = None) -> dict[str, Any]:
        return {"tables": _tables(request).listing(status)}

    @app.get("/api/tables/{table_id}")
    async def one_table(request: Request, table_id: str) -> dict[str, Any]:
        return (await _tables(request).fetch(table_id)).summary()

    @app.get("/api/tables/{table_id}/record")
    async def record(request: Request, table_id: str) -> Response:
        table = await _tables(request).fetch(table_id)
        body = json.dumps(table.record(), indent=1)
        name = f"parlour-{table.game.name}-{table.id}.json"
        return Response(body, media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/tables/{table_id}/replay")
    async def replay(request: Request, table_id: str, seat: str | None = None, start: str | None = None,
                     text: str | None = None) -> Response:
        table = await _tables(request).fetch(table_id)
        echo = request.app.state.limits.echo
        seat_no, first = _seat_param(seat, echo), _number_param("start", start, 0, echo)
        page = await table.replay(seat_no, first, _flag(text))
        return Response(json.dumps(page), media_type="application/json")  # plain JSON: no encoder walks it again

    @app.get("/api/tables/{table_id}/log")
    async def log_entries(request: Request, table_id: str, start: str | None = None) -> Response:
        first = _number_param("start", start, 1, request.app.state.limits.echo)
        return Response(json.dumps((await _tables(request).fetch(table_id)).log_page(first)), media_type="application/json")


def _invite(table_id: str, token: str) -> str:
    return f"/t/{table_id}#token={token}"


def _seat_param(seat: str | None, echo: int) -> int | None:
    """``?seat=N``: a seat number, digits only (None: the spectator's view).

    >>> _seat_param("2", 60), _seat_param("", 60)
    (2, None)
    """
    if seat is None or seat == "":
        return None
    return _number_param("seat", seat, None, echo, "give ?seat=0, ?seat=1, ... or leave it out for the spectator's view")


def _number_param(name: str, value: str | None, default: int | None, echo: int, hint: str = "") -> Any:
    """A query parameter that is a small whole number, ASCII digits only (at most 9 of them).

    >>> _number_param("start", "12", 0, 60), _number_param("start", None, 0, 60)
    (12, 0)
    """
    if value is None or value == "":
        return default
    if not (value.isascii() and value.isdigit() and len(value) <= 9):
        raise WebError(protocol.BAD_REQUEST, f"{name} {shown(value, echo)} is not a {name} number"
                       + (f": {hint}" if hint else ": give a whole number, 0 or more"))
    return int(value)


def _flag(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "yes", "on")


#: The pages' headers: always checked afresh, and never shown inside another site's frame
#: (a table's buttons under a page that lays its own over them: clickjacking).
PAGE_HEADERS = {"Cache-Control": "no-cache", "X-Frame-Options": "DENY",
                "Content-Security-Policy": "frame-ancestors 'none'"}


def _pages(app: FastAPI, static: Path) -> None:
    def page(name: str) -> Response:
        path = static / name
        if not path.is_file():
            return HTMLResponse(f"<h1>parlour</h1><p>The web client is not installed: {name} is missing "
                                f"from {static}.</p>", status_code=404)
        return FileResponse(path, headers=PAGE_HEADERS)

    async def table_page(request: Request, table_id: str, name: str) -> Response:
        try:
            await _tables(request).fetch(table_id)
        except WebError as err:
            return HTMLResponse(f"<h1>No such table</h1><p>{html.escape(err.message)}</p>", status_code=404)
        return page(name)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def lobby() -> Response:
        return page("index.html")

    @app.api_route("/t/{table_id}", methods=["GET", "HEAD"], include_in_schema=False)
    async def table(request: Request, table_id: str) -> Response:
        return await table_page(request, table_id, "table.html")

    @app.api_route("/t/{table_id}/replay", methods=["GET", "HEAD"], include_in_schema=False)
    async def replay_page(request: Request, table_id: str) -> Response:
        return await table_page(request, table_id, "replay.html")

    @app.api_route("/static/{path:path}", methods=["GET", "HEAD"], include_in_schema=False)
    async def static_file(request: Request, path: str) -> Response:
        root = static.resolve()
        try:
            target = (root / path).resolve()
            found = root in target.parents and target.is_file()  # no way out of the folder
        except (OSError, ValueError):  # a NUL byte, a name too long for the file system
            found = False
        if not found:
            raise WebError("not_found", f"there is no static file {shown(path, request.app.state.limits.echo)}", 404)
        return FileResponse(target, headers={"Cache-Control": "no-cache"})


def _address(request: Request) -> str | None:
    """The client's address: behind a trusted proxy (``--trust-proxy``) the last entry of
    ``X-Forwarded-For``, the one the proxy added (those before it are the client's own word),
    else the connection's peer (None where the server has none)."""
    if request.app.state.limits.trust_proxy:
        forwarded = request.headers.get("x-forwarded-for", "").split(",")[-1].strip()
        if forwarded:
            return forwarded[:64]
    return request.client.host if request.client else None


# -- the websocket ---------------------------------------------------------------------------
async def _socket(websocket: WebSocket, table_id: str) -> None:
    """One websocket: its messages answered in order while its writer drains the outbox. It
    ends when the client goes, when the writer ends (the server closed it, or the client read
    nothing for ``SEND_TIMEOUT``), or when it has not joined within ``Limits.join_seconds``;
    messages past ``Limits.message_rate`` are dropped unread."""
    await websocket.accept()
    conn = Connection()
    writer = asyncio.create_task(_write(websocket, conn))
    limits = _tables(websocket).limits
    table: Table | None = None
    reader: asyncio.Future | None = None
    try:
        try:
            table = await _tables(websocket).fetch(table_id)
        except WebError as err:
            conn.send(error_message(err, None))
            conn.close(protocol.CLOSE_UNKNOWN_TABLE)
            await writer
            return
        loop = asyncio.get_running_loop()
        rate, join_by = MessageRate(limits.message_rate, limits.message_burst), loop.time() + limits.join_seconds
        while True:
            reader = asyncio.ensure_future(websocket.receive())
            wait = None if conn.joined else max(0.0, join_by - loop.time())
            done, _ = await asyncio.wait({reader, writer}, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
            if writer in done:
                break  # the socket is closed, or its client reads nothing: it leaves the table
            if not done:
                late = WebError(protocol.JOIN_TIMEOUT, f"no join within {limits.join_seconds:g} s: send "
                                '{"type": "join", "token": "INVITE"} (or null to watch) first')
                conn.send(error_message(late, table.state_id))
                conn.close(protocol.CLOSE_JOIN_TIMEOUT)
                await writer
                return
            message, reader = reader.result(), None
            if message["type"] == "websocket.disconnect":
                break
            if not rate.allow(loop.time()):
                if rate.tell(loop.time()):
                    fast = WebError(protocol.TOO_FAST, f"more than {limits.message_rate:g} messages a second: "
                                    "those past it are dropped unread")
                    conn.send(error_message(fast, table.state_id))
                continue
            if not _handle(table, conn, message.get("text", message.get("bytes")), limits):
                await writer
                return
    except WebSocketDisconnect:
        pass
    finally:
        if reader is not None:
            reader.cancel()
            if reader.done() and not reader.cancelled():
                reader.exception()  # retrieved: the client's going is why it ended
        if table is not None:
            table.leave(conn)
        writer.cancel()


def _handle(table: Table, conn: Connection, text: Any, limits: Limits) -> bool:
    """Answer one client message; False when the socket is to close (a failed join, or the
    server is closing it: its seat re-issued, its table closed)."""
    if conn.closing:
        return False  # nothing more from it: what it was told last explains why
    try:
        message = parse_client_message(text, limits.max_frame, limits.echo)
        if message["type"] == "ping":
            conn.send({"type": "pong"})
        elif message["type"] == "join":
            _join(table, conn, message)
        elif not conn.joined:
            raise WebError(protocol.BAD_MESSAGE, 'join first: {"type": "join", "token": "INVITE"} (or null to watch)')
        elif message["type"] == "log":
            conn.send(table.log_page(message["from"]))
        elif message["type"] == "text":
            conn.text = message["on"]
            conn.send(table.state_message(conn.seat, conn.text))
        elif message["type"] == "undo":
            table.undo(conn.seat, message["state_id"])
        elif message["type"] == "hint":
            table.hint(conn, message["state_id"])
        else:
            table.act(conn.seat, message["action"], message["state_id"])
    except WebError as err:
        conn.send(error_message(err, table.state_id))
        if err.code in protocol.JOIN_CLOSE and not conn.joined:
            conn.close(protocol.JOIN_CLOSE[err.code])
            return False
    except Exception as err:  # a bug or a full disk: say so, keep the socket and the server
        log.exception("table %s: a message failed", table.id)
        failed = WebError(protocol.SERVER_ERROR, f"the server could not do this ({type(err).__name__}); nothing "
                          "changed: try again, or reload the page", 500)
        conn.send(error_message(failed, table.state_id))
    return True


def _join(table: Table, conn: Connection, message: dict[str, Any]) -> None:
    if conn.joined:
        who = "a spectator" if conn.seat is None else f"seat {conn.seat}"
        raise WebError(protocol.BAD_MESSAGE, f"this connection already joined as {who}: open another to join again")
    conn.text = message["text"]
    table.join(conn, message["token"], message["secret"], message["log_from"])


async def _write(websocket: WebSocket, conn: Connection) -> None:
    """Send the outbox in order; a close marker closes the socket."""
    try:
        while True:
            item = await conn.outbox.get()
            if isinstance(item, tuple) and item[0] == CLOSE:
                await websocket.close(code=item[1])
                return
            async with asyncio.timeout(SEND_TIMEOUT):  # no task a message, as wait_for would make
                await websocket.send_text(item)
    except TimeoutError:  # it reads nothing: closed (4008) if the close can still go out, else dropped
        with contextlib.suppress(Exception):
            await asyncio.wait_for(websocket.close(code=CLOSE_TOO_SLOW), 1.0)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return  # the client went away: the reader sees it too
