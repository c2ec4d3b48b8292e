"""Psalter Row's side of the native kernel (``csrc/psalter_row.c``): what it reads and gives back.

``pack_state`` lays a state out as the words the kernel's ``load`` reads: the options, the
flags, the actions so far by kind (for ``stats()``), then the Row, the hand, the draw pile
(top first), the discard pile and the removed cards, each as its length and its cards.

>>> import parlour
>>> state = parlour.load("psalter-row").from_position({"row": ["4H", "5H"], "hand": ["6H"]})
>>> words, seed = pack_state(state)
>>> words[15:21]  # the Row (2 cards: 4H 5H), the hand (1: 6H), the draw pile's 49 cards ...
[2, 29, 30, 1, 31, 49]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.games.psalter_row.actions import KIND_NAMES
from parlour.games.psalter_row.position import ENDS, PENDING
from parlour.games.psalter_row.state import COMPLETE, PsalterState
from parlour.native.runner import Outcome

if TYPE_CHECKING:
    from parlour.core.game import Game

GAME = "psalter-row"
#: The heuristic's settings the C heuristic reads, in the order of its params array.
PARAMS: tuple[str, ...] = ("pr_endgame", "pr_hole_cost", "pr_patron_gap", "pr_king_waits", "pr_start")
#: The kernel runs PIMC's search (``csrc/search.c``; its samples: ``resample``, as sampling.py).
SEARCH = True
#: figures(): the score, the end (an index of ENDS), reshuffled, the Row's size, then the
#: actions applied by kind (KIND_NAMES order).
N_FIGURES = 4 + len(KIND_NAMES)


def pack_options(game: Game) -> list[int]:
    """The options as ``deal`` reads them: first_page_cost, errand_draw, errand_when_stuck,
    revision_discard (0 the hand, 1 two cards), revision_target (0 largest, 1 smallest),
    end_on (0 empty, 1 failed_draw).

    >>> import parlour
    >>> pack_options(parlour.load("psalter-row", revision_discard=2, end_on="failed_draw"))
    [0, 2, 0, 1, 0, 1]
    """
    o = game.options
    return [
        o["first_page_cost"],
        o["errand_draw"],
        int(o["errand_when_stuck"]),
        0 if o["revision_discard"] == "hand" else 1,
        0 if o["revision_target"] == "largest" else 1,
        0 if o["end_on"] == "empty" else 1,
    ]


def pack_state(state: PsalterState) -> tuple[list[int], int]:
    """The words ``load`` reads for any state of the game, and its chance seed."""
    counts = [0, 0, 0, 0, 0]  # stats() counts every action of the record, those before the state too
    node = state._history
    while node is not None:
        action, node = node
        counts[action.kind] += 1  # type: ignore[attr-defined]
    row, hand, discard, removed = state.row, state.hand, state.discard, state.removed
    pile = state.pile[state.top :]
    words = pack_options(state.game)
    words += [int(state.reshuffled), PENDING.index(state.pending), state.owed, ENDS.index(state.end), *counts]
    words += [len(row), *row, len(hand), *hand, len(pile), *pile, len(discard), *discard, len(removed), *removed]
    return words, state.seed


def decode(game: Game, figures: Sequence[float]) -> Outcome:
    """The kernel's figures as ``state.scores()``, ``winners()``, ``end_reason`` and ``stats()``.

    >>> import parlour
    >>> decode(parlour.load("psalter-row"), [14, 1, 0, 9, 9, 0, 0, 0, 0]).winners
    [0]
    """
    # Spelt out rather than built in a loop: this runs once per game a kernel plays.
    score, end_index, reshuffled, row_size, place, swap, errand, discard, revise = map(int, figures)
    end = ENDS[end_index]
    decisions = place + swap + errand + discard + revise
    stats = {
        "score": score,
        "turns": decisions - discard,
        "decisions": decisions,
        "end": end,
        "complete": end == COMPLETE,
        "reshuffled": reshuffled == 1,
        "row_size": row_size,
        "n_place": place,
        "n_swap": swap,
        "n_errand": errand,
        "n_discard": discard,
        "n_revise": revise,
    }
    return Outcome([score], [0] if end == COMPLETE else [], end, stats)
