"""Why an action is not legal, in words a player can act on.

>>> import parlour
>>> state = parlour.load("psalter-row").from_position(
...     {"row": ["3H", "4H"], "hand": ["10C", "2D", "QS", "8D", "AC"]})
>>> state.apply("place 10C pay 2D QS")
Traceback (most recent call last):
...
parlour.core.errors.IllegalAction: place 10C pay 2D QS: a 2 and a Queen pay 5, the gap is 6 (PR-2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.cards.standard import CODE, RANK, RANK_NAMES
from parlour.games.psalter_row import rules
from parlour.games.psalter_row.actions import (
    DISCARD,
    EMPTY,
    END_NAMES,
    ERRAND,
    PLACE,
    REVISE,
    SWAP,
    PsalterAction,
)
from parlour.games.psalter_row.notation import Spec
from parlour.games.psalter_row.roles import AID, IS_ACE, IS_KING, PAGE_VALUE, role
from parlour.games.psalter_row.scoring import quires

if TYPE_CHECKING:
    from parlour.games.psalter_row.state import PsalterState


def why_illegal(state: "PsalterState", what: Spec | PsalterAction | Any) -> str:
    """The reason ``what`` is not legal now, prefixed by its notation."""
    spec = _as_spec(what)
    if spec is None:
        return f"{what!r} is not a Psalter Row action"
    reason = _reason(state, spec)
    legal = ", ".join(str(a) for a in state.legal_actions()[:12])
    return f"{spec.text}: {reason or 'not legal now'}" + (f" (legal now: {legal})" if not reason else "")


def _as_spec(what: Any) -> Spec | None:
    if isinstance(what, Spec):
        return what
    if not isinstance(what, PsalterAction):
        return None
    pay = frozenset(c for c in (what.pay, what.patron) if c is not None) or None
    end = what.end if what.kind == PLACE else None
    return Spec(what.kind, what.card, end, pay, what.king, text=str(what))


def _reason(state: "PsalterState", spec: Spec) -> str | None:
    if state.end is not None:
        return f"the game is over ({state.end}); no action is legal"
    if state.pending is not None:
        return _owed(state, spec)
    if spec.kind == DISCARD:
        return "nothing is owed to the discard: discards follow an Errand (PR-6) or a Revision (PR-8)"
    missing = [c for c in _named(spec) if c not in state.hand]
    if missing and spec.kind != REVISE:
        return f"{CODE[missing[0]]} is not in your hand (hand: {' '.join(CODE[c] for c in state.hand)})"
    stuck = not (rules.placements(state.row, state.hand, state.game.options["first_page_cost"])
                 or rules.directives(state.row, state.hand))
    explain = {PLACE: _place, SWAP: _swap, ERRAND: _errand, REVISE: _revise}[spec.kind]
    return explain(state, spec, stuck)


def _named(spec: Spec) -> list[int]:
    return [c for c in (spec.card, spec.king, *(spec.pay or ())) if c is not None]


def _owed(state: "PsalterState", spec: Spec) -> str:
    why = "the Supply Errand" if state.pending == "errand_discard" else "the Revision"
    if spec.kind != DISCARD:
        return f"{why} still owes a discard: write discard <card> with a card from your hand"
    return f"{CODE[spec.card]} is not in your hand (hand: {' '.join(CODE[c] for c in state.hand)})"  # type: ignore[index]


def _place(state: "PsalterState", spec: Spec, stuck: bool) -> str | None:
    card, row = spec.card, state.row
    if card is None:  # a bare "place" that matched no placement
        return "no Page in your hand can be placed now" + (": you are stuck (PR-7)" if stuck else "")
    if not PAGE_VALUE[card]:
        return f"{CODE[card]} is {role(card)}: only Pages 2-10 are placed in the Row"
    if RANK[card] in {RANK[c] for c in row}:
        return f"the Row already has a {RANK[card]}: no value appears twice (PR-1)"
    where = rules.gap(card, row)
    if where is None:
        low, high = RANK[row[0]], RANK[row[-1]]
        return f"a {RANK[card]} cannot go inside the Row {low}..{high}: Pages go only below {low} or above {high} (PR-1)"
    end, n = where
    if spec.end is not None and spec.end != end:
        return f"{CODE[card]} can only go at the {END_NAMES[end]} end" if end else "the Row is empty: write place <card>"
    if end == EMPTY:
        n = state.game.options["first_page_cost"]
    return _payment(card, spec.pay, n, end)


def _payment(card: int, pay: frozenset[int] | None, n: int, end: int) -> str | None:
    what = "the first Page (first_page_cost, PR-3)" if end == EMPTY else f"the gap is {n} (PR-2)"
    if n <= 1:
        return f"{CODE[card]} is placed free: {what if end == EMPTY else 'an exact neighbour costs nothing (PR-2)'}" if pay else None
    if not pay:
        return f"{what}: pay with one Page of value {n} or more, or one Page and one Patron (PR-4)"
    if card in pay:
        return "the placed Page cannot pay for itself (PR-4)"
    if any(IS_KING[c] or IS_ACE[c] for c in pay):
        return "Kings and Aces never pay (PR-4)"
    pages = [c for c in pay if PAGE_VALUE[c]]
    patrons = [c for c in pay if AID[c]]
    if len(pages) == 2:
        return "two Pages never pay together: pay with one Page, or one Page and one Patron (PR-4)"
    if not pages:
        return "a Patron never pays alone: Jack and Queen only add to one Page (PR-4)"
    total = PAGE_VALUE[pages[0]] + sum(AID[c] for c in patrons)
    if total < n:
        names = " and ".join(f"a {RANK_NAMES[RANK[c] - 1]}" for c in [*pages, *patrons])
        return f"{names} pay{'s' if len(pay) == 1 else ''} {total}, {what}"
    return None


def _swap(state: "PsalterState", spec: Spec, stuck: bool) -> str | None:
    cards = [c for c in (spec.card, spec.king) if c is not None]
    kings = [c for c in cards if IS_KING[c]]
    pages = [c for c in cards if PAGE_VALUE[c]]
    if len(kings) > 1 or len(pages) > 1 or len(kings) + len(pages) < len(cards):
        return "the Abbot's Directive takes one hand Page and one King, e.g. swap 6S KH (PR-5)"
    if not kings and not any(IS_KING[c] for c in state.hand):
        return "you hold no King for the Abbot's Directive (PR-5)"
    if pages and RANK[pages[0]] not in {RANK[c] for c in state.row}:
        return f"the Row has no {RANK[pages[0]]} for the Directive to replace (PR-5)"
    if not pages:
        return "no Page in your hand has a copy in the Row for the Directive to replace (PR-5)"
    return None


def _errand(state: "PsalterState", spec: Spec, stuck: bool) -> str | None:
    if spec.card is not None and not IS_ACE[spec.card]:
        return f"{CODE[spec.card]} is {role(spec.card)}: only an Ace runs the Supply Errand (PR-6)"
    if spec.card is None and not any(IS_ACE[c] for c in state.hand):
        return "you hold no Ace for a Supply Errand (PR-6)"
    if stuck and not state.game.options["errand_when_stuck"]:
        return "you are stuck (no placement or Directive is legal): an Errand is no way out, you must revise (PR-7)"
    return None


def _revise(state: "PsalterState", spec: Spec, stuck: bool) -> str | None:
    if not stuck:
        return "a Revision is allowed only when you are stuck; you can still place a Page or issue a Directive (PR-7)"
    row = state.row
    if spec.card is None:
        return None
    if not row:
        return "the Row is empty: a Revision removes nothing, write revise"
    if spec.card not in row:
        return f"{CODE[spec.card]} is not in the Row"
    targets = rules.revision_targets(row, state.game.options["revision_target"])
    if spec.card not in targets:
        rule = "an end Page when there is no Quire" if not quires(row) else (
            f"a Page of the {state.game.options['revision_target']} Quire")
        return f"the Revision removes {rule} (PR-9): one of {' '.join(CODE[c] for c in targets)}"
    return None
