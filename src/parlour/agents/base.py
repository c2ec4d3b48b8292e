"""The agent interface: an agent gets a view of one seat and an rng, never the state.

>>> import parlour, random
>>> state = parlour.load("psalter-row").new_state(seed=2)
>>> agent = parlour.agent("random")
>>> agent.act(state.view(0), random.Random(0)) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from parlour.core.action import Action
from parlour.core.options import Option, validate_options
from parlour.core.view import View


class Agent:
    """Base class of agents. Subclasses set ``name``, ``params`` and implement ``act``."""

    name: ClassVar[str]
    params: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = ""

    def __init__(self, **params: Any) -> None:
        self.settings: dict[str, Any] = validate_options(self.params, params, f"agent {self.name}")

    def act(self, view: View, rng: random.Random) -> Action:
        """One of ``view.legal_actions``."""
        raise NotImplementedError

    @property
    def spec(self) -> str:
        """The spec that makes this agent again, e.g. ``ismcts:iterations=500``."""
        changed = [f"{p.name}={self.settings[p.name]}" for p in self.params if self.settings[p.name] != p.default]
        return self.name + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        return f"parlour.agent({self.spec!r})"
