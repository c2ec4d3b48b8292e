"""The Gymnasium ids of the parlour environments, registered on ``import parlour.envs``.

``parlour/PsalterRow-v0`` is the solitaire; ``parlour/DecktetGolf-v0`` and
``parlour/Quisquilian-v0`` are seat 0 against the heuristic agent in every other seat.
Keywords to ``gymnasium.make`` reach :class:`parlour.envs.single.ParlourEnv`: game options
(``players=3``), ``opponents``, ``seat``, ``illegal``, ``render_mode``.

>>> import gymnasium, parlour.envs
>>> env = gymnasium.make("parlour/DecktetGolf-v0", players=3, rounds=1)
>>> env.unwrapped.game.num_players
3
"""

from __future__ import annotations

import gymnasium

ENTRY_POINT = "parlour.envs.single:ParlourEnv"

#: Each id and the keywords it is made with.
ENV_IDS: dict[str, dict[str, object]] = {
    "parlour/PsalterRow-v0": {"game": "psalter-row"},
    "parlour/DecktetGolf-v0": {"game": "decktet-golf", "opponents": "heuristic"},
    "parlour/Quisquilian-v0": {"game": "quisquilian", "opponents": "heuristic"},
}


def register() -> None:
    """Register every id (again: a second call changes nothing)."""
    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=ENTRY_POINT, kwargs=kwargs, disable_env_checker=False)
