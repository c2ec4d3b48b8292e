"""The registry of games: names to classes, loaded lazily.

>>> "psalter-row" in game_names()
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from parlour.core.errors import OptionError
from parlour.core.words import counted, shown

if TYPE_CHECKING:
    from parlour.core.game import Game

_GAMES: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Register a game class given as ``"module:Class"`` (imported on first use)."""
    _GAMES[name] = target


def game_names() -> list[str]:
    """The names of every registered game, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type[Game]:
    """The class of a registered game; OptionError lists the games when unknown."""
    target = _GAMES.get(name) if isinstance(name, str) else None
    if target is None:
        raise OptionError(f"there is no game {shown(name)}: the games are {', '.join(game_names())}")
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def load(name: str, /, **options: Any) -> Game:
    """A game with its options validated (unknown names and bad values are OptionError; an
    option called ``name`` or ``self`` is unknown like any other, hence positional-only).

    >>> import parlour
    >>> load("psalter-row", self=1)
    Traceback (most recent call last):
    ...
    parlour.core.errors.OptionError: psalter-row has no option 'self': its options are first_page_cost, errand_draw, errand_when_stuck, revision_discard, revision_target, end_on
    """
    return game_class(name)(**options)


def load_seated(name: str, options: dict[str, Any], seats: int | None = None) -> Game:
    """A game for ``seats`` seats: where the game has a ``players`` option that ``options``
    leave out, the number of seats sets it; otherwise it must be the game's own.

    >>> import parlour
    >>> load_seated("decktet-golf", {"rounds": 1}, 4).num_players
    4
    >>> load_seated("psalter-row", {}, 2)
    Traceback (most recent call last):
    ...
    parlour.core.errors.OptionError: psalter-row has 1 seat here, but 2 seats were given
    """
    game = load(name, **options)
    if seats is None or seats == game.num_players:
        return game
    if "players" in game.options and "players" not in options:
        return load(name, **options, players=seats)
    raise OptionError(f"{name} has {counted(game.num_players, 'seat')} here, but {seats} seats were given")
