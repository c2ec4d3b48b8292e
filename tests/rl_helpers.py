"""What the tests of parlour.envs share: the option settings they sweep and a masked random player."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

#: Game and options for each sweep: every game, and the options that change the id space,
#: the tensor or the seats (player counts, the Excuse, a Revision of two discards).
SETTINGS: list[tuple[str, dict[str, Any]]] = [
    ("psalter-row", {}),
    ("psalter-row", {"revision_discard": 2, "first_page_cost": 2, "errand_draw": 1}),
    ("decktet-golf", {"rounds": 1}),
    ("decktet-golf", {"players": 5, "excuse": True, "rounds": 1}),
    ("quisquilian", {"players": 3}),
    ("quisquilian", {"players": 8, "decks": 2}),
]
IDS = [f"{name}{''.join(f',{k}={v}' for k, v in options.items())}" for name, options in SETTINGS]

#: Warnings the libraries' checkers give every dict observation, PettingZoo's own classic
#: games included (they list those games by name to excuse them), and the unbounded Box.
DICT_OBSERVATION_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
)
UNBOUNDED_WARNINGS = ("A Box observation space maximum value is infinity", "A Box observation space minimum value is -infinity")


def masked_choice(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A legal id, uniformly: one whose mask entry is 1."""
    legal = np.flatnonzero(mask)
    assert legal.size, "a seat to act has no legal id"
    return int(rng.choice(legal))


def warnings_of(check: Callable[[], None]) -> set[str]:
    """The distinct warning messages that ``check`` gives (it must otherwise pass)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check()
    return {str(w.message) for w in caught}


def unexpected(messages: set[str], expected: tuple[str, ...]) -> list[str]:
    """The messages that contain none of the ``expected`` texts."""
    return sorted(m for m in messages if not any(e in m for e in expected))
