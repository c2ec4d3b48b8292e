"""Decktet Golf actions, interned, with legal-action tables indexed by cell masks.

>>> str(REPLACE_CELL[CELL_INDEX["C3"]]), str(swap(CELL_INDEX["C3"], CELL_INDEX["A2"]))
('replace C3', 'swap A2 C3')
>>> [str(a) for a in FLIPS[0b101]]
['flip B1', 'flip A2']
"""

from __future__ import annotations

from itertools import combinations

from parlour.core.action import Action
from parlour.games.decktet_golf.layout import (
    CELL_INDEX,
    CELLS,
    FULL,
    LINE_OUTER,
    MASK_CELLS,
    N_CELLS,
)

FLIP, TAKE, DRAW, REPLACE, DISCARD, ONTOP, SWAP = range(7)
KIND_NAMES = ("flip", "take", "draw", "replace", "discard", "ontop", "swap")


class GolfAction(Action):
    """One Decktet Golf action; ``cell`` (and ``other`` for a swap) are cell numbers."""

    __slots__ = ("kind", "cell", "other")

    kind: int
    cell: int | None
    other: int | None

    def __reduce__(self) -> tuple:
        return (_intern, (self.kind, self.cell, self.other))

    @property
    def kind_name(self) -> str:
        return KIND_NAMES[self.kind]


_INTERNED: dict[tuple, GolfAction] = {}


def _intern(kind: int, cell: int | None = None, other: int | None = None) -> GolfAction:
    key = (kind, cell, other)
    action = _INTERNED.get(key)
    if action is None:
        action = GolfAction()
        action.kind, action.cell, action.other = key
        action.text = " ".join([KIND_NAMES[kind], *(CELLS[c] for c in (cell, other) if c is not None)])
        _INTERNED[key] = action
    return action


def swap(a: int, b: int) -> GolfAction:
    """The Excuse's swap of two cells (DG-11), written with the cells in reading order."""
    return _intern(SWAP, min(a, b), max(a, b))


TAKE_ACTION, DRAW_ACTION, DISCARD_ACTION = _intern(TAKE), _intern(DRAW), _intern(DISCARD)
FLIP_CELL = tuple(_intern(FLIP, c) for c in range(N_CELLS))
REPLACE_CELL = tuple(_intern(REPLACE, c) for c in range(N_CELLS))
ONTOP_CELL = {c: _intern(ONTOP, c) for pair in LINE_OUTER for c in pair}

#: By mask of cells: the flips of those cells, the replacements of those cells, and
#: the replacements plus "discard" (after a draw from the pile).
FLIPS = tuple(tuple(FLIP_CELL[c] for c in cells) for cells in MASK_CELLS)
REPLACES = tuple(tuple(REPLACE_CELL[c] for c in cells) for cells in MASK_CELLS)
REPLACES_OR_DISCARD = tuple(REPLACES[m] + (DISCARD_ACTION,) for m in range(FULL + 1))
_SWAPS: dict[int, tuple[GolfAction, ...]] = {}


def swaps(mask: int) -> tuple[GolfAction, ...]:
    """Every swap of two different occupied cells of a layout (DG-11)."""
    found = _SWAPS.get(mask)
    if found is None:
        found = _SWAPS[mask] = tuple(swap(a, b) for a, b in combinations(MASK_CELLS[mask], 2))
    return found


__all__ = ["CELL_INDEX", "GolfAction", "swap", "swaps"]
