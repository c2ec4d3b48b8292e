"""What callers may give where a whole number is wanted: an ``int`` or a numpy integer (what
an argmax or an array of seats gives), never a bool, a float or text.

>>> plain_int(3), plain_int(True), plain_int(2.0), plain_int("1")  # numpy's integers as 3 does
(3, None, None, None)
"""

from __future__ import annotations

import operator
from typing import Any


def plain_int(value: Any) -> int | None:
    """``value`` as a plain int where it is an integer of any kind but bool, else None."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None
