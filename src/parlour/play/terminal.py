"""Terminal play: show the table, list the legal actions, read a number or notation.

:func:`play` runs one game. It reads answers through ``ask`` (a function from a
prompt to the typed line, ``input`` in a terminal) and prints to a rich Console,
so a test drives it with a list of answers:

>>> import io, parlour
>>> from rich.console import Console
>>> answers = iter(["help", "1", "quit"])
>>> out = Console(file=io.StringIO(), width=100)
>>> result = play(parlour.load("psalter-row").new_state(seed=3), lambda _: next(answers), out)
>>> result.quit, len(result.state.history())
(True, 1)

Seats are played by people (``None``) or by agents, which act on
``state.view(seat)`` only. ``undo`` works in solitaire games, where nobody else
saw the move being taken back.
"""

from __future__ import annotations

import datetime as _dt
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from parlour.core.errors import IllegalAction, NotationError

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import State

Ask = Callable[[str], str]

HUMAN = "human"
HELP_WORDS = ("help", "h", "?")
UNDO_WORDS = ("undo", "u")
QUIT_WORDS = ("quit", "q", "exit")
SHOW_WORDS = ("show", "table", "s")
PROMPT = "[bold]Your move[/bold] [dim](number, notation, help, undo, quit)[/dim]: "
COMMANDS = (
    "[bold]Commands:[/bold] a [cyan]number[/cyan] from the list or an action's [cyan]notation[/cyan]; "
    "[cyan]help[/cyan] (these rules), [cyan]show[/cyan] (the table again), "
    "[cyan]undo[/cyan] (take back your last decision), [cyan]quit[/cyan] (stop; the record is saved)"
)


@dataclass
class PlayResult:
    """How a game in the terminal ended: its state, and whether the player quit early."""

    state: "State"
    quit: bool = False


def player_names(agents: Sequence["Agent | None"]) -> list[str]:
    """Names for the record: ``human`` or the agent's spec, one per seat.

    >>> player_names([None])
    ['human']
    """
    return [HUMAN if agent is None else agent.spec for agent in agents]


def play(
    state: "State",
    ask: Ask,
    console: Console,
    agents: Sequence["Agent | None"] | None = None,
    rng: random.Random | None = None,
    seed: int | None = None,
) -> PlayResult:
    """Play ``state`` to its end (or until the player quits); the state is mutated.

    ``agents`` has one entry per seat: ``None`` for a person, else an agent
    (default: people in every seat). ``rng`` feeds the agents. End of input
    (Ctrl-D) and Ctrl-C count as ``quit``.
    """
    seats = list(agents) if agents is not None else [None] * state.game.num_players
    if len(seats) != state.game.num_players:
        raise ValueError(f"{len(seats)} seats given for {state.game.num_players}")
    return _Session(state, ask, console, seats, rng or random.Random(), seed).run()


class _Session:
    """One game at the terminal: the state, who plays each seat, and the undo stack."""

    def __init__(self, state: "State", ask: Ask, console: Console, seats: list["Agent | None"],
                 rng: random.Random, seed: int | None) -> None:
        self.state = state
        self.ask = ask
        self.console = console
        self.seats = seats
        self.names = player_names(seats)
        self.rng = rng
        self.seed = seed
        self.undo_stack: list["State"] = []
        self.solitaire = state.game.num_players == 1

    def run(self) -> PlayResult:
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player
                assert seat is not None
                agent = self.seats[seat]
                if agent is not None:
                    self._agent_turn(seat, agent)
                elif not self._human_turn(seat):
                    return PlayResult(self.state, quit=True)
        except KeyboardInterrupt:  # Ctrl-C while an agent thinks: stop like quit
            self.console.print()
            return PlayResult(self.state, quit=True)
        self._show_end()
        return PlayResult(self.state)

    # -- turns ------------------------------------------------------------------------
    def _agent_turn(self, seat: int, agent: "Agent") -> None:
        action = agent.act(self.state.view(seat), self.rng)
        self.state.apply(action)
        self.console.print(f"[dim]seat {seat} ({escape(agent.spec)}) plays[/dim] [cyan]{escape(str(action))}[/cyan]")

    def _human_turn(self, seat: int) -> bool:
        """One decision of a person; False when they quit."""
        self._show_table(seat)
        legal = self.state.legal_actions()
        while True:
            try:
                text = self.ask(PROMPT).strip()
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                return False
            word = text.lower()
            if not word:
                continue
            if word in QUIT_WORDS:
                return False
            if word in HELP_WORDS:
                self.console.print(self.state.game.rules_summary or f"No summary for {self.state.game.name}.")
                self.console.print(COMMANDS)
                continue
            if word in SHOW_WORDS:
                self._show_table(seat)
                continue
            if word in UNDO_WORDS:
                if self._undo():
                    return True
                continue
            if self._decide(text, legal):
                return True

    def _decide(self, text: str, legal: list[Any]) -> bool:
        """Apply a number or notation; False (after saying why) when it is not a legal action."""
        before = self.state.clone() if self.solitaire else None
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(legal):
                self._complain(f"there is no action {number}: choose 1 to {len(legal)}, or write the notation")
                return False
            action = legal[number - 1]
            self.state.apply(action)
        else:
            try:
                self.state.apply(text)
            except (NotationError, IllegalAction) as err:
                self._complain(str(err))
                return False
            action = self.state.history()[-1]
        if before is not None:
            self.undo_stack.append(before)
        self.console.print(f"[green]>[/green] [cyan]{escape(str(action))}[/cyan]")
        return True

    def _undo(self) -> bool:
        if not self.solitaire:
            self._complain("undo is only for solitaire games: the other players have seen your move",
                           "Cannot undo:")
            return False
        if not self.undo_stack:
            self._complain("no decision has been made yet", "Nothing to undo:")
            return False
        taken_back = self.state.history()[-1]
        self.state = self.undo_stack.pop()
        self.console.print(f"[yellow]Took back[/yellow] [cyan]{escape(str(taken_back))}[/cyan]")
        return True

    def _complain(self, message: str, what: str = "Not played:") -> None:
        self.console.print(f"[red]{what}[/red] {escape(message)}")

    # -- display ------------------------------------------------------------------------
    def _show_table(self, seat: int) -> None:
        state, game = self.state, self.state.game
        title = getattr(game, "title", game.name)
        seed = f" · seed {self.seed}" if self.seed is not None else ""
        who = "" if self.solitaire else f" · seat {seat} to play"
        self.console.print()
        self.console.rule(f"[bold]{escape(title)}[/bold]{seed} · move {len(state.history()) + 1}{who}", align="left")
        self.console.print(game.render(state.observation(seat)))
        self.console.print(numbered(state.legal_actions()))

    def _show_end(self) -> None:
        state = self.state
        seat = next((i for i, agent in enumerate(self.seats) if agent is None), 0)
        self.console.print()
        self.console.rule("[bold]Game over[/bold]", align="left")
        self.console.print(state.game.render(state.observation(seat)))
        self.console.print(result_text(state, self.names))


def numbered(actions: Sequence[Any]) -> Columns:
    """The legal actions as a numbered list laid out in columns."""
    items = [Text.assemble((f"{i:>2}", "bold"), " ", (str(a), "cyan")) for i, a in enumerate(actions, 1)]
    return Columns(items, padding=(0, 3), column_first=True)


def result_text(state: "State", names: Sequence[str]) -> str:
    """The end of a game in one markup line: end reason, every seat's score, the winners."""
    scores, winners = state.scores(), state.winners()
    end = escape(str(state.end_reason)) if state.is_terminal() else "unfinished"
    if len(scores) == 1:
        won = " · [green]won[/green]" if winners else ""
        return f"[bold]Result:[/bold] {end} · final score [bold]{scores[0]}[/bold]{won}"
    scored = ", ".join(f"seat {i} ({escape(names[i])}) [bold]{s}[/bold]" for i, s in enumerate(scores))
    won = ", ".join(f"seat {i} ({escape(names[i])})" for i in winners) or "none"
    return f"[bold]Result:[/bold] {end} · scores {scored} · winners: {won}"


# -- records ----------------------------------------------------------------------------
def default_record_path(game: str, seed: int | None, when: _dt.datetime | None = None,
                        folder: Path = Path("parlour-records")) -> Path:
    """Where a record goes when no path is given; an existing file is never overwritten.

    >>> default_record_path("psalter-row", 3, _dt.datetime(2024, 5, 1, 12, 0, 9), Path("r")).as_posix()
    'r/psalter-row-20240501-120009-seed3.json'
    """
    stamp = (when or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    base = f"{game}-{stamp}-seed{seed if seed is not None else 'none'}"
    path, n = folder / f"{base}.json", 1
    while path.exists():
        n += 1
        path = folder / f"{base}-{n}.json"
    return path


def save_record(state: "State", players: Sequence[str], path: Path) -> Path:
    """Write the game record as JSON (creating the folder); returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(state.record(players=list(players)), indent=2) + "\n", encoding="utf-8")
    return path
