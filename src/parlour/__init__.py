"""parlour: an engine for the card games Psalter Row, Decktet Golf and Quisquilian.

>>> import parlour
>>> game = parlour.load("psalter-row")
>>> state = game.new_state(seed=7)
>>> state.current_player
0
"""

import parlour.games  # noqa: F401  (registers the games)
from parlour.core.errors import (
    CodecError,
    IllegalAction,
    NotationError,
    OptionError,
    ParlourError,
    PositionError,
    RecordError,
)
from parlour.core.record import replay
from parlour.core.registry import game_names, load

__version__ = "0.1.0"


def agent(spec: str):  # type: ignore[no-untyped-def]
    """An agent from a spec ``name`` or ``name:key=value,...`` (today: ``"random"``).

    >>> agent("random").name
    'random'
    """
    from parlour.agents import make_agent

    return make_agent(spec)


__all__ = [
    "CodecError",
    "IllegalAction",
    "NotationError",
    "OptionError",
    "ParlourError",
    "PositionError",
    "RecordError",
    "agent",
    "game_names",
    "load",
    "replay",
    "__version__",
]
