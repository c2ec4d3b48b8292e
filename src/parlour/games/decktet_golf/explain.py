"""Why a Decktet Golf action is not legal, in words a player can act on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.decktet_golf.actions import (
    DISCARD,
    DRAW,
    FLIP,
    ONTOP,
    REPLACE,
    SWAP,
    TAKE,
    GolfAction,
)
from parlour.games.decktet_golf.layout import CELLS, CORE, LINE_NAMES, LINE_OUTER
from parlour.games.decktet_golf.notation import Spec
from parlour.games.decktet_golf.state import (
    DRAWN,
    FLIPPING,
    ONTOP_PHASE,
    OPENING,
    START,
    SWAPPING,
    TAKEN,
)

if TYPE_CHECKING:
    from parlour.games.decktet_golf.state import GolfState

_NEEDED = {
    OPENING: "make the opening flips: flip <cell> outside the core (DG-3)",
    START: "take the discard top or draw from the pile (DG-5)",
    TAKEN: "replace <cell> with the card taken from the discard pile (DG-5)",
    DRAWN: "replace <cell> with the drawn card, or discard it (DG-5)",
    FLIPPING: "flip <cell>, one of your face-down cards, after discarding the drawn card (DG-5)",
    ONTOP_PHASE: "choose with ontop <cell> which outer card of the suited line ends on top (DG-6)",
    SWAPPING: "swap <cell> <cell>: two of your cards change places after the Excuse (DG-11)",
}
_PHASES_OF = {FLIP: (OPENING, FLIPPING), TAKE: (START,), DRAW: (START,), REPLACE: (TAKEN, DRAWN),
              DISCARD: (DRAWN,), ONTOP: (ONTOP_PHASE,), SWAP: (SWAPPING,)}


def why_illegal(state: "GolfState", what: Spec | GolfAction | Any) -> str:
    if isinstance(what, GolfAction):
        what = Spec(what.kind, tuple(c for c in (what.cell, what.other) if c is not None), str(what))
    if not isinstance(what, Spec):
        return f"{what!r} is not a Decktet Golf action"
    return f"{what.text}: {_reason(state, what)}"


def _reason(state: "GolfState", spec: Spec) -> str:
    if state.end is not None:
        return f"the match is over ({state.end}); no action is legal"
    if state.phase not in _PHASES_OF[spec.kind]:
        return f"now you must {_NEEDED[state.phase]}"
    p = state.player
    occ, up = state.occ[p], state.up[p]
    for cell in spec.cells:
        if not occ >> cell & 1:
            return f"{CELLS[cell]} is empty: only a cell with a card can be {'swapped' if spec.kind == SWAP else 'used'}"
    if spec.kind == TAKE:
        return "the discard pile is empty: draw from the pile"
    if spec.kind == DRAW:
        return "the draw pile is empty: take the discard top"
    if spec.kind == FLIP:
        return _flip(state, spec, up)
    if spec.kind == ONTOP:
        first, second = LINE_OUTER[state.lines[0]]
        return f"choose {CELLS[first]} or {CELLS[second]}, the outer cards of {LINE_NAMES[state.lines[0]]}"
    return f"not legal now; {_NEEDED[state.phase]}"


def _flip(state: "GolfState", spec: Spec, up: int) -> str:
    if not spec.cells:
        return "name the cell to flip, e.g. flip B1"
    cell = spec.cells[0]
    if up >> cell & 1:
        return f"{CELLS[cell]} is already face up: flip a face-down card"
    if state.phase == OPENING and CORE >> cell & 1:
        return f"{CELLS[cell]} is in the core: the opening flips turn cards outside it (DG-3)"
    return f"not legal now; {_NEEDED[state.phase]}"
