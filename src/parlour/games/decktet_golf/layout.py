"""The plus-shaped layout (DG-2): twelve cells of a 4x4 grid without its corners.

Cells are named like a spreadsheet, columns A-D, rows 1-4, and numbered 0..11 in
reading order. Per seat a layout is three 12-bit masks away from every rule:
occupied cells, face-up cells, and the four-card lines.

>>> CELLS[0], CELLS[11], [CELLS[i] for i in CORE_CELLS]
('B1', 'C4', ['B2', 'C2', 'B3', 'C3'])
>>> [(LINE_NAMES[i], [CELLS[c] for c in LINE_OUTER[i]]) for i in range(4)]
[('row 2', ['A2', 'D2']), ('row 3', ['A3', 'D3']), ('column B', ['B1', 'B4']), ('column C', ['C1', 'C4'])]
"""

from __future__ import annotations

CELLS = ("B1", "C1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "B4", "C4")
N_CELLS = len(CELLS)
CELL_INDEX = {name: i for i, name in enumerate(CELLS)}
FULL = (1 << N_CELLS) - 1

CORE_CELLS = tuple(CELL_INDEX[c] for c in ("B2", "C2", "B3", "C3"))
CORE = sum(1 << c for c in CORE_CELLS)
OUTSIDE = FULL & ~CORE  # the eight cells the opening flips may turn (DG-3)

#: The four-card lines in the order they are handled (DG-6): row 2, row 3, column B, column C.
LINE_NAMES = ("row 2", "row 3", "column B", "column C")
LINE_KEYS = ("2", "3", "B", "C")
LINE_CELLS = tuple(
    tuple(CELL_INDEX[c] for c in cells)
    for cells in (("A2", "B2", "C2", "D2"), ("A3", "B3", "C3", "D3"), ("B1", "B2", "B3", "B4"), ("C1", "C2", "C3", "C4"))
)
LINE_MASK = tuple(sum(1 << c for c in cells) for cells in LINE_CELLS)
#: The two outer cards of each line: the ones a suited line discards (the core never goes).
LINE_OUTER = tuple((cells[0], cells[3]) for cells in LINE_CELLS)


def cells_of(mask: int) -> list[int]:
    """The cells in a mask, in reading order.

    >>> [CELLS[c] for c in cells_of(CORE)]
    ['B2', 'C2', 'B3', 'C3']
    """
    return [c for c in range(N_CELLS) if mask >> c & 1]


#: ``cells_of`` of every mask, worked out once (the actions' tables and the observation keys read it).
MASK_CELLS: tuple[tuple[int, ...], ...] = tuple(tuple(cells_of(mask)) for mask in range(FULL + 1))
