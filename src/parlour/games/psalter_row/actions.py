"""Psalter Row actions, interned: one object per distinct action.

>>> from parlour.cards.standard import parse_card as c
>>> str(place(c("9C"), HIGH, c("2H"), c("JS")))
'place 9C high pay 2H JS'
>>> place(c("9C"), HIGH, c("4D")) is PAY[HIGH][c("9C")][c("4D")]
True
"""

from __future__ import annotations

from parlour.cards.standard import CODE, DECK_SIZE
from parlour.core.action import Action
from parlour.games.psalter_row.roles import IS_ACE, PAGE_VALUE

PLACE, SWAP, ERRAND, DISCARD, REVISE = range(5)
KIND_NAMES = ("place", "swap", "errand", "discard", "revise")
#: Where a Page goes: into the empty Row, or at its low or high end.
EMPTY, LOW, HIGH = 0, 1, 2
END_NAMES = ("", "low", "high")


class PsalterAction(Action):
    """One Psalter Row action; build it with the functions below, never directly."""

    __slots__ = ("kind", "card", "end", "pay", "patron", "king")

    kind: int
    card: int | None
    end: int
    pay: int | None
    patron: int | None
    king: int | None

    def __reduce__(self) -> tuple:
        return (_intern, (self.kind, self.card, self.end, self.pay, self.patron, self.king))

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]


_INTERNED: dict[tuple, PsalterAction] = {}


def _intern(
    kind: int,
    card: int | None,
    end: int = EMPTY,
    pay: int | None = None,
    patron: int | None = None,
    king: int | None = None,
) -> PsalterAction:
    key = (kind, card, end, pay, patron, king)
    action = _INTERNED.get(key)
    if action is None:
        action = PsalterAction()
        action.kind, action.card, action.end, action.pay, action.patron, action.king = key
        action.text = _notation(action)
        _INTERNED[key] = action
    return action


def _notation(a: PsalterAction) -> str:
    words = [KIND_NAMES[a.kind]]
    if a.card is not None:
        words.append(CODE[a.card])
    if a.kind == PLACE:
        if a.end != EMPTY:
            words.append(END_NAMES[a.end])
        if a.pay is not None:
            words += ["pay", CODE[a.pay]] + ([CODE[a.patron]] if a.patron is not None else [])
    if a.king is not None:
        words.append(CODE[a.king])
    return " ".join(words)


def place(card: int, end: int, pay: int | None = None, patron: int | None = None) -> PsalterAction:
    """Place a Page at an end, paying with a Page and perhaps a Patron."""
    return _intern(PLACE, card, end, pay, patron)


def swap(page: int, king: int) -> PsalterAction:
    """The Abbot's Directive: the hand Page replaces its Row copy; the King is spent."""
    return _intern(SWAP, page, king=king)


def errand(ace: int) -> PsalterAction:
    return _intern(ERRAND, ace)


def discard(card: int) -> PsalterAction:
    return _intern(DISCARD, card)


def revise(page: int | None) -> PsalterAction:
    """A Revision removing ``page`` from the Row (``None``: the Row is empty)."""
    return _intern(REVISE, page)


_PAGES = [c for c in range(DECK_SIZE) if PAGE_VALUE[c]]

#: Tables read by ``legal_actions`` so the hot path builds no objects.
FREE: tuple[tuple[PsalterAction | None, ...], ...] = tuple(
    tuple(place(c, end) if PAGE_VALUE[c] else None for c in range(DECK_SIZE)) for end in (EMPTY, LOW, HIGH)
)
PAY: tuple[tuple[tuple[PsalterAction | None, ...] | None, ...], ...] = tuple(
    tuple(
        tuple(place(c, end, q) if PAGE_VALUE[q] and q != c else None for q in range(DECK_SIZE))
        if PAGE_VALUE[c]
        else None
        for c in range(DECK_SIZE)
    )
    for end in (EMPTY, LOW, HIGH)
)
ERRANDS: tuple[PsalterAction | None, ...] = tuple(errand(c) if IS_ACE[c] else None for c in range(DECK_SIZE))
DISCARDS: tuple[PsalterAction, ...] = tuple(discard(c) for c in range(DECK_SIZE))
REVISIONS: tuple[PsalterAction | None, ...] = tuple(revise(c) if PAGE_VALUE[c] else None for c in range(DECK_SIZE))
REVISE_EMPTY = revise(None)
