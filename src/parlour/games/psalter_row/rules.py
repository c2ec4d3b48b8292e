"""The rules of Psalter Row that decide what is legal, one function per rule.

Each function reads the Row (ascending list of cards) and the hand (list of
cards); the ruling ids refer to ``RULINGS.md``.

>>> from parlour.cards.standard import parse_card as c
>>> gap(c("9C"), [c("4H"), c("5H")])  # PR-2: Row ends at 5, a 9 has N = 4
(2, 4)
"""

from __future__ import annotations

from typing import Sequence

from parlour.cards.standard import RANK
from parlour.games.psalter_row.actions import (
    DISCARDS,
    EMPTY,
    ERRANDS,
    FREE,
    HIGH,
    LOW,
    PAY,
    REVISE_EMPTY,
    REVISIONS,
    PsalterAction,
    place,
    swap,
)
from parlour.games.psalter_row.roles import ACES, AID, IS_KING, KINGS, PAGE_VALUE
from parlour.games.psalter_row.scoring import one_colour, one_suit


def gap(card: int, row: Sequence[int]) -> tuple[int, int] | None:
    """PR-1, PR-2: the end a Page can go to and its gap N; None if it fits nowhere.

    A Page goes only below the Row's lowest or above its highest value, so it has
    at most one end. Into an empty Row the gap is 0 (PR-3 may set a cost).
    """
    value = PAGE_VALUE[card]
    if not value:
        return None
    if not row:
        return EMPTY, 0
    low, high = RANK[row[0]], RANK[row[-1]]
    if value < low:
        return LOW, low - value
    if value > high:
        return HIGH, value - high
    return None


def pays(page: int, patron: int | None, n: int) -> bool:
    """PR-4: one Page of value >= N, or one Page and one Patron with value + aid >= N."""
    return PAGE_VALUE[page] + (AID[patron] if patron is not None else 0) >= n


def payments(card: int, end: int, n: int, hand: Sequence[int]) -> list[PsalterAction]:
    """PR-4: every way to pay gap N for placing ``card`` (another card pays).

    Overpaying is allowed, and a Page with a Patron may pay where the Page alone would.
    """
    out: list[PsalterAction] = []
    patrons = [r for r in hand if AID[r]]
    singles = PAY[end][card]
    for q in hand:
        value = PAGE_VALUE[q]
        if value and q != card:
            if value >= n:
                out.append(singles[q])  # type: ignore[index, arg-type]
            for r in patrons:
                if value + AID[r] >= n:
                    out.append(place(card, end, q, r))
    return out


def placements(row: Sequence[int], hand: Sequence[int], first_page_cost: int) -> list[PsalterAction]:
    """PR-1..PR-4: every legal placement of a hand Page, with every legal payment."""
    out: list[PsalterAction] = []
    if row:
        low, high = RANK[row[0]], RANK[row[-1]]
        for card in hand:
            value = PAGE_VALUE[card]
            if not value or low <= value <= high:
                continue
            end, n = (LOW, low - value) if value < low else (HIGH, value - high)
            if n == 1:
                out.append(FREE[end][card])  # type: ignore[arg-type]
            else:
                out += payments(card, end, n, hand)
    else:
        for card in hand:  # PR-3: the first Page is free unless first_page_cost sets a gap
            if PAGE_VALUE[card]:
                if first_page_cost <= 1:
                    out.append(FREE[EMPTY][card])  # type: ignore[arg-type]
                else:
                    out += payments(card, EMPTY, first_page_cost, hand)
    return out


def directives(row: Sequence[int], hand: Sequence[int]) -> list[PsalterAction]:
    """PR-5: a King and a hand Page whose number is already in the Row."""
    kings = [k for k in hand if IS_KING[k]]
    if not kings or not row:
        return []
    in_row = {RANK[c] for c in row}
    return [swap(c, k) for c in hand if PAGE_VALUE[c] in in_row for k in kings]


def revision_targets(row: Sequence[int], target: str = "largest") -> list[int]:
    """PR-9: the Pages a Revision may remove.

    From the largest Quire ("smallest" with ``revision_target``); among tied Quires
    those sharing a suit, else those sharing a colour, else all tied; any Page of
    the chosen Quires. Without a Quire, an end Page. An empty Row loses nothing.
    """
    if len(row) <= 2:  # its one Quire, or no Quire and its ends: either way the whole Row
        return list(row)
    largest, smallest = _quire_spans(tuple(map(RANK.__getitem__, row)))
    spans = largest if target == "largest" else smallest
    if not spans:
        return [row[0], row[-1]]
    tied = [row[start:stop] for start, stop in spans]
    if len(tied) > 1:
        tied = [q for q in tied if one_suit(q)] or [q for q in tied if one_colour(q)] or tied
    return [c for q in tied for c in q]


_SPANS: dict[tuple[int, ...], tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}


def _quire_spans(values: tuple[int, ...]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(start, stop) slices of the largest and of the smallest Quires of an ascending Row.

    Depends on the Row's values alone (512 possible), so it is worked out once per set.
    """
    found = _SPANS.get(values)
    if found is None:
        spans, start = [], 0
        for i in range(1, len(values) + 1):
            if i == len(values) or values[i] != values[i - 1] + 1:
                if i - start >= 2:
                    spans.append((start, i))
                start = i
        sizes = [stop - start for start, stop in spans]
        found = _SPANS[values] = (
            [sp for sp, size in zip(spans, sizes) if size == max(sizes)],
            [sp for sp, size in zip(spans, sizes) if size == min(sizes)],
        )
    return found


def revisions(row: Sequence[int], target: str) -> list[PsalterAction]:
    """PR-8, PR-9: the Revisions a stuck player may choose from."""
    if not row:
        return [REVISE_EMPTY]
    return [REVISIONS[c] for c in revision_targets(row, target)]  # type: ignore[misc]


def errands(hand: Sequence[int]) -> list[PsalterAction]:
    """PR-6: each Ace in hand can run a Supply Errand."""
    return [ERRANDS[c] for c in hand if ERRANDS[c] is not None]  # type: ignore[misc]


def turn_actions(row: list[int], hand: list[int], options: dict) -> list[PsalterAction]:
    """PR-7, PR-10: the one action of a turn.

    A player who can place or issue a Directive may do that or run an Errand; a
    stuck player must revise (or, with ``errand_when_stuck``, may run an Errand).
    """
    out = placements(row, hand, options["first_page_cost"])
    aces = not ACES.isdisjoint(hand)
    if not KINGS.isdisjoint(hand):
        out += directives(row, hand)
    if out:
        return out + errands(hand) if aces else out
    stuck = revisions(row, options["revision_target"])
    return stuck + errands(hand) if aces and options["errand_when_stuck"] else stuck


def owed_discards(hand: Sequence[int]) -> list[PsalterAction]:
    """PR-6, PR-8: while a discard is owed, any card in hand may go (PR-14)."""
    return [DISCARDS[c] for c in hand]
