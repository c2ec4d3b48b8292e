"""The web table's messages: what clients may send, the error codes, and the checks.

Every refusal is a :class:`WebError` with a code, a message that says what was wrong
and what is expected, and the HTTP status it gets on the HTTP side. On the websocket
it becomes ``{"type": "error", "code", "message", "state_id"}`` and changes nothing.

>>> parse_client_message('{"type": "act", "action": "take", "state_id": 3}')
{'type': 'act', 'action': 'take', 'state_id': 3}
>>> parse_client_message('{"type": "act", "action": "take"}')
Traceback (most recent call last):
...
parlour.web.protocol.WebError: bad_message: an act message needs "state_id": the state_id (a whole number, 0 or more) of the last state you received, e.g. {"type": "act", "action": "take", "state_id": 3}
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import parlour
from parlour.agents.levels import LEVELS
from parlour.core.options import Option
from parlour.web.limits import Limits

# Websocket error codes (docs/web.md).
BAD_MESSAGE = "bad_message"  # not JSON, unknown type, missing or mistyped field
BAD_TOKEN = "bad_token"  # a token that is no seat's of this table
UNKNOWN_TABLE = "unknown_table"
NOT_YOUR_TURN = "not_your_turn"  # also a spectator acting
STALE = "stale"  # state_id is not the current one
NOTATION = "notation"  # the action text does not parse (NotationError)
ILLEGAL = "illegal"  # it parses but is not legal now (IllegalAction)
FINISHED = "finished"  # the game is over
NO_UNDO = "no_undo"  # an undo at a table of more than one seat (the others have seen the move)
NOTHING_TO_UNDO = "nothing_to_undo"  # an undo before any action
SEAT_CLAIMED = "seat_claimed"  # an invite whose seat another browser holds
SEAT_REISSUED = "seat_reissued"  # the creator re-issued the invite of the seat this socket held
TABLE_CLOSED = "table_closed"  # the creator closed the table
TABLE_FULL = "table_full"  # the table has Limits.max_subscribers sockets already
HINTS_OFF = "hints_off"  # a hint asked at a table made with hints off
HINT_BUSY = "hint_busy"  # a hint asked while the table's last one is still being worked out
HINT_FAILED = "hint_failed"  # no hint came: past the deadline, a dead worker, an agent's error
# HTTP-only codes.
BAD_REQUEST = "bad_request"  # a body or query that is not what the endpoint takes
BAD_OPTION = "bad_option"  # unknown game, option or value; seats that do not fit the game
BAD_AGENT = "bad_agent"  # unknown agent spec, or an agent that cannot play this game
CHEATING_AGENT = "cheating_agent"  # an agent that sees hidden cards (clairvoyant)
NOT_FINISHED = "not_finished"  # a record or replay asked before the end
DAMAGED_TABLE = "damaged_table"  # a stored table whose actions no longer replay (500)
SERVER_ERROR = "server_error"  # the server failed (a bug, the disk): nothing changed
TOO_MANY_TABLES = "too_many_tables"  # the server holds Limits.max_live_tables unfinished tables (503)
BAD_ORIGIN = "bad_origin"  # a state-changing request or a websocket from another site's page (403)
UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"  # a request body that is not application/json (415)
BODY_TOO_LARGE = "body_too_large"  # a request body over Limits.max_body (413)
FORBIDDEN = "forbidden"  # a creator's request without the table's creator secret (403)
UNKNOWN_SEAT = "unknown_seat"  # a seat number the table does not have (404)
AGENT_SEAT = "agent_seat"  # a bot's seat, which has no invite (409)
TOO_FAST = "too_fast"  # messages faster than Limits.message_rate: the excess is dropped unread
JOIN_TIMEOUT = "join_timeout"  # a socket that sent no join within Limits.join_seconds (close 4002)
SERVER_BUSY = "server_busy"  # a finished table to watch while Limits.finished_cache others are watched (503)

# Websocket close codes: of a failed join, and of a socket the server ends.
CLOSE_BAD_TOKEN = 4001
CLOSE_JOIN_TIMEOUT = 4002
CLOSE_SEAT_CLAIMED = 4003
CLOSE_UNKNOWN_TABLE = 4004
CLOSE_SEAT_REISSUED = 4005
CLOSE_TABLE_CLOSED = 4006
CLOSE_TABLE_FULL = 4029
#: The close code that follows each refusal of a join.
JOIN_CLOSE = {BAD_TOKEN: CLOSE_BAD_TOKEN, SEAT_CLAIMED: CLOSE_SEAT_CLAIMED, TABLE_FULL: CLOSE_TABLE_FULL,
              SERVER_BUSY: CLOSE_TABLE_FULL,
              TABLE_CLOSED: CLOSE_TABLE_CLOSED}

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{4,40}$")
MAX_SEATS = 8
MAX_MESSAGE = 500  # characters of any error message a client gets: a last guard (the checks quote less)
MAX_STATE_ID = 2**53  # the largest integer a JavaScript client holds exactly; no table gets near it


def cut(text: str, limit: int) -> str:
    """``text`` itself when it has at most ``limit`` characters, else its start and an ellipsis.

    >>> cut("abcdef", 6), cut("abcdefg", 6)
    ('abcdef', 'abcde…')
    """
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


def shown(value: Any, limit: int = Limits.echo) -> str:
    """Client input as an error message quotes it: its ``repr``, at most ``limit`` characters
    (``Limits.echo``), so a 10 kB input gets back a short prefix, never itself.

    >>> shown("dance"), shown("x" * 100, 8), shown([1, 2])
    ("'dance'", "'xxxxxx…", '[1, 2]')
    """
    return cut(repr(value[:limit] if isinstance(value, str) else value), limit)


class WebError(Exception):
    """A refused request: ``code`` (see above), ``message``, the HTTP ``status`` and the
    ``fields`` some codes add to the websocket's error message (e.g. ``seat``)."""

    def __init__(self, code: str, message: str, status: int = 400, **fields: Any) -> None:
        message = cut(message, MAX_MESSAGE)
        super().__init__(f"{code}: {message}")
        self.code, self.message, self.status, self.fields = code, message, status, fields

    def body(self) -> dict[str, Any]:
        """The JSON body of an HTTP error response."""
        return {"error": {"code": self.code, "message": self.message}}


def unknown_table(table_id: str, echo: int = Limits.echo) -> WebError:
    """The error for a table id that names no table (tampered, mistyped or never made)."""
    return WebError(UNKNOWN_TABLE, f"there is no table {shown(table_id, echo)}: check the link, or open the "
                    "lobby at / to see the open tables", 404)


def error_message(err: WebError, state_id: int | None) -> dict[str, Any]:
    """A websocket error message."""
    return {"type": "error", "code": err.code, "message": err.message, "state_id": state_id, **err.fields}


_EXAMPLES = {
    "join": '{"type": "join", "token": "INVITE", "secret": null} (the invite of your link; "secret": the one the '
            'first join gave, to rejoin; both null to watch)',
    "act": '{"type": "act", "action": "take", "state_id": 3}',
    "undo": '{"type": "undo", "state_id": 3}',
    "ping": '{"type": "ping"}',
    "log": '{"type": "log", "from": 1}',
    "text": '{"type": "text", "on": true}',
    "hint": '{"type": "hint", "state_id": 3}',
}


def parse_json(data: str | bytes) -> Any:
    """Standard JSON text (bytes: UTF-8) as Python. Anything else is a ValueError: not JSON,
    ``NaN`` or ``Infinity`` (which Python's json takes and browsers do not), nesting too deep
    for the parser, an integer of more than 4,300 digits (Python's conversion limit).

    >>> parse_json(b'{"a": [1, 2.5, null]}')
    {'a': [1, 2.5, None]}
    >>> parse_json("[NaN]")
    Traceback (most recent call last):
    ...
    ValueError: NaN is not a JSON value
    >>> parse_json("1" * 5000)
    Traceback (most recent call last):
    ...
    ValueError: it holds an integer of more than 4,300 digits
    >>> parse_json(bytes([255]))
    Traceback (most recent call last):
    ...
    ValueError: it is not UTF-8 text (byte 1 cannot begin or continue a character)
    """
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError as err:
        raise ValueError(f"it is not UTF-8 text (byte {err.start + 1} cannot begin or continue a character)") from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("the JSON is nested too deeply") from None
    except ValueError as err:
        if "int_max_str_digits" in str(err) or "integer string conversion" in str(err):
            raise ValueError("it holds an integer of more than 4,300 digits") from None  # not Python's own advice
        raise


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _action_number(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value < 2**53:
        raise WebError(BAD_MESSAGE, f"{what} is an action number, 1 or more, e.g. {_EXAMPLES['log']}")
    return value


def parse_client_message(text: Any, max_frame: int = Limits.max_frame, echo: int = Limits.echo) -> dict[str, Any]:
    """A client message, checked: ``join`` (token: text or null; text: bool; log_from: an
    action number or null), ``act`` (action: text, state_id: integer), ``undo`` (state_id:
    integer), ``hint`` (state_id: integer), ``log`` (from: an
    action number), ``text`` (on: bool) or ``ping``. Anything else is a ``bad_message``
    WebError, and so is a frame of more than ``max_frame`` bytes (refused without being parsed)."""
    if not isinstance(text, str):
        raise WebError(BAD_MESSAGE, "messages are JSON text frames, not binary")
    if len(text) > max_frame or len(text.encode("utf-8", "surrogatepass")) > max_frame:
        raise WebError(BAD_MESSAGE, f"a message is at most {max_frame} bytes, and this one is longer: "
                       f"send e.g. {_EXAMPLES['act']}")
    try:
        message = parse_json(text)
    except ValueError:
        raise WebError(BAD_MESSAGE, f"the message is not JSON: expected e.g. {_EXAMPLES['act']}") from None
    if not isinstance(message, dict):
        raise WebError(BAD_MESSAGE, f"a message is a JSON object with a \"type\", e.g. {_EXAMPLES['ping']}")
    kind = message.get("type")
    if not isinstance(kind, str) or kind not in _EXAMPLES:
        raise WebError(BAD_MESSAGE, f"unknown message type {shown(kind, echo)}: the types are join, act, undo, "
                       "hint, log, text and ping")
    if kind == "join":
        token, secret = message.get("token"), message.get("secret")
        if token is not None and not isinstance(token, str):
            raise WebError(BAD_MESSAGE, f"a join's \"token\" is the seat's invite text or null, e.g. {_EXAMPLES['join']}")
        if secret is not None and not isinstance(secret, str):
            raise WebError(BAD_MESSAGE, f"a join's \"secret\" is the seat secret text or null, e.g. {_EXAMPLES['join']}")
        text = message.get("text", False)
        if not isinstance(text, bool):
            raise WebError(BAD_MESSAGE, "a join's \"text\" is true (state messages carry the table as plain text) "
                           "or false")
        log_from = message.get("log_from")
        if log_from is not None:
            log_from = _action_number(log_from, "a join's \"log_from\"")
        return {"type": "join", "token": token, "secret": secret, "text": text, "log_from": log_from}
    if kind == "text":
        on = message.get("on")
        if not isinstance(on, bool):
            raise WebError(BAD_MESSAGE, f"a text message's \"on\" is true or false, e.g. {_EXAMPLES['text']}")
        return {"type": "text", "on": on}
    if kind == "log":
        return {"type": "log", "from": _action_number(message.get("from"), "a log message's \"from\"")}
    if kind == "act":
        action = message.get("action")
        if not isinstance(action, str):
            raise WebError(BAD_MESSAGE, f"an act message needs \"action\": the action's notation text, e.g. {_EXAMPLES['act']}")
        return {"type": "act", "action": action, "state_id": _state_id(message, "an act")}
    if kind == "undo":
        return {"type": "undo", "state_id": _state_id(message, "an undo")}
    if kind == "hint":
        return {"type": "hint", "state_id": _state_id(message, "a hint")}
    return {"type": "ping"}


def _state_id(message: dict[str, Any], what: str) -> int:
    """The ``state_id`` of an act or undo message: a whole number, 0..MAX_STATE_ID."""
    state_id = message.get("state_id")
    if not isinstance(state_id, int) or isinstance(state_id, bool) or not 0 <= state_id <= MAX_STATE_ID:
        raise WebError(BAD_MESSAGE, f"{what} message needs \"state_id\": the state_id (a whole number, 0 or "
                       f"more) of the last state you received, e.g. {_EXAMPLES[message['type']]}")
    return state_id


@dataclass(frozen=True)
class TableRequest:
    """A checked ``POST /api/tables`` body (the game and agents are checked when the table is made);
    ``hints``: whether the seats may ask for hints."""

    game: str
    options: dict[str, Any]
    seats: list[str]
    names: list[str | None]
    hints: bool = True


def parse_table_request(body: Any, limits: Limits = Limits()) -> TableRequest:
    """The body of ``POST /api/tables``: ``{"game", "options", "seats", "names", "hints"}``, its
    shape checked within ``limits`` (the options' values and the agents are checked when the table
    is made). ``hints`` is true (the default) or false.

    >>> parse_table_request({"game": "quisquilian", "seats": ["human", "random", "random"]}).names
    [None, None, None]
    >>> parse_table_request({"game": "psalter-row", "seats": ["human"], "hints": False}).hints
    False
    >>> parse_table_request({"game": "psalter-row", "seats": ["human"], "names": ["Ann\\u202e"]})
    Traceback (most recent call last):
    ...
    parlour.web.protocol.WebError: bad_request: name 'Ann\\u202e' holds U+202E (RIGHT-TO-LEFT OVERRIDE, a format character), which names may not hold: a name is letters, digits, spaces, punctuation and symbols (emoji too)
    """
    example = '{"game": "decktet-golf", "options": {}, "seats": ["human", "random"]}'
    if not isinstance(body, dict):
        raise WebError(BAD_REQUEST, f"the body is a JSON object such as {example}")
    unknown = sorted(set(body) - {"game", "options", "seats", "names", "hints"})
    if unknown:
        raise WebError(BAD_REQUEST, f"unknown field {shown(unknown[0], limits.echo)}: the fields are game, options, "
                       "seats, names, hints")
    hints = body.get("hints", True)
    if not isinstance(hints, bool):
        raise WebError(BAD_REQUEST, f"\"hints\" is true (the seats may ask for a hint) or false, not "
                       f"{shown(hints, limits.echo)}")
    game, options, seats = body.get("game"), body.get("options", {}), body.get("seats")
    if not isinstance(game, str):
        raise WebError(BAD_OPTION, f"\"game\" names one of {', '.join(parlour.game_names())}, e.g. {example}", 422)
    if game not in parlour.game_names():
        raise WebError(BAD_OPTION, f"there is no game {shown(game, limits.echo)}: the games are "
                       f"{', '.join(parlour.game_names())}", 422)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise WebError(BAD_OPTION, "\"options\" maps option names to values, e.g. {\"players\": 3}", 422)
    for key, value in options.items():
        _check_option(game, key, value, limits.echo)
    if not isinstance(seats, list) or not seats:
        raise WebError(BAD_REQUEST, "\"seats\" is a list with one entry per seat: \"human\" or an agent spec "
                       f"such as \"level:casual\" or \"ismcts:iterations=200\", e.g. {example}")
    if len(seats) > MAX_SEATS:
        raise WebError(BAD_OPTION, f"{len(seats)} seats: a table has at most {MAX_SEATS}", 422)
    specs = [_checked_spec(seat, limits) for seat in seats]
    names = body.get("names", [None] * len(seats))
    names = [None] * len(seats) if names is None else names
    if not isinstance(names, list) or len(names) != len(seats):
        raise WebError(BAD_REQUEST, f"\"names\" has one entry (text or null) per seat: {len(seats)} here")
    return TableRequest(game, options, specs, [_checked_name(name, limits) for name in names], hints)


#: Unicode categories of the characters no name or agent spec may hold: controls (NUL, BEL,
#: newlines...), format characters (the bidi overrides and isolates, invisible ones), line and
#: paragraph separators, surrogates, private use, unassigned code points.
REFUSED_CATEGORIES = {"Cc": "a control character", "Cf": "a format character", "Zl": "a line separator",
                      "Zp": "a paragraph separator", "Cs": "a surrogate", "Co": "a private-use character",
                      "Cn": "an unassigned character"}
ZERO_WIDTH_JOINER = "\u200d"  # a format character, but it joins emoji (a family, a rainbow flag): allowed
#: Combining marks (Unicode Mn, Mc, Me) one character may carry: Vietnamese stacks two, Indic
#: scripts a few; more is "zalgo" text, drawn over the lines above and below it.
MAX_MARKS = 4
MARKS = ("Mn", "Mc", "Me")


def refused_character(text: str) -> str | None:
    """The first character of ``text`` that no name or spec may hold, as U+XXXX with its name
    and kind; None when every one is allowed. A combining mark is refused at the start (it has
    no character to sit on) and past :data:`MAX_MARKS` on one character.

    >>> refused_character("Zoë 🙂"), refused_character("bell\\a")
    (None, 'U+0007 (a control character)')
    >>> refused_character("Tiê\u0301n"), refused_character("Z" + "\u0336" * 5)
    (None, 'U+0336 (COMBINING LONG STROKE OVERLAY, a combining mark past the 4 one character may carry)')
    """
    marks, base = 0, False
    for char in text:
        category = unicodedata.category(char)
        kind = REFUSED_CATEGORIES.get(category)
        if category == "Cf":
            pass  # a joiner (the one Cf allowed) neither carries marks nor starts a new character
        elif category not in MARKS:
            marks, base = 0, True
        elif not base:
            kind = "a combining mark with no character before it"
        else:
            marks += 1
            if marks > MAX_MARKS:
                kind = f"a combining mark past the {MAX_MARKS} one character may carry"
        if kind is not None and char != ZERO_WIDTH_JOINER:
            name = unicodedata.name(char, "")
            return f"U+{ord(char):04X} ({name + ', ' if name else ''}{kind})"
    return None


def _checked_name(name: Any, limits: Limits) -> str | None:
    """A seat's name, stripped (None: the default name)."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise WebError(BAD_REQUEST, f"a name is text of at most {limits.max_name} characters, or null, "
                       f"not {shown(name, limits.echo)}")
    text = name.strip()
    if len(text) > limits.max_name:
        raise WebError(BAD_REQUEST, f"a name is at most {limits.max_name} characters: {shown(text, limits.echo)} "
                       f"has {len(text)}")
    refused = refused_character(text)  # stripped: a mark after a leading space would start the name
    if refused is not None:
        raise WebError(BAD_REQUEST, f"name {shown(text, limits.echo)} holds {refused}, which names may not hold: "
                       "a name is letters, digits, spaces, punctuation and symbols (emoji too)")
    return text or None


def _checked_spec(spec: Any, limits: Limits) -> str:
    """A seat's entry: "human" or an agent spec, stripped (the agent itself is checked later)."""
    if not isinstance(spec, str) or not spec.strip():
        raise WebError(BAD_REQUEST, "\"seats\" is a list with one entry per seat: \"human\" or an agent spec "
                       f"such as \"level:casual\" or \"ismcts:iterations=200\", not {shown(spec, limits.echo)}")
    text = spec.strip()
    if len(text) > limits.max_spec:
        raise WebError(BAD_AGENT, f"seat {shown(text, limits.echo)}: an agent spec is at most {limits.max_spec} "
                       f"characters, this one has {len(text)}", 422)
    refused = refused_character(spec)
    if refused is not None:
        raise WebError(BAD_AGENT, f"seat {shown(text, limits.echo)} holds {refused}: an agent spec is a name "
                       "and key=value options, such as \"ismcts:iterations=200\"", 422)
    return text


MAX_OPTION_NUMBER = 10**15  # no option of any game takes a number near this; larger is refused unread


def _check_option(game: str, key: str, value: Any, echo: int) -> None:
    """An option's value is a JSON scalar small enough to quote back whole in the game's own
    error: a bool, a finite number below MAX_OPTION_NUMBER, null, or text of at most ``echo``
    characters (the game checks the name and the value)."""
    if len(key) > echo:
        raise WebError(BAD_OPTION, f"{game} has no option {shown(key, echo)}: see GET /api/games for its options", 422)
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if (value is None or isinstance(value, bool) or (isinstance(value, str) and len(value) <= echo)
            or (number and abs(value) < MAX_OPTION_NUMBER)):  # False for NaN and infinities too
        return
    expected = "a number, true, false, null or a short text (see GET /api/games for the values allowed)"
    raise WebError(BAD_OPTION, f"{game} option {key}={shown(value, echo)} is not allowed: expected {expected}", 422)


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
    """``GET /api/games``: every game with its seats, options and levels, weakest first (for the
    new-table form: a level is offered by its spec, with its one line and its agent in that game).

    >>> [level["spec"] for level in games_catalogue()["games"][0]["levels"]]
    ['level:novice', 'level:casual', 'level:strong', 'level:expert']
    """
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
            "levels": [{"name": level.name, "spec": f"level:{level.name}", "summary": level.summary,
                        "seconds": level.seconds, "agent": level.spec_for(name)}
                       for level in LEVELS if name in level.agents],
        })
    return {"games": out}
