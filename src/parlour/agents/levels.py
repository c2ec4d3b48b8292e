"""Named levels of play: ``level:novice`` .. ``level:expert``, the agent each game plays at each.

A level is a name, one line on how strong it is and how long it thinks, and an agent spec per
game. :data:`LEVELS` is the ladder, weakest first; the last level is the strongest, the one
hints come from. Change a level by changing its row here (the strength of each is measured in
docs/benchmarks.md). The spec ``level:NAME`` makes a :class:`LevelAgent`, which plays a game
as the level's agent for that game; ``level:NAME,time=S,iterations=N`` caps it besides.

>>> import parlour, random
>>> agent = parlour.agent("level:strong")
>>> agent.spec, agent.agent_for("decktet-golf").spec.startswith("ismcts:")
('level:strong', True)
>>> view = parlour.load("psalter-row").new_state(seed=2).view(0)
>>> parlour.agent("level:casual").act(view, random.Random(0)) in view.legal_actions
True
>>> parlour.agent("level:grandmaster")
Traceback (most recent call last):
...
parlour.core.errors.OptionError: there is no level 'grandmaster': the levels are novice, casual, strong, expert (weakest first)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.agents.base import Advice, Agent, Budget, least
from parlour.core.action import Action
from parlour.core.errors import OptionError
from parlour.core.options import Option
from parlour.core.view import View
from parlour.core.words import shown

if TYPE_CHECKING:
    from parlour.core.game import Game

GAMES = ("psalter-row", "decktet-golf", "quisquilian")


@dataclass(frozen=True)
class Level:
    """One rung of the ladder: its ``name``, the most ``seconds`` one of its decisions may take
    (its agents' budgets are held to it), a one-line ``summary`` (how strong it is, how long it
    thinks) and the agent spec it plays each game with (``agents``: game name -> spec)."""

    name: str
    seconds: float
    summary: str
    agents: Mapping[str, str]

    def spec_for(self, game: str) -> str:
        """The agent spec of this level in ``game``; an OptionError for a game it has none for."""
        spec = self.agents.get(game)
        if spec is None:
            raise OptionError(f"level {self.name} has no agent for {shown(game)}: it plays "
                              f"{', '.join(sorted(self.agents))}")
        return spec


def _every_game(spec: str) -> dict[str, str]:
    return {game: spec for game in GAMES}


#: The ladder, weakest first: each level is meant to beat the one below it (docs/benchmarks.md
#: says by how much). Each thinks at most 1 s a decision, ``expert`` at most 2 s (issue 20).
LEVELS: tuple[Level, ...] = (
    Level("novice", 1.0, "plays a random legal move, at once: for learning the rules", _every_game("random")),
    Level("casual", 1.0, "plays a hand-written strategy for each game, at once", _every_game("heuristic")),
    # The searches are bound by iterations, so that a level plays the same on a quiet machine
    # and a busy one; the clock is the guarantee of the think bound (it stops a search early
    # only on a machine slower than the native playouts' measured speed, docs/benchmarks.md).
    # Psalter Row's strong tries every move on the same 100 samples, scored by the heuristic's
    # play after it (pimc, in the kernel: a few ms a decision). 1,000 samples scored no more
    # measurably (+0.15 [-0.31, +0.62] a game) and the expert could not be shown above them.
    Level("strong", 1.0, "searches the hidden cards up to 1 s a move, guided by the strategy", {
        "psalter-row": "pimc:samples=100,time=1",
        "decktet-golf": "ismcts:iterations=1000,time=1,rollout=heuristic,tree=1,margin=8,keep=1.5",
        # Quisquilian's strong searches 200 iterations: its search gains little past 1,000, and
        # the expert's 3,000 could not be shown above 1,000; 200 beat casual and lose to expert.
        "quisquilian": "ismcts:iterations=200,time=1,rollout=heuristic",
    }),
    # Psalter Row's expert is PIMC over PIMC: every move tried on the same samples (up to 200),
    # each scored by the game a PIMC player of 30 samples a decision plays after it (rollout=pimc,
    # in the kernel; docs/benchmarks.md, "the strongest fair level"); both race their moves
    # (race=2), so the samples go to the moves still in contention (without the race, with 100
    # samples: 0.26 points a game fewer on the same deals). Its clock binds on the early
    # decisions of a deal, which would take 10-50 s for all the samples: there it searches what
    # fits in 1.9 s, so its play depends on the machine's speed and load.
    # Decktet Golf's expert searches 10,000 iterations (0.5-0.9 s a decision on a quiet machine):
    # more than 3,000 measured stronger there; in Quisquilian 10,000 measured no stronger than
    # 3,000 (docs/benchmarks.md, "the strongest level against the heuristic").
    Level("expert", 2.0, "searches harder, up to 2 s a move: the level hints come from", {
        "psalter-row": "pimc:samples=200,rollout=pimc,inner=30,race=2,time=1.9",
        "decktet-golf": "ismcts:iterations=10000,time=2,rollout=heuristic,tree=1,margin=8,keep=1.5",
        "quisquilian": "ismcts:iterations=3000,time=2,rollout=heuristic",
    }),
)


def level_names() -> list[str]:
    """The levels' names, weakest first."""
    return [level.name for level in LEVELS]


def find(name: Any) -> Level:
    """The level called ``name``; an OptionError listing the levels otherwise."""
    for level in LEVELS:
        if isinstance(name, str) and level.name == name.strip().lower():
            return level
    if name is None:
        raise OptionError(f"a level spec names its level: level:{LEVELS[0].name} .. level:{LEVELS[-1].name} "
                          f"(the levels are {', '.join(level_names())}, weakest first)")
    raise OptionError(f"there is no level {shown(name)}: the levels are {', '.join(level_names())} (weakest first)")


def strongest() -> Level:
    """The top of the ladder: the level whose moves hints give."""
    return LEVELS[-1]


def widest(budgets: Iterable[Budget]) -> Budget:
    """A budget that bounds every one of ``budgets``: the largest seconds and iterations, and
    no bound on either where one of them has none.

    >>> widest([Budget(0.0, 0), Budget(2.0, None)])
    Budget(seconds=2.0, iterations=None)
    """
    budgets = list(budgets)
    seconds = [b.seconds for b in budgets]
    iterations = [b.iterations for b in budgets]
    return Budget(None if None in seconds else max(seconds, default=0.0),
                  None if None in iterations else max(iterations, default=0))


class LevelAgent(Agent):
    """A named level: in each game, the level's agent for that game (made when it first sees
    the game), capped by ``time`` and ``iterations`` where they are given."""

    name = "level"
    positional = "level"
    params = (
        Option("level", None, "the level, weakest first", choices=tuple(level_names()), nullable=True),
        Option("time", None, "think at most this many seconds a decision (none: as the level does)",
               minimum=0.001, maximum=3600.0, nullable=True),
        Option("iterations", None, "search at most this many iterations a decision (none: as the level does)",
               minimum=1, nullable=True),
    )
    summary = "a named level of play (" + ", ".join(level_names()) + "): a fitting agent for each game"

    def __init__(self, **params: Any) -> None:
        level = find(params.get("level"))  # before the options: an unknown level lists the levels
        super().__init__(**{**params, "level": level.name})
        self.level = level
        self._agents: dict[str, Agent] = {}

    def agent_for(self, game: str) -> Agent:
        """The agent this level plays ``game`` with (capped as this agent is)."""
        agent = self._agents.get(game)
        if agent is None:
            from parlour.agents import make_agent  # the registry imports this module

            agent = make_agent(self.level.spec_for(game))
            seconds, iterations = self.settings["time"], self.settings["iterations"]
            if seconds is not None or iterations is not None:
                agent = agent.capped(seconds, iterations)
            self._agents[game] = agent
        return agent

    def check(self, game: Game) -> None:
        self.agent_for(game.name).check(game)

    def act(self, view: View, rng: random.Random) -> Action:
        return self.agent_for(view.game.name).act(view, rng)

    def advise(self, view: View, rng: random.Random) -> Advice:
        return self.agent_for(view.game.name).advise(view, rng)

    def budget(self) -> Budget:
        """The widest budget of the level's agents over every game it plays (so a host can
        judge it before it knows the game).

        >>> LevelAgent(level="expert").budget().seconds, LevelAgent(level="casual").budget()
        (2.0, Budget(seconds=0.0, iterations=0))
        """
        return widest(self.agent_for(game).budget() for game in self.level.agents)

    def capped(self, seconds: float | None, iterations: int | None) -> Agent:
        """The same level with every game's agent capped (itself where none searches).

        >>> LevelAgent(level="strong").capped(5.0, 200).spec
        'level:strong,time=1.0,iterations=200'
        """
        agents = [self.agent_for(game) for game in self.level.agents]
        if all(agent.capped(seconds, iterations) is agent for agent in agents):
            return self
        own = self.budget()  # already within this agent's own caps
        return LevelAgent(level=self.level.name, time=least(seconds, own.seconds),
                          iterations=least(iterations, own.iterations))
