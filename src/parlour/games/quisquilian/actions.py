"""Quisquilian actions, interned; one notation per distinct outcome.

>>> from parlour.cards.standard import parse_card as c
>>> str(run(((c("5H"), 0), (c("6H"), 3), (c("7H"), 3)))), str(discard(c("7H"), 5))
('run 5H 6H@3 7H@3', 'discard 7H 5')
>>> str(add(c("8H"), 2, 0, named=False)), str(add(c("8H"), 0, 1, named=True))
('add 8H@2', 'add 8H to 2')
"""

from __future__ import annotations

from parlour.cards.standard import CODE
from parlour.core.action import Action

DISCARD, RUN, ADD, STOP = range(4)
KIND_NAMES = ("discard", "run", "add", "stop")


class QuisAction(Action):
    """A Quisquilian action. ``cards`` holds (card, source) pairs: source 0 is the hand, 1-9 a spot."""

    __slots__ = ("kind", "cards", "spot", "target", "named")

    kind: int
    cards: tuple[tuple[int, int], ...]
    spot: int  # the spot a discard goes to (1-9)
    target: int  # the index of the run an addition extends
    named: bool  # the addition names its run ("to N") because two runs could take it

    def __reduce__(self) -> tuple:
        return (_intern, (self.kind, self.cards, self.spot, self.target, self.named))

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]


_INTERNED: dict[tuple, QuisAction] = {}


def _source(card: int, source: int) -> str:
    return CODE[card] + (f"@{source}" if source else "")


def _intern(kind: int, cards: tuple = (), spot: int = 0, target: int = -1, named: bool = False) -> QuisAction:
    key = (kind, cards, spot, target, named)
    action = _INTERNED.get(key)
    if action is None:
        action = QuisAction()
        action.kind, action.cards, action.spot, action.target, action.named = key
        if kind == DISCARD:
            action.text = f"discard {CODE[cards[0][0]]} {spot}"
        elif kind == RUN:
            action.text = "run " + " ".join(_source(c, s) for c, s in cards)
        elif kind == ADD:
            action.text = "add " + _source(*cards[0]) + (f" to {target + 1}" if named else "")
        else:
            action.text = "stop"
        _INTERNED[key] = action
    return action


def discard(card: int, spot: int) -> QuisAction:
    """Discard a hand card onto a spot (1-9) in the discard step (QU-3)."""
    return _intern(DISCARD, ((card, 0),), spot)


_RUNS: dict[tuple[tuple[int, int], ...], QuisAction] = {}


def run(cards: tuple[tuple[int, int], ...]) -> QuisAction:
    """A new run: (card, source) pairs in rank order (QU-4)."""
    action = _RUNS.get(cards)
    if action is None:
        action = _RUNS[cards] = _intern(RUN, cards)
    return action


_ADDS: dict[tuple[int, int, int, bool], QuisAction] = {}


def add(card: int, source: int, target: int, named: bool) -> QuisAction:
    """One card onto the player's run ``target`` (0-based), from the hand (0) or a spot's top."""
    key = (card, source, target, named)
    action = _ADDS.get(key)
    if action is None:
        action = _ADDS[key] = _intern(ADD, ((card, source),), 0, target, named)
    return action


STOP_ACTION = _intern(STOP)
