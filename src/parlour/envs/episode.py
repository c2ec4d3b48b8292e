"""What the PettingZoo and Gymnasium environments share: the game they load, the seed of
each episode, what an illegal id does, and the text they render.

>>> game = load_game("decktet-golf", {"players": 3})
>>> game.num_players, illegal_mode("penalty")
(3, 'penalty')
"""

from __future__ import annotations

from typing import Any

import numpy as np
from rich.text import Text

from parlour.core.errors import OptionError
from parlour.core.game import Game
from parlour.core.registry import load
from parlour.core.words import shown
from parlour.envs.decisions import Decisions

#: ``"error"``: an illegal id raises IllegalAction and changes nothing; ``"penalty"``: as
#: PettingZoo's TerminateIllegalWrapper, the game ends, the offender gets PENALTY, the rest 0.
ILLEGAL_MODES = ("error", "penalty")
PENALTY = -1.0
RENDER_MODES = ["ansi"]
#: Gymnasium asks every render mode for a frame rate; text has none to speak of.
RENDER_FPS = 1


def load_game(game: str | Game, options: dict[str, Any]) -> Game:
    """``game`` (a name or a Game) with ``options`` (game options, e.g. ``players=3``) applied."""
    if isinstance(game, Game):
        return game.with_options(options or None)
    return load(game, **options)


def illegal_mode(value: Any) -> str:
    if value not in ILLEGAL_MODES:
        raise OptionError(f"illegal={shown(value)} is not allowed: expected one of {', '.join(ILLEGAL_MODES)}")
    return str(value)


def render_mode(value: Any) -> str | None:
    if value is not None and value not in RENDER_MODES:
        raise OptionError(f"render_mode={shown(value)} is not allowed: expected None or one of {', '.join(RENDER_MODES)}")
    return value


def game_seed(np_random: np.random.Generator) -> int:
    """The next episode's game seed, from the environment's generator (seeded by reset)."""
    return int(np_random.integers(2**63))


def ansi(decisions: Decisions, you: str = "you") -> str:
    """The table as plain text, as the seat to act sees it (after the end: as a spectator does),
    that seat tagged ``you`` (:meth:`~parlour.core.game.Game.render`)."""
    state = decisions.state
    markup = state.game.render(state.observation(state.current_player), you=you)
    return Text.from_markup(markup).plain + "\n"
