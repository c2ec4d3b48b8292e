"""Reading Psalter Row notation the lenient way a player writes it.

Any case and spacing, ``T`` for 10, the payment cards in either order, and any
part left out when exactly one legal action matches what is written.

>>> import parlour
>>> game = parlour.load("psalter-row")
>>> state = game.from_position({"row": ["5H"], "hand": ["9C", "2D", "JS", "3C", "KD"]})
>>> str(game.parse_action(state, "PLACE 9c pay js 2d"))
'place 9C high pay 2D JS'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from parlour.cards.standard import parse_card
from parlour.core.errors import NotationError
from parlour.core.notation import words
from parlour.games.psalter_row.actions import (
    END_NAMES,
    KIND_NAMES,
    PLACE,
    SWAP,
    PsalterAction,
)

EXPECTED = (
    "expected one of: place <card> [low|high] [pay <page> [<patron>]], swap <page> <king>, "
    "errand <ace>, discard <card>, revise [<page>]  (cards like 9C, 10H or TH, QS)"
)
_CARD = "10H"  # the longest spelling of a card
#: The longest spelling of each form's words, for ``Game.max_notation_length``: the same
#: under every option.
NOTATION_FORMS: tuple[Sequence[str], ...] = (
    ("place", _CARD, "high", "pay", _CARD, _CARD),
    ("swap", _CARD, _CARD),
    ("errand", _CARD),
    ("discard", _CARD),
    ("revise", _CARD),
)


@dataclass(frozen=True)
class Spec:
    """What a piece of notation says; ``None`` fields were left out."""

    kind: int
    card: int | None = None
    end: int | None = None
    pay: frozenset[int] | None = None
    king: int | None = None
    text: str = ""

    def matches(self, action: PsalterAction) -> bool:
        if action.kind != self.kind:
            return False
        if self.kind == SWAP:  # the two cards in either order, or just one of them
            named = {c for c in (self.card, self.king) if c is not None}
            return named <= {action.card, action.king}
        if self.card is not None and action.card != self.card:
            return False
        if self.end is not None and action.end != self.end:
            return False
        paid = frozenset(c for c in (action.pay, action.patron) if c is not None)
        return self.pay is None or self.pay == paid


def parse_spec(text: str) -> Spec:
    """Parse notation into a Spec; NotationError says what was expected."""
    args = words(text)  # as written: a bad card is echoed as the player typed it
    if not args or args[0].lower() not in KIND_NAMES:
        raise NotationError(f"{text!r} does not parse: {EXPECTED}")
    verb = args.pop(0).lower()
    kind = KIND_NAMES.index(verb)
    if kind == PLACE:
        return _parse_place(text, args)
    if kind == SWAP:
        if len(args) > 2:
            raise NotationError(f"{text!r}: a Directive names a hand Page and a King, e.g. swap 6S KH")
        cards: list[int | None] = [parse_card(w) for w in args]
        if len(cards) == 2 and cards[0] == cards[1]:  # else "swap 6S 6S" would abbreviate "swap 6S KH"
            raise NotationError(f"{text!r}: the same card is named twice: a Directive names a hand Page and a King")
        cards += [None] * (2 - len(cards))  # a bare "swap" names no card: the only Directive
        return Spec(SWAP, cards[0], king=cards[1], text=text)
    if len(args) > 1:
        raise NotationError(f"{text!r}: write {verb} <card>, naming one card")
    return Spec(kind, parse_card(args[0]) if args else None, text=text)


def _parse_place(text: str, args: list[str]) -> Spec:
    if not args:  # a bare "place": the only placement
        return Spec(PLACE, text=text)
    card, rest = parse_card(args[0]), args[1:]
    end = None
    if rest and rest[0].lower() in END_NAMES[1:]:
        end = END_NAMES.index(rest.pop(0).lower())
    pay = None
    if rest and rest[0].lower() != "pay":
        raise NotationError(f"{text!r}: {rest[0]!r} is not an end or 'pay': write low or high, then pay <cards>")
    if rest:
        if not 2 <= len(rest) <= 3:
            raise NotationError(f"{text!r}: after the Page and its end comes 'pay' and one or two cards")
        pay = frozenset(parse_card(w) for w in rest[1:])
        if len(pay) != len(rest) - 1:
            raise NotationError(f"{text!r}: the same card is named twice in the payment")
    return Spec(PLACE, card, end, pay, text=text)


