"""Quisquilian actions, interned; one notation per distinct outcome.

>>> from parlour.cards.standard import parse_card as c
>>> str(run(((c("5H"), 0), (c("6H"), 3), (c("7H"), 3)))), str(discard(c("7H"), 5))
('run 5H 6H@3 7H@3', 'discard 7H 5')
>>> str(add(c("8H"), 2, 0, named=False)), str(add(c("8H"), 0, 1, named=True))
('add 8H@2', 'add 8H to 2')
"""

from __future__ import annotations

import sys

from parlour.cards.standard import CODE
from parlour.core.action import Action
from parlour.games.quisquilian.digging import ALONE, SpotInfo

DISCARD, RUN, ADD, STOP = range(4)
KIND_NAMES = ("discard", "run", "add", "stop")


class QuisAction(Action):
    """A Quisquilian action. ``cards`` holds (card, source) pairs: source 0 is the hand, 1-9 a spot."""

    __slots__ = ("kind", "cards", "spot", "target", "named", "_text", "card", "index", "laid", "spot_bit", "alone")

    kind: int
    cards: tuple[tuple[int, int], ...]
    spot: int  # the spot a discard goes to (1-9)
    # A discard's card, its spot's index (0-8), ``(card,)`` to lay on the stack, ``1 << spot``
    # and the spot's info once the card lies alone on top (digging.ALONE): read by every
    # discard, the commonest action, so worked out once here.
    card: int
    index: int
    laid: tuple[int]
    spot_bit: int
    alone: SpotInfo
    target: int  # the index of the run an addition extends
    named: bool  # the addition names its run ("to N") because two runs could take it
    _text: str | None  # the notation once written (see ``text``)

    def __reduce__(self) -> tuple:
        return (_intern, (self.kind, self.cards, self.spot, self.target, self.named))

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]

    @property
    def text(self) -> str:  # type: ignore[override]
        """The notation, written on first use: most runs a dig offers are new and never printed."""
        if self._text is None:
            self._text = _notation(self)
        return self._text


#: Discards and ``stop`` are few and kept for good; runs and additions are countless, so
#: the table is swept now and then of those that nothing else (a legal-action list, a
#: history, an agent's tree) still holds: one object per action among the living, and
#: no unbounded growth over a long simulation. The living are keyed by what the dig
#: generator yields (a run's cards; an addition's card, source, target and ``named``),
#: so that wrapping a dig's results is one look-up each (see :func:`runs_found`).
_INTERNED: dict[tuple, QuisAction] = {}
_LIVING: dict[tuple, QuisAction] = {}
SWEEP_FLOOR = 50_000
SWEEP_AT = SWEEP_FLOOR


def _sweep() -> None:
    """Forget the runs and additions held by nothing but this table.

    The next sweep waits until the table has doubled, so that many actions still
    held (a search tree) cost a sweep now and then, not one per new action.
    """
    global SWEEP_AT
    for key in list(_LIVING):
        if sys.getrefcount(_LIVING[key]) <= 2:  # the table's reference and getrefcount's argument
            del _LIVING[key]
    SWEEP_AT = max(SWEEP_FLOOR, 2 * len(_LIVING))


def _source(card: int, source: int) -> str:
    return CODE[card] + (f"@{source}" if source else "")


def _notation(action: QuisAction) -> str:
    kind, cards = action.kind, action.cards
    if kind == DISCARD:
        return f"discard {CODE[cards[0][0]]} {action.spot}"
    if kind == RUN:
        return "run " + " ".join(_source(c, s) for c, s in cards)
    if kind == ADD:
        return "add " + _source(*cards[0]) + (f" to {action.target + 1}" if action.named else "")
    return "stop"


def _intern(kind: int, cards: tuple = (), spot: int = 0, target: int = -1, named: bool = False) -> QuisAction:
    if kind == RUN:
        return _LIVING.get(cards) or _new_living(cards, RUN, cards)
    if kind == ADD:
        key = (*cards[0], target, named)
        return _LIVING.get(key) or _new_living(key, ADD, cards, target, named)
    key = (kind, cards, spot, target, named)
    action = _INTERNED.get(key)
    if action is None:
        action = _INTERNED[key] = _new(kind, cards, spot, target, named)
        if kind == DISCARD:
            card = action.card = cards[0][0]
            action.index, action.laid, action.spot_bit, action.alone = spot - 1, (card,), 1 << spot, ALONE[card]
    return action


def _new(kind: int, cards: tuple, spot: int, target: int, named: bool) -> QuisAction:
    action = QuisAction()
    action.kind, action.cards, action.spot, action.target, action.named, action._text = kind, cards, spot, target, named, None
    return action


def _new_living(key: tuple, kind: int, cards: tuple, target: int = -1, named: bool = False) -> QuisAction:
    """A run or an addition not living yet, kept under ``key`` (sweeping the table first
    when it has grown enough)."""
    if len(_LIVING) >= SWEEP_AT:
        _sweep()
    action = _LIVING[key] = _new(kind, cards, 0, target, named)
    return action


def discard(card: int, spot: int) -> QuisAction:
    """Discard a hand card onto a spot (1-9) in the discard step (QU-3)."""
    return _intern(DISCARD, ((card, 0),), spot)


def run(cards: tuple[tuple[int, int], ...]) -> QuisAction:
    """A new run: (card, source) pairs in rank order (QU-4)."""
    return _intern(RUN, cards)


def add(card: int, source: int, target: int, named: bool) -> QuisAction:
    """One card onto the player's run ``target`` (0-based), from the hand (0) or a spot's top."""
    return _intern(ADD, ((card, source),), 0, target, named)


def runs_found(found: list[tuple[tuple[int, int], ...]]) -> list[QuisAction]:
    """:func:`run` of each run a dig found (``digging.runs``): the dig's hot path, so a run
    already living costs one look-up under the key it was interned with.

    >>> from parlour.cards.standard import parse_card as c
    >>> cards = ((c("5H"), 0), (c("6H"), 3), (c("7H"), 3))
    >>> runs_found([cards]) == [run(cards)]
    True
    """
    living = _LIVING.get
    return [living(cards) or _new_living(cards, RUN, cards) for cards in found]


def additions_found(found: list[tuple[int, int, int, bool]]) -> list[QuisAction]:
    """:func:`add` of each (card, source, target, named) a dig found (``digging.additions``),
    one look-up each like :func:`runs_found`.

    >>> from parlour.cards.standard import parse_card as c
    >>> additions_found([(c("8H"), 2, 0, False)]) == [add(c("8H"), 2, 0, False)]
    True
    """
    living = _LIVING.get
    return [living(key) or _new_living(key, ADD, (key[:2],), key[2], key[3]) for key in found]


STOP_ACTION = _intern(STOP)
