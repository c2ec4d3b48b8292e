"""Who leads a game as it goes: the figures behind decisiveness and lead changes.

The scores of a game are watched after every decision; which way is better is read
off the result (the winners hold the best final score: the lowest in Decktet Golf, the
highest elsewhere). A seat *leads* when it alone holds the best score. A lead change is
the lead passing from one seat to another (a tie in between does not count twice).

>>> track = LeadTrack([0, 0])
>>> for scores in ([0, 0], [5, 2], [5, 9], [12, 9]):
...     track.see(scores)
>>> track.figures(winners=[0])
{'midpoint_leader': 0, 'lead_changes': 2}
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from parlour.core.scores import lower_is_better


class LeadTrack:
    """The scores of one game after each decision, stored only when they change."""

    __slots__ = ("changes", "decisions", "last")

    def __init__(self, scores: Sequence[float]) -> None:
        self.last = tuple(scores)
        self.changes: list[tuple[int, tuple[float, ...]]] = [(0, self.last)]
        self.decisions = 0

    def see(self, scores: Sequence[float]) -> None:
        """The scores after one more decision."""
        self.decisions += 1
        now = tuple(scores)
        if now != self.last:
            self.last = now
            self.changes.append((self.decisions, now))

    def figures(self, winners: Sequence[int]) -> dict[str, int | None]:
        """``midpoint_leader`` (the seat leading after half the decisions, None if nobody
        leads alone) and ``lead_changes``; both None/0 when the game has no winner to
        tell which way is better."""
        lower_better = lower_is_better(self.last, winners)
        if lower_better is None:
            return {"midpoint_leader": None, "lead_changes": 0}
        leaders = [leader(scores, lower_better) for _, scores in self.changes]
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
