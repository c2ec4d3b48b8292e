"""Samples of Quisquilian: the hands a seat does not see and the draw pile dealt anew
(``core.sampling``).

After a clearing the hidden cards are dealt by what the table knows of the cleared ones
(QU-9, ``pools.Dealer``): a reading of the record, then each pool's cards among the pile and
the hands that drew them, the other unseen cards among the rest of the hands. A player seen
digging has something to dig (QU-10: else the dig would have ended): deals where they would
not are rejected and drawn again, up to REDEALS times; past that, one of their cards is
exchanged for an unseen one that lets them dig.

>>> import parlour, random
>>> game = parlour.load("quisquilian")
>>> state = game.new_state(seed=1)
>>> seat = state.current_player
>>> sample = sampler(game, state.observation(seat))(random.Random(0))
>>> sample.hands[seat] == state.hands[seat], sample.spots == state.spots, sample.pile == state.pile
(True, True, False)
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

from parlour.cards.standard import parse_card
from parlour.core.chance import fresh_seed
from parlour.core.errors import PositionError
from parlour.core.sampling import Sampler
from parlour.games.quisquilian import digging, pools
from parlour.games.quisquilian.pool_keys import read_readings
from parlour.games.quisquilian.position import PUBLIC_KEYS, codes, from_position
from parlour.games.quisquilian.state import QuisState

if TYPE_CHECKING:
    from parlour.games.quisquilian.game import Quisquilian

REDEALS = 5000  # the real deal passes, so rejection ends; a rare case costs some milliseconds

#: Every hand (the seat's as it sees it), the draw pile (top first), and the seed.
Deal = tuple[list[list[int]], list[int], int]


def sampler(game: "Quisquilian", obs: dict[str, Any]) -> "QuisSampler":
    return QuisSampler(game, obs)


class QuisSampler(Sampler[QuisState]):
    """Deals by the observation's ``pools.Dealer``, then a fresh seed; where another seat is
    digging, again until that seat has something to dig."""

    def __init__(self, game: "Quisquilian", obs: dict[str, Any]) -> None:
        super().__init__()
        self.game, self.obs = game.with_options(obs["options"]), obs
        seen = Counter(parse_card(c) for stack in obs["spots"] for c in stack)
        seen.update(parse_card(c) for runs in obs["runs"] for run in runs for c in run)
        unseen = Counter(self.game.deck) - seen  # type: ignore[attr-defined]
        hand = [parse_card(c) for c in obs["hand"] or ()]
        self.dealer = pools.Dealer(read_readings(obs, len(obs["hand_sizes"])), unseen, obs["hand_sizes"],
                                   obs["draw_pile_size"], obs["seat"], hand)
        self.public = {key: obs[key] for key in PUBLIC_KEYS if key in obs}
        digs = obs["phase"] == "dig" and obs["player"] != obs["seat"] and obs["end"] is None
        #: Whether a hand lets the player seen digging dig (None: nobody else is seen digging).
        self.can_dig = _dig_check(obs) if digs else None

    def __call__(self, rng: random.Random) -> QuisState:
        deal = self.deal(rng)
        can_dig = self.can_dig
        if can_dig is not None:
            mover = self.obs["player"]
            for _ in range(REDEALS):
                if can_dig(deal[0][mover]):
                    break
                deal = self.deal(rng)
            else:
                return _give_a_dig(self.game, self.position(deal), self.obs, rng)
        return self.sample(deal)

    def deal(self, rng: random.Random) -> Deal:
        hands, pile = self.dealer(rng)
        return hands, pile, fresh_seed(rng)

    def position(self, deal: Deal) -> dict[str, Any]:
        hands, pile, seed = deal
        return {**self.public, "hands": [codes(hand) for hand in hands], "draw_pile": codes(pile), "chance": seed}

    def read(self, deal: Deal) -> QuisState:
        return from_position(self.game, self.position(deal), check_dig=False)

    def fill(self, state: QuisState, deal: Deal) -> QuisState:
        state.hands = [sorted(hand) for hand in deal[0]]
        state.pile = deal[1]
        return state


def _dig_check(obs: dict[str, Any]) -> Callable[[list[int]], bool]:
    """Whether a hand gives the observed digging player a run or an addition."""
    spots = [tuple(parse_card(c) for c in stack) for stack in obs["spots"]]
    infos = [digging.spot_info(stack) for stack in spots]
    wanted, _ = digging.wanted_cards([tuple(parse_card(c) for c in run) for run in obs["runs"][obs["player"]]])

    def can_dig(hand: list[int]) -> bool:
        cards = tuple(sorted(hand))
        return bool(digging.runs(cards, infos)) or bool(wanted and digging.additions(cards, spots, wanted))

    return can_dig


def _give_a_dig(game: "Quisquilian", position: dict[str, Any], obs: dict[str, Any], rng: random.Random) -> QuisState:
    """Exchange one of the digging player's cards for an unseen one that lets them dig."""
    mover, seat = obs["player"], obs["seat"]
    places = [("hands", other) for other in range(len(obs["hand_sizes"])) if other not in (mover, seat)]
    candidates: list[tuple[str, int | None, int]] = [
        (key, index, at) for key, index in places for at in range(len(position[key][index]))]
    candidates += [("draw_pile", None, at) for at in range(len(position["draw_pile"]))]
    rng.shuffle(candidates)
    hand = position["hands"][mover]
    for key, index, at in candidates:
        pile = position[key] if index is None else position[key][index]
        for mine in range(len(hand)):
            hand[mine], pile[at] = pile[at], hand[mine]
            try:
                state = from_position(game, position, check_dig=False)
            except PositionError:  # the exchange does not fit what is known of the cleared cards
                state = None
            if state is not None and state._can_dig():
                return state
            hand[mine], pile[at] = pile[at], hand[mine]
    return from_position(game, position, check_dig=False)  # the board allows nothing: stop only
