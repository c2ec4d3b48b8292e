"""Helpers shared by the test files: applying and refusing actions, and reading the screen."""

from __future__ import annotations

import io
import itertools
import random
from typing import Any

import pytest
from rich.console import Console

import parlour
from parlour.cards.standard import CODE
from parlour.play.terminal import play as play_in_terminal

#: What a "pass the terminal" screen asks.
PASS = "press Enter when ready"


def legal(state) -> set[str]:
    """The legal actions as notation."""
    return {str(a) for a in state.legal_actions()}


def refuse(state, text: Any, *why: str, error: type = parlour.IllegalAction) -> str:
    """Apply ``text``; it must raise ``error`` whose message holds every ``why``, and change nothing."""
    before = state.to_position()
    legal_before = sorted(legal(state))
    with pytest.raises(error) as info:
        state.apply(text)
    message = str(info.value)
    for word in why:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"
    assert state.to_position() == before
    assert sorted(legal(state)) == legal_before
    return message


def option_combinations(name: str) -> list[dict[str, Any]]:
    """Every combination of the game's option sample values (``Option.samples``) that
    ``parlour.load`` accepts: the ones the conformance suite plays (its ``option_combos``)."""
    specs = parlour.load(name).option_specs
    names = [spec.name for spec in specs]
    accepted = []
    for values in itertools.product(*(spec.samples() for spec in specs)):
        try:
            parlour.load(name, **dict(zip(names, values)))
        except parlour.OptionError:
            continue
        accepted.append(dict(zip(names, values)))
    return accepted


def play(state, *actions: str):
    """Apply each action in turn; the state, for chaining."""
    for action in actions:
        state.apply(action)
    return state


def console(width: int = 100) -> Console:
    """A console writing plain text to memory."""
    return Console(file=io.StringIO(), width=width, highlight=False, color_system=None)


def plain(markup: str, width: int = 100) -> str:
    """Rich markup as the plain text a terminal would show."""
    out = console(width)
    out.print(markup)
    return out.file.getvalue()  # type: ignore[attr-defined]


class Watcher:
    """Answers ``1`` (or the given answers first) and keeps what was on screen before each prompt."""

    def __init__(self, state, out: Console, answers=()) -> None:
        self.state, self.out, self.answers = state, out, list(answers)
        self.shown = 0
        self.prompts: list[tuple[str, str, int | None, dict]] = []  # (prompt, new output, seat, position)

    def __call__(self, prompt: str) -> str:
        text = self.out.file.getvalue()  # type: ignore[attr-defined]
        self.prompts.append((prompt, text[self.shown:], self.state.current_player, self.state.to_position()))
        self.shown = len(text)
        if len(self.prompts) > 5000:
            raise EOFError
        answer = self.answers.pop(0) if self.answers else "1"
        return answer(self.state) if callable(answer) else answer


def hot_seat(state) -> tuple[Watcher, list, list]:
    """Play ``state`` to its end with people in seats 0 and 1 and a random agent in seat 2.

    The watcher, and its prompts split into pass screens and moves (both must occur).
    """
    out = console()
    ask = Watcher(state, out)
    result = play_in_terminal(state, ask, out, agents=[None, None, parlour.agent("random")], rng=random.Random(1))
    assert result.state.is_terminal()
    passes = [p for p in ask.prompts if PASS in p[0]]
    moves = [p for p in ask.prompts if PASS not in p[0]]
    assert passes and moves
    return ask, passes, moves


def psalter_near_the_end(pile: str) -> parlour.State:
    """A Psalter Row position: Row 3H..10H after the reshuffle; hand 2C AS 5C 6C 7C; ``pile``
    to draw; the rest out of the game.

    Placing 2C completes a mixed Psalter (9) at once. The Errand draws two of the pile's
    cards: when 2H is among them, 2H completes a one-suit Psalter (14); else 2C is placed after.
    """
    row = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    hand = ["2C", "AS", "5C", "6C", "7C"]
    listed = set(row + hand + pile.split())
    removed = [c for c in CODE if c not in listed]
    return parlour.load("psalter-row").from_position(
        {"row": row, "hand": hand, "draw_pile": pile.split(), "removed": removed, "reshuffled": True}
    )
