"""Quisquilian: bury what the others need, dig for the ranks you lack.

The strategy a good player follows, as a few rules of thumb (``docs/agents/heuristic-quisquilian.md``
tells it for players):

- **Plan the dig before you discard.** The runs and additions you can make this turn from
  your hand and the spot tops are your *plan*. Cards of the plan may be discarded first
  and dug straight back (a card discarded this turn can be dug back), so the die costs
  you nothing for them; never bury a spot top the plan needs.
- **Throw away what you cannot use.** Other discards are your least useful cards: ranks
  you already cover, far from any card of their suit.
- **Bury what the others need, and do not feed them.** A discard covers a spot's top card:
  cover one that continues another player's run or fills a rank they lack, and do not put
  such a card on top yourself. The next player matters most, and the one closest to a set.
- **Dig for the ranks your coverage lacks.** Play the run or addition that covers the most
  new ranks; then, by default, everything else you can (idle plays stretch your runs'
  ends and empty your hand for the refill).

``value`` estimates a seat's chance of winning from everyone's coverage.

>>> import parlour, random
>>> state = parlour.load("quisquilian").new_state(seed=4)
>>> view = state.view(state.current_player)
>>> agent = parlour.agent("heuristic")
>>> agent.act(view, random.Random(0)) in view.legal_actions
True
>>> round(value(view.observation, view.seat), 2)
0.25
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any, NamedTuple, cast

from parlour.cards.standard import BY_CODE as CARD
from parlour.core.action import Action
from parlour.core.options import Option
from parlour.core.view import View
from parlour.games.quisquilian.actions import DISCARD, STOP, QuisAction

PARAMS: tuple[Option, ...] = (
    Option(
        "qu_deny",
        4,
        "Quisquilian: how much a discard seeks to bury a spot top the other players could use, "
        "in fifths of a kept card",
        minimum=0,
        maximum=10,
    ),
    Option(
        "qu_feed",
        2,
        "Quisquilian: how much a discard avoids putting on top a card the other players could use, "
        "in fifths of a kept card",
        minimum=0,
        maximum=10,
    ),
    Option(
        "qu_idle",
        True,
        "Quisquilian: also play runs and additions that cover no new rank (they stretch the "
        "runs' ends and empty the hand for the refill)",
    ),
    Option(
        "qu_dig_back",
        True,
        "Quisquilian: discard the cards of this turn's planned runs first and dig them back",
    ),
)

ALL_RANKS = 0b11111111111110  # bits 1..13: Ace through King
RANK_BIT = tuple(1 << (c % 13 + 1) for c in range(52))
#: A kept card's worth: a rank you lack, and cards of its suit one or two ranks away.
LACKED, NEXT_TO, TWO_FROM = 1.0, 0.6, 0.25
#: What an average fresh card from the refill is worth on the same scale: a discard
#: of a card worth less than this is no loss.
FRESH = 0.8
#: Burying a spot top your own plan takes this turn costs more than any discard saves.
PLANNED_TOP = 10.0
#: How much less each later player counts: the spots change under every turn.
LATER = 0.6
#: value(): how sharply a lead in covered ranks turns into a chance of winning.
SHARPNESS = 0.4


class Table(NamedTuple):
    """One seat's reading of the observation, in cards (ints) and rank bitmasks."""

    hand: list[int]
    tops: list[int | None]  # per spot, its top card (None: empty)
    board: list[int]  # per suit, the ranks on a spot top or in its same-suit top cards
    held: list[int]  # per suit, the ranks in the hand
    mine: list[int]  # per suit, the ranks in my runs
    lacked: int  # the ranks my runs do not cover
    others: list[tuple[float, int, frozenset[int]]]  # (weight, lacked ranks, cards continuing a run)


def read(observation: dict[str, Any], seat: int) -> Table:
    """The table as ``seat`` sees it: only the spots' top cards and the runs' ends are read
    for the others, so that a decision stays cheap however deep the stacks grow."""
    hand = [CARD[code] for code in observation["hand"]]
    board, held, mine = [0] * 4, [0] * 4, [0] * 4
    tops: list[int | None] = []
    for stack in observation["spots"]:
        prefix = _spot_prefix(stack)
        tops.append(prefix[0] if prefix else None)
        for card in prefix:
            board[card // 13] |= RANK_BIT[card]
    for card in hand:
        held[card // 13] |= RANK_BIT[card]
    for run in observation["runs"][seat]:
        for code in run:
            mine[CARD[code] // 13] |= RANK_BIT[CARD[code]]
    n = len(observation["runs"])
    others = []
    for step in range(1, n):
        other = (seat + step) % n
        covered = _mask(observation["coverage"][other])
        # The next player moves first, and the one nearest a set is the danger.
        weight = LATER ** (step - 1) * (1 + len(observation["coverage"][other]) / 13)
        others.append((weight, ALL_RANKS & ~covered, frozenset(_ends(observation["runs"][other]))))
    return Table(hand, tops, board, held, mine, ALL_RANKS & ~_mask(observation["coverage"][seat]), others)


def _mask(ranks: list[int]) -> int:
    return sum(1 << r for r in ranks)


def _spot_prefix(stack: list[str]) -> list[int]:
    """A spot's top cards (top first) that one run can take together: the top, then each
    card beneath of the same suit and a rank next to the one above it. (A run can take
    more, such as 5H on top of 7H with a 6H from elsewhere; this is the sure part.)"""
    prefix: list[int] = []
    for code in reversed(stack):
        card = CARD[code]
        if prefix and (card // 13 != prefix[-1] // 13 or abs(card - prefix[-1]) != 1 or card in prefix):
            break
        prefix.append(card)
    return prefix


def _ends(runs: list[list[str]]) -> list[int]:
    """The cards that continue these runs (codes in rank order)."""
    ends = []
    for run in runs:
        low, high = CARD[run[0]], CARD[run[-1]]
        if low % 13:
            ends.append(low - 1)
        if high % 13 != 12:
            ends.append(high + 1)
    return ends


def plan(table: Table, idle: bool) -> list[int]:
    """Per suit, the ranks of hand and spot cards that this turn's dig would play.

    A stretch of consecutive ranks (hand, spot tops and my runs together) is playable
    when it touches one of my runs (additions, one after another) or has three cards
    (a new run); it is worth playing when it covers a rank I lack, or always if ``idle``.

    >>> from parlour.cards.standard import parse_card as c
    >>> hand, tops = [c("5H"), c("6H"), c("KS")], [c("7H")] + [None] * 8
    >>> table = Table(hand, tops, [0, 0, 1 << 7, 0], [0, 0, 0b1100000, 1 << 13], [0] * 4, ALL_RANKS, [])
    >>> [bin(ranks) for ranks in plan(table, idle=False)]
    ['0b0', '0b0', '0b11100000', '0b0']
    """
    planned = [0] * 4
    for suit in range(4):
        cards = table.held[suit] | table.board[suit]
        for stretch in _stretches(cards | table.mine[suit]):
            playable = stretch & table.mine[suit] or stretch.bit_count() >= 3
            if playable and (idle or stretch & cards & table.lacked):
                planned[suit] |= stretch & cards
    return planned


def _stretches(ranks: int) -> list[int]:
    """The maximal runs of consecutive set bits of a rank mask, each as a mask."""
    found = []
    while ranks:
        low = ranks & -ranks
        stretch = ranks & ~(ranks + low)  # the consecutive bits from the lowest one up
        found.append(stretch)
        ranks &= ~stretch
    return found


def keep_worth(table: Table, card: int) -> float:
    """What a hand card is worth keeping: a rank I lack, with cards of its suit nearby."""
    suit, bit = card // 13, RANK_BIT[card]
    near = table.held[suit] | table.board[suit] | table.mine[suit]
    worth = LACKED if bit & table.lacked else 0.0
    worth += NEXT_TO * (bool(near & bit << 1) + bool(near & bit >> 1))
    return worth + TWO_FROM * (bool(near & bit << 2) + bool(near & bit >> 2))


def others_need(table: Table, card: int) -> float:
    """How much the other players could use a card on a spot top.

    Most if it continues one of their runs at a rank they lack; less if it continues a
    run only, or only fills a lacked rank (a new run needs two more cards).
    """
    need = 0.0
    bit = RANK_BIT[card]
    for weight, lacked, ends in table.others:
        lacks = bool(bit & lacked)
        if card in ends:
            need += weight * (2.0 if lacks else 0.5)
        elif lacks:
            need += weight * 0.5
    return need


def discard_costs(table: Table, planned: list[int], settings: dict[str, Any]) -> tuple[dict[int, float | None], list[float], list[float]]:
    """What discarding costs, lower being better, in parts that add up.

    Per hand card: its worth to keep, less a fresh card's, plus the others' need of it
    (None for a card of the plan: dug back at once, nothing lost and nothing fed). Per spot
    1-9 (index 0 unused), once for a card dug back and once for a card left there, which
    gains by burying a top the others need.
    """
    dig_back = settings["qu_dig_back"]
    feed, deny = settings["qu_feed"] / 5, settings["qu_deny"] / 5
    card_cost: dict[int, float | None] = {}
    for card in table.hand:
        if dig_back and planned[card // 13] & RANK_BIT[card]:
            card_cost[card] = None
        else:
            card_cost[card] = keep_worth(table, card) - FRESH + feed * others_need(table, card)
    back, left = [0.0], [0.0]
    for top in table.tops:
        if top is None:
            back.append(0.0)
            left.append(0.0)
            continue
        # Never bury a top that this turn's dig takes.
        cost = PLANNED_TOP if planned[top // 13] & RANK_BIT[top] else 0.0
        back.append(cost)
        left.append(cost - deny * others_need(table, top))
    return card_cost, back, left


def dig_score(table: Table, action: QuisAction, settings: dict[str, Any]) -> float:
    """The worth of a run or an addition: new ranks first, then cards taken off the spots."""
    ranks, from_spots = 0, 0
    for card, source in action.cards:
        ranks |= RANK_BIT[card]
        from_spots += source > 0
    new = (ranks & table.lacked).bit_count()
    if not new and not settings["qu_idle"]:
        return -1.0
    # Among equals, take from the spots: the others lose them and the hand keeps its cards.
    return new + 0.01 * from_spots + 0.001 * len(action.cards)


def choose(view: View, rng: random.Random, settings: dict[str, Any]) -> Action:
    """The strategy's action: the cheapest discard, or the best dig (``stop`` when none is worth it).

    >>> import parlour
    >>> state = parlour.load("quisquilian").new_state(seed=4)
    >>> view = state.view(state.current_player)
    >>> view.observation["roll"], view.observation["hand"]
    (6, ['AC', 'QC', 'AD', 'AH', '4H', '4S'])
    >>> str(choose(view, random.Random(0), parlour.agent("heuristic").settings))
    'discard AD 7'
    """
    table = read(view.observation, view.seat)
    actions = cast(list[QuisAction], view.legal_actions)
    if actions[0].kind == DISCARD:
        card_cost, back, left = discard_costs(table, plan(table, settings["qu_idle"]), settings)
        costs = []
        for action in actions:
            cost = card_cost[action.cards[0][0]]
            costs.append(back[action.spot] if cost is None else cost + left[action.spot])
        return _best(actions, [-c for c in costs], rng)
    scores = [0.0 if a.kind == STOP else dig_score(table, a, settings) for a in actions]
    return _best(actions, scores, rng)


def _best(actions: Sequence[Action], scores: list[float], rng: random.Random) -> Action:
    """The highest-scoring action, ties broken by ``rng``."""
    top = max(scores)
    tied = [a for a, s in zip(actions, scores) if s >= top - 1e-9]
    return tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]


def value(observation: dict[str, Any], seat: int) -> float:
    """The chance that ``seat`` wins, estimated from every player's coverage.

    A softmax of the ranks each player's runs cover, ``SHARPNESS`` per rank: each rank
    covered multiplies a player's odds by about 1.5. It was fitted to the winners of
    simulated games between heuristic players, where terms for open run ends and for the
    own hand with the spot tops did not improve the fit. A game that is over is 1 for its
    winner and 0 for everyone else (no winner: 0 for all).

    >>> import parlour
    >>> obs = parlour.load("quisquilian").new_state(seed=1).observation(0)
    >>> value(obs, 0)
    0.25
    """
    if observation["end"] is not None:
        return 1.0 if observation["winner"] == seat else 0.0
    coverage = observation["coverage"]
    weights = [math.exp(SHARPNESS * len(ranks)) for ranks in coverage]
    return weights[seat] / sum(weights)
