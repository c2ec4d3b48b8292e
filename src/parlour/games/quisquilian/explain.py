"""Why a Quisquilian action is not legal, in words a player can act on."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from parlour.cards.standard import CODE
from parlour.core.words import counted
from parlour.games.quisquilian.actions import ADD, DISCARD, RUN, QuisAction
from parlour.games.quisquilian.notation import Spec
from parlour.games.quisquilian.state import DISCARD_PHASE, rank_of

if TYPE_CHECKING:
    from parlour.games.quisquilian.state import QuisState


def why_illegal(state: QuisState, what: Spec | QuisAction | Any) -> str:
    if isinstance(what, QuisAction):
        what = Spec(what.kind, what.cards, what.spot, what.target if what.named else None, str(what))
    if not isinstance(what, Spec):
        return f"{what!r} is not a Quisquilian action"
    return f"{what.text}: {_reason(state, what)}"


def _reason(state: QuisState, spec: Spec) -> str:
    if state.end is not None:
        return f"the game is over ({state.end}); no action is legal"
    if state.phase == DISCARD_PHASE and spec.kind != DISCARD:
        return f"first discard {counted(state.owed, 'more card')}: discard <card> <spot> (QU-3)"
    if state.phase != DISCARD_PHASE and spec.kind == DISCARD:
        return "the discard step is over: play a run or an addition, or stop (QU-4)"
    if not spec.cards and spec.kind == RUN:  # a bare verb that names no legal action
        return "no run of three or more cards of one suit in consecutive ranks can be laid now (QU-4)"
    if not spec.cards and spec.kind == ADD:
        return "no card in your hand or on a spot's top continues one of your runs (QU-4)"
    hand = state.hands[state.player]
    missing = _missing(state, spec, hand)
    if missing:
        return missing
    if spec.kind == DISCARD:
        return f"you already discarded on spot {spec.spot} this turn: one card per spot (QU-3)"
    
    if spec.kind == RUN:
        return _run(spec)
    if spec.kind == ADD:
        return _add(state, spec)
    return "not legal now"


def _missing(state: QuisState, spec: Spec, hand: list[int]) -> str | None:
    from_hand, held = Counter(card for card, source in spec.cards if not source), Counter(hand)
    for card, wanted in from_hand.items():
        if wanted > held[card]:
            return f"{CODE[card]} is not in your hand (hand: {' '.join(CODE[c] for c in hand)})"
    taken: dict[int, list[int]] = {}
    for card, source in spec.cards:
        if source:
            taken.setdefault(source, []).append(card)
    for spot, cards in taken.items():
        stack = state.spots[spot - 1]
        if not stack:
            return f"spot {spot} is empty"
        top = sorted(stack[len(stack) - len(cards):]) if len(cards) <= len(stack) else None
        if top != sorted(cards):
            want = " ".join(CODE[c] for c in reversed(stack[-len(cards):]))
            return (f"the cards taken from spot {spot} must be its top {counted(len(cards), 'card')}"
                    f" ({want}, top first): taking a top card reveals the one beneath (QU-4)")
    return None


def _run(spec: Spec) -> str:
    cards = sorted(card for card, _ in spec.cards)
    if len({card // 13 for card in cards}) > 1:
        return "a run is of one suit (QU-4)"
    ranks = [rank_of(card) for card in cards]
    if any(b != a + 1 for a, b in zip(ranks, ranks[1:])):
        return "a run's ranks must be consecutive; the Ace is low only and Q-K-A does not wrap (QU-2, QU-4)"
    return "not legal now"


def _add(state: QuisState, spec: Spec) -> str:
    mine = state.own_runs(state.player)
    card = spec.cards[0][0]
    if not mine:
        return "you have no run to add to: lay a new run of three or more first (QU-4)"
    if spec.target is not None and spec.target >= len(mine):
        if len(mine) == 1:
            return "you have one run: it is run 1"
        return f"you have {len(mine)} runs: name one of 1-{len(mine)}"
    fits = [i for i, (suit, low, high) in enumerate(mine)
            if card // 13 == suit and rank_of(card) in (low - 1, high + 1)]
    if not fits:
        others = any(card // 13 == run[0] // 13 and rank_of(card) in (rank_of(run[0]) - 1, rank_of(run[-1]) + 1)
                     for seat, runs in enumerate(state.runs) if seat != state.player for run in runs)
        if others:
            return f"{CODE[card]} continues only another player's run: you may add only to your own runs (QU-4)"
        return f"{CODE[card]} does not continue any of your runs at either end (same suit, next rank)"
    return f"{CODE[card]} does not continue your run {spec.target + 1 if spec.target is not None else ''}".rstrip()
