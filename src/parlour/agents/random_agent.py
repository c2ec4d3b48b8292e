"""The uniform random agent: every legal action equally likely."""

from __future__ import annotations

import random

from parlour.agents.base import NO_SEARCH, Agent, Budget
from parlour.core.action import Action
from parlour.core.view import View


class RandomAgent(Agent):
    """Plays a legal action chosen uniformly at random.

    >>> import parlour, random
    >>> view = parlour.load("psalter-row").new_state(seed=5).view(0)
    >>> RandomAgent().act(view, random.Random(1)) in view.legal_actions
    True
    """

    name = "random"
    summary = "a uniformly random legal action"

    def budget(self) -> Budget:
        return NO_SEARCH

    def act(self, view: View, rng: random.Random) -> Action:
        return view.legal_actions[rng.randrange(len(view.legal_actions))]
