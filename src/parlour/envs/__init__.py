"""Standard interfaces for research on the games: PettingZoo, Gymnasium and OpenSpiel.

- :class:`parlour.envs.aec.ParlourAECEnv`: a PettingZoo AEC environment per game;
- :class:`parlour.envs.single.ParlourEnv`: a Gymnasium environment for one seat, the other
  seats played by parlour agents; ``parlour/PsalterRow-v0``, ``parlour/DecktetGolf-v0`` and
  ``parlour/Quisquilian-v0`` are registered with Gymnasium when this package is imported;
- ``parlour.envs.openspiel``: importing it registers every game with OpenSpiel
  (``pyspiel.load_game("parlour_psalter_row")``).

They need the ``rl`` extra (and ``openspiel`` for OpenSpiel); ``import parlour`` imports
none of them. See docs/research.md.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
except ModuleNotFoundError:  # without the rl extra there is nothing to register (OpenSpiel alone still works)
    pass
else:
    from parlour.envs.registration import register

    register()
