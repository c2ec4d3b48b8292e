"""Psalter Row's codec for learning (core/codec.py, docs/codecs.md): 425 ids under every option.

A placement is cut into sub-decisions: first the Page and its end (``place``), then, where
the gap must be paid, the paying Page, either alone (``pay``: the placement is complete) or
``pay_with_patron``, and then the Patron (``patron``). A free placement is one id, a paid one
two or three. The ids of the legal actions are prefix-free: a Page and end is either free
or paid in a state (PR-2, PR-3), and ``pay`` and ``pay_with_patron`` are different ids.
Every other action is one id: ``swap`` (a Page and a King), ``errand``, ``discard``,
``revise`` (its first id is the Revision of an empty Row).

>>> import parlour
>>> from parlour.cards.standard import parse_card as c
>>> from parlour.games.psalter_row.actions import HIGH, place
>>> game = parlour.load("psalter-row")
>>> [game.codec.id_name(i) for i in game.action_ids(place(c("9C"), HIGH, c("4D")))]
['place 9C high', 'pay 4D']
"""

from __future__ import annotations

from typing import Any

from parlour.cards.standard import BY_CODE, CODE, DECK_SIZE
from parlour.core.codec import Codec, Tensor
from parlour.games.psalter_row.actions import (
    DISCARD,
    END_NAMES,
    ERRAND,
    PLACE,
    REVISE,
    SWAP,
    PsalterAction,
)
from parlour.games.psalter_row.roles import AID, HAND_SIZE, IS_ACE, KINGS, PAGE_VALUE
from parlour.games.psalter_row.state import COMPLETE, ERRAND_DISCARD, EXHAUSTED, REVISION_DISCARD

PAGES = tuple(c for c in range(DECK_SIZE) if PAGE_VALUE[c])  # 36, in card order
PATRONS = tuple(c for c in range(DECK_SIZE) if AID[c])  # 8
KING_CARDS = tuple(sorted(KINGS))  # 4
ACE_CARDS = tuple(c for c in range(DECK_SIZE) if IS_ACE[c])  # 4
PAGE_INDEX = {c: k for k, c in enumerate(PAGES)}
PATRON_INDEX = {c: k for k, c in enumerate(PATRONS)}
KING_INDEX = {c: k for k, c in enumerate(KING_CARDS)}
ACE_INDEX = {c: k for k, c in enumerate(ACE_CARDS)}
#: The largest hand in play: an Errand's, before its discard (PR-6): 5, less the Ace, plus
#: the 2 it draws (the most ``errand_draw`` allows). Every other action leaves at most 5.
LARGEST_HAND = HAND_SIZE - 1 + 2


def _end(end: int) -> str:
    return f" {END_NAMES[end]}" if END_NAMES[end] else ""


class PsalterCodec(Codec):
    """Ids and tensors of Psalter Row (the same id space under every option)."""

    action_type = PsalterAction

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._known: dict[PsalterAction, tuple[int, ...]] = {}  # at most the 34,365 actions there are

    def _action_segments(self) -> list[tuple[str, tuple[str, ...]]]:
        return [
            ("place", tuple(f"place {CODE[c]}{_end(end)}" for c in PAGES for end in range(3))),
            ("pay", tuple(f"pay {CODE[c]}" for c in PAGES)),
            ("pay_with_patron", tuple(f"pay {CODE[c]} with a Patron" for c in PAGES)),
            ("patron", tuple(f"patron {CODE[c]}" for c in PATRONS)),
            ("swap", tuple(f"swap {CODE[p]} {CODE[k]}" for p in PAGES for k in KING_CARDS)),
            ("errand", tuple(f"errand {CODE[c]}" for c in ACE_CARDS)),
            ("discard", tuple(f"discard {CODE[c]}" for c in range(DECK_SIZE))),
            ("revise", ("revise",) + tuple(f"revise {CODE[c]}" for c in PAGES)),
        ]

    def _takes_several_ids(self) -> bool:
        return True

    def _ids(self, action: PsalterAction) -> tuple[int, ...]:  # type: ignore[override]
        ids = self._known.get(action)
        if ids is None:
            ids = self._known[action] = self._work_out(action)
        return ids

    def _work_out(self, action: PsalterAction) -> tuple[int, ...]:
        start, kind, card = self.actions.start, action.kind, action.card
        if kind == PLACE:
            first = start["place"] + 3 * PAGE_INDEX[card] + action.end  # type: ignore[index]
            if action.pay is None:
                return (first,)
            if action.patron is None:
                return first, start["pay"] + PAGE_INDEX[action.pay]
            return first, start["pay_with_patron"] + PAGE_INDEX[action.pay], start["patron"] + PATRON_INDEX[action.patron]
        if kind == SWAP:
            return (start["swap"] + 4 * PAGE_INDEX[card] + KING_INDEX[action.king],)  # type: ignore[index]
        if kind == ERRAND:
            return (start["errand"] + ACE_INDEX[card],)  # type: ignore[index]
        if kind == DISCARD:
            return (start["discard"] + card,)  # type: ignore[operator]
        assert kind == REVISE
        return (start["revise"] + (0 if card is None else 1 + PAGE_INDEX[card]),)

    # -- the tensor -----------------------------------------------------------------------
    def _observation_segments(self) -> list[tuple[str, int]]:
        return [
            ("row", DECK_SIZE),  # each card: in the Row (its order follows: ascending values)
            ("hand", DECK_SIZE),  # each card: in the hand (a spectator: none)
            ("discard", DECK_SIZE),
            ("removed", DECK_SIZE),
            ("unseen", DECK_SIZE),  # in none of those: in the draw pile (or, to a spectator, the hand)
            ("hand_size", 1),  # / LARGEST_HAND
            ("draw_pile_size", 1),  # / 52
            ("reshuffled", 1),
            ("pending", 2),  # an Errand's discard, a Revision's discards
            ("pending_discards", 1),  # / 2
            ("end", 2),  # complete, exhausted
        ]

    def _fill(self, observation: dict[str, Any], tensor: Tensor) -> None:
        seen = [False] * DECK_SIZE
        for segment in ("row", "hand", "discard", "removed"):  # each read as it is used: a bad one is named
            for code in observation[segment] or ():  # a spectator's hand is None
                card = BY_CODE[code]
                tensor.set(segment, card)
                seen[card] = True
        for card in range(DECK_SIZE):
            if not seen[card]:
                tensor.set("unseen", card)
        hand = observation["hand"]
        size = len(hand) if hand is not None else observation["hand_size"]
        tensor.set("hand_size", 0, size / LARGEST_HAND)
        tensor.set("draw_pile_size", 0, observation["draw_pile_size"] / DECK_SIZE)
        tensor.set("reshuffled", 0, observation["reshuffled"])
        if observation["pending"] is not None:
            tensor.set("pending", (ERRAND_DISCARD, REVISION_DISCARD).index(observation["pending"]))
        tensor.set("pending_discards", 0, observation["pending_discards"] / 2)
        if observation["end"] is not None:
            tensor.set("end", (COMPLETE, EXHAUSTED).index(observation["end"]))
