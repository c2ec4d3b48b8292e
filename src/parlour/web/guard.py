"""The gate in front of the web table (an ASGI middleware): what a request must be before
the app reads it. docs/web.md "Limits and security" is the reader's version.

- A state-changing request (POST, PUT, PATCH, DELETE) and every websocket handshake must
  carry no ``Origin`` (not a browser), the server's own origin, or one of
  ``Limits.allow_origins``: a page of another site cannot make tables or play for anyone
  (403 ``bad_origin``; a websocket is refused before it is accepted, also 403).
- A state-changing request's body is ``application/json`` (UTF-8): anything else is
  415 ``unsupported_media_type`` (a cross-site form or ``text/plain`` fetch cannot send it
  without a CORS preflight, which this server never grants).
- A body is at most ``Limits.max_body`` bytes: 413 ``body_too_large``, at once when its
  ``Content-Length`` says so, else as soon as the bytes read pass the limit (chunked bodies).

>>> normal_origin("HTTPS://Example.org:443/"), normal_origin("http://[::1]:8000"), normal_origin("null")
('https://example.org', 'http://[::1]:8000', None)
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

from parlour.web import protocol
from parlour.web.limits import Limits
from parlour.web.protocol import WebError, shown

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443}
WS_SCHEMES = {"ws": "http", "wss": "https"}


def normal_origin(text: str) -> str | None:
    """``scheme://host[:port]`` of an http(s) origin, lower-case, without the default port;
    None when ``text`` is no such origin (``null``, another scheme, a path, a user name).

    >>> normal_origin("http://Parlour.example:8000"), normal_origin("https://x.example/path")
    ('http://parlour.example:8000', None)
    """
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:  # a port that is no number, or out of range
        return None
    scheme, host = parts.scheme.lower(), parts.hostname
    if (scheme not in DEFAULT_PORTS or not host or parts.username is not None or parts.path not in ("", "/")
            or parts.query or parts.fragment):
        return None
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + ("" if port in (None, DEFAULT_PORTS[scheme]) else f":{port}")


def own_origin(scope: Scope, trust_proxy: bool) -> str | None:
    """The origin the client reached this server at: the request's scheme and ``Host``, or,
    when a proxy is trusted, its ``X-Forwarded-Proto`` and ``X-Forwarded-Host`` (the first
    of each, where given); None without a usable host.

    >>> scope = {"scheme": "ws", "headers": [(b"host", b"127.0.0.1:8000"), (b"x-forwarded-proto", b"https")]}
    >>> own_origin(scope, trust_proxy=False), own_origin(scope, trust_proxy=True)
    ('http://127.0.0.1:8000', 'https://127.0.0.1:8000')
    """
    headers = _headers(scope)
    scheme = WS_SCHEMES.get(scope.get("scheme", "http"), scope.get("scheme", "http"))
    host = headers.get("host", "")
    if trust_proxy:
        scheme = _first(headers.get("x-forwarded-proto")) or scheme
        host = _first(headers.get("x-forwarded-host")) or host
    return normal_origin(f"{scheme}://{host}") if host else None


def _first(value: str | None) -> str:
    return (value or "").split(",")[0].strip()


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the first of a repeated one)."""
    out: dict[str, str] = {}
    for name, value in scope.get("headers", ()):
        out.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return out


class Guard:
    """The ASGI middleware that applies the checks above before the app sees a request."""

    def __init__(self, app: App, limits: Limits) -> None:
        self.app, self.limits = app, limits
        self.allowed = frozenset(o for o in map(normal_origin, limits.allow_origins) if o is not None)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if self._origin_refusal(scope, _headers(scope)) is not None:
                await _deny_socket(send)
                return
        elif scope["type"] == "http":
            refusal = self._http_refusal(scope)
            if refusal is None:
                try:
                    receive = _replay(await self._read_body(receive), receive)
                except _TooLarge:
                    refusal = self._too_large()
                except _Gone:
                    return
            if refusal is not None:
                await _answer(send, refusal)
                return
        await self.app(scope, receive, send)

    def _origin_refusal(self, scope: Scope, headers: dict[str, str]) -> WebError | None:
        origin = headers.get("origin")
        if origin is None:
            return None
        normal = normal_origin(origin)
        if normal is not None and (normal in self.allowed or normal == own_origin(scope, self.limits.trust_proxy)):
            return None
        return WebError(protocol.BAD_ORIGIN, f"requests from the page at {shown(origin, self.limits.echo)} are "
                        "refused: only this server's own pages may change tables (a host that serves pages "
                        "elsewhere is allowed with parlour serve --allow-origin)", 403)

    def _http_refusal(self, scope: Scope) -> WebError | None:
        headers = _headers(scope)
        if scope["method"] in STATE_CHANGING:
            refusal = self._origin_refusal(scope, headers) or _media_type_refusal(headers, self.limits.echo)
            if refusal is not None:
                return refusal
        return self._too_large() if _declared_length(headers) > self.limits.max_body else None

    def _too_large(self) -> WebError:
        return WebError(protocol.BODY_TOO_LARGE, f"a request body is at most {self.limits.max_body} bytes, and "
                        "this one is longer", 413)

    async def _read_body(self, receive: Receive) -> bytes:
        """The whole body; _TooLarge as soon as it passes max_body, _Gone if the client left."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _Gone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.max_body:
                raise _TooLarge
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class _TooLarge(Exception):
    pass


class _Gone(Exception):
    pass


def _declared_length(headers: dict[str, str]) -> int:
    """The Content-Length (0 when none; the server has checked it is digits)."""
    value = headers.get("content-length", "0").strip()
    if not (value.isascii() and value.isdigit()):
        return 0
    return int(value) if len(value) < 19 else 2**63  # no need to convert 5,000 digits


def _media_type_refusal(headers: dict[str, str], echo: int) -> WebError | None:
    """A body must be JSON: a Content-Type, when given or when there is a body, is
    ``application/json`` with at most a UTF-8 ``charset``."""
    value = headers.get("content-type")
    if value is None and _declared_length(headers) == 0 and "transfer-encoding" not in headers:
        return None
    kind, _, parameters = (value or "").partition(";")
    charset = ""
    for parameter in parameters.split(";"):
        key, _, given = parameter.partition("=")
        if key.strip().lower() == "charset":
            charset = given.strip().strip('"').lower()
    if kind.strip().lower() == "application/json" and charset in ("", "utf-8", "utf8"):
        return None
    given = "none" if value is None else shown(value, echo)
    return WebError(protocol.UNSUPPORTED_MEDIA_TYPE, f"a request body is JSON: send it with Content-Type: "
                    f"application/json (UTF-8), not {given}", 415)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the app the body already read, then the client's next events."""
    given = False

    async def replayed() -> dict[str, Any]:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replayed


async def _answer(send: Send, err: WebError) -> None:
    """The JSON error response; the connection is closed after it (the body may be unread)."""
    body = json.dumps(err.body()).encode()
    await send({"type": "http.response.start", "status": err.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


async def _deny_socket(send: Send) -> None:
    """Refuse a websocket before accepting it: the server answers the handshake with a plain
    HTTP 403. (A JSON body through the ASGI denial response would be nicer, but uvicorn logs
    an error for every such refusal.)"""
    await send({"type": "websocket.close", "code": 1008})
