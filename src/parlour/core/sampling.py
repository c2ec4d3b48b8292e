"""Samplers: the states consistent with one observation, drawn many times over.

A search deals thousands of samples from one view, and everything but the hidden cards and
the chance seed is the same in each. A game's sampler works out once what the observation
tells (the cards seen, the cards unseen in a fixed order, the places they could be); each
call deals the unseen cards by the generator. The first sample is written out as a position
and read back with the game's ``from_position``, which checks all of it; the others are copies
of that first one with other cards in the hidden places and another seed, ready as
``from_position`` would have left them (every slot alike: nothing else in a state depends on
where the hidden cards are).

>>> import parlour, random
>>> game = parlour.load("psalter-row")
>>> sample = game.sampler(game.new_state(seed=1).observation(0))
>>> one, two = sample(random.Random(0)), sample(random.Random(1))
>>> one.hand == two.hand, one.draw_pile == two.draw_pile, one.seed == two.seed
(True, False, False)
"""

from __future__ import annotations

import random
from typing import Any, Generic, TypeVar

from parlour.core.game import State

S = TypeVar("S", bound=State)


class Sampler(Generic[S]):
    """Samples for one observation; a game fills in :meth:`deal`, :meth:`read` and :meth:`fill`.

    ``deal(rng)`` draws the hidden cards and the seed from the generator (every draw a sample
    makes, in order); ``read(deal)`` makes the state through the game's ``from_position``;
    ``fill(state, deal)`` puts the dealt cards into a copy of the first sample.
    """

    def __init__(self) -> None:
        self.first: S | None = None

    def __call__(self, rng: random.Random) -> S:
        return self.sample(self.deal(rng))

    def sample(self, deal: tuple[Any, int]) -> S:
        """The state of a deal: its hidden cards and, last, its chance seed."""
        first = self.first
        if first is None:
            state = self.read(deal)
            self.first = state.clone()  # (before anyone plays on the sample)
            return state
        return as_read(self.fill(first.clone(), deal), deal[-1])

    def deal(self, rng: random.Random) -> tuple[Any, int]:
        raise NotImplementedError

    def read(self, deal: tuple[Any, int]) -> S:
        raise NotImplementedError

    def fill(self, state: S, deal: tuple[Any, int]) -> S:
        raise NotImplementedError


def as_read(state: S, seed: int) -> S:
    """``state`` with chance ``seed``, as a game's ``from_position`` leaves a state it read: its
    starting copy kept for its record (a game's state keeps its seed in ``seed``)."""
    state.seed = seed  # type: ignore[attr-defined]
    # The copy kept as the start must not carry the first sample's start along with it (a
    # chain of starts, one per sample): it gets a plain origin before it is copied.
    state._origin = ("seed", seed)
    state._origin = ("position", state.clone())
    return state
