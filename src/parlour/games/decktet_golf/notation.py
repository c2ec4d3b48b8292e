"""Reading Decktet Golf notation: ``flip B1``, ``take``, ``draw``, ``replace C3``,
``discard``, ``ontop A2``, ``swap A2 C3``; any case, and a left-out cell when only
one legal action fits.

>>> import parlour
>>> state = parlour.load("decktet-golf").new_state(seed=1)
>>> str(state.game.parse_action(state, "FLIP b1"))
'flip B1'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from parlour.core.errors import NotationError
from parlour.core.words import plural
from parlour.games.decktet_golf.actions import KIND_NAMES, GolfAction
from parlour.games.decktet_golf.layout import CELL_INDEX, CELLS

EXPECTED = "expected one of: flip <cell>, take, draw, replace <cell>, discard, ontop <cell>, swap <cell> <cell>"
_CELLS_TAKEN = {"flip": 1, "take": 0, "draw": 0, "replace": 1, "discard": 0, "ontop": 1, "swap": 2}


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


def parse_spec(text: str) -> Spec:
    words = re.split(r"[\s,]+", text.strip())
    verb, args = words[0].lower(), [w for w in words[1:] if w]
    if verb not in _CELLS_TAKEN:
        raise NotationError(f"{text!r} does not parse: {EXPECTED}")
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
