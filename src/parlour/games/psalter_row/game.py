"""The Psalter Row game: its options (the rulings' variants) and its hooks.

>>> import parlour
>>> game = parlour.load("psalter-row", errand_draw=1)
>>> game.options["errand_draw"], game.num_players
(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import ClassVar

from parlour.core.game import Game
from parlour.core.options import Option
from parlour.games.psalter_row import position, sampling, text
from parlour.games.psalter_row.codec import PsalterCodec
from parlour.games.psalter_row.notation import EXPECTED, NOTATION_FORMS, parse_spec

OPTIONS = (
    Option("first_page_cost", 0, "the gap the first Page placed into an empty Row must pay (0 or 1: free)",
           minimum=0, maximum=8),
    Option("errand_draw", 2, "cards a Supply Errand draws before its one discard", choices=(1, 2)),
    Option("errand_when_stuck", False, "a stuck player holding an Ace may run an Errand instead of a Revision"),
    Option("revision_discard", "hand", "a Revision discards the whole hand, or 2 cards of the player's choice",
           choices=("hand", 2)),
    Option("revision_target", "largest", "the Revision removes a Page from the largest or the smallest Quire",
           choices=("largest", "smallest")),
    Option("end_on", "empty", "the game ends when the pile empties after the reshuffle, or at the first "
           "draw that finds no card", choices=("empty", "failed_draw")),
)

#: The counts of a game with a most by the rules (:meth:`PsalterRow.figure_bounds`).
FIGURE_BOUNDS = {"n_swap": (0, 4), "n_errand": (0, 4), "row_size": (0, 9)}


class PsalterRow(Game):
    """Psalter Row, the solitaire of the Master Scribe (rulings PR-1..PR-14)."""

    name = "psalter-row"
    title = "Psalter Row"
    option_specs = OPTIONS
    rules_summary = text.RULES_SUMMARY
    score_range = (-9, 14)  # PR-13
    notation_help = EXPECTED
    _positions: ClassVar[ModuleType] = position
    _sampling: ClassVar[ModuleType] = sampling
    _observation_key = staticmethod(position.observation_key)
    _text: ClassVar[ModuleType] = text
    _codec_type = PsalterCodec
    _parse_spec = staticmethod(parse_spec)

    def figure_bounds(self, name: str) -> tuple[float | None, float | None]:
        """Each Directive uses up one of the 4 Kings (PR-5), each Errand one of the 4 Aces
        (PR-6): at most 4 of each a game; the Row holds at most 9 Quires. The rest as
        :meth:`Game.figure_bounds`.

        >>> import parlour
        >>> parlour.load("psalter-row").figure_bounds("n_swap"), parlour.load("psalter-row").figure_bounds("n_place")
        ((0, 4), (None, None))
        """
        return FIGURE_BOUNDS.get(name) or super().figure_bounds(name)

    def _notation_forms(self) -> list[Sequence[str]]:
        return list(NOTATION_FORMS)
