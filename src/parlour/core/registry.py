"""The registry of games: names to classes, loaded lazily.

>>> "psalter-row" in game_names()
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from parlour.core.errors import OptionError

if TYPE_CHECKING:
    from parlour.core.game import Game

_GAMES: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Register a game class given as ``"module:Class"`` (imported on first use)."""
    _GAMES[name] = target


def game_names() -> list[str]:
    """The names of every registered game, sorted."""
    return sorted(_GAMES)


def game_class(name: str) -> type["Game"]:
    """The class of a registered game; OptionError lists the games when unknown."""
    target = _GAMES.get(name) if isinstance(name, str) else None
    if target is None:
        raise OptionError(f"there is no game {name!r}: the games are {', '.join(game_names())}")
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def load(name: str, **options: Any) -> "Game":
    """A game with its options validated (unknown names and bad values are OptionError)."""
    return game_class(name)(**options)
