"""The view: the only thing an agent receives. It never holds the state.

``sample(rng)`` is built from the observation alone, so it cannot depend on
where the hidden cards really are.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from parlour.core.action import Action

if TYPE_CHECKING:
    from parlour.core.game import Game, State


class View:
    """One seat's view of a state: observation, legal actions, and samples of the hidden.

    The observation is worked out on first use, from a private snapshot taken when
    the view was made (an agent that only picks among the legal actions never pays
    for it); the snapshot is dropped as soon as the observation exists.

    >>> import parlour, random
    >>> view = parlour.load("psalter-row").new_state(seed=1).view(0)
    >>> len(view.observation["hand"]), view.sample(random.Random(0)).current_player
    (5, 0)
    """

    __slots__ = ("game", "seat", "legal_actions", "_observation", "_snapshot", "_sampler")

    def __init__(self, game: "Game", seat: int, legal_actions: list[Action], snapshot: "State") -> None:
        self.game = game
        self.seat = seat
        self.legal_actions = legal_actions
        self._observation: dict[str, Any] | None = None
        self._snapshot: State | None = snapshot
        self._sampler: Callable[[random.Random], State] | None = None

    @property
    def observation(self) -> dict[str, Any]:
        """Exactly what this seat may know (``state.observation(seat)`` when the view was made)."""
        if self._observation is None:
            assert self._snapshot is not None
            self._observation, self._snapshot = self._snapshot.observation(self.seat), None
        return self._observation

    @property
    def current_player(self) -> int | None:
        return self.observation["current_player"]

    def sample(self, rng: random.Random) -> "State":
        """A full state consistent with everything this seat knows.

        The unknown cards are dealt uniformly by ``rng`` among the places they
        could be, and the chance seed is fresh from ``rng``. What the observation tells is
        worked out on the first call (``game.sampler``), once for every sample a search draws.
        """
        sampler = self._sampler
        if sampler is None:
            sampler = self._sampler = self.game.sampler(self.observation)
        return sampler(rng)

    def __repr__(self) -> str:
        return f"<View seat={self.seat} of {self.game!r}>"
