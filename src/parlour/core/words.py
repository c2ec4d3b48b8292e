"""Words for messages: counts in agreement (one card, two cards) and input quoted short.

>>> counted(1, "card"), counted(0, "turn"), plural(3, "seat")
('1 card', '0 turns', 'seats')
"""

from __future__ import annotations

#: Characters of a client's or player's input that a message quotes at most.
EXCERPT = 40


def plural(n: int, noun: str) -> str:
    """``noun`` as it goes with ``n``: plural (an added s) unless ``n`` is 1."""
    return noun if n == 1 else noun + "s"


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in agreement, e.g. ``counted(2, "more card")`` is ``'2 more cards'``."""
    return f"{n} {plural(n, noun)}"


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for a message, cut to its first ``limit`` characters when longer (a
    message never echoes a whole long input back).

    >>> excerpt("run 5H 6H 7H"), excerpt("x" * 50, limit=8)
    ("'run 5H 6H 7H'", "'xxxxxxxx'... (50 characters)")
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
