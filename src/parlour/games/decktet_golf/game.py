"""The Decktet Golf game: its options and hooks (rulings DG-1..DG-12).

>>> import parlour
>>> game = parlour.load("decktet-golf", players=3)
>>> game.num_players, len(game.deck)
(3, 88)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

from parlour.cards.decktet import deck
from parlour.core.game import Game
from parlour.core.options import Option
from parlour.games.decktet_golf import position, text
from parlour.games.decktet_golf.notation import Spec, expected, notation_forms, parse_spec

OPTIONS = (
    Option("players", 2, "the number of players, 2-5 (DG-1: two decks for 3-5)", minimum=2, maximum=5),
    Option("excuse", False, "DG-11: the Excuse variant (one Excuse per deck, worth 15, swaps when discarded)"),
    Option("target", 50, "DG-10: the match ends at a round's end once a cumulative score reaches this",
           minimum=1),
    Option("rounds", None, "DG-10: play this many rounds instead of playing to the target", minimum=1,
           nullable=True),
    Option("opening_flips", 2, "DG-3: cards each player flips outside the core at the deal", minimum=0, maximum=8),
)


class DecktetGolf(Game):
    """Decktet Golf for 2-5 players: lowest total wins the match."""

    name = "decktet-golf"
    title = "Decktet Golf"
    option_specs = OPTIONS
    rules_summary = text.RULES_SUMMARY
    _positions: ClassVar[ModuleType] = position
    _text: ClassVar[ModuleType] = text

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        copies = 1 if self.options["players"] == 2 else 2  # DG-1
        self.deck: tuple[int, ...] = tuple(deck(extended=True, excuse=self.options["excuse"], copies=copies))
        self.notation_help = expected(self.options["excuse"])  # a swap only where the Excuse is

    def _parse_spec(self, text: str) -> Spec:
        return parse_spec(text, self.options["excuse"])

    def _notation_forms(self) -> list[Sequence[str]]:
        return notation_forms(self.options["excuse"])
