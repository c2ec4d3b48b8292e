"""The Quisquilian game: its options and hooks (rulings QU-1..QU-9).

>>> import parlour
>>> game = parlour.load("quisquilian", players=5)
>>> game.options["decks"], game.decks, len(game.deck)
(None, 2, 104)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any, ClassVar

from parlour.cards.standard import DECK_SIZE
from parlour.core.errors import OptionError
from parlour.core.game import Game
from parlour.core.options import Option
from parlour.games.quisquilian import position, sampling, text
from parlour.games.quisquilian.codec import QuisCodec
from parlour.games.quisquilian.notation import EXPECTED, notation_forms, parse_spec
from parlour.games.quisquilian.state import HAND_SIZE, N_SPOTS

OPTIONS = (
    Option("players", 4, "the number of players, 3-8", minimum=3, maximum=8),
    Option("decks", None, "decks shuffled together; default one for 3-4 players, two for 5-8 "
           "(one deck allowed up to 7 players)", choices=(1, 2), nullable=True),
    Option("max_turns", 2000, "a safety net that ends the game with no winner after this many turns",
           minimum=1),
)


class Quisquilian(Game):
    """Quisquilian for 3-8 players: dig runs out of the trash to cover Ace through King."""

    name = "quisquilian"
    title = "Quisquilian"
    option_specs = OPTIONS
    rules_summary = text.RULES_SUMMARY
    notation_help = EXPECTED
    _positions: ClassVar[ModuleType] = position
    _sampling: ClassVar[ModuleType] = sampling
    _observation_key = staticmethod(position.observation_key)
    _text: ClassVar[ModuleType] = text
    _codec_type = QuisCodec
    _parse_spec = staticmethod(parse_spec)

    def __init__(self, /, **options: Any) -> None:
        super().__init__(**options)
        players = self.options["players"]
        #: The decks in play: the option, or by default one for 3-4 players and two for 5-8.
        self.decks: int = self.options["decks"] or (1 if players <= 4 else 2)
        if N_SPOTS + HAND_SIZE * players > DECK_SIZE * self.decks:
            raise OptionError(
                f"quisquilian option decks=1 is not allowed with {players} players: one deck deals "
                f"at most 7 players (9 spots and 6 cards each); use decks=2"
            )
        self.deck: tuple[int, ...] = tuple(range(DECK_SIZE)) * self.decks
        #: QU-8's safety net, read at every turn's end (an attribute, not an options look-up).
        self.max_turns: int = self.options["max_turns"]

    def _notation_forms(self) -> list[Sequence[str]]:
        return notation_forms(self.decks)
