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

from collections.abc import Sequence
from typing import NamedTuple

from parlour.cards.standard import CODE, parse_card
from parlour.core.errors import NotationError
from parlour.core.notation import number, words
from parlour.games.quisquilian.actions import (
    ADD,
    DISCARD,
    KIND_NAMES,
    RUN,
    STOP,
    QuisAction,
)

EXPECTED = (
    "expected one of: discard <card> <spot 1-9>, run <card>[@spot] <card>[@spot] <card>[@spot] ..., "
    "add <card>[@spot] [to <run number>], stop  (cards like 7H, 10S or TS)"
)
#: The most cards a run can have: one of each rank, Ace to King (QU-2, QU-4).
LONGEST_RUN = 13
_CARD, _SOURCE = "10H", ("10H", "@", "9")  # the longest spelling of a card, and of a card from a spot


def notation_forms(decks: int) -> list[Sequence[str]]:
    """The longest spelling of each form's words (for ``Game.max_notation_length``); a card
    from a spot is counted as three words, ``10H @ 9``, since blanks around ``@`` are allowed.
    A player's runs number at most one per three cards of the decks.

    >>> [len(form) for form in notation_forms(1)]
    [3, 40, 6, 1]
    """
    most_runs = str(52 * decks // 3)
    return [("discard", _CARD, "9"), ("run", *_SOURCE * LONGEST_RUN), ("add", *_SOURCE, "to", most_runs), ("stop",)]


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
        if not self.cards:  # a bare verb: any action of its kind (DESIGN.md "Notation input")
            return True
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
    spot = number(word)
    if spot is None or not 1 <= spot <= 9:
        raise NotationError(f"{text!r}: {word!r} is not a spot: spots are numbered 1-9, row by row")
    return spot


def _joined(text: str) -> list[str]:
    """The words of ``text`` as written (a bad card is echoed as the player typed it), a word
    ending or starting with ``@`` joined to its neighbour (``6H @ 3`` is ``6H@3``), never to
    the verb: one pass."""
    out: list[str] = []
    for word in words(text):
        if len(out) > 1 and (word.startswith("@") or out[-1].endswith("@")):
            out[-1] += word
        else:
            out.append(word)
    return out


def parse_spec(text: str) -> Spec:
    args = _joined(text)
    if not args or args[0].lower() not in KIND_NAMES:
        raise NotationError(f"{text!r} does not parse: {EXPECTED}")
    kind = KIND_NAMES.index(args.pop(0).lower())
    if not args:  # a bare verb abbreviates the one legal action of its kind, if there is one
        return Spec(kind, (), 0, None, text)
    if kind == STOP:
        raise NotationError(f"{text!r}: stop takes nothing after it")
    if kind == DISCARD:
        if len(args) not in (1, 2):
            raise NotationError(f"{text!r}: write discard <card> <spot>, e.g. discard 7H 5")
        return Spec(DISCARD, ((parse_card(args[0]), 0),), _spot(args[1], text) if len(args) == 2 else 0, None, text)
    if kind == RUN:
        return Spec(RUN, _run_cards(args, text), 0, None, text)
    target = None
    if len(args) == 3 and args[1].lower() == "to":
        run_number = number(args[2])
        if not run_number:
            raise NotationError(f"{text!r}: {args[2]!r} is not a run number: your runs are numbered from 1, in the order you laid them")
        target, args = run_number - 1, args[:1]
    if len(args) != 1:
        raise NotationError(f"{text!r}: write add <card>[@spot] [to <run number>], e.g. add 8H@2")
    return Spec(ADD, (_card_at(args[0], text),), 0, target, text)


def _run_cards(args: list[str], text: str) -> tuple[tuple[int, int], ...]:
    """A run's (card, source) pairs; a card named twice is refused (a run holds each rank
    once, QU-4), found with a set: linear in the words."""
    if len(args) < 3:
        raise NotationError(f"{text!r}: a run has three or more cards, e.g. run 5H 6H@3 7H@3")
    if len(args) > LONGEST_RUN:
        raise NotationError(f"{text!r}: a run has at most {LONGEST_RUN} cards, one of each rank Ace to King (QU-4)")
    cards = tuple(_card_at(w, text) for w in args)
    seen: set[int] = set()
    for card, _ in cards:
        if card in seen:
            raise NotationError(f"{text!r}: {CODE[card]} is named twice; a run holds each rank once (QU-4)")
        seen.add(card)
    return cards
