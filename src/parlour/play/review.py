"""Stepping through a game record: the table after each action, forward and back.

>>> import io, parlour
>>> from rich.console import Console
>>> state = parlour.load("psalter-row").new_state(seed=3)
>>> _ = state.apply(state.legal_actions()[0])
>>> steps = load_steps(state.record())
>>> [step.action for step in steps] == [None, str(state.history()[0])]
True
>>> show_all(steps, Console(file=io.StringIO()))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from rich.console import Console
from rich.markup import escape

from parlour.core.errors import RecordError
from parlour.core.record import replay
from parlour.play.terminal import result_text

if TYPE_CHECKING:
    from parlour.core.game import State

Ask = Callable[[str], str]
STEP_PROMPT = "[dim]Enter next · b back · q quit[/dim] "


@dataclass(frozen=True)
class Step:
    """The state after one action of a record (step 0: the start, no action)."""

    index: int
    total: int
    state: "State"
    action: str | None
    seat: int | None  # who played the action
    players: tuple[str, ...]


def load_steps(record: dict[str, Any] | str) -> list[Step]:
    """Every state of a record, after checking the whole record with ``parlour.replay``.

    Raises RecordError (naming the failing action) for a record that does not replay.
    """
    final = replay(record)  # checks every action and the result first
    data = json.loads(record) if isinstance(record, str) else record
    state = replay({**data, "actions": [], "result": None})
    names = data.get("players")
    if not isinstance(names, list) or len(names) != state.game.num_players:
        names = [f"seat {i}" for i in range(state.game.num_players)]
    players = tuple(str(p) for p in names)
    actions = final.history()
    steps = [Step(0, len(actions), state, None, None, players)]
    for index, action in enumerate(actions, 1):
        seat = state.current_player
        state = state.clone()
        state.apply(action)
        steps.append(Step(index, len(actions), state, str(action), seat, players))
    return steps


def show_step(step: Step, console: Console, seat: int | None = None) -> None:
    """The header line and the table after ``step`` from ``seat``'s side (default: who played)."""
    state = step.state
    view_seat = seat if seat is not None else step.seat if step.seat is not None else (state.current_player or 0)
    if step.action is None:
        head = f"Start · {step.total} actions"
    else:
        who = step.players[step.seat] if step.seat is not None and step.seat < len(step.players) else "?"
        head = f"Action {step.index}/{step.total} · seat {step.seat} ({escape(who)}) plays [cyan]{escape(step.action)}[/cyan]"
    console.print()
    console.rule(head, align="left")
    console.print(state.game.render(state.observation(view_seat), you="viewed"))  # a record's seat, not the reader
    if state.is_terminal():
        console.print(result_text(state, step.players))
    elif step.index == step.total:
        console.print("[dim]The record ends here, before the game does (an unfinished game).[/dim]")


def show_all(steps: Sequence[Step], console: Console, seat: int | None = None) -> None:
    """Every step, without waiting."""
    for step in steps:
        show_step(step, console, seat)


def step_through(steps: Sequence[Step], ask: Ask, console: Console, seat: int | None = None) -> int:
    """Show one step at a time: Enter = next, ``b`` = back, ``q`` = quit. Returns the last index shown."""
    if not steps:
        raise RecordError("the record has no steps")
    at = 0
    show_step(steps[at], console, seat)
    while True:
        try:
            answer = ask(STEP_PROMPT).strip().lower()
        except (EOFError, KeyboardInterrupt):
            return at
        if answer in ("q", "quit"):
            return at
        if answer in ("b", "back"):
            if at == 0:
                console.print("[yellow]Already at the start.[/yellow]")
                continue
            at -= 1
        elif answer == "":
            if at == len(steps) - 1:
                return at
            at += 1
        else:
            console.print("[yellow]Press Enter for the next action, b to go back, q to quit.[/yellow]")
            continue
        show_step(steps[at], console, seat)
