"""The clairvoyant Psalter Row player: analysis only, and it cheats.

It is handed the true state (see :meth:`Agent.move`), so it knows the order of
the draw pile and the chance seed of the reshuffle. Psalter Row resolves all its
chance inside ``apply`` from that seed, so ``state.clone()`` followed by ``apply``
replays the true future exactly: the game becomes a one-player puzzle with
perfect information. The agent solves it, as well as a bounded search can, with
Nested Monte Carlo Search (Cazenave, 2009) once per game, then follows the line
it found; when the state is not on that line (it was seated mid-game) it plans
again. Its mean score is an upper bound on what any fair player can reach, not a
player: it can never sit at a table (:meth:`ClairvoyantAgent.act` refuses).

>>> import parlour, random
>>> state = parlour.load("psalter-row").new_state(seed=4)
>>> agent = parlour.agent("clairvoyant:level=1")
>>> agent.move(state, 0, random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from parlour.agents.base import Agent
from parlour.core.action import Action
from parlour.core.errors import OptionError, ParlourError
from parlour.core.options import Option
from parlour.core.view import View
from parlour.games.psalter_row.game import PsalterRow

if TYPE_CHECKING:
    from parlour.core.game import Game, State

GAME = "psalter-row"
#: A one-suit Psalter (PR-13): no line scores more, so the search stops when it finds one.
BEST_SCORE = PsalterRow.score_range[1]


class AnalysisOnlyError(ParlourError, TypeError):
    """An analysis-only agent was asked to play from a view (at a table, say)."""


class ClairvoyantAgent(Agent):
    """Plays Psalter Row with perfect knowledge of the draw pile (an upper bound, not a player).

    >>> agent = ClairvoyantAgent(level=1)
    >>> agent.cheats, agent.spec
    (True, 'clairvoyant:level=1')
    """

    name = "clairvoyant"
    summary = "analysis only, cheats: searches Psalter Row knowing the draw pile"
    cheats = True
    params = (
        Option("level", 2, "nesting level of the search; each level costs about 70 times more", minimum=1, maximum=3),
        Option("playouts", 1, "playouts from each move at the lowest level; the best counts", minimum=1, maximum=64),
        Option("greed", 90, "percent of playout turns that take the cheapest placement", minimum=0, maximum=100),
    )

    def __init__(self, **params: object) -> None:
        super().__init__(**params)
        #: The planned line: the action to play in each state on it, by the state's position.
        self._plan: dict[str, Action] = {}

    def act(self, view: View, rng: random.Random) -> Action:
        raise AnalysisOnlyError(
            "the clairvoyant agent is analysis only: it plays from the true state (agent.move), "
            "never from a seat's view, so it cannot sit at a table"
        )

    def check(self, game: Game) -> None:
        if game.name != GAME:
            raise OptionError(f"the clairvoyant agent plays {GAME} only, not {game.name}")

    def act_on_state(self, state: State, rng: random.Random) -> Action:
        self.check(state.game)
        key = _position_key(state)
        if key not in self._plan:
            _, line = best_line(state, rng, **self.settings)
            self._plan = _plan_along(state, line)
        return self._plan[key]


#: A playout: ``state`` (changed) played to its end; the score and the actions it took. A
#: playout that always plays the same from the same state (the heuristic's) may give no
#: actions: the search then re-searches each step, and that playout, played again from the
#: child on its line, finds the same score, so the search still never falls.
Playout = Callable[["State", random.Random], tuple[float, list[Action]]]


def best_line(
    state: State, rng: random.Random, level: int = 2, playouts: int = 1, greed: int = 90,
    playout: Playout | None = None,
) -> tuple[float, list[Action]]:
    """The best line found from ``state`` to the end of the game, and the score it reaches.

    Nested Monte Carlo Search: at each step of the line, every legal action is tried
    and scored by a search one level lower (level 0: the best of ``playouts`` playouts,
    by ``playout``, else by :func:`greedy_playout` with ``greed``), and the best line seen
    so far is kept and followed, so the score never falls as it goes. ``state`` is not changed.

    >>> import parlour
    >>> state = parlour.load("psalter-row").new_state(seed=4)
    >>> score, line = best_line(state, random.Random(0), level=1)
    >>> replay = state.clone()
    >>> for action in line:
    ...     _ = replay.apply(action)
    >>> replay.is_terminal(), replay.scores()[0] == score
    (True, True)
    """
    play = playout or functools.partial(greedy_playout, greed=greed)
    state = state.clone()
    best, done = state.scores()[0], []
    best_tail: list[Action] = []  # empty only where no line is known, the first child sets the first best
    while not state.is_terminal() and best < BEST_SCORE:
        for action in state.legal_actions():
            child = state.clone().apply(action)
            score, tail = _lower_search(child, rng, level - 1, playouts, play)
            if score > best or not best_tail:
                best, best_tail = score, [action, *tail]
        action = best_tail.pop(0)
        state.apply(action)
        done.append(action)
    return best, done + best_tail


def _lower_search(
    state: State, rng: random.Random, level: int, playouts: int, playout: Playout
) -> tuple[float, list[Action]]:
    if level:
        return best_line(state, rng, level, playouts, playout=playout)
    return max((playout(state.clone(), rng) for _ in range(playouts)), key=lambda found: found[0])


def greedy_playout(state: State, rng: random.Random, greed: int = 90) -> tuple[float, list[Action]]:
    """Play ``state`` to its end with the greedy policy (:func:`_playout_move`); the score and the actions."""
    line = []
    while not state.is_terminal():
        action = _playout_move(state.legal_actions(), rng, greed)
        state.apply(action)
        line.append(action)
    return state.scores()[0], line


def _playout_move(actions: list[Action], rng: random.Random, greed: int) -> Action:
    """Usually (``greed`` percent) the cheapest kind of placement, else any action.

    Uniform random playouts waste most turns overpaying with Patrons; a free
    placement first, then one paid by a Page alone, makes them complete Psalters.
    """
    if len(actions) > 1 and rng.randrange(100) < greed:
        for cheap in (_is_free, _is_unaided):
            chosen = [a for a in actions if cheap(a)]
            if chosen:
                return rng.choice(chosen)
    return rng.choice(actions)


def _is_free(action: Action) -> bool:
    return action.kind_name == "place" and action.pay is None  # type: ignore[attr-defined]


def _is_unaided(action: Action) -> bool:
    return action.kind_name == "place" and action.patron is None  # type: ignore[attr-defined]


def _plan_along(state: State, line: list[Action]) -> dict[str, Action]:
    """The action of ``line`` to play in each state it passes through."""
    plan, state = {}, state.clone()
    for action in line:
        plan[_position_key(state)] = action
        state.apply(action)
    return plan


def _position_key(state: State) -> str:
    # The full position (chance seed included) decides the future exactly.
    return repr(state.to_position())
