"""Samples of Psalter Row: the unseen cards dealt anew (``core.sampling``).

All the player does not see is the order of the draw pile; a spectator does not see the
hand either. The unseen cards are taken in card order before they are shuffled, so a sample
does not depend on where they really are.

>>> import parlour, random
>>> game = parlour.load("psalter-row")
>>> state = game.new_state(seed=1)
>>> sample = sampler(game, state.observation(None))(random.Random(0))
>>> len(sample.hand), sample.hand == state.hand, sample.row == state.row
(5, False, True)
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from parlour.cards.standard import DECK_SIZE, parse_card
from parlour.core.chance import fresh_seed
from parlour.core.sampling import Sampler
from parlour.games.psalter_row.position import codes, from_position
from parlour.games.psalter_row.state import PsalterState

if TYPE_CHECKING:
    from parlour.games.psalter_row.game import PsalterRow

#: The observation's keys a sample keeps as they are.
KEPT = ("row", "discard", "removed", "reshuffled", "pending", "pending_discards", "options", "end")

Deal = tuple[list[int], int]


def sampler(game: "PsalterRow", obs: dict[str, Any]) -> "PsalterSampler":
    return PsalterSampler(game, obs)


class PsalterSampler(Sampler[PsalterState]):
    """The unseen cards, in a random order, form the pile; a spectator's observation (``hand``
    null) hides the hand too: its ``hand_size`` cards are dealt from the unseen cards first."""

    def __init__(self, game: "PsalterRow", obs: dict[str, Any]) -> None:
        super().__init__()
        self.game, self.obs = game, obs
        seen = {parse_card(code) for key in ("row", "discard", "removed") for code in obs[key]}
        seen.update(parse_card(code) for code in obs["hand"] or ())
        self.unseen = [c for c in range(DECK_SIZE) if c not in seen]
        #: The unseen cards that go to the hand (a spectator's), before the pile's.
        self.to_hand: int = obs["hand_size"] if obs["hand"] is None else 0

    def deal(self, rng: random.Random) -> Deal:
        unseen = self.unseen[:]
        rng.shuffle(unseen)
        return unseen, fresh_seed(rng)

    def read(self, deal: Deal) -> PsalterState:
        unseen, seed = deal
        obs, to_hand = self.obs, self.to_hand
        position = {key: obs[key] for key in KEPT}
        position["hand"] = obs["hand"] if obs["hand"] is not None else codes(unseen[:to_hand])
        position["draw_pile"] = codes(unseen[to_hand:])
        position["chance"] = seed
        return from_position(self.game, position)

    def fill(self, state: PsalterState, deal: Deal) -> PsalterState:
        unseen, to_hand = deal[0], self.to_hand
        if to_hand:
            state.hand, state.pile = unseen[:to_hand], unseen[to_hand:]
        else:
            state.pile = unseen
        return state
