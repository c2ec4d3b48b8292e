"""Words for counts in messages and tables: one card, two cards.

>>> counted(1, "card"), counted(0, "turn"), plural(3, "seat")
('1 card', '0 turns', 'seats')
"""

from __future__ import annotations


def plural(n: int, noun: str) -> str:
    """``noun`` as it goes with ``n``: plural (an added s) unless ``n`` is 1."""
    return noun if n == 1 else noun + "s"


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in agreement, e.g. ``counted(2, "more card")`` is ``'2 more cards'``."""
    return f"{n} {plural(n, noun)}"
