"""Game records (JSON) and replay.

A record stores the options, the seed (or a start position) and the actions in
notation; positions are rebuilt on demand by replaying, as PGN does for chess.

>>> import parlour
>>> state = parlour.load("psalter-row").new_state(seed=3)
>>> _ = state.apply(state.legal_actions()[0])
>>> parlour.replay(state.record()).to_position() == state.to_position()
True
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from parlour.core.errors import OptionError, ParlourError, RecordError
from parlour.core.words import shown

if TYPE_CHECKING:
    from parlour.core.game import State

RECORD_KEYS = ("game", "version", "options", "seed", "players", "actions", "result")
#: Characters of a player's name in a record: the web's names are 40, a terminal seat's name is
#: its agent spec, which may hold a file's path (at most 4,096 on Linux).
MAX_NAME = 4_096


def result_of(state: "State") -> dict[str, Any]:
    """The ``result`` entry of a record: scores, winners and the end reason."""
    over = state.is_terminal()
    return {"scores": state.scores(), "winners": state.winners() if over else [], "end": state.end_reason}


def make_record(state: "State", players: list[str] | None = None) -> dict[str, Any]:
    """The record of the game that led to ``state``.

    ``players`` names the seats (default ``seat 0``, ``seat 1``, ...). A game
    started from a position has ``"seed": null`` and that position under ``"start"``.
    """
    from parlour import __version__

    game = state.game
    names = [f"seat {i}" for i in range(game.num_players)] if players is None else players
    problem = _names_problem(names, game.num_players)
    if problem:
        raise OptionError(f"players={shown(players)}: {problem}")
    kind, origin = state._origin
    record: dict[str, Any] = {
        "game": game.name,
        "version": __version__,
        "options": dict(game.options),
        "seed": origin if kind == "seed" else None,
        "players": list(names),
        "actions": [str(a) for a in state.history()],
        "result": result_of(state),
    }
    if kind == "position":
        record["start"] = origin.to_position()
    return record


def _names_problem(names: Any, seats: int) -> str | None:
    """What is wrong with ``names`` as a record's ``players`` for ``seats`` seats (None: nothing)."""
    if not isinstance(names, (list, tuple)):
        return f"the players are a list of {seats} names"
    if len(names) != seats:
        return f"{len(names)} player names for {seats} seats"
    for name in names:
        if not isinstance(name, str) or len(name) > MAX_NAME:
            return f"a player's name is text of at most {MAX_NAME} characters, not {shown(name)}"
    return None


def replay(record: dict[str, Any] | str) -> "State":
    """Rebuild a game from its record, checking every action and the result.

    ``record`` is a dict or its JSON text. Raises RecordError naming the first
    action that fails, or the difference in the result.
    """
    from parlour.core.registry import load

    data = _as_dict(record)
    try:
        game = load(data["game"]).with_options(data["options"])
    except ParlourError as err:
        raise RecordError(f"the record's game or options are not valid: {err}") from None
    _check_header(game, data)
    state = _start(game, data)
    for index, text in enumerate(data["actions"], 1):
        if not isinstance(text, str):
            raise RecordError(f"action {index} is {shown(text)}: expected notation text")
        try:
            state.apply(text)
        except ParlourError as err:
            raise RecordError(f"action {index} {shown(text)} does not replay: {err}") from None
    _check_result(state, data.get("result"))
    return state


def _check_header(game: Any, data: dict[str, Any]) -> None:
    """The version and the players, as a record writes them (the rest is checked by replaying)."""
    if not isinstance(data.get("version", ""), str):
        raise RecordError(f"the record's version is text such as '0.1.0', not {shown(data['version'])}")
    if "players" in data:
        problem = _names_problem(data["players"], game.num_players)
        if problem:
            raise RecordError(f"the record's players: {problem}")


def _as_dict(record: dict[str, Any] | str) -> dict[str, Any]:
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except (ValueError, RecursionError) as err:  # (a number too long to read, nesting too deep)
            raise RecordError(f"the record is not valid JSON: {err}") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object with keys " + ", ".join(RECORD_KEYS))
    missing = [k for k in ("game", "options", "actions") if k not in record]
    if missing:
        raise RecordError(f"the record has no {', '.join(missing)}: expected keys {', '.join(RECORD_KEYS)}")
    if not isinstance(record["options"], dict) or not isinstance(record["actions"], list):
        raise RecordError("the record's options must be an object and its actions a list of notation")
    return record


def _start(game: Any, data: dict[str, Any]) -> "State":
    """The state the record starts from: its seed's deal, or its start position (never both),
    played with the record's options (a start naming others contradicts the record)."""
    seed, start = data.get("seed"), data.get("start")
    if seed is not None and start is not None:
        raise RecordError("the record has both a seed and a start position: a game starts from one of them "
                          "(a record of a game from a position has \"seed\": null)")
    if seed is None and not isinstance(start, dict):
        raise RecordError("the record has neither a seed (an integer) nor a start position")
    try:
        state = game.new_state(seed) if seed is not None else game.from_position(start)
    except ParlourError as err:
        raise RecordError(f"the record's start does not load: {err}") from None
    if state.game.options != game.options:
        differ = sorted(k for k in game.options if state.game.options.get(k) != game.options[k])
        raise RecordError(f"the record's start position has other options than the record "
                          f"({', '.join(differ)}): a record's options are its game's")
    return state


def _check_result(state: "State", result: Any) -> None:
    if result is None:
        return
    replayed = result_of(state)
    if not isinstance(result, dict) or sorted(result) != sorted(replayed):
        raise RecordError(f"the record's result must be an object of scores, winners and end, like {replayed}, "
                          f"not {shown(result)}")
    for key in ("scores", "winners", "end"):
        if result[key] != replayed[key]:
            raise RecordError(
                f"the record's result says {key}={shown(result[key])} but replaying gives {replayed[key]!r}"
            )
