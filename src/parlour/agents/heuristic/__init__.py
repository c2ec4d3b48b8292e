"""The heuristic agent: one documented strategy per game, chosen by the view's game.

Each game's strategy is a module ``parlour.agents.heuristic.<game package>`` with
``PARAMS`` (its tunable parameters, as options with tuned defaults) and
``choose(view, rng, settings) -> Action``. The agent's parameters are the union of
all games' parameters, so one spec (``heuristic:patron_gap=5``) works for every game
and a parameter of another game is simply not used.

>>> import parlour, random
>>> view = parlour.load("psalter-row").new_state(seed=3).view(0)
>>> parlour.agent("heuristic").act(view, random.Random(0)) in view.legal_actions
True
"""

from __future__ import annotations

import functools
import importlib
import random
from types import ModuleType
from typing import TYPE_CHECKING

from parlour.agents.base import NO_SEARCH, Agent, Budget
from parlour.core.action import Action
from parlour.core.errors import OptionError
from parlour.core.options import Option
from parlour.core.view import View

if TYPE_CHECKING:
    from parlour.core.game import Game

#: The game packages that have a strategy, by game name.
STRATEGIES = {
    "psalter-row": "psalter_row",
    "decktet-golf": "decktet_golf",
    "quisquilian": "quisquilian",
}


@functools.cache
def strategy(game_name: str) -> ModuleType:
    """The strategy module of a game; an OptionError for a game that has none."""
    if game_name not in STRATEGIES:
        raise OptionError(f"there is no heuristic strategy for {game_name!r}: there are strategies for "
                          f"{', '.join(sorted(STRATEGIES))}")
    return importlib.import_module(f"{__name__}.{STRATEGIES[game_name]}")


def _all_params() -> tuple[Option, ...]:
    params: dict[str, Option] = {}
    for game_name in STRATEGIES:
        for option in strategy(game_name).PARAMS:
            assert option.name not in params, f"heuristic parameter {option.name} named twice"
            params[option.name] = option
    return tuple(params.values())


class HeuristicAgent(Agent):
    """Plays each game by its documented strategy (see ``docs/agents.md``)."""

    name = "heuristic"
    params = _all_params()
    summary = "a hand-written strategy per game, with tunable parameters"

    def check(self, game: Game) -> None:
        strategy(game.name)

    def budget(self) -> Budget:
        return NO_SEARCH

    def act(self, view: View, rng: random.Random) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        return strategy(view.game.name).choose(view, rng, self.settings)
