"""The Psalter Row state: the Row, the hand, the piles, and what each action does.

The draw pile is a list that is never changed once made (a reshuffle makes a new
one) with an index of its top, so clones share it; removed cards are a tuple.

>>> import parlour
>>> state = parlour.load("psalter-row").new_state(seed=1)
>>> len(state.hand), state.current_player
(5, 0)
"""

from __future__ import annotations

from typing import Any

from parlour.cards.standard import RANK
from parlour.core.chance import shuffle
from parlour.core.game import State
from parlour.games.psalter_row import rules
from parlour.games.psalter_row.actions import (
    DISCARD,
    ERRAND,
    LOW,
    PLACE,
    REVISE,
    SWAP,
    PsalterAction,
)
from parlour.games.psalter_row.roles import FULL_PSALTER, HAND_SIZE
from parlour.games.psalter_row.scoring import score

ERRAND_DISCARD, REVISION_DISCARD = "errand_discard", "revision_discard"
COMPLETE, EXHAUSTED = "complete", "exhausted"


class PsalterState(State):
    """A game of Psalter Row in progress (seat 0 only)."""

    __slots__ = ("row", "hand", "pile", "top", "discard", "removed", "reshuffled", "pending", "owed", "seed")

    row: list[int]  # ascending by value (PR-1)
    hand: list[int]
    pile: list[int]  # the draw pile; pile[top] is its top card, never mutated
    top: int
    discard: list[int]  # bottom .. top, public (PR-14)
    removed: tuple[int, ...]  # out of the game (PR-14)
    reshuffled: bool
    pending: str | None  # an Errand or Revision discard is owed
    owed: int  # Revision discards still owed with revision_discard=2
    seed: int  # the chance seed: the reshuffle derives from it
    player = 0  # solitaire: seat 0 decides every time

    # -- the contract -------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [score(self.row)]

    def winners(self) -> list[int]:
        return [0] if self.end == COMPLETE else []

    def clone(self) -> "PsalterState":
        new = PsalterState.__new__(PsalterState)
        new.game = self.game
        new._history = self._history
        new._origin = self._origin
        new._legal = self._legal
        new.row = self.row[:]
        new.hand = self.hand[:]
        new.pile = self.pile
        new.top = self.top
        new.discard = self.discard[:]
        new.removed = self.removed
        new.reshuffled = self.reshuffled
        new.pending = self.pending
        new.owed = self.owed
        new.end = self.end
        new.seed = self.seed
        return new

    @property
    def draw_pile(self) -> list[int]:
        """The draw pile, top card first."""
        return self.pile[self.top :]

    def stats(self) -> dict[str, Any]:
        kinds = [a.kind_name for a in self.history()]  # type: ignore[attr-defined]
        counts = {f"n_{k}": kinds.count(k) for k in ("place", "swap", "errand", "discard", "revise")}
        return {
            "score": self.scores()[0],
            "turns": len(kinds) - counts["n_discard"],
            "decisions": len(kinds),
            "end": self.end,
            "complete": self.end == COMPLETE,
            "reshuffled": self.reshuffled,
            "row_size": len(self.row),
            **counts,
        }

    # -- what is legal --------------------------------------------------------------------
    def _legal_actions(self) -> list[PsalterAction]:  # type: ignore[override]
        if self.end is not None:
            return []
        if self.pending is not None:
            return rules.owed_discards(self.hand)
        return rules.turn_actions(self.row, self.hand, self.game.options)

    def _why_illegal(self, action: Any) -> str:
        from parlour.games.psalter_row.explain import why_illegal

        return why_illegal(self, action)

    # -- what actions do ----------------------------------------------------------------
    def _apply(self, action: PsalterAction) -> None:  # type: ignore[override]
        kind = action.kind
        if kind == PLACE:
            self._place(action)
        elif kind == REVISE:
            self._revise(action.card)
        elif kind == DISCARD:
            self._discard(action.card)  # type: ignore[arg-type]
        elif kind == SWAP:
            self._directive(action.card, action.king)  # type: ignore[arg-type]
        elif kind == ERRAND:
            self._errand(action.card)  # type: ignore[arg-type]

    def _place(self, action: PsalterAction) -> None:
        """PR-1..PR-4: the Page goes to its end; the paying Page to the discard, the Patron out."""
        hand = self.hand
        hand.remove(action.card)  # type: ignore[arg-type]
        if action.end == LOW:
            self.row.insert(0, action.card)  # type: ignore[arg-type]
        else:
            self.row.append(action.card)  # type: ignore[arg-type]
        if action.pay is not None:
            hand.remove(action.pay)
            self.discard.append(action.pay)
            if action.patron is not None:
                hand.remove(action.patron)
                self.removed += (action.patron,)
        if len(self.row) == FULL_PSALTER:  # PR-12: the game ends at once
            self.end = COMPLETE
            return
        self._draw_up()

    def _directive(self, page: int, king: int) -> None:
        """PR-5: the hand Page takes its Row copy's place; the copy is discarded, the King spent."""
        self.hand.remove(page)
        self.hand.remove(king)
        self.removed += (king,)
        row = self.row
        at = next(i for i, c in enumerate(row) if RANK[c] == RANK[page])
        self.discard.append(row[at])
        row[at] = page
        self._draw_up()

    def _errand(self, ace: int) -> None:
        """PR-6: the Ace is spent, draw (2 by default), then one discard is owed."""
        self.hand.remove(ace)
        self.removed += (ace,)
        for _ in range(self.game.options["errand_draw"]):
            if not self._draw():
                return
        self.pending = ERRAND_DISCARD

    def _revise(self, page: int | None) -> None:
        """PR-8: remove a Row Page, then discard the hand (or two chosen cards)."""
        if page is not None:
            self.row.remove(page)
            self.discard.append(page)
        if self.game.options["revision_discard"] == "hand":
            self.discard += self.hand
            self.hand.clear()
            self._draw_up()
            return
        self.owed = min(2, len(self.hand))
        if self.owed:
            self.pending = REVISION_DISCARD
        else:
            self._draw_up()

    def _discard(self, card: int) -> None:
        """An owed discard (PR-6 Errand, PR-8 Revision); any card in hand may go (PR-14)."""
        self.hand.remove(card)
        self.discard.append(card)
        if self.pending == REVISION_DISCARD:
            self.owed -= 1
            if self.owed:
                return
        self.pending = None
        self._draw_up()

    # -- drawing (PR-10, PR-11) ---------------------------------------------------------
    def _draw_up(self) -> None:
        hand = self.hand
        need = HAND_SIZE - len(hand)
        top = self.top
        if 0 < need and top + need < len(self.pile):  # the usual case: the pile does not run out
            hand += self.pile[top : top + need]
            self.top = top + need
            return
        while len(hand) < HAND_SIZE:
            if not self._draw():
                return

    def _draw(self) -> bool:
        """Draw one card; False when the game ended instead (PR-11)."""
        pile = self.pile
        if self.top == len(pile) and not self._reshuffle():
            self.end = EXHAUSTED  # end_on="failed_draw": a card must be drawn and none can be
            return False
        self.hand.append(self.pile[self.top])
        self.top += 1
        if self.top == len(self.pile) and not self._reshuffle() and self.game.options["end_on"] == "empty":
            self.end = EXHAUSTED  # PR-11: the pile became empty with no reshuffle left
            return False
        return True

    def _reshuffle(self) -> bool:
        """PR-11: the single reshuffle, at once, of the discard pile into a new draw pile."""
        if self.reshuffled or not self.discard:
            return False
        pile = self.discard
        shuffle(pile, self.seed, "reshuffle")
        self.pile, self.top, self.discard, self.reshuffled = pile, 0, [], True
        return True
