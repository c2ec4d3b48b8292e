"""Words for messages and tables: one card, two cards; input and values quoted short.

>>> counted(1, "card"), counted(0, "turn"), plural(3, "seat")
('1 card', '0 turns', 'seats')
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from typing import Any

#: Characters of a client's or player's input that a message quotes at most.
EXCERPT = 40


def plural(n: int, noun: str) -> str:
    """``noun`` as it goes with ``n``: plural (an added s) unless ``n`` is 1."""
    return noun if n == 1 else noun + "s"


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun`` in agreement, e.g. ``counted(2, "more card")`` is ``'2 more cards'``."""
    return f"{n} {plural(n, noun)}"


def first_of(items: Sequence[Any], most: int) -> str:
    """The first ``most`` of ``items`` joined by commas, and how many more there are.

    >>> first_of([1, 2, 3], 5), first_of(["a", "b", "c", "d"], 2)
    ('1, 2, 3', 'a, b and 2 more')
    """
    listed = ", ".join(map(str, items[:most]))
    return listed + (f" and {len(items) - most} more" if len(items) > most else "")


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for a message, cut to its first ``limit`` characters when longer (a
    message never echoes a whole long input back).

    >>> excerpt("run 5H 6H 7H"), excerpt("x" * 50, limit=8)
    ("'run 5H 6H 7H'", "'xxxxxxxx'... (50 characters)")
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


class _Short(reprlib.Repr):
    """``reprlib``'s short reprs, with an integer too long to write out (Python refuses to
    turn one of over 4300 digits into text) named by its size."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 256:
            return f"<an integer of about {int(x.bit_length() * 0.30103)} digits>"
        return super().repr_int(x, level)


_SHORT = _Short()
_SHORT.maxstring = _SHORT.maxother = 60
_SHORT.maxlist = _SHORT.maxdict = 8
_SHORT.maxlevel = 3


def shown(value: Any) -> str:
    """``value`` as an error message quotes it: its repr, cut short, whatever it is (deep
    nesting, long text, a huge number), so that a message about bad input is always small.

    >>> shown([1, [2, [3, [4, [5]]]]]), shown("x" * 100)[:12], shown(10**5000)
    ('[1, [2, [3, [...]]]]', "'xxxxxxxxxxx", '<an integer of about 5000 digits>')
    """
    return _SHORT.repr(value)
