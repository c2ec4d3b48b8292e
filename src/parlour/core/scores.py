"""Reading a finished game's scores: which way is better.

Games do not declare whether a high or a low score wins; the result says it (the winners
hold the best final score: the lowest in Decktet Golf, the highest elsewhere).
"""

from __future__ import annotations

from collections.abc import Sequence


def win_share(seat: int, winners: Sequence[int]) -> float:
    """A seat's share of the win: tied winners share it equally.

    >>> win_share(1, [1, 2]), win_share(0, [1, 2]), win_share(0, [])
    (0.5, 0.0, 0.0)
    """
    return 1 / len(winners) if seat in winners else 0.0


def lower_is_better(final: Sequence[float], winners: Sequence[int]) -> bool | None:
    """True when the winners hold the lowest final score, False when the highest, None when
    the result does not tell (nobody won, every score is equal, or the winners differ).

    >>> lower_is_better([12, 30], winners=[0]), lower_is_better([1, 0, 0], winners=[0])
    (True, False)
    >>> lower_is_better([5, 5], winners=[0, 1]) is None
    True
    """
    if not winners or min(final) == max(final):
        return None
    best = {final[seat] for seat in winners}
    if best == {min(final)}:
        return True
    if best == {max(final)}:
        return False
    return None
