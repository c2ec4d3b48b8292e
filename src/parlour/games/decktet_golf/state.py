"""The Decktet Golf match state: layouts as flat lists and bitmasks, piles, and the flow of a turn.

A whole match, from the first deal to the final result, is one state. Each seat's
layout is 12 entries of ``cells`` (card int, -1 for an empty cell) and two masks,
``occ`` (occupied) and ``up`` (face up), so a line check is a mask test and an
``&`` of four suit masks.

>>> import parlour
>>> state = parlour.load("decktet-golf").new_state(seed=1)
>>> state.phase_name, state.current_player, [str(a) for a in state.legal_actions()][:2]
('opening', 1, ['flip B1', 'flip C1'])
"""

from __future__ import annotations

from typing import Any

from parlour.cards.decktet import EXCUSE, SUITS
from parlour.core.chance import shuffle
from parlour.core.game import State
from parlour.games.decktet_golf.actions import (
    DISCARD_ACTION,
    DRAW,
    DRAW_ACTION,
    FLIP,
    FLIPS,
    ONTOP,
    ONTOP_CELL,
    REPLACE,
    REPLACES,
    REPLACES_OR_DISCARD,
    TAKE,
    TAKE_ACTION,
    GolfAction,
    swaps,
)
from parlour.games.decktet_golf.layout import (
    FULL,
    LINE_CELLS,
    LINE_MASK,
    LINE_OUTER,
    N_CELLS,
    OUTSIDE,
)
from parlour.games.decktet_golf.scoring import VALUE, layout_total

OPENING, START, TAKEN, DRAWN, FLIPPING, ONTOP_PHASE, SWAPPING = range(7)
PHASE_NAMES = ("opening", "start", "taken", "drawn", "flip", "ontop", "swap")
#: What follows the Excuse's swaps: the mover's line check, or covering the Excuse.
AFTER_LINES, AFTER_COVER = "lines", "cover"
TARGET, ROUNDS = "target", "rounds"

_BOTH = (TAKE_ACTION, DRAW_ACTION)
_TAKE_ONLY = (TAKE_ACTION,)
_DRAW_ONLY = (DRAW_ACTION,)


def suited_lines(cells: list[int], base: int, up: int) -> tuple[int, ...]:
    """DG-6: the lines whose four cards are all present, face up, and share a suit."""
    found = []
    for line in range(4):
        if up & LINE_MASK[line] == LINE_MASK[line]:
            a, b, c, d = LINE_CELLS[line]
            if SUITS[cells[base + a]] & SUITS[cells[base + b]] & SUITS[cells[base + c]] & SUITS[cells[base + d]]:
                found.append(line)
    return tuple(found)


class GolfState(State):
    """A Decktet Golf match in progress."""

    __slots__ = (
        "n", "seed", "cells", "up", "occ", "pile", "top", "discard", "drawn", "from_pile",
        "phase", "player", "turn", "dealer", "round", "flips_left", "lines", "swappers",
        "after_swaps", "excuse_owed", "ender", "totals", "round_scores", "pile_known",
        "reshuffles", "turns", "line_discards", "firsts", "last_cells",
    )

    n: int  # seats
    seed: int  # the chance seed: every deal and reshuffle derives from it
    cells: list[int]  # seat * 12 + cell -> card, -1 empty
    up: list[int]  # per seat: face-up cells
    occ: list[int]  # per seat: occupied cells
    pile: list[int]  # the draw pile, pile[top] on top; never mutated, shared by clones
    top: int
    discard: list[int]  # bottom .. top
    drawn: int  # the card in hand after take/draw, -1 if none
    from_pile: bool  # the drawn card came from the pile (known to its drawer alone)
    phase: int
    player: int  # the seat to decide now
    turn: int  # the seat whose turn it is (others decide only their Excuse swaps)
    dealer: int
    round: int  # 0-based
    flips_left: int  # opening flips still owed by ``player``
    lines: tuple[int, ...]  # suited lines still to discard, in order (DG-6)
    swappers: tuple[int, ...]  # seats still to swap after an Excuse (DG-11)
    after_swaps: str | None
    excuse_owed: bool  # the mover discarded the Excuse; swaps follow the flip
    ender: int  # the seat that turned its last card, -1 if none yet (DG-8)
    totals: tuple[int, ...]
    round_scores: tuple[tuple[int, ...], ...]
    pile_known: bool  # after a reshuffle the pile's contents are public (DG-12)
    reshuffles: int
    turns: int
    line_discards: int  # outer cards discarded by suit lines, the final checks of DG-8 included
    firsts: tuple[int, ...]  # the first player of each round so far (DG-4)
    last_cells: tuple[int, ...] | None  # every layout as the last finished round ended

    # -- the contract -------------------------------------------------------------------
    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def scores(self) -> list[int]:
        return list(self.totals)

    def winners(self) -> list[int]:
        """DG-10: the lowest cumulative score wins; equal lowest share the win."""
        if self.end is None:
            return []
        best = min(self.totals)
        return [seat for seat, total in enumerate(self.totals) if total == best]

    def clone(self) -> "GolfState":
        new = GolfState.__new__(GolfState)
        new.game, new._history, new._origin, new._legal = self.game, self._history, self._origin, self._legal
        new.n, new.seed, new.cells, new.up, new.occ = self.n, self.seed, self.cells[:], self.up[:], self.occ[:]
        new.pile, new.top, new.discard, new.drawn = self.pile, self.top, self.discard[:], self.drawn
        new.from_pile, new.phase, new.player, new.turn = self.from_pile, self.phase, self.player, self.turn
        new.dealer, new.round, new.flips_left, new.lines = self.dealer, self.round, self.flips_left, self.lines
        new.swappers, new.after_swaps, new.excuse_owed = self.swappers, self.after_swaps, self.excuse_owed
        new.ender, new.totals, new.round_scores = self.ender, self.totals, self.round_scores
        new.pile_known, new.reshuffles, new.turns = self.pile_known, self.reshuffles, self.turns
        new.line_discards, new.end = self.line_discards, self.end
        new.firsts, new.last_cells = self.firsts, self.last_cells
        return new

    def layout(self, seat: int) -> list[int]:
        """The 12 cells of a seat's layout (card ints, -1 empty)."""
        return self.cells[seat * N_CELLS : (seat + 1) * N_CELLS]

    def stats(self) -> dict[str, Any]:
        rounds = len(self.round_scores) or 1
        out: dict[str, Any] = {
            "rounds": len(self.round_scores),
            "turns": self.turns,
            "turns_per_round": self.turns / rounds,
            "line_discards": self.line_discards,
            "line_discards_per_round": self.line_discards / rounds,
            "decisions": len(self.history()),
            "end": self.end,
        }
        for seat in range(self.n):
            scores = [r[seat] for r in self.round_scores]
            out[f"round_score_{seat}"] = sum(scores) / len(scores) if scores else 0.0
        for place in range(self.n):  # by turn order, not finishing place: the round's first player is 1
            scores = [r[(first + place) % self.n] for r, first in zip(self.round_scores, self.firsts)]
            out[f"round_score_turn_order{place + 1}"] = sum(scores) / len(scores) if scores else 0.0
        return out

    # -- what is legal ------------------------------------------------------------------
    def _legal_actions(self) -> tuple[GolfAction, ...]:  # type: ignore[override]
        if self.end is not None:
            return ()
        phase, p = self.phase, self.player
        if phase == START:  # DG-5: the discard top or the pile top
            if self.discard and self.top < len(self.pile):
                return _BOTH
            return _TAKE_ONLY if self.discard else _DRAW_ONLY
        if phase == DRAWN:
            return REPLACES_OR_DISCARD[self.occ[p]]
        if phase == TAKEN:
            return REPLACES[self.occ[p]]
        if phase == FLIPPING:
            return FLIPS[self.occ[p] & ~self.up[p]]
        if phase == ONTOP_PHASE:
            first, second = LINE_OUTER[self.lines[0]]
            return (ONTOP_CELL[first], ONTOP_CELL[second])
        if phase == OPENING:  # DG-3: only the eight cells outside the core
            return FLIPS[OUTSIDE & self.occ[p] & ~self.up[p]]
        return swaps(self.occ[p])

    def _why_illegal(self, action: Any) -> str:
        from parlour.games.decktet_golf.explain import why_illegal

        return why_illegal(self, action)

    # -- what actions do ----------------------------------------------------------------
    def _apply(self, action: GolfAction) -> None:  # type: ignore[override]
        kind = action.kind
        if kind == REPLACE:
            self._replace(action.cell)  # type: ignore[arg-type]
        elif kind == DRAW:
            self.drawn, self.from_pile, self.phase = self.pile[self.top], True, DRAWN
            self.top += 1
        elif kind == TAKE:
            self.drawn, self.from_pile, self.phase = self.discard.pop(), False, TAKEN
        elif kind == FLIP:
            self._flip(action.cell)  # type: ignore[arg-type]
        elif kind == ONTOP:
            self._ontop(action.cell)  # type: ignore[arg-type]
        elif action is DISCARD_ACTION:
            self._discard_drawn()
        else:
            self._swap(action.cell, action.other)  # type: ignore[arg-type]

    def _replace(self, cell: int) -> None:
        """DG-5: the drawn card goes face up into the cell; the old card face up onto the discard."""
        p = self.player
        at = p * N_CELLS + cell
        old = self.cells[at]
        self.cells[at] = self.drawn
        self.drawn = -1
        self.up[p] |= 1 << cell
        self._to_discard(old)
        self._after_draw_step()

    def _discard_drawn(self) -> None:
        """DG-5: discard the card drawn from the pile, then flip a face-down card if any."""
        card, self.drawn = self.drawn, -1
        self._to_discard(card)
        p = self.player
        if self.occ[p] & ~self.up[p]:
            self.phase = FLIPPING
        else:
            self._after_draw_step()

    def _flip(self, cell: int) -> None:
        p = self.player
        self.up[p] |= 1 << cell
        if self.phase == FLIPPING:
            self._after_draw_step()
            return
        self.flips_left -= 1  # DG-3: each seat makes all its flips before the next
        if self.flips_left:
            return
        nxt = (p + 1) % self.n
        if nxt == (self.dealer + 1) % self.n:
            self._after_opening()
        else:
            self.player = self.turn = nxt
            self.flips_left = self.game.options["opening_flips"]

    def _to_discard(self, card: int) -> None:
        if card == EXCUSE:  # DG-11: to the bottom of the discard pile, and everyone swaps
            self.discard.insert(0, card)
            self.excuse_owed = True
        else:
            self.discard.append(card)

    def _after_draw_step(self) -> None:
        if self.excuse_owed:  # DG-11: the flip came first; now the swaps, then the lines
            self.excuse_owed = False
            self._start_swaps(self.turn, AFTER_LINES)
        else:
            self._check_lines()

    # -- suit lines (DG-6) --------------------------------------------------------------
    def _check_lines(self) -> None:
        self.lines = suited_lines(self.cells, self.turn * N_CELLS, self.up[self.turn])
        self._next_line()

    def _next_line(self) -> None:
        """Discard the outer cards of the next suited line; ask ``ontop`` unless they are twins."""
        p, base = self.turn, self.turn * N_CELLS
        while self.lines:
            first, second = LINE_OUTER[self.lines[0]]
            if self.cells[base + first] != self.cells[base + second]:
                self.player, self.phase = p, ONTOP_PHASE
                return
            self._discard_cell(p, first)
            self._discard_cell(p, second)
            self.lines = self.lines[1:]
        self._end_turn()

    def _ontop(self, cell: int) -> None:
        first, second = LINE_OUTER[self.lines[0]]
        self._discard_cell(self.turn, second if cell == first else first)
        self._discard_cell(self.turn, cell)
        self.lines = self.lines[1:]
        self._next_line()

    def _discard_cell(self, seat: int, cell: int) -> None:
        at = seat * N_CELLS + cell
        self.discard.append(self.cells[at])  # never the Excuse: it has no suit to share
        self.cells[at] = -1
        self.occ[seat] &= ~(1 << cell)
        self.up[seat] &= ~(1 << cell)
        self.line_discards += 1

    # -- the Excuse's swaps (DG-11) -------------------------------------------------------
    def _start_swaps(self, first: int, then: str) -> None:
        self.swappers = tuple((first + i) % self.n for i in range(self.n))
        self.after_swaps, self.phase, self.player = then, SWAPPING, first

    def _swap(self, a: int, b: int) -> None:
        p = self.player
        base, cells, up = p * N_CELLS, self.cells, self.up[p]
        cells[base + a], cells[base + b] = cells[base + b], cells[base + a]
        if (up >> a & 1) != (up >> b & 1):  # each card keeps its orientation
            self.up[p] = up ^ (1 << a) ^ (1 << b)
        self.swappers = self.swappers[1:]
        if self.swappers:
            self.player = self.swappers[0]
            return
        then, self.after_swaps = self.after_swaps, None
        self.player = self.turn
        if then == AFTER_LINES:
            self._check_lines()
        else:
            self.phase = START
            self._turn_up()

    # -- the end of a turn, reshuffles (DG-7) and the round end (DG-8) --------------------
    def _end_turn(self) -> None:
        p = self.turn
        self.turns += 1
        if self.ender < 0 and not self.occ[p] & ~self.up[p]:
            self.ender = p  # DG-8: every other player gets one last turn
        nxt = (p + 1) % self.n
        if nxt == self.ender:
            self._end_round()
            return
        self.player = self.turn = nxt
        self.phase = START
        if self.top == len(self.pile):  # DG-7: never after a round's last turn
            self._reshuffle()

    def _reshuffle(self) -> None:
        pile, self.discard = self.discard, []
        shuffle(pile, self.seed, "reshuffle", self.round, self.reshuffles)
        self.reshuffles += 1
        self.pile, self.top, self.pile_known = pile, 0, True
        self._turn_up()

    def _turn_up(self) -> None:
        """Turn the pile's top card up onto the discard pile; the Excuse is swapped for and covered."""
        if self.top == len(self.pile):
            return
        card = self.pile[self.top]
        self.top += 1
        if card == EXCUSE:
            self.discard.insert(0, card)
            self._start_swaps(self.turn, AFTER_COVER)
        else:
            self.discard.append(card)

    def _end_round(self) -> None:
        """DG-8: all cards turn up, lines are checked without asking, layouts are scored."""
        for seat in range(self.n):
            self.up[seat] = self.occ[seat]
            for line in suited_lines(self.cells, seat * N_CELLS, self.up[seat]):
                for cell in LINE_OUTER[line]:
                    self._discard_cell(seat, cell)
        scores = tuple(layout_total(self.layout(seat)) for seat in range(self.n))
        self.last_cells = tuple(self.cells)
        self.round_scores += (scores,)
        self.totals = tuple(t + s for t, s in zip(self.totals, scores))
        self.lines, self.drawn, self.phase = (), -1, START
        rounds = self.game.options["rounds"]
        if rounds is not None:
            if len(self.round_scores) >= rounds:
                self.end = ROUNDS
        elif max(self.totals) >= self.game.options["target"]:
            self.end = TARGET  # DG-10
        if self.end is None:
            self.dealer, self.round = (self.dealer + 1) % self.n, self.round + 1
            self._deal()

    # -- the deal (DG-2, DG-3, DG-4) -------------------------------------------------------
    def _deal(self) -> None:
        """Shuffle, deal 12 face down to each seat, turn up the discard, start the opening flips."""
        deck = list(self.game.deck)  # type: ignore[attr-defined]
        shuffle(deck, self.seed, "deal", self.round)
        n = self.n
        self.cells = deck[: n * N_CELLS]
        self.pile, self.top = deck, n * N_CELLS
        self.up, self.occ = [0] * n, [FULL] * n
        self.discard = [deck[self.top]]
        self.top += 1
        self.drawn, self.from_pile, self.lines, self.swappers = -1, False, (), ()
        self.after_swaps, self.excuse_owed, self.ender = None, False, -1
        self.pile_known, self.reshuffles = False, 0
        self.player = self.turn = (self.dealer + 1) % n
        self.flips_left = self.game.options["opening_flips"]
        self.phase = OPENING
        if not self.flips_left:
            self._after_opening()

    def _after_opening(self) -> None:
        """DG-4: the highest face-up total goes first (ties: earliest after the dealer)."""
        order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        shown = [
            sum(VALUE[self.cells[s * N_CELLS + c]] for c in range(N_CELLS) if self.up[s] >> c & 1) for s in order
        ]
        first = order[shown.index(max(shown))]
        self.player = self.turn = first
        self.firsts += (first,)
        self.phase = START
        if self.discard[-1] == EXCUSE:  # DG-11: the Excuse as the opening discard
            self._start_swaps(first, AFTER_COVER)

