"""Reading positions: the checks every game's ``from_position`` shares.

Each reader takes the value from a position dict, checks it, and raises a
PositionError that names the key and what is expected.

>>> read_int({"round": 2}, "round", 1, low=1)
2
>>> read_flag({"reshuffled": "yes"}, "reshuffled")
Traceback (most recent call last):
...
parlour.core.errors.PositionError: reshuffled must be true or false, not 'yes'
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from parlour.core.chance import derive_seed, shuffle
from parlour.core.errors import NotationError, PositionError

if TYPE_CHECKING:
    from parlour.core.game import Game


def opening(game: "Game", position: Any, keys: str) -> tuple["Game", int]:
    """The game with the position's options, and its chance seed (derived when left out).

    ``keys`` names the position's main keys for the error a non-dict gets.
    """
    if not isinstance(position, dict):
        raise PositionError(f"a {game.name} position is a dict with keys such as {keys}")
    options = position.get("options")
    if options is not None and not isinstance(options, dict):
        raise PositionError(f"options must map option names to values, not {options!r}")
    chance = position.get("chance")
    if chance is None:  # DESIGN.md: missing means one derived from the position
        chance = derive_seed(json.dumps(position, sort_keys=True, default=str), "position")
    elif not isinstance(chance, int) or isinstance(chance, bool):
        raise PositionError(f"chance {chance!r} must be an integer seed")
    return game.with_options(options), chance


def read_int(position: dict[str, Any], key: str, default: int, low: int = 0, high: int | None = None) -> int:
    value = position.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f"{low} or more"
        raise PositionError(f"{key} {value!r} must be an integer {allowed}")
    return value


def read_seat(value: Any, key: str, seats: int, allow_none: bool = False) -> int:
    """A seat number (-1 for ``None`` where that is allowed)."""
    if value is None and allow_none:
        return -1
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
        raise PositionError(f"{key} {value!r} must be a seat 0..{seats - 1}")
    return value


def read_flag(position: dict[str, Any], key: str, default: bool = False) -> bool:
    value = position.get(key, default)
    if not isinstance(value, bool):
        raise PositionError(f"{key} must be true or false, not {value!r}")
    return value


def read_choice(position: dict[str, Any], key: str, allowed: Sequence[Any], default: Any = None) -> Any:
    value = position.get(key, default)
    if value not in allowed:
        raise PositionError(f"{key} {value!r} is not allowed: expected one of {', '.join(map(repr, allowed))}")
    return value


def read_cards(value: Any, key: str, parse: Callable[[str], int]) -> list[int]:
    """A list of card codes (``None`` is an empty list)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise PositionError(f"{key} must be a list of card codes, not {value!r}")
    try:
        return [parse(str(code)) for code in value]
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
