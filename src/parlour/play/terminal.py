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
saw the move being taken back. With an ``advisor`` (``parlour play`` gives the strongest
level), ``hint`` shows its move for the seat to move, chosen from that seat's view, with its
reason (``Hint: 3 place 7H high · wins 62% of 340 playouts; ...``).

Several people may share the terminal: when the seat to decide passes from one
person to another, the screen is cleared and a "pass to seat N" screen waits for
Enter, so that nobody sees another's view; then the new player sees the moves made
since their last decision and the table from their own seat (the first person too:
nobody's view is shown before a pass screen). Every move of an agent is shown as it
is made (``seat 2 (random): draw``), and every move is followed by ``game.events``: what it
did, told from the view of the seat that moved when a person moved, else of the one person
at the terminal, else a spectator's (the account the next person at a shared terminal
reads), so that no line names a card its reader may not know. In a game of several seats
whose observation counts ``turns``, each turn opens with a line naming the seat, and the die
roll when the observation has a public ``roll``. ``discards`` lists the whole discard pile
where the game has one (``game.discard_pile``).

A long list of legal actions (more than :data:`SHORT_LIST`) is grouped by its first
word (``run``, ``add``, ``stop``); a group whose actions differ only in their last word
(``discard 7H 1`` .. ``discard 7H 9``) is a table with one row per rest and one column
per last word. The numbers follow that order, and typing the notation always works.
"""

from __future__ import annotations

import datetime as _dt
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from parlour.core.errors import IllegalAction, NotationError, OptionError, RecordError
from parlour.core.words import counted

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import State

Ask = Callable[[str], str]

HUMAN = "human"
HELP_WORDS = ("help", "h", "?")
UNDO_WORDS = ("undo", "u")
QUIT_WORDS = ("quit", "q", "exit")
SHOW_WORDS = ("show", "table", "s")
DISCARDS_WORDS = ("discards",)
HINT_WORDS = ("hint",)
SHORT_LIST = 12  # legal actions listed plainly; a longer list is grouped
SHOWN_DIGITS = 12  # digits of a number too big for any action quoted back
#: The commands besides an action, each with what it does, in the order help lists them.
COMMANDS = (
    ("help", "these rules"),
    ("show", "the table again"),
    ("discards", "every card of the discard pile, not only its top"),
    ("hint", "a suggested move for you, with its reason"),
    ("undo", "take back your last decision"),
    ("quit", "stop; the record is saved, to resume later"),
)


def commands(solitaire: bool, discards: bool, hints: bool = False) -> tuple[str, str]:
    """The prompt and the help line for the commands a game offers: ``undo`` in solitaire (where
    nobody else saw the move), ``discards`` where the game has a discard pile to look through,
    ``hint`` where there is an advisor.

    >>> commands(False, True)[0]
    '[bold]Your move[/bold] [dim](number or notation; help, show, discards, quit)[/dim]: '
    >>> commands(True, False, hints=True)[0]
    '[bold]Your move[/bold] [dim](number or notation; help, show, hint, undo, quit)[/dim]: '
    """
    left_out = {"undo": not solitaire, "discards": not discards, "hint": not hints}
    offered = [(word, what) for word, what in COMMANDS if not left_out.get(word, False)]
    prompt = f"[bold]Your move[/bold] [dim](number or notation; {', '.join(w for w, _ in offered)})[/dim]: "
    listed = ", ".join(f"[cyan]{word}[/cyan] ({what})" for word, what in offered)
    return prompt, (f"[bold]Commands:[/bold] a [cyan]number[/cyan] from the list or an action's "
                    f"[cyan]notation[/cyan]; {listed}")


@dataclass
class PlayResult:
    """How a game in the terminal ended: its state, whether the player quit early, and how
    many decisions the people at the terminal made (an undone one not counted)."""

    state: State
    quit: bool = False
    decided: int = 0


def player_names(agents: Sequence[Agent | None]) -> list[str]:
    """Names for the record: ``human`` or the agent's spec, one per seat.

    >>> player_names([None])
    ['human']
    """
    return [HUMAN if agent is None else agent.spec for agent in agents]


def play(
    state: State,
    ask: Ask,
    console: Console,
    agents: Sequence[Agent | None] | None = None,
    rng: random.Random | None = None,
    seed: int | None = None,
    advisor: Agent | None = None,
) -> PlayResult:
    """Play ``state`` to its end (or until the player quits); the state is mutated.

    ``agents`` has one entry per seat: ``None`` for a person, else an agent
    (default: people in every seat). ``rng`` feeds the agents. ``advisor``: the agent
    whose move ``hint`` shows (None: no hints); it draws on a generator of its own, so a
    hint changes none of the agents' moves. End of input (Ctrl-D) and Ctrl-C count as ``quit``.
    """
    seats: list[Agent | None] = list(agents) if agents is not None else [None] * state.game.num_players
    if len(seats) != state.game.num_players:
        raise OptionError(f"{len(seats)} seats given, but {state.game.name} here has {state.game.num_players}")
    for agent in seats:
        if agent is not None:
            agent.check(state.game)
    if advisor is not None:
        if advisor.cheats:
            raise OptionError(f"{advisor.spec} sees the hidden cards: it cannot give hints, which come from the "
                              "seat's own view")
        advisor.check(state.game)
    return _Session(state, ask, console, seats, rng or random.Random(), seed, advisor).run()


class _Session:
    """One game at the terminal: the state, who plays each seat, and the undo stack."""

    def __init__(self, state: State, ask: Ask, console: Console, seats: list[Agent | None],
                 rng: random.Random, seed: int | None, advisor: Agent | None = None) -> None:
        self.state = state
        self.ask = ask
        self.console = console
        self.seats = seats
        self.names = player_names(seats)
        self.rng = rng
        self.seed = seed
        self.undo_stack: list[State] = []
        self.solitaire = state.game.num_players == 1
        self.shared = sum(agent is None for agent in seats) > 1  # several people at one terminal
        #: (seat, notation, what it did as everyone may know it) of every move made here
        self.moves: list[tuple[int, str, list[str]]] = []
        people = [seat for seat, agent in enumerate(seats) if agent is None]
        #: whose view agents' moves are told from: the one person at the terminal, else a spectator's
        self.watcher: int | None = people[0] if len(people) == 1 else None
        self.seen = {seat: 0 for seat, agent in enumerate(seats) if agent is None}  # moves each person has seen
        self.at_terminal: int | None = None  # the person whose view is on the screen
        self.last_shown: int | None = None  # the seat whose move was shown last
        self.turns_shown: int | None = None  # the turn whose opening line was shown last
        discards = state.game.discard_pile(state.observation(None)) is not None
        self.advisor = advisor
        self.hint_rng = random.Random()  # the advisor's own: a hint leaves the agents' moves as they were
        self.prompt, self.commands = commands(self.solitaire, discards, advisor is not None)

    def run(self) -> PlayResult:
        try:
            while not self.state.is_terminal():
                seat = self.state.current_player
                assert seat is not None
                self._announce_turn(seat)
                agent = self.seats[seat]
                told = self._observations(seat if agent is None else self.watcher)
                made = len(self.state.history())
                if agent is not None:
                    self._agent_turn(seat, agent)
                elif not self._hand_over(seat) or not self._human_turn(seat):
                    return self._result(quit=True)
                if len(self.state.history()) > made:  # not an undo
                    self._tell(seat, str(self.state.history()[-1]), told)
        except KeyboardInterrupt:  # Ctrl-C while an agent thinks: stop like quit
            self.console.print()
            return self._result(quit=True)
        self._show_end()
        return self._result()

    def _result(self, quit: bool = False) -> PlayResult:
        decided = sum(self.seats[seat] is None for seat, _, _ in self.moves)
        return PlayResult(self.state, quit, decided)

    # -- telling what a move did ------------------------------------------------------------
    def _observations(self, receiver: int | None) -> tuple[int | None, dict[str, Any], dict[str, Any] | None]:
        """Before a move: the receiver (who reads about it now: the seat that moves, when a person
        moves; else the one person at the terminal, or a spectator) and its observation, and, for
        the moves that the next person at a shared terminal is told later, the public one."""
        before = self.state.observation(receiver)
        public = (before if receiver is None else self.state.observation(None)) if self.shared else None
        return receiver, before, public

    def _tell(self, seat: int, action: str, told: tuple[int | None, dict[str, Any], dict[str, Any] | None]) -> None:
        """Print what the move did, as the receiver may know it; keep the public account for later."""
        receiver, before, public = told
        game = self.state.game
        lines = game.events(before, self.state.observation(receiver), action)
        for line in lines:
            self.console.print(f"  [magenta]{line}[/magenta]")
        if public is not None:
            self.moves[-1] = (seat, action, lines if public is before else
                              game.events(public, self.state.observation(None), action))

    # -- turns ------------------------------------------------------------------------
    def _agent_turn(self, seat: int, agent: Agent) -> None:
        action = agent.move(self.state, seat, self.rng)
        self.state.apply(action)
        self.console.print(self._move_text(seat, str(action), continued=self.last_shown == seat))
        self._log(seat, str(action))

    def _announce_turn(self, seat: int) -> None:
        """``Turn 5 · seat 2 (random) rolled 4`` when a new turn begins (several seats only)."""
        if self.solitaire:
            return
        observation = self.state.observation(seat)
        turns = observation.get("turns")
        if not isinstance(turns, int) or isinstance(turns, bool) or turns == self.turns_shown:
            return
        skipped = turns - self.turns_shown - 1 if self.turns_shown is not None else 0
        self.turns_shown = turns
        if skipped > 0:
            self.console.print(f"[dim]({counted(skipped, 'turn')} passed with nothing to decide)[/dim]")
        roll = observation.get("roll")
        rolled = f" rolled [bold]{roll}[/bold]" if isinstance(roll, int) and not isinstance(roll, bool) else ""
        self.console.print(f"[bold]Turn {turns + 1}[/bold] · seat {seat} ({escape(self.names[seat])}){rolled}")
        self.last_shown = None

    def _move_text(self, seat: int, action: str, continued: bool = False) -> str:
        """``seat 2 (random): draw``; the name is left out of a seat's following moves."""
        who = f"seat {seat}" if continued else f"seat {seat} ({escape(self.names[seat])})"
        return f"[dim]{who}:[/dim] [cyan]{escape(action)}[/cyan]"

    def _log(self, seat: int, action: str) -> None:
        self.moves.append((seat, action, []))
        self.last_shown = seat
        if self.seats[seat] is None:
            self.seen[seat] = len(self.moves)

    def _hand_over(self, seat: int) -> bool:
        """With several people at the terminal: a pass screen before the first person's view and
        whenever the decision moves from one to another, then the moves the new player has not
        seen. False when they quit."""
        if not self.shared or self.at_terminal == seat:
            self.at_terminal = seat
            return True
        # someone else's view may be on the screen, or the terminal is still with someone else:
        # hide it first, also before the first view of the game
        self._clear_screen()
        self.console.print()
        self.console.rule(f"[bold]Pass the terminal to seat {seat}[/bold]", align="left")
        try:
            answer = self.ask(f"[bold]Pass to seat {seat}[/bold] — seat {seat}, press Enter when ready "
                              "[dim](quit to stop)[/dim]: ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            return False
        if answer in QUIT_WORDS:
            return False
        self._clear_screen()
        unseen = [move for move in self.moves[self.seen[seat]:] if move[0] != seat]
        if unseen:  # the screen was cleared: tell the new player what happened meanwhile
            since = "Since your last decision" if self.seen[seat] else "The moves so far"
            self.console.print()
            self.console.print(f"[bold]{since}, seat {seat}:[/bold]")
            previous = None
            for s, a, lines in unseen:
                self.console.print("  " + self._move_text(s, a, continued=s == previous))
                for line in lines:
                    self.console.print(f"    [magenta]{line}[/magenta]")
                previous = s
        self.at_terminal = seat
        self.seen[seat] = len(self.moves)
        return True

    def _human_turn(self, seat: int) -> bool:
        """One decision of a person; False when they quit."""
        self._show_table(seat)
        legal = action_order(self.state.legal_actions())
        while True:
            try:
                text = self.ask(self.prompt).strip()
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
                self.console.print(self.commands)
                continue
            if word in SHOW_WORDS:
                self._show_table(seat)
                continue
            if word in DISCARDS_WORDS:
                self._show_discards(seat)
                continue
            if word in HINT_WORDS and self.advisor is not None:
                self._hint(seat, self.advisor, legal)
                continue
            if word in UNDO_WORDS:
                if self._undo():
                    return True
                continue
            if self._decide(seat, text, legal):
                return True

    def _hint(self, seat: int, advisor: Agent, legal: list[Any]) -> None:
        """The advisor's move for ``seat`` from the seat's own view, its number in the list and
        its reason; Ctrl-C stops the thinking, not the game."""
        seconds = advisor.budget().seconds
        bound = f" (at most {seconds:g} s)" if seconds else ""
        self.console.print(f"[dim]Thinking about a hint{bound}…[/dim]")
        try:
            advice = advisor.advise(self.state.view(seat), self.hint_rng)
        except KeyboardInterrupt:
            self.console.print("[yellow]Hint stopped.[/yellow]")
            return
        number = next(i for i, action in enumerate(legal, 1) if action == advice.action)
        reason = f" [dim]· {escape(advice.reason)}[/dim]" if advice.reason else ""
        self.console.print(f"[bold]Hint:[/bold] [bold]{number}[/bold] [cyan]{escape(str(advice.action))}[/cyan]{reason}")

    def _decide(self, seat: int, text: str, legal: list[Any]) -> bool:
        """Apply a number or notation; False (after saying why) when it is not a legal action."""
        before = self.state.clone() if self.solitaire else None
        if text.isascii() and text.isdigit():  # not "²", which isdigit() takes and int() refuses
            digits = text.lstrip("0") or "0"  # "01" is 1; no int() of 4,301 digits
            if len(digits) > len(str(len(legal))) or not 1 <= int(digits) <= len(legal):
                number = text if len(text) <= SHOWN_DIGITS else f"{text[:SHOWN_DIGITS]}…"
                self._complain(f"there is no action {number}: choose 1 to {len(legal)}, or write the notation")
                return False
            action = legal[int(digits) - 1]
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
        self._log(seat, str(action))
        return True

    def _undo(self) -> bool:
        if not self.solitaire:
            self._complain("undo is only for solitaire games: the other players have seen your move",
                           "Cannot undo:")
            return False
        if not self.undo_stack:
            self._complain("no decision has been made here yet", "Nothing to undo:")
            return False
        taken_back = self.state.history()[-1]
        self.state = self.undo_stack.pop()
        if self.moves:
            self.moves.pop()
        self.console.print(f"[yellow]Took back[/yellow] [cyan]{escape(str(taken_back))}[/cyan]")
        return True

    def _clear_screen(self) -> None:
        """Clear the screen and, in a real terminal, its scrollback, so no earlier view is left."""
        self.console.clear()
        if self.console.is_terminal:
            self.console.file.write("\x1b[3J")  # erase the scrollback too (xterm, tmux, most emulators)
            self.console.file.flush()

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
        self.console.print(action_list(state.legal_actions()))

    def _show_discards(self, seat: int) -> None:
        game = self.state.game
        pile = game.discard_pile(self.state.observation(seat))
        self.console.print(pile if pile is not None else
                           f"{escape(getattr(game, 'title', game.name))} has no discard pile: "
                           "the table shows every card that is not hidden")

    def _show_end(self) -> None:
        state = self.state
        seat = next((i for i, agent in enumerate(self.seats) if agent is None), None)
        self.console.print()
        self.console.rule("[bold]Game over[/bold]", align="left")
        # One person: their own table. Several at one terminal, or only bots: the first
        # person's (or seat 0's) table, tagged as seen, not as the reader's own.
        you = "viewed" if seat is None or self.shared else "you"
        self.console.print(state.game.render(state.observation(seat or 0), you=you))
        self.console.print(result_text(state, self.names))


def numbered(actions: Sequence[Any], start: int = 0) -> Columns:
    """The legal actions as a numbered list laid out in columns (numbers from ``start + 1``)."""
    items = [Text.assemble((f"{i:>2}", "bold"), " ", (str(a), "cyan")) for i, a in enumerate(actions, start + 1)]
    return Columns(items, padding=(0, 3), column_first=True)


def _verb(action: Any) -> str:
    return str(action).split(" ", 1)[0]


def action_order(actions: Sequence[Any]) -> list[Any]:
    """The legal actions in the order they are listed and numbered: a short list as it
    comes, a long one grouped by first word (groups in order of first appearance)."""
    if len(actions) <= SHORT_LIST:
        return list(actions)
    groups: dict[str, list[Any]] = {}
    for action in actions:
        groups.setdefault(_verb(action), []).append(action)
    return [action for group in groups.values() for action in group]


def action_list(actions: Sequence[Any]) -> Any:
    """The legal actions for the screen, numbered in :func:`action_order`.

    A long list: one block per first word, with its count and an example of its
    notation; a block whose actions differ only in their last word is a table.
    """
    if len(actions) <= SHORT_LIST:
        return numbered(actions)
    ordered = action_order(actions)
    blocks: list[Any] = []
    start = 0
    while start < len(ordered):
        verb = _verb(ordered[start])
        end = start
        while end < len(ordered) and _verb(ordered[end]) == verb:
            end += 1
        group = ordered[start:end]
        if len(group) == 1:
            blocks.append(Text.assemble((f"{start + 1:>2}", "bold"), " ", (str(group[0]), "cyan")))
        else:
            example = str(group[len(group) // 2])
            blocks.append(Text.assemble((f"{verb}", "bold"), f" ({len(group)})  ",
                                        ("type the notation, e.g. ", "dim"), (example, "cyan"),
                                        (", or a number", "dim")))
            blocks.append(_matrix(group, start) or numbered(group, start))
        start = end
    return Group(*blocks)


def _matrix(group: Sequence[Any], start: int) -> Group | None:
    """Actions that differ only in their last word as a table: a row per rest, a column per last
    word, the number in each cell; None when the group does not have that shape.

    Numbers as last words (spots) go in numeric order; other words (the cards that pay) in the
    order the rows name them, which is the order of the hand they come from.
    """
    split = [str(a).rsplit(" ", 1) for a in group]
    if len(group) < 2 * 3 or any(len(parts) != 2 or " " not in parts[0] for parts in split):
        return None
    rests: list[str] = []
    lasts: list[str] = []
    for rest, last in split:
        if rest not in rests:
            rests.append(rest)
        if last not in lasts:
            lasts.append(last)
    if len(lasts) > 13 or len(rests) < 2 or len(rests) * len(lasts) > 2 * len(group):
        return None
    try:
        lasts.sort(key=int)
    except ValueError:
        named = [word for rest in rests for word in rest.split()]
        lasts.sort(key=lambda last: named.index(last) if last in named else len(named))
    table = Table(box=None, show_header=True, header_style="dim", padding=(0, 1), pad_edge=False)
    table.add_column("", style="cyan", no_wrap=True)
    for last in lasts:
        table.add_column(f"…{escape(last)}", justify="right")
    cells = {(rest, last): start + i + 1 for i, (rest, last) in enumerate(split)}
    for rest in rests:
        table.add_row(escape(rest), *(Text(str(cells[rest, last]), "bold") if (rest, last) in cells
                                      else Text("·", "dim") for last in lasts))
    return Group(table, Text("…N: how the action ends; type a cell's number", "dim"))


def result_text(state: State, names: Sequence[str]) -> str:
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


def save_record(state: State, players: Sequence[str], path: Path) -> Path:
    """Write the game record as JSON (creating the folder); returns the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(state.record(players=list(players)), indent=2) + "\n", encoding="utf-8")
    return path


@dataclass
class Unfinished:
    """A saved game to go on with: its state after the recorded moves, who played each seat
    (``human`` or an agent spec) and its seed (None for a game started from a position)."""

    state: State
    players: list[str]
    seed: int | None


def load_unfinished(text: str, name: str, seated: bool = False) -> Unfinished:
    """The unfinished game of a record (its JSON ``text``, read from the file ``name``), replayed.

    Raises RecordError when the record does not replay, when its game is over, or when it does
    not say who plays each seat (unless the seats are ``seated`` otherwise: then its
    ``players``, even malformed, are not read, and ``players`` is empty).

    >>> import parlour
    >>> state = parlour.load("psalter-row").new_state(seed=3)
    >>> _ = state.apply(state.legal_actions()[0])
    >>> game = load_unfinished(json.dumps(state.record(players=["human"])), "r.json")
    >>> game.players, game.seed, len(game.state.history())
    (['human'], 3, 1)
    """
    from parlour.core.record import replay

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None  # replay says what is wrong with it
    if not isinstance(data, dict):
        replay(text)  # which refuses, saying why
    # with the seats given otherwise, whatever the record says of them is not read
    state = replay({k: v for k, v in data.items() if k != "players"} if seated else data)
    if state.is_terminal():
        raise RecordError(f"{name} is a finished game ({state.end_reason}): there is nothing to resume; "
                          f"step through it with: parlour replay {name}")
    if seated:
        return Unfinished(state, [], data.get("seed"))
    if "players" not in data:  # (present, it was checked by replay)
        raise RecordError(f"{name} does not name who plays each of its {state.game.num_players} seats "
                          "(its 'players'): give them with --seats")
    players = data["players"]
    return Unfinished(state, players, data.get("seed"))
