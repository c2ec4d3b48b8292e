"""Reading Quisquilian notation: ``discard 7H 5``, ``run 5H 6H@3 7H@3``, ``add 8H@2``,
``add 8H to 2``, ``stop``; any case, ``T`` for 10, the run's cards in any order.

>>> import parlour
>>> game = parlour.load("quisquilian")
>>> state = game.from_position({"spots": [["2C"], [], [], [], [], [], [], [], []],
...     "hands": [["3C", "4C", "9D"], [], [], []], "player": 0})
>>> str(game.parse_action(state, "RUN 4c 3c 2c@1"))
'run 2C@1 3C 4C'
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from parlour.cards.standard import parse_card
from parlour.core.errors import NotationError
from parlour.games.quisquilian.actions import (
    ADD,
    DISCARD,
    KIND_NAMES,
    RUN,
    STOP,
    QuisAction,
)

if TYPE_CHECKING:
    pass

EXPECTED = (
    "expected one of: discard <card> <spot 1-9>, run <card>[@spot] <card>[@spot] <card>[@spot] ..., "
    "add <card>[@spot] [to <run number>], stop  (cards like 7H, 10S or TS)"
)


class Spec(NamedTuple):
    """What notation says; ``target`` is None when no run number was written."""

    kind: int
    cards: tuple[tuple[int, int], ...]
    spot: int
    target: int | None
    text: str

    def matches(self, action: QuisAction) -> bool:
        if action.kind != self.kind:
            return False
        if self.kind == RUN:
            return sorted(action.cards) == sorted(self.cards)
        if self.kind == DISCARD:  # spot 0: left out, any spot
            return action.cards[0][0] == self.cards[0][0] and self.spot in (0, action.spot)
        if self.kind == ADD:
            return action.cards == self.cards and self.target in (None, action.target)
        return True


def _card_at(word: str, text: str) -> tuple[int, int]:
    card, at, spot = word.partition("@")
    if not at:
        return parse_card(card), 0
    return parse_card(card), _spot(spot, text)


def _spot(word: str, text: str) -> int:
    if not word.isdigit() or not 1 <= int(word) <= 9:
        raise NotationError(f"{text!r}: {word!r} is not a spot: spots are numbered 1-9, row by row")
    return int(word)


def parse_spec(text: str) -> Spec:
    joined = re.sub(r"\s*@\s*", "@", text.strip().lower())  # "6H @ 3" is "6H@3"
    words = [w for w in re.split(r"[\s,]+", joined) if w]
    verb, args = words[0], words[1:]
    if verb not in KIND_NAMES:
        raise NotationError(f"{text!r} does not parse: {EXPECTED}")
    kind = KIND_NAMES.index(verb)
    if kind == STOP:
        if args:
            raise NotationError(f"{text!r}: stop takes nothing after it")
        return Spec(STOP, (), 0, None, text)
    if kind == DISCARD:
        if len(args) not in (1, 2):
            raise NotationError(f"{text!r}: write discard <card> <spot>, e.g. discard 7H 5")
        return Spec(DISCARD, ((parse_card(args[0]), 0),), _spot(args[1], text) if len(args) == 2 else 0, None, text)
    if kind == RUN:
        if len(args) < 3:
            raise NotationError(f"{text!r}: a run has three or more cards, e.g. run 5H 6H@3 7H@3")
        cards = tuple(_card_at(w, text) for w in args)
        twice = [w for w in args if args.count(w) > 1 and "@" in w]
        if twice:
            raise NotationError(f"{text!r}: {twice[0].upper()} is named twice; a spot card can be taken once")
        return Spec(RUN, cards, 0, None, text)
    target = None
    if len(args) == 3 and args[1] == "to":
        if not args[2].isdigit() or int(args[2]) < 1:
            raise NotationError(f"{text!r}: your runs are numbered from 1, in the order you laid them")
        target, args = int(args[2]) - 1, args[:1]
    if len(args) != 1:
        raise NotationError(f"{text!r}: write add <card>[@spot] [to <run number>], e.g. add 8H@2")
    return Spec(ADD, (_card_at(args[0], text),), 0, target, text)
