"""Samples of Decktet Golf: the face-down cards, the pile and a card drawn in secret dealt
anew (``core.sampling``).

Nobody sees a face-down card (DG-12), so the unseen cards are sorted by code before they are
shuffled, and a sample never depends on where they really are. After a reshuffle the pile's
contents are public: the pile is dealt from them, the face-down cards are exactly the rest.

>>> import parlour, random
>>> game = parlour.load("decktet-golf")
>>> state = game.new_state(seed=1)
>>> sample = sampler(game, state.observation(1))(random.Random(0))
>>> sample.up == state.up, sample.cells == state.cells
(True, False)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from parlour.cards.decktet import CODE, parse_card
from parlour.core.chance import fresh_seed
from parlour.core.sampling import Sampler
from parlour.games.decktet_golf.layout import CELL_INDEX, N_CELLS
from parlour.games.decktet_golf.position import HIDDEN, KEPT, from_position
from parlour.games.decktet_golf.state import GolfState

if TYPE_CHECKING:
    from parlour.games.decktet_golf.game import DecktetGolf

#: The face-down cards in the order the layouts list them, then the pile's (the drawn card first
#: where one is held in secret), and the seed.
Deal = tuple[list[int], list[int], int]


def sampler(game: "DecktetGolf", obs: dict[str, Any]) -> "GolfSampler":
    return GolfSampler(game, obs)


def _by_code(cards: Counter) -> list[int]:
    """The cards (ints, with their copies) in the order of their codes."""
    return sorted(cards.elements(), key=CODE.__getitem__)


class GolfSampler(Sampler[GolfState]):
    """The face-down cells, in the layouts' order, take the shuffled unseen cards from the
    first; the pile (and a card another seat drew from it, first) takes them from the last,
    or from the shuffled public contents after a reshuffle."""

    def __init__(self, game: "DecktetGolf", obs: dict[str, Any]) -> None:
        super().__init__()
        self.game, self.obs = game.with_options(obs["options"]), obs
        seen = Counter(parse_card(code) for layout in obs["layouts"] for code in layout.values() if code != HIDDEN)
        seen.update(parse_card(code) for code in obs["discard"])
        if obs["drawn"]:
            seen[parse_card(obs["drawn"])] += 1
        unseen = Counter(self.game.deck) - seen  # type: ignore[attr-defined]
        #: A card drawn from the pile that this seat did not see (it is the pile's, dealt first).
        self.held = int(obs["drawn_from"] == "pile" and obs["drawn"] is None)
        self.pile_size: int = obs["draw_pile_size"]
        contents = obs["pile_contents"]
        self.pile_pool = None if contents is None else [parse_card(code) for code in sorted(contents)]
        self.down_pool = _by_code(unseen if contents is None else unseen - Counter(self.pile_pool))
        #: The face-down cells, as indices into ``cells``, in the order a deal fills them.
        self.down_at = [seat * N_CELLS + CELL_INDEX[cell] for seat, layout in enumerate(obs["layouts"])
                        for cell, code in layout.items() if code == HIDDEN]

    def deal(self, rng: random.Random) -> Deal:
        down = self.down_pool[:]
        if self.pile_pool is not None:
            pile = self.pile_pool[:]
            rng.shuffle(pile)
            rng.shuffle(down)
        else:
            rng.shuffle(down)
            pile = down[len(down) - self.pile_size - self.held :]
        return down, pile, fresh_seed(rng)

    def read(self, deal: Deal) -> GolfState:
        down, pile, seed = deal
        obs, held = self.obs, self.held
        cards = iter(down)
        position = {key: obs[key] for key in KEPT}
        position["layouts"] = [{cell: CODE[next(cards)] if code == HIDDEN else code for cell, code in layout.items()}
                               for layout in obs["layouts"]]
        position["drawn"] = CODE[pile[0]] if held else obs["drawn"]
        position["draw_pile"] = [CODE[card] for card in pile[held : held + self.pile_size]]
        position["chance"] = seed
        return from_position(self.game, position)

    def fill(self, state: GolfState, deal: Deal) -> GolfState:
        down, pile, _ = deal
        cells, held = state.cells, self.held
        for at, card in zip(self.down_at, down):
            cells[at] = card
        if held:
            state.drawn = pile[0]
        state.pile = pile[held : held + self.pile_size]
        return state
