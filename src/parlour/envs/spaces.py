"""The Gymnasium spaces of a game's codec, and observations in them (numpy arrays).

Both the PettingZoo and the Gymnasium environments observe
``{"observation": Box(game.observation_shape, float32), "action_mask": Box(0, 1,
(game.num_distinct_actions,), int8)}`` and act in ``Discrete(game.num_distinct_actions)``,
the layout PettingZoo's classic games use.

>>> import parlour
>>> game = parlour.load("psalter-row")
>>> space = observation_space(game)
>>> space["action_mask"].shape == (game.num_distinct_actions,)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces

from parlour.core.game import Game
from parlour.envs.decisions import Decisions

#: What a tensor's entries lie between: the codecs write flags and scaled counts, but promise
#: no range (Decktet Golf's totals over the target go below 0 and past 1), so the Box is
#: unbounded; the checkers warn of that.
LOW, HIGH = -np.inf, np.inf


def observation_space(game: Game) -> spaces.Dict:
    """The space of :func:`observe`'s dicts for ``game``."""
    return spaces.Dict({
        "observation": spaces.Box(LOW, HIGH, shape=tuple(game.observation_shape), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, shape=(game.num_distinct_actions,), dtype=np.int8),
    })


def action_space(game: Game) -> spaces.Discrete:
    """One id of ``game``'s codec."""
    return spaces.Discrete(game.num_distinct_actions)


def mask(decisions: Decisions, seat: int) -> np.ndarray:
    """1 for each id ``seat`` may choose next, 0 for the rest (all 0 unless ``seat`` is to act)."""
    out = np.zeros(decisions.state.game.num_distinct_actions, dtype=np.int8)
    if seat == decisions.seat:
        out[decisions.legal_ids()] = 1
    return out


def observe(decisions: Decisions, seat: int) -> dict[str, Any]:
    """``seat``'s observation and mask, new arrays each call."""
    game = decisions.state.game
    values = decisions.tensor(seat)  # fromiter: a third faster than asarray on a list this long
    tensor = np.fromiter(values, dtype=np.float32, count=len(values)).reshape(game.observation_shape)
    return {"observation": tensor, "action_mask": mask(decisions, seat)}
