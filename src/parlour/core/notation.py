"""What every game's notation reader shares (DESIGN.md "Notation input"): the bound on the
length of a text, its words, and numbers in ASCII digits.

Every step here is linear in the text, and :meth:`parlour.core.game.Game.parse_action`
refuses a text longer than the game's bound before any of it is read, so no input can
make a parse slow.

>>> words("  Place   9c ,  HIGH pay 4C ")
['Place', '9c', 'HIGH', 'pay', '4C']
>>> number("5"), number("²"), number("05")
(5, None, 5)
>>> longest_length([("replace", "C3"), ("take",)])
33
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: Blanks (spaces, tabs, commas) counted for each gap before, between and after the words of
#: an action when the length bound is worked out: more than anyone leaves by hand.
GAP = 8
#: Digits a number may have (more would be no spot, run or count of any game).
MAX_DIGITS = 18

_SEPARATORS = re.compile(r"[\s,]+")  # one match per run of blanks: no backtracking


def longest_length(forms: Iterable[Sequence[str]]) -> int:
    """The longest text a notation may take, given each of its forms as the longest spelling
    of each of its words: those words' characters, and :data:`GAP` blanks before, between and
    after them."""
    return max(sum(map(len, form)) + GAP * (len(form) + 1) for form in forms)


def words(text: str) -> list[str]:
    """The words of a text: split at blanks and commas, none empty (``[]`` for ``" , "``)."""
    return [w for w in _SEPARATORS.split(text) if w]


def number(word: str) -> int | None:
    """``word`` read as a number in the ASCII digits 0-9, else None.

    ``str.isdigit`` is also true of ``²`` (which ``int`` refuses with a ValueError) and of
    ``٣`` or ``１``: notation takes only 0-9, and checks them itself.
    """
    if not 0 < len(word) <= MAX_DIGITS or not word.isascii() or not word.isdigit():
        return None
    return int(word)
