"""Typed, validated, documented game options.

Each game declares its options as :class:`Option` values. Values may be given
typed (``errand_draw=1``) or as text from a command line (``"errand_draw=1"``).

>>> draw = Option("errand_draw", 2, "cards an Errand draws", choices=(1, 2))
>>> draw.validate("1", "psalter-row")
1
>>> draw.validate(3, "psalter-row")
Traceback (most recent call last):
...
parlour.core.errors.OptionError: psalter-row option errand_draw=3 is not allowed: expected one of 1, 2
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from parlour.core.errors import OptionError
from parlour.core.words import shown

#: The largest number an option holds, either sign: 2**63 - 1, what JSON readers and results
#: tables keep exactly (positions hold their integers within it too).
MAX_INT = 2**63 - 1

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One option of a game: its name, default, allowed values and what it does.

    Either ``choices`` (a fixed set of values, possibly of mixed types) or a range
    ``minimum..maximum`` (``None`` for unbounded) of integers, or of numbers when the
    default or a bound is a float, or a bool default, or a text default (any non-empty
    text without a comma, which separates options in a spec: a file name, say).
    ``nullable`` lets ``None`` ("not set") through, written ``none`` on a command line.
    """

    name: str
    default: Any
    doc: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    nullable: bool = False

    def allowed(self) -> str:
        """The allowed values, in words."""
        if self.choices is not None:
            text = "one of " + ", ".join(_show(c) for c in self.choices)
        elif isinstance(self.default, bool):
            text = "true or false"
        elif isinstance(self.default, str):
            text = "a non-empty text without commas"
        else:
            kind = "a number" if self._real() else "an integer"
            if self.minimum is not None and self.maximum is not None:
                text = f"{kind} {self.minimum}..{self.maximum}"
            elif self.minimum is not None:
                text = f"{kind} {self.minimum} or more"
            elif self.maximum is not None:
                text = f"{kind} {self.maximum} or less"
            else:
                text = kind
        return text + (" or none" if self.nullable else "")

    def validate(self, value: Any, game: str) -> Any:
        """The value as the game uses it; raises OptionError when not allowed."""
        if self.nullable and (value is None or (isinstance(value, str) and value.lower() in ("none", "null", ""))):
            return None
        parsed = self._parse(value)
        if parsed is _INVALID:
            huge = " (below 2**63 in size)" if _too_big(value) else ""
            raise OptionError(
                f"{game} option {self.name}={_show(value)} is not allowed: expected {self.allowed()}{huge}"
            )
        return parsed

    def _parse(self, value: Any) -> Any:
        if self.choices is not None:
            for choice in self.choices:
                if _same(value, choice) or (isinstance(value, str) and value.strip().lower() == str(choice).lower()):
                    return choice
            return _INVALID
        if isinstance(self.default, bool):
            return _parse_bool(value)
        if isinstance(self.default, str):
            return _parse_text(value)
        return self._parse_number(value, float if self._real() else int)

    def _real(self) -> bool:
        return any(isinstance(v, float) for v in (self.default, self.minimum, self.maximum))

    def _parse_number(self, value: Any, kind: type) -> Any:
        if isinstance(value, str):
            try:
                value = kind(value.strip())
            except ValueError:
                return _INVALID
        if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
            return _INVALID
        if _too_big(value):
            return _INVALID
        value = kind(value)
        if value != value:  # NaN is in no range
            return _INVALID
        if (self.minimum is not None and value < self.minimum) or (
            self.maximum is not None and value > self.maximum
        ):
            return _INVALID
        return value

    def samples(self) -> tuple[Any, ...]:
        """Representative values for tests that sweep option combinations."""
        if self.choices is not None:
            values: Iterable[Any] = self.choices
        elif isinstance(self.default, bool):
            values = (False, True)
        else:
            values = [v for v in (self.minimum, self.default, self.maximum) if v is not None]
        out = tuple(dict.fromkeys([*values, *((None,) if self.nullable else ())]))
        return out


_INVALID = object()


def _too_big(value: Any) -> bool:
    """A number beyond what an option holds (infinity too), or the text of a whole number that is."""
    if isinstance(value, str):
        digits = value.strip().removeprefix("-").removeprefix("+")
        return digits.isascii() and digits.isdigit() and (len(digits) > 19 or int(digits) > MAX_INT)
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) > MAX_INT


def _same(value: Any, choice: Any) -> bool:
    # True == 1 in Python; an option of 1 or 2 must not take True.
    return type(value) is type(choice) and value == choice


def _parse_bool(value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
    return _INVALID


def _parse_text(value: Any) -> Any:
    if isinstance(value, str) and value.strip() and "," not in value:
        return value.strip()
    return _INVALID


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return shown(value) if isinstance(value, (str, list, dict, tuple, int)) else str(value)


def validate_options(specs: tuple[Option, ...], given: dict[str, Any], game: str) -> dict[str, Any]:
    """All options of a game with defaults filled in; unknown names are an OptionError."""
    by_name = {spec.name: spec for spec in specs}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        valid = ", ".join(by_name) or "none"
        raise OptionError(f"{game} has no option {unknown[0]!r}: its options are {valid}")
    return {
        spec.name: spec.validate(given[spec.name], game) if spec.name in given else spec.default
        for spec in specs
    }


def parse_option_text(text: str) -> tuple[str, str]:
    """Split ``key=value`` from a command line.

    >>> parse_option_text("errand_draw=1")
    ('errand_draw', '1')
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise OptionError(f"option {text!r} is not of the form key=value")
    return key.strip(), value.strip()


def option_dict(texts: Iterable[str]) -> dict[str, str]:
    """``key=value`` texts as a dict; a key given twice with two values is an OptionError (which
    one was meant?), twice with one value is that value.

    >>> option_dict(["errand_draw=1", "end_on=failed_draw"])
    {'errand_draw': '1', 'end_on': 'failed_draw'}
    >>> option_dict(["errand_draw=1", "errand_draw=2"])
    Traceback (most recent call last):
    ...
    parlour.core.errors.OptionError: 'errand_draw' is given twice ('1', then '2'): give it once
    """
    found: dict[str, str] = {}
    for text in texts:
        key, value = parse_option_text(text)
        if key in found and found[key] != value:
            raise OptionError(f"{shown(key)} is given twice ({shown(found[key])}, then {shown(value)}): give it once")
        found[key] = value
    return found
