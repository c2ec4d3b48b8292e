"""Reading positions: the checks every game's ``from_position`` shares.

Each reader takes the value from a position dict, checks it, and raises a
PositionError that names the key and what is expected.

>>> read_int({"round": 2}, "round", 1, low=1)
2
>>> read_flag({"reshuffled": "yes"}, "reshuffled")
Traceback (most recent call last):
...
parlour.core.errors.PositionError: reshuffled must be true or false, not 'yes'

Whatever a value is (another type, a huge number, deep nesting), the error quotes it cut
short (``words.shown``) and nothing but a PositionError comes out.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from parlour.core.chance import derive_seed, is_seed, shuffle
from parlour.core.errors import NotationError, PositionError
from parlour.core.options import MAX_INT
from parlour.core.words import shown

if TYPE_CHECKING:
    from parlour.core.game import Game


def opening(game: "Game", position: Any, keys: str) -> tuple["Game", int]:
    """The game with the position's options, and its chance seed (derived when left out).

    ``keys`` names the position's main keys for the error a non-dict gets.
    """
    if not isinstance(position, dict):
        raise PositionError(f"a {game.name} position is a dict with keys such as {keys}, not {shown(position)}")
    options = position.get("options")
    if options is not None and not isinstance(options, dict):
        raise PositionError(f"options must map option names to values, not {shown(options)}")
    chance = position.get("chance")
    if chance is None:  # DESIGN.md: missing means one derived from the position
        chance = derive_seed(_as_json(position), "position")
    elif not is_seed(chance):
        raise PositionError(f"chance {shown(chance)} must be an integer seed below 2**128 in size")
    return game.with_options(options), chance


def _as_json(position: dict[str, Any]) -> str:
    """The position as canonical JSON text, from which a missing chance seed derives."""
    try:
        return json.dumps(position, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):  # keys not text, a cycle, a number too long to write
        raise PositionError(
            "a position is JSON data: text keys, and numbers, text, true, false, null, lists and dicts"
        ) from None


def is_int(value: Any) -> bool:
    """An integer in a position: an int (not a bool, which Python counts as one) within 2**63."""
    return isinstance(value, int) and not isinstance(value, bool) and -MAX_INT <= value <= MAX_INT


def read_int(position: dict[str, Any], key: str, default: int, low: int = 0, high: int | None = None) -> int:
    value = position.get(key, default)
    if not is_int(value) or value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f"{low} or more (below 2**63 in size)"
        raise PositionError(f"{key} {shown(value)} must be an integer {allowed}")
    return value


def read_seat(value: Any, key: str, seats: int, allow_none: bool = False) -> int:
    """A seat number (-1 for ``None`` where that is allowed)."""
    if value is None and allow_none:
        return -1
    if not is_int(value) or not 0 <= value < seats:
        raise PositionError(f"{key} {shown(value)} must be a seat 0..{seats - 1}")
    return value


def read_flag(position: dict[str, Any], key: str, default: bool = False) -> bool:
    value = position.get(key, default)
    if not isinstance(value, bool):
        raise PositionError(f"{key} must be true or false, not {shown(value)}")
    return value


def read_choice(position: dict[str, Any], key: str, allowed: Sequence[Any], default: Any = None) -> Any:
    value = position.get(key, default)
    if not any(type(value) is type(choice) and value == choice for choice in allowed):  # 1 == True: types too
        raise PositionError(f"{key} {shown(value)} is not allowed: expected one of {', '.join(map(repr, allowed))}")
    return value


#: Longer than any card's code or name.
MAX_CODE = 40


def read_cards(value: Any, key: str, parse: Callable[[str], int]) -> list[int]:
    """A list of card codes (``None`` is an empty list)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(code, str) for code in value):
        raise PositionError(f"{key} must be a list of card codes (text), not {shown(value)}")
    long = next((code for code in value if len(code) > MAX_CODE), None)
    if long is not None:  # (no card's code or name is this long: the error need not quote it all)
        raise PositionError(f"{key}: {shown(long)} is not a card")
    try:
        return [parse(code) for code in value]
    except NotationError as err:
        raise PositionError(f"{key}: {err}") from None


def draw_pile(
    deck: Iterable[int], placed: Counter, given: list[int] | None, seed: int, code: Sequence[str]
) -> list[int]:
    """The draw pile: as given, or the deck's cards found nowhere else in an order fixed by
    ``seed``. Either way the cards must then be exactly the deck (``code`` names them)."""
    wanted = Counter(deck)
    if given is None:
        pile = sorted((wanted - placed).elements())
        shuffle(pile, seed, "position-pile")
    else:
        pile = given
    found = placed + Counter(pile)
    if found != wanted:
        extra, missing = found - wanted, wanted - found
        raise PositionError(
            "the cards must be exactly the game's deck, each in one place: "
            + "; ".join(
                part for part in (
                    f"more than one place or too many: {' '.join(code[c] for c in extra.elements())}" if extra else "",
                    f"missing: {' '.join(code[c] for c in missing.elements())}" if missing else "",
                ) if part
            )
        )
    return pile
