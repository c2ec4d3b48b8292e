"""Who leads a game as it goes: the figures behind decisiveness and lead changes.

A seat *leads* when it alone holds the best *standing*; a lead change is the lead passing
from one seat to another (a tie in between does not count twice). The standing is watched
after every decision. It is the score, and which way is better is read off the result (the
winners hold the best final score: the lowest in Decktet Golf, the highest elsewhere), except
in a game whose scores only say who won (:data:`PROGRESS`): Quisquilian's are 0 for everyone
until the winner's 1, so its standing is how far each seat has got, more being better.

>>> track = LeadTrack([0, 0])
>>> for scores in ([0, 0], [5, 2], [5, 9], [12, 9]):
...     track.see(scores)
>>> track.figures(winners=[0])
{'midpoint_leader': 0, 'lead_changes': 2}
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING

from parlour.core.scores import lower_is_better

if TYPE_CHECKING:
    from parlour.core.game import State


class LeadTrack:
    """The standings of one game after each decision, stored only when they change;
    ``lower_better`` None reads the direction off the result."""

    __slots__ = ("changes", "decisions", "last", "lower_better")

    def __init__(self, standing: Sequence[float], lower_better: bool | None = None) -> None:
        self.last = tuple(standing)
        self.changes: list[tuple[int, tuple[float, ...]]] = [(0, self.last)]
        self.decisions = 0
        self.lower_better = lower_better

    def see(self, standing: Sequence[float]) -> None:
        """The standing after one more decision."""
        self.decisions += 1
        now = tuple(standing)
        if now != self.last:
            self.last = now
            self.changes.append((self.decisions, now))

    def figures(self, winners: Sequence[int]) -> dict[str, int | None]:
        """``midpoint_leader`` (the seat leading after half the decisions, None if nobody
        leads alone) and ``lead_changes``; both None/0 when neither the track nor the
        result tells which way is better.

        >>> track = LeadTrack([0, 0], lower_better=False)   # ranks covered: more is better
        >>> for covered in ([3, 0], [3, 4], [6, 4], [6, 7]):
        ...     track.see(covered)
        >>> track.figures(winners=[])   # a stalemate: nobody won, the lead still changed
        {'midpoint_leader': 1, 'lead_changes': 3}
        """
        lower_better = self.lower_better
        if lower_better is None:
            lower_better = lower_is_better(self.last, winners)
        if lower_better is None:
            return {"midpoint_leader": None, "lead_changes": 0}
        leaders = [leader(standing, lower_better) for _, standing in self.changes]
        midpoint = self.decisions // 2
        at_midpoint = [lead for (decision, _), lead in zip(self.changes, leaders) if decision <= midpoint][-1]
        held = [lead for lead in leaders if lead is not None]
        return {"midpoint_leader": at_midpoint, "lead_changes": sum(a != b for a, b in pairwise(held))}


def leader(scores: Sequence[float], lower_better: bool) -> int | None:
    """The seat that alone holds the best score, or None.

    >>> leader([3, 1, 1], lower_better=True), leader([3, 1, 2], lower_better=True)
    (None, 1)
    """
    best = min(scores) if lower_better else max(scores)
    seats = [seat for seat, score in enumerate(scores) if score == best]
    return seats[0] if len(seats) == 1 else None


def covered_ranks(state: State) -> list[int]:
    """Quisquilian: how many of the 13 ranks each seat's runs cover (QU-5: the first to cover
    Ace to King wins).

    >>> import parlour
    >>> covered_ranks(parlour.load("quisquilian", players=3).new_state(seed=1))
    [0, 0, 0]
    """
    runs = [state.own_runs(seat) for seat in range(len(state.scores()))]  # type: ignore[attr-defined]
    return [len({rank for _, low, high in seat for rank in range(low, high + 1)}) for seat in runs]


#: Games whose scores only say who won, and what their standing is read from instead (more is better).
PROGRESS: dict[str, Callable[[State], list[int]]] = {"quisquilian": covered_ranks}


def lead_track(state: State) -> tuple[LeadTrack, Callable[[State], Sequence[float]]]:
    """A track for the game about to start from ``state``, and what to show it after each
    decision: the scores, or the game's :data:`PROGRESS`.

    >>> import parlour
    >>> track, standing = lead_track(parlour.load("decktet-golf").new_state(seed=1))
    >>> track.lower_better is None, standing(parlour.load("decktet-golf").new_state(seed=1))
    (True, [0, 0])
    """
    progress = PROGRESS.get(state.game.name)
    if progress is None:
        return LeadTrack(state.scores()), _scores
    return LeadTrack(progress(state), lower_better=False), progress


def _scores(state: State) -> Sequence[float]:
    return state.scores()
