"""Actions: small values, never changed once made, whose ``str`` is their canonical notation.

Each game interns its actions: there is one object per distinct action, so
equality is identity and membership in ``legal_actions()`` is a pointer check.
"""

from __future__ import annotations


class Action:
    """Base class of every game's actions; ``str(action)`` is its notation."""

    __slots__ = ("text",)

    text: str

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.text!r}>"

    def __copy__(self) -> "Action":
        return self

    def __deepcopy__(self, memo: dict) -> "Action":
        return self
