"""Reading Decktet Golf notation: ``flip B1``, ``take``, ``draw``, ``replace C3``,
``discard``, ``ontop A2``, ``swap A2 C3``; any case, and a left-out cell when only
one legal action fits.

>>> import parlour
>>> state = parlour.load("decktet-golf").new_state(seed=1)
>>> str(state.game.parse_action(state, "FLIP b1"))
'flip B1'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from parlour.core.errors import NotationError
from parlour.core.notation import words
from parlour.core.words import plural
from parlour.games.decktet_golf.actions import KIND_NAMES, GolfAction
from parlour.games.decktet_golf.layout import CELL_INDEX, CELLS

_FORMS = ("flip <cell>", "take", "draw", "replace <cell>", "discard", "ontop <cell>")
_SWAP_FORM = "swap <cell> <cell>"
_CELLS_TAKEN = {"flip": 1, "take": 0, "draw": 0, "replace": 1, "discard": 0, "ontop": 1, "swap": 2}


def expected(excuse: bool) -> str:
    """The forms notation may take under the ``excuse`` option (a swap only with the Excuse).

    >>> expected(False)
    'expected one of: flip <cell>, take, draw, replace <cell>, discard, ontop <cell>'
    """
    return "expected one of: " + ", ".join(_FORMS + ((_SWAP_FORM,) if excuse else ()))


def notation_forms(excuse: bool) -> list[Sequence[str]]:
    """The longest spelling of each form's words, for ``Game.max_notation_length``.

    >>> max(len(" ".join(form)) for form in notation_forms(True))
    10
    """
    verbs = [verb for verb in _CELLS_TAKEN if excuse or verb != "swap"]
    return [(verb, *("C3",) * _CELLS_TAKEN[verb]) for verb in verbs]


class Spec(NamedTuple):
    """What notation says: a kind and the cells named (fewer than the action has when abbreviated)."""

    kind: int
    cells: tuple[int, ...]
    text: str

    def matches(self, action: GolfAction) -> bool:
        if action.kind != self.kind:
            return False
        named = {c for c in (action.cell, action.other) if c is not None}
        return set(self.cells) <= named


def parse_spec(text: str, excuse: bool = True) -> Spec:
    """What ``text`` says; NotationError when it cannot be read, or names a swap while the
    Excuse variant (``excuse``) is off and no swap can ever be legal."""
    args = words(text)
    verb = args.pop(0).lower() if args else ""
    if verb not in _CELLS_TAKEN:
        raise NotationError(f"{text!r} does not parse: {expected(excuse)}")
    if verb == "swap" and not excuse:
        raise NotationError(f"{text!r}: swaps follow the Excuse, which is not in this game (option excuse, "
                            f"DG-11): {expected(excuse)}")
    if len(args) > _CELLS_TAKEN[verb]:
        wanted = _CELLS_TAKEN[verb]
        raise NotationError(f"{text!r}: {verb} takes {wanted or 'no'} {plural(wanted, 'cell')}")
    cells = tuple(_cell(w) for w in args)
    if verb == "swap" and len(set(cells)) < len(cells):
        raise NotationError(f"{text!r}: a swap takes two different cells")
    return Spec(KIND_NAMES.index(verb), cells, text)


def _cell(word: str) -> int:
    at = CELL_INDEX.get(word.upper())
    if at is None:
        raise NotationError(f"{word!r} is not a cell: the cells are {' '.join(CELLS)} (columns A-D, rows 1-4)")
    return at
