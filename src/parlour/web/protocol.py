"""The web table's messages: what clients may send, the error codes, and the checks.

Every refusal is a :class:`WebError` with a code, a message that says what was wrong
and what is expected, and the HTTP status it gets on the HTTP side. On the websocket
it becomes ``{"type": "error", "code", "message", "state_id"}`` and changes nothing.

>>> parse_client_message('{"type": "act", "action": "take", "state_id": 3}')
{'type': 'act', 'action': 'take', 'state_id': 3}
>>> parse_client_message('{"type": "act", "action": "take"}')
Traceback (most recent call last):
...
parlour.web.protocol.WebError: bad_message: an act message needs "state_id": the state_id of the last state you received, e.g. {"type": "act", "action": "take", "state_id": 3}
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import parlour
from parlour.core.options import Option

# Websocket error codes (docs/web.md).
BAD_MESSAGE = "bad_message"  # not JSON, unknown type, missing or mistyped field
BAD_TOKEN = "bad_token"  # a token that is no seat's of this table
UNKNOWN_TABLE = "unknown_table"
NOT_YOUR_TURN = "not_your_turn"  # also a spectator acting
STALE = "stale"  # state_id is not the current one
NOTATION = "notation"  # the action text does not parse (NotationError)
ILLEGAL = "illegal"  # it parses but is not legal now (IllegalAction)
FINISHED = "finished"  # the game is over
SEAT_CLAIMED = "seat_claimed"  # an invite whose seat another browser holds
SEAT_REISSUED = "seat_reissued"  # the creator re-issued the invite of the seat this socket held
TABLE_CLOSED = "table_closed"  # the creator closed the table
TABLE_FULL = "table_full"  # the table has Limits.max_subscribers sockets already
# HTTP-only codes.
BAD_REQUEST = "bad_request"  # a body or query that is not what the endpoint takes
BAD_OPTION = "bad_option"  # unknown game, option or value; seats that do not fit the game
BAD_AGENT = "bad_agent"  # unknown agent spec, or an agent that cannot play this game
CHEATING_AGENT = "cheating_agent"  # an agent that sees hidden cards (clairvoyant)
NOT_FINISHED = "not_finished"  # a record or replay asked before the end
DAMAGED_TABLE = "damaged_table"  # a stored table whose actions no longer replay (500)
SERVER_ERROR = "server_error"  # the server failed (a bug, the disk): nothing changed
FORBIDDEN = "forbidden"  # a creator's request without the table's creator secret (403)
UNKNOWN_SEAT = "unknown_seat"  # a seat number the table does not have (404)
AGENT_SEAT = "agent_seat"  # a bot's seat, which has no invite (409)

# Websocket close codes: of a failed join, and of a socket the server ends.
CLOSE_BAD_TOKEN = 4001
CLOSE_SEAT_CLAIMED = 4003
CLOSE_UNKNOWN_TABLE = 4004
CLOSE_SEAT_REISSUED = 4005
CLOSE_TABLE_CLOSED = 4006
CLOSE_TABLE_FULL = 4029
#: The close code that follows each refusal of a join.
JOIN_CLOSE = {BAD_TOKEN: CLOSE_BAD_TOKEN, SEAT_CLAIMED: CLOSE_SEAT_CLAIMED, TABLE_FULL: CLOSE_TABLE_FULL,
              TABLE_CLOSED: CLOSE_TABLE_CLOSED}

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,40}$")
MAX_NAME = 40
MAX_SEATS = 8


class WebError(Exception):
    """A refused request: ``code`` (see above), ``message``, the HTTP ``status`` and the
    ``fields`` some codes add to the websocket's error message (e.g. ``seat``)."""

    def __init__(self, code: str, message: str, status: int = 400, **fields: Any) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.status, self.fields = code, message, status, fields

    def body(self) -> dict[str, Any]:
        """The JSON body of an HTTP error response."""
        return {"error": {"code": self.code, "message": self.message}}


def unknown_table(table_id: str) -> WebError:
    """The error for a table id that names no table (tampered, mistyped or never made)."""
    shown = table_id if len(table_id) <= 60 else table_id[:57] + "..."
    return WebError(UNKNOWN_TABLE, f"there is no table {shown!r}: check the link, or open the lobby at / "
                    "to see the open tables", 404)


def error_message(err: WebError, state_id: int | None) -> dict[str, Any]:
    """A websocket error message."""
    return {"type": "error", "code": err.code, "message": err.message, "state_id": state_id, **err.fields}


_EXAMPLES = {
    "join": '{"type": "join", "token": "INVITE", "secret": null} (the invite of your link; "secret": the one the '
            'first join gave, to rejoin; both null to watch)',
    "act": '{"type": "act", "action": "take", "state_id": 3}',
    "ping": '{"type": "ping"}',
}


def parse_client_message(text: Any) -> dict[str, Any]:
    """A client message, checked: ``join`` (token, secret: text or null), ``act`` (action: text,
    state_id: integer) or ``ping``. Anything else is a ``bad_message`` WebError."""
    if not isinstance(text, str):
        raise WebError(BAD_MESSAGE, "messages are JSON text frames, not binary")
    try:
        message = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise WebError(BAD_MESSAGE, f"the message is not JSON: expected e.g. {_EXAMPLES['act']}") from None
    if not isinstance(message, dict):
        raise WebError(BAD_MESSAGE, f"a message is a JSON object with a \"type\", e.g. {_EXAMPLES['ping']}")
    kind = message.get("type")
    if kind not in _EXAMPLES:
        raise WebError(BAD_MESSAGE, f"unknown message type {kind!r}: the types are join, act and ping")
    if kind == "join":
        token, secret = message.get("token"), message.get("secret")
        if token is not None and not isinstance(token, str):
            raise WebError(BAD_MESSAGE, f"a join's \"token\" is the seat's invite text or null, e.g. {_EXAMPLES['join']}")
        if secret is not None and not isinstance(secret, str):
            raise WebError(BAD_MESSAGE, f"a join's \"secret\" is the seat secret text or null, e.g. {_EXAMPLES['join']}")
        return {"type": "join", "token": token, "secret": secret}
    if kind == "act":
        action, state_id = message.get("action"), message.get("state_id")
        if not isinstance(action, str):
            raise WebError(BAD_MESSAGE, f"an act message needs \"action\": the action's notation text, e.g. {_EXAMPLES['act']}")
        if not isinstance(state_id, int) or isinstance(state_id, bool):
            raise WebError(BAD_MESSAGE, "an act message needs \"state_id\": the state_id of the last state you "
                           f"received, e.g. {_EXAMPLES['act']}")
        return {"type": "act", "action": action, "state_id": state_id}
    return {"type": "ping"}


@dataclass(frozen=True)
class TableRequest:
    """A checked ``POST /api/tables`` body (the game and agents are checked when the table is made)."""

    game: str
    options: dict[str, Any]
    seats: list[str]
    names: list[str | None]


def parse_table_request(body: Any) -> TableRequest:
    """The body of ``POST /api/tables``: ``{"game", "options", "seats", "names"}``.

    >>> parse_table_request({"game": "quisquilian", "seats": ["human", "random", "random"]}).names
    [None, None, None]
    """
    example = '{"game": "decktet-golf", "options": {}, "seats": ["human", "random"]}'
    if not isinstance(body, dict):
        raise WebError(BAD_REQUEST, f"the body is a JSON object such as {example}")
    unknown = sorted(set(body) - {"game", "options", "seats", "names"})
    if unknown:
        raise WebError(BAD_REQUEST, f"unknown field {unknown[0]!r}: the fields are game, options, seats, names")
    game, options, seats = body.get("game"), body.get("options", {}), body.get("seats")
    if not isinstance(game, str):
        raise WebError(BAD_OPTION, f"\"game\" names one of {', '.join(parlour.game_names())}, e.g. {example}", 422)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise WebError(BAD_OPTION, "\"options\" maps option names to values, e.g. {\"players\": 3}", 422)
    if not isinstance(seats, list) or not seats or not all(isinstance(s, str) and s.strip() for s in seats):
        raise WebError(BAD_REQUEST, "\"seats\" is a list with one entry per seat: \"human\" or an agent spec "
                       f"such as \"random\" or \"ismcts:iterations=200\", e.g. {example}")
    if len(seats) > MAX_SEATS:
        raise WebError(BAD_OPTION, f"{len(seats)} seats: a table has at most {MAX_SEATS}", 422)
    names = body.get("names") or [None] * len(seats)
    if not isinstance(names, list) or len(names) != len(seats):
        raise WebError(BAD_REQUEST, f"\"names\" has one entry (text or null) per seat: {len(seats)} here")
    checked: list[str | None] = []
    for name in names:
        if name is not None and (not isinstance(name, str) or len(name.strip()) > MAX_NAME):
            raise WebError(BAD_REQUEST, f"a name is text of at most {MAX_NAME} characters, or null, not {name!r}")
        checked.append(name.strip() or None if isinstance(name, str) else None)
    return TableRequest(game, options, [s.strip() for s in seats], checked)


def option_kind(option: Option) -> str:
    """What an option's form field takes: bool, int, float, choice or text.

    >>> option_kind(Option("n", 2, "", choices=(1, 2))), option_kind(Option("x", 0.5, "", minimum=0.0))
    ('choice', 'float')
    """
    if option.choices is not None:
        return "choice"
    if isinstance(option.default, bool):
        return "bool"
    if any(isinstance(v, float) for v in (option.default, option.minimum, option.maximum)):
        return "float"
    if option.default is None or isinstance(option.default, int):
        return "int"
    return "text"


def games_catalogue() -> dict[str, Any]:
    """``GET /api/games``: every game with its seats and options (for the new-table form)."""
    out = []
    for name in parlour.game_names():
        game = parlour.load(name)
        players = next((o for o in game.option_specs if o.name == "players"), None)
        low = int(players.minimum) if players and players.minimum is not None else game.num_players
        high = int(players.maximum) if players and players.maximum is not None else game.num_players
        out.append({
            "name": name,
            "title": game.title,
            "min_players": low,
            "max_players": high,
            "options": [
                {"name": o.name, "default": o.default, "allowed": o.allowed(), "doc": o.doc,
                 "choices": list(o.choices) if o.choices is not None else None, "kind": option_kind(o),
                 "nullable": o.nullable}
                for o in game.option_specs
            ],
        })
    return {"games": out}
