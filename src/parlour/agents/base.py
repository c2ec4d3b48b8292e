"""The agent interface: an agent gets a view of one seat and an rng, never the state.

>>> import parlour, random
>>> state = parlour.load("psalter-row").new_state(seed=2)
>>> agent = parlour.agent("random")
>>> agent.act(state.view(0), random.Random(0)) in state.legal_actions()
True
>>> agent.budget()
Budget(seconds=0.0, iterations=0)
>>> agent.advise(state.view(0), random.Random(0)).reason is None  # a random move has no reason
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from parlour.core.action import Action
from parlour.core.options import Option, validate_options
from parlour.core.view import View

if TYPE_CHECKING:
    from parlour.core.game import Game, State

N = TypeVar("N", int, float)


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


def least(cap: N | None, own: N | None) -> N | None:
    """The smaller of two bounds, ``None`` being no bound.

    >>> least(5.0, 2.0), least(None, 2.0), least(5.0, None), least(None, None)
    (2.0, 2.0, 5.0, None)
    """
    if cap is None:
        return own
    return cap if own is None else min(cap, own)


@dataclass(frozen=True)
class Advice:
    """An agent's move for a seat with a one-line reason (``None`` where the agent has none):
    what a hint shows.

    >>> Advice("draw", "wins 62% of 340 playouts").reason
    'wins 62% of 340 playouts'
    """

    action: Action
    reason: str | None = None


class Agent:
    """Base class of agents. Subclasses set ``name``, ``params`` and implement ``act``."""

    name: ClassVar[str]
    params: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = ""
    #: An analysis-only agent that is handed the true state (it sees hidden cards).
    #: It can never sit at a table with people; see :meth:`move`.
    cheats: ClassVar[bool] = False
    #: An agent that reads a file its spec names (a saved policy): a host that takes specs from
    #: people it does not know (the web table) refuses it, for the file is on the host's disk.
    reads_files: ClassVar[bool] = False
    #: The parameter that a spec may give as a bare word after the name (``level:strong``).
    positional: ClassVar[str | None] = None

    def __init__(self, **params: Any) -> None:
        self.settings: dict[str, Any] = validate_options(self.params, params, f"agent {self.name}")

    def act(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        raise NotImplementedError

    def advise(self, view: View, rng: random.Random) -> Advice:
        """The move :meth:`act` would make, with a one-line reason where the agent can give one
        (a search: its estimate for the move and the next best). The base gives no reason."""
        return Advice(self.act(view, rng))

    def check(self, game: "Game") -> None:
        """Raise an OptionError if this agent cannot play ``game``; drivers call it before
        the first move, so a mismatch fails before a game starts, not in the middle."""

    def budget(self) -> Budget:
        """What one decision costs at most (a host such as the web table refuses an agent
        whose budget is over its limits). Unbounded unless a subclass says otherwise."""
        return Budget()

    def capped(self, seconds: float | None, iterations: int | None) -> "Agent":
        """This agent, changed to think at most ``seconds`` and ``iterations`` per decision
        (``None``: no cap on that one), its play otherwise the same (itself when nothing can or
        need be cut, as for an agent that does not search)."""
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
        """The spec that makes this agent again, e.g. ``ismcts:iterations=500`` (``level:strong``:
        the positional parameter first, as a bare word)."""
        parts = [str(self.settings[self.positional])] if self.positional else []
        parts += [f"{p.name}={self.settings[p.name]}" for p in self.params
                  if p.name != self.positional and self.settings[p.name] != p.default]
        return self.name + (":" + ",".join(parts) if parts else "")

    def __repr__(self) -> str:
        return f"parlour.agent({self.spec!r})"


class Searching(Agent):
    """An agent that searches within a clock (its ``time`` setting) and a count of steps (its
    :attr:`COUNT` setting: IS-MCTS's iterations, PIMC's samples), :attr:`DEFAULT_COUNT` steps
    when neither is given; its budget is those two, and ``capped`` cuts them.

    >>> from parlour.agents.ismcts import IsmctsAgent
    >>> IsmctsAgent().budget(), IsmctsAgent(time=2.0).budget()
    (Budget(seconds=None, iterations=1000), Budget(seconds=2.0, iterations=None))
    >>> IsmctsAgent().capped(5.0, 20_000).spec, IsmctsAgent(time=1.0).capped(None, 50).spec
    ('ismcts:iterations=1000,time=5.0', 'ismcts:iterations=50,time=1.0')
    >>> from parlour.agents.pimc import PimcAgent
    >>> PimcAgent().budget(), PimcAgent(time=1.0).budget(), PimcAgent().capped(2.0, None).spec
    (Budget(seconds=None, iterations=200), Budget(seconds=1.0, iterations=None), 'pimc:samples=200,time=2.0')
    """

    #: The ``time`` setting every search declares among its ``params``: its clock.
    TIME: ClassVar[Option] = Option("time", None, "seconds per decision (none: no time limit)", minimum=0.001,
                                    maximum=3600.0, nullable=True)
    #: The setting that counts the search's steps.
    COUNT: ClassVar[str] = "iterations"
    #: The steps a search takes when it is given neither a count nor a clock.
    DEFAULT_COUNT: ClassVar[int]

    def budget(self) -> Budget:
        """Its ``time`` and its count of steps (the default count when neither is given)."""
        count, seconds = self.settings[self.COUNT], self.settings["time"]
        if count is None and seconds is None:
            count = self.DEFAULT_COUNT
        return Budget(seconds=seconds, iterations=count)

    def capped(self, seconds: float | None, iterations: int | None) -> Agent:
        """The same search stopped at ``seconds`` or ``iterations`` steps, whichever comes first
        (or sooner, where its own budget is smaller; ``None``: no cap on that one)."""
        own = self.budget()
        cut = {self.COUNT: least(iterations, own.iterations), "time": least(seconds, own.seconds)}
        return type(self)(**{**self.settings, **cut})
