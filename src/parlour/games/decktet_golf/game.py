"""The Decktet Golf game: its options and hooks (rulings DG-1..DG-12).

>>> import parlour
>>> game = parlour.load("decktet-golf", players=3)
>>> game.num_players, len(game.deck)
(3, 88)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

from parlour.cards.decktet import deck
from parlour.core.game import Game
from parlour.core.options import Option
from parlour.games.decktet_golf import events, position, sampling, text
from parlour.games.decktet_golf.codec import GolfCodec
from parlour.games.decktet_golf.notation import Spec, expected, notation_forms, parse_spec
from parlour.games.decktet_golf.layout import N_CELLS
from parlour.games.decktet_golf.scoring import VALUE

OPTIONS = (
    Option("players", 2, "the number of players, 2-5 (3-5 play with two decks)", minimum=2, maximum=5),
    Option("excuse", False, "the Excuse variant: one Excuse per deck, worth 15; when one reaches the "
           "discard pile, everyone swaps two of their cards"),
    Option("target", 50, "the match ends at the end of a round once a player's total reaches this",
           minimum=1),
    Option("rounds", None, "play this many rounds instead of playing to the target", minimum=1,
           nullable=True),
    Option("opening_flips", 2, "cards each player turns up outside the core at the deal", minimum=0, maximum=8),
)

#: A seat's mean round score, by seat or by turn order (state.stats).
ROUND_SCORE = re.compile(r"round_score_(turn_order)?[0-9]+")


class DecktetGolf(Game):
    """Decktet Golf for 2-5 players: lowest total wins the match."""

    name = "decktet-golf"
    title = "Decktet Golf"
    option_specs = OPTIONS
    rules_summary = text.RULES_SUMMARY
    _positions: ClassVar[ModuleType] = position
    _sampling: ClassVar[ModuleType] = sampling
    _observation_key = staticmethod(position.observation_key)
    _text: ClassVar[ModuleType] = text
    _codec_type = GolfCodec

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        copies = 1 if self.options["players"] == 2 else 2  # DG-1
        self.deck: tuple[int, ...] = tuple(deck(extended=True, excuse=self.options["excuse"], copies=copies))
        self.notation_help = expected(self.options["excuse"])  # a swap only where the Excuse is

    def score_bounds(self) -> tuple[float | None, float | None]:
        """A round scores at most the 12 highest cards of the deck, at least its 12 lowest
        (DG-2, DG-9); a match of ``rounds`` that many rounds; one played to ``target`` ends in
        the round that took a seat from below it (DG-10), with no least score.

        >>> import parlour
        >>> parlour.load("decktet-golf", rounds=1).score_bounds(), parlour.load("decktet-golf").score_bounds()
        ((-8, 111), (None, 160))
        """
        low, high = self._round_bounds()
        rounds = self.options["rounds"]
        if rounds is not None:
            return rounds * low, rounds * high
        return None, self.options["target"] - 1 + high

    def figure_bounds(self, name: str) -> tuple[float | None, float | None]:
        """A seat's mean round score (``round_score_<seat>``, ``round_score_turn_order<k>``) lies
        within one round's bounds; the rest as :meth:`Game.figure_bounds`.

        >>> import parlour
        >>> parlour.load("decktet-golf").figure_bounds("round_score_1")
        (-8, 111)
        """
        return self._round_bounds() if ROUND_SCORE.fullmatch(name) else super().figure_bounds(name)

    def _round_bounds(self) -> tuple[int, int]:
        values = sorted(VALUE[card] for card in self.deck)
        return sum(values[:N_CELLS]), sum(values[-N_CELLS:])

    def _parse_spec(self, text: str) -> Spec:
        return parse_spec(text, self.options["excuse"])

    def _notation_forms(self) -> list[Sequence[str]]:
        return notation_forms(self.options["excuse"])

    def events(self, before: dict[str, Any], after: dict[str, Any], action: str | None = None) -> list[str]:
        """The move and what followed it, every card public to the receiver named (events.py)."""
        return events.events(before, after, action)
