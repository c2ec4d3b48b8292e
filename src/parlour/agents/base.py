"""The agent interface: an agent gets a view of one seat and an rng, never the state.

>>> import parlour, random
>>> state = parlour.load("psalter-row").new_state(seed=2)
>>> agent = parlour.agent("random")
>>> agent.act(state.view(0), random.Random(0)) in state.legal_actions()
True
>>> agent.budget()
Budget(seconds=0.0, iterations=0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from parlour.core.action import Action
from parlour.core.options import Option, validate_options
from parlour.core.view import View

if TYPE_CHECKING:
    from parlour.core.game import Game, State


@dataclass(frozen=True)
class Budget:
    """What one decision of an agent costs at most, as the agent is set up: ``seconds`` of
    thinking and ``iterations`` of search. ``None`` where the agent sets no such bound
    (a search stopped by the clock alone has no iteration bound); an agent with neither
    bound may think for ever.

    >>> Budget(seconds=2.0).bounded, Budget().bounded
    (True, False)
    """

    seconds: float | None = None
    iterations: int | None = None

    @property
    def bounded(self) -> bool:
        return self.seconds is not None or self.iterations is not None


#: The budget of an agent that does not search: a decision costs no time to speak of.
NO_SEARCH = Budget(seconds=0.0, iterations=0)


class Agent:
    """Base class of agents. Subclasses set ``name``, ``params`` and implement ``act``."""

    name: ClassVar[str]
    params: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = ""
    #: An analysis-only agent that is handed the true state (it sees hidden cards).
    #: It can never sit at a table with people; see :meth:`move`.
    cheats: ClassVar[bool] = False

    def __init__(self, **params: Any) -> None:
        self.settings: dict[str, Any] = validate_options(self.params, params, f"agent {self.name}")

    def act(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        raise NotImplementedError

    def check(self, game: "Game") -> None:
        """Raise an OptionError if this agent cannot play ``game``; drivers call it before
        the first move, so a mismatch fails before a game starts, not in the middle."""

    def budget(self) -> Budget:
        """What one decision costs at most (a host such as the web table refuses an agent
        whose budget is over its limits). Unbounded unless a subclass says otherwise."""
        return Budget()

    def capped(self, seconds: float, iterations: int) -> "Agent":
        """This agent, changed to think at most ``seconds`` and ``iterations`` per decision,
        its play otherwise the same (itself when nothing can or need be cut, as for an agent
        that does not search)."""
        return self

    def act_on_state(self, state: "State", rng: random.Random) -> Action:
        """A cheating agent's move, chosen from the true state (only if ``cheats``)."""
        raise NotImplementedError

    def move(self, state: "State", seat: int, rng: random.Random) -> Action:
        """This agent's move for ``seat`` in ``state``: from the seat's view, or, for an
        agent that ``cheats``, from the state itself. Drivers (simulation, terminal) call this.
        """
        if self.cheats:
            return self.act_on_state(state, rng)
        return self.act(state.view(seat), rng)

    @property
    def spec(self) -> str:
        """The spec that makes this agent again, e.g. ``ismcts:iterations=500``."""
        changed = [f"{p.name}={self.settings[p.name]}" for p in self.params if self.settings[p.name] != p.default]
        return self.name + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        return f"parlour.agent({self.spec!r})"
