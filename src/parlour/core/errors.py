"""The errors of parlour: every one says what was wrong and what is expected.

A rejected call raises one of these and leaves the state exactly as it was.

>>> issubclass(IllegalAction, ParlourError)
True
"""


class ParlourError(Exception):
    """Base class of every error parlour raises on bad input."""


class OptionError(ParlourError, ValueError):
    """An unknown option, game or agent name, or a value outside what is allowed."""


class NotationError(ParlourError, ValueError):
    """Text that does not parse as an action, a card or a spec; or an ambiguous abbreviation."""


class IllegalAction(ParlourError, ValueError):
    """An action that parses but is not legal in this state; the message says why."""


class RecordError(ParlourError, ValueError):
    """A game record that does not replay: the message names the failing action and why."""


class PositionError(ParlourError, ValueError):
    """A position dict that does not describe a possible state of the game."""


class CodecError(ParlourError, ValueError):
    """An action id, a sequence of ids or a sub-decision prefix that names no legal action
    (or an action a game's codec cannot encode); the message says what is expected."""
