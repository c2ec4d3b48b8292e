"""The ``parlour`` command: play in the terminal, replay a record, simulate many games.

Errors from parlour (bad options, records that do not replay, ...) are printed as one
line, ``Error: ...``, with exit code 1; usage errors keep click's exit code 2.
"""

from __future__ import annotations

import os
import random
import secrets
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.markup import escape

import parlour
from parlour.core.errors import OptionError, ParlourError, RecordError
from parlour.core.options import option_dict
from parlour.core.registry import load_seated
from parlour.core.words import counted

if TYPE_CHECKING:
    from parlour.core.game import Game, State
    from parlour.play.terminal import PlayResult

OPTION_HELP = "A game option KEY=VALUE (repeatable), e.g. errand_draw=1. A bad one lists the valid ones."


class ParlourGroup(click.Group):
    """A group that turns any ParlourError (or a file that cannot be written) into one line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ParlourError as err:
            raise click.ClickException(str(err)) from None
        except OSError as err:
            raise click.ClickException(f"{err.strerror or err}: {err.filename}" if err.filename else str(err)) from None


def show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """``--version``: parlour's version and the engine that plays."""
    if not value or ctx.resilient_parsing:
        return
    import parlour.native

    click.echo(f"parlour {parlour.__version__}\nengine: {parlour.native.status()}")
    ctx.exit()


@click.group(cls=ParlourGroup)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=show_version,
              help="Show the version and the engine (native kernels or pure Python), and exit.")
def cli() -> None:
    """parlour: play, replay and simulate the games Psalter Row, Decktet Golf and Quisquilian."""


# -- shared helpers ------------------------------------------------------------------------------
def split_specs(text: str) -> list[str]:
    """Seats from a comma list; an agent's own ``key=value`` parameters stay with it.

    >>> split_specs("human, ismcts:iterations=500,rollout=heuristic,random")
    ['human', 'ismcts:iterations=500,rollout=heuristic', 'random']
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if specs and "=" in part and ":" not in part and ":" in specs[-1]:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def load_game(name: str, option_texts: Sequence[str], seats: int | None = None) -> Game:
    """The game with its options; ``seats`` sets the ``players`` option where the game has one."""
    return load_seated(name, option_dict(option_texts), seats)


def make_agents(specs: Sequence[str]) -> list[Any]:
    """An agent per spec, ``None`` for ``human``."""
    return [None if spec.lower() == "human" else parlour.agent(spec) for spec in specs]


def option_text(options: dict[str, Any]) -> str:
    return " ".join(f"{key}={value}" for key, value in options.items())


# -- play ----------------------------------------------------------------------------------------
GAMES_EPILOG = "Games: " + ", ".join(parlour.game_names()) + ". Their options: parlour options GAME."


@cli.command(short_help="Play a game in the terminal, or resume a saved one.", epilog=GAMES_EPILOG)
@click.argument("game", required=False)
@click.option("--seed", type=int, help="Fixes the deal; without it a random seed is chosen and shown.")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP)
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="How many seats, where the game lets you choose (its 'players' option).")
@click.option("--seats", metavar="SPECS",
              help="Who plays each seat, a comma list of 'human' or agent specs (default: all human; "
                   "with --resume: the record's).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path),
              help="Where to save the game record (default parlour-records/<game>-<time>-seed<N>.json; "
                   "with --resume: the record resumed).")
@click.option("--resume", "resume_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              metavar="RECORD", help="Go on with the unfinished game of a saved record: its game, options, "
                                     "seed, seats and moves.")
def play(game: str | None, seed: int | None, options: tuple[str, ...], players: int | None, seats: str | None,
         record_path: Path | None, resume_path: Path | None) -> None:
    """Play GAME in the terminal, e.g. `parlour play psalter-row --seed 3`,
    `parlour play decktet-golf --players 3 --seats human,random,random` or
    `parlour play quisquilian --players 4 --seats human,random,random,random`;
    or go on with a game left unfinished: `parlour play --resume RECORD`.

    At each decision type the number of a listed action or its notation; `help` shows
    the rules and the commands, `hint` the strongest level's move for you, `undo` takes a
    decision back (solitaire), `quit` stops.
    Several people may share the terminal: each gets a "pass to seat N" screen before
    their view. The game record is saved as JSON at the end, or on quit once a decision
    was made (resume it with --resume).
    """
    from parlour.agents.levels import strongest
    from parlour.play.terminal import play as play_game

    start = resumed(resume_path, game, seed, options, players, seats) if resume_path is not None \
        else new_game(game, seed, options, players, seats)
    check_writable(record_path or start.record_path, "--record" if record_path else "the record")
    console = Console(highlight=False)
    console.print(start.banner, soft_wrap=True)  # the terminal wraps it: a path in it stays whole
    result = play_game(start.state, lambda prompt: console.input(prompt), console, start.agents,
                       random.Random(start.agents_seed), start.seed, parlour.agent(f"level:{strongest().name}"))
    finish(console, result, start, record_path)


@dataclass
class Start:
    """A game about to be played at the terminal: its state, seats, seed, the line that opens it,
    where its record goes by default, and the seed of the agents' random numbers."""

    state: State
    agents: list[Any]
    seed: int | None
    banner: str
    record_path: Path
    agents_seed: int
    resumed: bool = False


def new_game(game: str | None, seed: int | None, options: tuple[str, ...], players: int | None,
             seats: str | None) -> Start:
    """A new game of GAME; every agent is checked against it before anything is shown."""
    from parlour.core.chance import derive_seed
    from parlour.play.terminal import default_record_path

    if game is None:
        raise click.UsageError("Missing argument 'GAME': name a game to play, or resume one with --resume RECORD.")
    specs = split_specs(seats) if seats else None
    if specs and players is not None and len(specs) != players:
        raise OptionError(f"--players {players} but --seats names {counted(len(specs), 'seat')}")
    the_game = load_game(game, options, len(specs) if specs else players)
    agents = seat_agents(specs or ["human"] * the_game.num_players, the_game)
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    banner = (f"[bold]{escape(the_game.title)}[/bold], seed [bold]{seed}[/bold] "
              f"[dim](play this deal again with {escape(again_options(the_game, seed, agents))}; "
              "type help for the rules)[/dim]")
    return Start(the_game.new_state(seed), agents, seed, banner, default_record_path(the_game.name, seed),
                 derive_seed(seed, "agents"))


def again_options(game: Game, seed: int, agents: Sequence[Any]) -> str:
    """The ``play`` options that deal this game again with its seats: the seed, every option
    not at its default, and the seats unless all are human.

    >>> again_options(parlour.load("decktet-golf", players=3, excuse=True), 7, [None, parlour.agent("random"), None])
    '--seed 7 --players 3 --option excuse=true --seats human,random,human'
    """
    from parlour.play.terminal import HUMAN, player_names

    parts = ["--seed", str(seed)]
    for spec in game.option_specs:
        value = game.options[spec.name]
        if value != spec.default:
            text = value_text(value)
            parts += ["--players", text] if spec.name == "players" else ["--option", f"{spec.name}={text}"]
    names = player_names(agents)
    if any(name != HUMAN for name in names):
        parts += ["--seats", ",".join(names)]
    return " ".join(shlex.quote(part) for part in parts)


def resumed(path: Path, game: str | None, seed: int | None, options: tuple[str, ...], players: int | None,
            seats: str | None) -> Start:
    """The unfinished game of the record at ``path``, replayed, with its seats (or --seats)."""
    from parlour.core.chance import derive_seed
    from parlour.play.terminal import load_unfinished

    given = [name for name, value in (("GAME", game), ("--seed", seed), ("--option", options),
                                      ("--players", players)) if value not in (None, ())]
    if given:
        raise OptionError(f"--resume takes the game, its options, seed and seats from the record: "
                          f"leave out {', '.join(given)}")
    saved = load_unfinished(record_text(path), str(path), seated=seats is not None)
    the_game = saved.state.game
    specs = split_specs(seats) if seats else saved.players
    if len(specs) != the_game.num_players:
        raise OptionError(f"--seats names {counted(len(specs), 'seat')}, but the game of {path} has "
                          f"{the_game.num_players}")
    agents = seat_agents(specs, the_game, None if seats else path)
    made = len(saved.state.history())
    shown_seed = f", seed [bold]{saved.seed}[/bold]" if saved.seed is not None else ""
    banner = (f"[bold]{escape(the_game.title)}[/bold]{shown_seed}, resumed from [bold]{escape(str(path))}[/bold] "
              f"after {counted(made, 'decision')} in all [dim](type help for the rules)[/dim]")
    return Start(saved.state, agents, saved.seed, banner, path,
                 derive_seed(saved.seed if saved.seed is not None else "position", "agents", "resumed", made),
                 resumed=True)


def value_text(value: Any) -> str:
    """An option's value as ``--option`` takes it: ``none``, ``true``/``false``, or as written.

    >>> value_text(None), value_text(True), value_text(2)
    ('none', 'true', '2')
    """
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def check_writable(path: Path, what: str, folder: bool = False) -> None:
    """OptionError, before any game is played, unless ``path`` can be written as a file (or, with
    ``folder``, made as a folder): it is not the other kind, and its nearest existing folder is one."""
    if path.exists() and path.is_dir() != folder:
        raise OptionError(f"{what} {path} is {'a file' if folder else 'a folder'}: give a "
                          f"{'folder' if folder else 'file'} path")
    above = path.parent
    while not os.path.lexists(above):  # a dangling link stops the walk: it is in the way
        above = above.parent
    if not above.is_dir():
        raise OptionError(f"{what} {path} cannot be written: {above} is not a folder")
    if not os.access(above, os.W_OK):
        raise OptionError(f"{what} {path} cannot be written: {above} is not writable")


def record_text(path: Path) -> str:
    """The text of a record file: RecordError when it is not UTF-8 (a record is JSON)."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(f"{path} is not a game record: a record is JSON in UTF-8, and byte {err.start} "
                          f"is not UTF-8 text") from None


def seat_agents(specs: Sequence[str], game: Game, record: Path | None = None) -> list[Any]:
    """An agent per seat (None for 'human'), each checked against ``game``; a seat of a
    ``record`` that names no agent is a clear error."""
    agents = []
    for seat, spec in enumerate(specs):
        try:
            agent = make_agents([spec])[0]
            if agent is not None:
                agent.check(game)
        except ParlourError as err:
            if record is None:
                raise
            raise OptionError(f"{record}: seat {seat} is played by {spec!r}, which cannot play here ({err}); "
                              "give every seat with --seats") from None
        agents.append(agent)
    return agents


def finish(console: Console, result: PlayResult, start: Start, record_path: Path | None) -> None:
    """Save the record and say where, and how to resume an unfinished game; a game stopped
    before any person decided anything saves nothing. These lines are soft-wrapped (by the
    terminal, not broken by rich), so that a path in them stays whole to copy."""
    from parlour.play.terminal import player_names, save_record

    if result.quit and not result.decided:
        kept = (f"{escape(str(start.record_path))} is as it was" if start.resumed
                else f"this deal again: {escape(command_name())} play {start.state.game.name} "
                     f"{escape(again_options(start.state.game, start.seed, start.agents))}")
        console.print(f"Stopped before any decision of yours: nothing saved [dim]({kept})[/dim]", soft_wrap=True)
        return
    path = record_path or start.record_path
    save_record(result.state, player_names(start.agents), path)
    shown = escape(str(path))
    if result.quit:
        console.print(f"Stopped after {counted(len(result.state.history()), 'decision')} in all. "
                      f"The unfinished game is saved to [bold]{shown}[/bold]", soft_wrap=True)
        console.print(f"Resume it with: [bold]{escape(command_name())} play --resume {shown}[/bold]", soft_wrap=True)
    else:
        console.print(f"Record saved to [bold]{shown}[/bold]", soft_wrap=True)
        console.print(f"[dim]Step through it with: {escape(command_name())} replay {shown}[/dim]", soft_wrap=True)


def command_name() -> str:
    """How this command was started (``parlour``, or ``.venv/bin/parlour`` when not on PATH)."""
    started = Path(sys.argv[0])
    if started.name == "parlour" and shutil.which("parlour") != str(started.resolve()):
        return str(started) if started.is_absolute() or "/" in sys.argv[0] else "parlour"
    return "parlour"


# -- replay --------------------------------------------------------------------------------------
@cli.command(short_help="Check a game record and step through it.")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--step/--all", "step", default=True,
              help="Wait for Enter after each action (default), or print every action at once.")
@click.option("--seat", type=int, default=None,
              help="Show the table as this seat sees it (default: the seat that just acted).")
def replay(file: Path, step: bool, seat: int | None) -> None:
    """Check a game record and step through it: Enter = next, b = back, q = quit."""
    from parlour.play.review import load_steps, show_all, step_through

    steps = load_steps(record_text(file))
    console = Console(highlight=False)
    if seat is not None:
        steps[0].state.view(seat)  # a seat that does not exist is a ParlourError, before any output
    if step:
        step_through(steps, lambda prompt: console.input(prompt), console, seat)
    else:
        show_all(steps, console, seat)


def parallel_options(command: Any, engine: bool = True) -> Any:
    """--workers, --backend, --address and (with ``engine``) --engine: where and how the games of
    simulate, compare, tournament and duplicate run."""
    for option in reversed((
        click.option("--workers", "-w", type=click.IntRange(min=1), default=None,
                     help="Processes to play in (default: every core). The rows do not depend on it."),
        click.option("--backend", type=click.Choice(["process", "ray"]), default="process", show_default=True,
                     help="Play on local processes, or as Ray tasks (the 'ray' extra)."),
        click.option("--address", metavar="HOST:PORT",
                     help="The Ray cluster to use with --backend ray (default: start Ray on this machine)."),
        click.option("--engine", type=click.Choice(["native", "python"]), default="native", show_default=True,
                     help="native: the compiled kernels play the games whose agents all have one (random, "
                          "heuristic), the rest in Python; python: every game in Python. The rows are the same."),
    )[:None if engine else 3]):
        command = option(command)
    return command


# -- simulate ------------------------------------------------------------------------------------
@cli.command(short_help="Simulate many games with agents and summarise them.", epilog=GAMES_EPILOG)
@click.argument("game")
@click.option("--agent", "agent_specs", multiple=True, default=("random",), show_default=True, metavar="SPEC",
              help="The agent for every seat, or one per seat (repeat it, or give a comma list).")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="How many seats, where the game lets you choose (its 'players' option).")
@click.option("--games", "-n", type=click.IntRange(min=1), default=1000, show_default=True, help="Games to play.")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is dealt by derive_seed(SEED, i).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one row per game: .csv, JSON lines (.jsonl/.json) or .parquet.")
@parallel_options
@click.option("--progress/--no-progress", default=None, help="A progress bar (default: when stderr is a terminal).")
def simulate(game: str, agent_specs: tuple[str, ...], players: int | None, games: int, seed: int,
             options: tuple[str, ...], out: Path | None, workers: int | None, backend: str, address: str | None,
             engine: str, progress: bool | None) -> None:
    """Play GAME many times with agents and summarise scores, with 95% confidence intervals.

    Games run in parallel on every core (or on Ray); game i is dealt by derive_seed(SEED, i),
    so the rows are the same whatever the workers or backend. Memory does not grow with the
    games: rows are written to --out as they come and summarised one by one. Ctrl-C stops the
    run and keeps (and summarises) the games already finished."""
    from parlour.analysis.parallel import Run, run_games
    from parlour.analysis.report import print_summary
    from parlour.analysis.results import output_format
    from parlour.analysis.simulate import Summarizer

    specs = [spec for text in agent_specs for spec in split_specs(text)]
    if len(specs) > 1 and players is not None and len(specs) != players:
        raise OptionError(f"--players {players} but {len(specs)} agents were given: give one, or one per seat")
    the_game = load_game(game, options, len(specs) if len(specs) > 1 else players)
    if len(specs) == 1:
        specs = specs * the_game.num_players
    check_agent_specs(the_game, specs)
    if out is not None:
        output_format(out)  # a bad suffix fails before any game is played
    rows = run_games(Run(the_game.name, the_game.options, tuple(specs), seed, engine=engine), range(games), workers,
                     backend, address)
    console, err = wide_console(120), Console(stderr=True, highlight=False)
    console.print(f"[bold]{escape(the_game.name)}[/bold] · {games} games · seed {seed} · agents "
                  f"{escape(', '.join(specs))} · options {escape(changed_options(the_game)) or 'default'}")
    started = time.perf_counter()
    summarizer = Summarizer(the_game.num_players)
    played, interrupted = collect(rows, games, out, err, progress, summarizer.add)
    elapsed = time.perf_counter() - started
    print_summary(summarizer.summary(), console, the_game.name)
    err.print(f"[dim]{played} games in {elapsed:.2f}s ({played / max(elapsed, 1e-9):,.0f} games/s) · "
              f"engine: {escape(engine_line(the_game, [specs], engine))}[/dim]")
    report_end(console, played, games, out, interrupted)


def engine_line(game: Game, lineups: Sequence[Sequence[str]], engine: str) -> str:
    """Which engine plays a run's games, and why (a line for stderr)."""
    import parlour.native

    if engine == "python":
        return "python (--engine python)"
    kernel = parlour.native.kernel(game.name)
    if kernel is None:
        return parlour.native.status() if parlour.native.engine() == "python" else f"python (no kernel for {game.name})"
    without = sorted({spec for specs in lineups for spec in specs
                      if kernel.setup([parlour.agent(spec)]) is None})
    if without:
        return f"python ({', '.join(without)} {'has' if len(without) == 1 else 'have'} no kernel: random and heuristic have)"
    return parlour.native.status()


def check_agent_specs(game: Game, specs: Sequence[str], what: str = "simulate") -> None:
    """Every spec names an agent (not 'human') that can play ``game``."""
    agents = make_agents(specs)
    if any(agent is None for agent in agents):
        raise OptionError(f"{what} plays agents only: 'human' is not an agent here")
    for agent in agents:
        agent.check(game)


def wide_console(width: int) -> Console:
    """Standard output; when piped to a file, wide enough that the tables do not wrap."""
    console = Console(highlight=False)
    return console if console.is_terminal else Console(highlight=False, width=width)


def changed_options(game: Game) -> str:
    """The options that differ from the game's defaults, as ``key=value`` text."""
    defaults = parlour.load(game.name).options
    return option_text({k: v for k, v in game.options.items() if defaults.get(k) != v})


def collect(rows: Any, total: int, out: Path | None, err: Console, progress: bool | None,
            take: Callable[[dict[str, Any]], None], what: str = "simulating") -> tuple[int, bool]:
    """Every row handed to ``take`` (a summary gathering them) and written to ``out`` as it
    comes, behind a progress bar; no row is kept, so memory does not grow with the games.
    How many rows there were, and whether Ctrl-C stopped the run (the rows so far are kept)."""
    from parlour.analysis.results import RowWriter

    count = 0
    writer = RowWriter(out) if out is not None else None
    try:
        for row in _with_progress(rows, total, err, progress, what):
            take(row)
            count += 1
            if writer is not None:
                writer.write(row)
    except KeyboardInterrupt:
        if not count:
            raise
        return count, True
    finally:
        if writer is not None:
            writer.close()
    return count, False


def report_end(console: Console, played: int, total: int, out: Path | None, interrupted: bool,
               unit: str = "games") -> None:
    """Where the rows went; after Ctrl-C, how many games were kept, and exit status 130."""
    if out is not None:
        console.print(f"Wrote {played} rows to [bold]{escape(str(out))}[/bold]")
    if interrupted:
        console.print(f"[yellow]Interrupted: {played} of {total} {unit} finished and kept.[/yellow]")
        raise SystemExit(130)


def _with_progress(rows: Any, total: int, console: Console, show: bool | None, what: str = "simulating") -> Any:
    """Pass rows through, advancing a rich progress bar with an ETA."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    if show is None:
        show = console.is_terminal
    if not show:
        yield from rows
        return
    columns = (TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("games", total=total)
        for row in rows:
            bar.advance(task)
            yield row


# -- tournament ----------------------------------------------------------------------------------
@cli.command(short_help="A tournament between agents: win rates, pairwise results, ratings.", epilog=GAMES_EPILOG)
@click.argument("game")
@click.option("--agents", "agent_list", required=True, metavar="SPECS",
              help="The agents, a comma list of specs, e.g. random,heuristic,ismcts:iterations=1000.")
@click.option("--games", "-n", type=click.IntRange(min=1), default=200, show_default=True,
              help="Games to play, rounded up to whole blocks of fairly rotated seats.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="The deal of block b is derive_seed(SEED, b); any game can be replayed alone.")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="How many seats, where the game lets you choose (its 'players' option).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one row per game: .csv, JSON lines (.jsonl/.json) or .parquet.")
@parallel_options
@click.option("--progress/--no-progress", default=None, help="A progress bar (default: when stderr is a terminal).")
def tournament(game: str, agent_list: str, games: int, seed: int, players: int | None, options: tuple[str, ...],
               out: Path | None, workers: int | None, backend: str, address: str | None,
               engine: str, progress: bool | None) -> None:
    """Play the agents against each other in GAME, every agent in every seat equally often
    on shared deals, and print win rates, pairwise results and Bradley-Terry ratings with
    95% intervals (Psalter Row: mean score and completion rate, and paired differences).
    The statistics are explained on the "parlour tournament" page of parlour's documentation."""
    from parlour.analysis.parallel import TournamentRun, run_games
    from parlour.analysis.results import output_format
    from parlour.analysis.tournament import Tabulation, agent_labels, block_orders, check_agents, print_standings, schedule

    the_game = load_game(game, options, players)
    agents = make_agents(split_specs(agent_list))
    if any(agent is None for agent in agents):
        raise OptionError("a tournament plays agents only: 'human' is not an agent here")
    check_agents(the_game, agents)
    if out is not None:
        output_format(out)  # a bad suffix fails before any game is played
    labels = agent_labels([agent.spec for agent in agents])
    played = len(schedule(len(agents), the_game.num_players, games))
    orders = tuple(block_orders(len(agents), the_game.num_players))
    run = TournamentRun(the_game.name, the_game.options, tuple(agent.spec for agent in agents), seed, orders=orders,
                        engine=engine)
    rows = run_games(run, range(played), workers, backend, address)
    console, err = wide_console(140), Console(stderr=True, highlight=False)
    console.print(f"[bold]{escape(the_game.name)}[/bold] · {played} games · seed {seed} · agents "
                  f"{escape(', '.join(labels))} · blocks of {len(orders)} games on one deal"
                  + (f" [dim](--games {games} rounded up to whole blocks)[/dim]" if played != games else ""))
    tabulation = Tabulation(labels, the_game.num_players, seed=seed)
    count, interrupted = collect(rows, played, out, err, progress, tabulation.add)
    err.print(f"[dim]engine: {escape(engine_line(the_game, [[agent.spec for agent in agents]], engine))}[/dim]")
    print_standings(tabulation.standings(), console)
    report_end(console, count, played, out, interrupted)


# -- compare -------------------------------------------------------------------------------------
@cli.command(short_help="Compare rule variants on the same seeds, with differences and p-values.",
             epilog=GAMES_EPILOG)
@click.argument("game")
@click.option("--variant", "variants", multiple=True, metavar="KEY=VALUE[,KEY=VALUE]",
              help="A rule variant (repeat it). The first is the baseline; one alone is compared with "
                   "the options as given.")
@click.option("--agent", "agent_specs", multiple=True, default=("random",), show_default=True, metavar="SPEC",
              help="The agent for every seat, or one per seat (repeat it, or give a comma list).")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="How many seats, where the game lets you choose (its 'players' option).")
@click.option("--games", "-n", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Games per variant, the same deals for every variant.")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is dealt by derive_seed(SEED, i).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP + " Shared by every variant.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one row per game and variant: .csv, .jsonl/.json or .parquet (then: parlour report).")
@parallel_options
@click.option("--progress/--no-progress", default=None, help="A progress bar (default: when stderr is a terminal).")
def compare(game: str, variants: tuple[str, ...], agent_specs: tuple[str, ...], players: int | None, games: int,
            seed: int, options: tuple[str, ...], out: Path | None, workers: int | None, backend: str,
            address: str | None, engine: str, progress: bool | None) -> None:
    """Play GAME under each rule variant on the same seeds (common random numbers) and print,
    per variant, every figure's mean with its 95% CI and its paired difference to the first
    variant with a CI, its paired t-test p-value and the p-value adjusted for every figure at
    once (Holm), e.g.

    parlour compare psalter-row --variant errand_draw=1 --variant errand_draw=2 --agent heuristic"""
    from parlour.analysis.compare import Comparer, parse_variants, variant_runs
    from parlour.analysis.parallel import run_games
    from parlour.analysis.report import comparison_table
    from parlour.analysis.results import output_format

    specs = [spec for text in agent_specs for spec in split_specs(text)]
    the_game = load_game(game, options, len(specs) if len(specs) > 1 else players)
    specs = specs * the_game.num_players if len(specs) == 1 else specs
    chosen = parse_variants(variants, the_game)
    for variant in chosen:
        check_agent_specs(the_game.with_options({**the_game.options, **variant.options}), specs)
    if out is not None:
        output_format(out)
    runs = variant_runs(the_game.name, the_game.options, chosen, tuple(specs), seed, engine)
    rows = run_games(runs, range(games), workers, backend, address)
    console, err = wide_console(140), Console(stderr=True, highlight=False)
    console.print(f"[bold]{escape(the_game.name)}[/bold] · {len(chosen)} variants × {games} games · seed {seed} · "
                  f"agents {escape(', '.join(specs))} · options {escape(changed_options(the_game)) or 'default'}")
    started = time.perf_counter()
    comparer = Comparer(len(runs))
    played, interrupted = collect(rows, games * len(runs), out, err, progress, comparer.add)
    elapsed = time.perf_counter() - started
    console.print(comparison_table(comparer.comparison()))
    err.print(f"[dim]{played} games in {elapsed:.2f}s ({played / max(elapsed, 1e-9):,.0f} games/s) · "
              f"engine: {escape(engine_line(the_game, [specs], engine))}[/dim]")
    report_end(console, played, games * len(runs), out, interrupted)


# -- duplicate -----------------------------------------------------------------------------------
@cli.command(short_help="A duplicate match: one agent tried in each seat of deals another plays.",
             epilog=GAMES_EPILOG)
@click.argument("game")
@click.option("--tried", required=True, metavar="SPEC", help="The agent tried in each seat in turn, e.g. ismcts:time=0.5.")
@click.option("--base", default="heuristic", show_default=True, metavar="SPEC",
              help="The agent of every other seat, and of every seat in the base game.")
@click.option("--deals", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="Deals to play: each is a base game and a trial per seat.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Deal d is dealt by derive_seed(SEED, d); seat s's k-th decision draws from derive_seed(SEED, d, s, k).")
@click.option("--players", type=click.IntRange(min=1), default=None,
              help="How many seats, where the game lets you choose (its 'players' option).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Write one row per trial (a deal and seat): .csv, JSON lines (.jsonl/.json) or .parquet.")
@partial(parallel_options, engine=False)
@click.option("--progress/--no-progress", default=None, help="A progress bar (default: when stderr is a terminal).")
def duplicate(game: str, tried: str, base: str, deals: int, seed: int, players: int | None, options: tuple[str, ...],
              out: Path | None, workers: int | None, backend: str, address: str | None, progress: bool | None) -> None:
    """Compare the agent --tried with --base on the same cards: each deal is played by --base
    in every seat (the base game), then once per seat with --tried in that seat (a trial). Per
    seat, the trial's score, share of opponents finished ahead of, and share of the win, less
    the base game's; their means with 95% intervals over deals, and whether --tried finishes
    ahead of more opponents, e.g.

    parlour duplicate decktet-golf --players 4 --option rounds=1 --tried ismcts:iterations=500 --deals 200

    The statistics are explained on the "parlour tournament" page of parlour's documentation."""
    from parlour.analysis.duplicate import DuplicateSummary, print_summary
    from parlour.analysis.parallel import DuplicateRun, run_games
    from parlour.analysis.results import output_format

    the_game = load_game(game, options, players)
    check_agent_specs(the_game, [tried, base], "a duplicate match")
    if out is not None:
        output_format(out)  # a bad suffix fails before any game is played
    seats = the_game.num_players
    run = DuplicateRun(the_game.name, the_game.options, (tried, base), seed)
    rows = run_games(run, range(deals), workers, backend, address)
    console, err = wide_console(120), Console(stderr=True, highlight=False)
    console.print(f"[bold]{escape(the_game.name)}[/bold] · {escape(tried)} tried in each of {seats} seats of "
                  f"{deals} deals of {escape(base)} · seed {seed} · options {escape(changed_options(the_game)) or 'default'}")
    gathered = DuplicateSummary()
    started = time.perf_counter()
    count, interrupted = collect(rows, deals * seats, out, err, progress, gathered.add, "trials")
    if interrupted and gathered.seats and len(gathered.seats) < seats:
        gathered.seats = []  # a deal cut short: its seats would not weigh alike
    elapsed = time.perf_counter() - started
    print_summary(gathered.summary(), f"{tried} in place of {base}", console)
    err.print(f"[dim]{count} trials on {gathered.deals} deals in {elapsed:.2f}s[/dim]")
    report_end(console, count, deals * seats, out, interrupted, "trials")


# -- study ---------------------------------------------------------------------------------------
def int_list(text: str | None, what: str) -> list[int] | None:
    """A comma list of whole numbers (None for none given); an OptionError names ``what``.

    >>> int_list("2,3, 5", "--players"), int_list(None, "--players")
    ([2, 3, 5], None)
    """
    if text is None:
        return None
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise OptionError(f"{what} takes a comma list of whole numbers, e.g. 2,3,4, not {text!r}") from None


@cli.command(short_help="The designer's study of a game: variants, player counts, skill ladder, one report.",
             epilog=GAMES_EPILOG)
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="The folder for the Markdown summary, the HTML page and the plots (PNG).")
@click.option("--agent", default="heuristic", show_default=True, metavar="SPEC",
              help="The agent in every seat of the variants and player counts.")
@click.option("--games", "-n", type=int, default=2000, show_default=True,
              help="Games per variant, the same deals for every variant.")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is dealt by derive_seed(SEED, i).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help=OPTION_HELP + " Kept in every part.")
@click.option("--variant", "variants", multiple=True, metavar="KEY=VALUE[,KEY=VALUE]",
              help="A variant to compare with the game as given (repeat it; default: every option's other values).")
@click.option("--players", "player_counts", metavar="N,N,...",
              help="The player counts to play (default: every count the game allows).")
@click.option("--player-games", type=int, default=None, help="Games per player count (default: --games; 0: none).")
@click.option("--players-variant", "players_variants", multiple=True, metavar="KEY=VALUE",
              help="A variant played at every player count besides the game as given, e.g. decks=2.")
@click.option("--levels", default="novice,casual", show_default=True, metavar="LEVEL,LEVEL,...",
              help="The ladder's levels (two or more; strong and expert search, and are slow).")
@click.option("--ladder-games", type=int, default=200, show_default=True,
              help="Games per pair of levels (rounded up to whole deals of every seating).")
@click.option("--search-games", type=int, default=None,
              help="Games per pair in which a level searches (strong, expert: about a second a move; "
                   "default: --ladder-games).")
@click.option("--branching-games", type=int, default=500, show_default=True,
              help="Games of the game as given traced for the branching factor (slower than plain games).")
@click.option("--bound", metavar="SPEC", help="A solitaire's analysis-only agent played on the ladder's deals, "
                                              "e.g. clairvoyant: how far the strongest level is from it.")
@click.option("--bound-games", type=int, default=0, show_default=True, help="Deals the --bound plays.")
@parallel_options
@click.option("--progress/--no-progress", default=None, help="A progress bar (default: when stderr is a terminal).")
def study(game: str, out: Path, agent: str, games: int, seed: int, options: tuple[str, ...],
          variants: tuple[str, ...], player_counts: str | None, player_games: int | None,
          players_variants: tuple[str, ...], levels: str, ladder_games: int, search_games: int | None,
          branching_games: int,
          bound: str | None, bound_games: int, workers: int | None, backend: str, address: str | None,
          engine: str, progress: bool | None) -> None:
    """The standard study of GAME: every rule variant against the game as given on the same
    deals, every player count, the skill ladder of the levels, seat balance, length, stalls,
    branching, margin and drama, with sample-size advice; written to the folder --out as a
    Markdown summary, one HTML page and PNG plots, e.g.

    parlour study decktet-golf --games 2000 --out study-golf

    Every choice is checked before a game is played. The measures are explained on the
    "designer's studies" page of parlour's documentation."""

    from parlour.analysis.study import analyse, jobs, plan_study, variant_groups
    from parlour.analysis.study import play as play_study
    from parlour.analysis.study_report import write

    plan = plan_study(game, option_dict(options), agent, games, seed,
                      list(variants) or None, int_list(player_counts, "--players"), player_games,
                      players_variants, [part.strip() for part in levels.split(",") if part.strip()],
                      ladder_games, branching_games, bound, bound_games, engine, search_games)
    check_writable(out, "--out", folder=True)
    planned = jobs(plan)
    total = sum(len(job.indices) for job in planned)
    console, err = wide_console(120), Console(stderr=True, highlight=False)
    console.print(f"[bold]{escape(plan.game)}[/bold] study · {len(planned)} runs, {total:,} games · "
                  f"{len(plan.variants)} variants · players {', '.join(map(str, plan.players)) or 'fixed'} · "
                  f"ladder {escape(', '.join(plan.levels))}")
    started = time.perf_counter()
    rows = _study_with_progress(plan, total, err, progress, workers, backend, address, play_study)
    findings = analyse(plan, rows)
    compared = rows.get("base", []) + rows.get("variants", [])
    command = "parlour study " + " ".join(shlex.quote(arg) for arg in sys.argv[2:]) if sys.argv[1:2] == ["study"] \
        else f"parlour study {plan.game} --out {out}"
    for path in write(findings, variant_groups(compared), out, command):
        console.print(f"Wrote [bold]{escape(str(path))}[/bold]")
    err.print(f"[dim]{total:,} games in {time.perf_counter() - started:.1f}s[/dim]")


def _study_with_progress(plan: Any, total: int, err: Console, show: bool | None, workers: int | None,
                         backend: str, address: str | None, play_study: Any) -> dict[str, list[dict[str, Any]]]:
    """Play a study behind one progress bar that names the run being played."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if show is None:
        show = err.is_terminal
    if not show:
        return play_study(plan, workers, backend, address)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("study", total=total)

        def step(job: Any, _done: int) -> None:
            bar.update(task, advance=1, description=f"{job.stage}: {job.label}")

        return play_study(plan, workers, backend, address, step)


# -- report --------------------------------------------------------------------------------------
@cli.command(short_help="An HTML report with plots of a simulate or compare results file.")
@click.argument("results", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The HTML page to write (default: RESULTS with .html, unless --png alone is given).")
@click.option("--png", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write every plot as a PNG file in this folder.")
def report(results: Path, out: Path | None, png: Path | None) -> None:
    """Read RESULTS (the --out of simulate or compare: .csv, .jsonl or .parquet) and write a
    self-contained HTML page: the figures with 95% intervals, first-player advantage,
    decisiveness, lead changes, end conditions, action use, and their plots (score
    distribution, game length, win rate per seat, variant effects)."""
    from parlour.analysis.columns import read_table
    from parlour.analysis.html import write_report

    table = read_table(results)
    if out is None and png is None:
        out = results.with_suffix(".html")
    written = write_report(table, results.name, out, png)
    console = Console(highlight=False)
    for path in written:
        console.print(f"Wrote [bold]{escape(str(path))}[/bold]")


# -- options ------------------------------------------------------------------------------------
@cli.command(short_help="List the games, or a game's options with their defaults and allowed values.")
@click.argument("game", required=False)
def options(game: str | None) -> None:
    """Without GAME, the games; with it, each option: its default, what it allows, what it changes.

    Set an option with --option KEY=VALUE in play and simulate, or parlour.load(GAME, key=value).
    """
    console = Console(highlight=False)
    if game is None:
        console.print(f"[bold]Games[/bold] [dim](their options: {escape(command_name())} options GAME)[/dim]")
        console.print(game_list())
        return
    the_game = parlour.load(game)
    console.print(f"[bold]{escape(the_game.title)} options[/bold] [dim](set one with --option KEY=VALUE)[/dim]")
    console.print(option_list(the_game))


def game_list() -> Any:
    """Each game's name, title and option names; a long list wraps under itself."""
    from rich.table import Table

    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for name in parlour.game_names():
        the_game = parlour.load(name)
        names = ", ".join(spec.name for spec in the_game.option_specs)
        table.add_row(name, f"{escape(the_game.title)}: options {names}")
    return table


def option_list(game: Game) -> Any:
    """Each option: its name, then its default and allowed values, and what it does beneath."""
    from rich.table import Table

    table = Table.grid(padding=(0, 2, 1, 0))
    table.add_column(style="bold cyan", no_wrap=True)
    table.add_column()
    for spec in game.option_specs:
        table.add_row(spec.name, f"default [bold]{escape(value_text(spec.default))}[/bold] · allowed: {escape(spec.allowed())}\n"
                                 f"{escape(spec.doc)}")
    return table


from parlour.web.command import (
    serve,  # fastapi and uvicorn are imported only when it runs
)

cli.add_command(serve)


@cli.command(short_help="Say what this installation has: engine, kernels, optional extras.")
def doctor() -> None:
    """One line each: parlour and Python, the engine that plays (the native kernels, or pure
    Python and why), each game's kernel, and the optional extras found."""
    import importlib.util
    import platform

    import parlour.native

    click.echo(f"parlour {parlour.__version__} on Python {platform.python_version()} ({sys.executable})")
    click.echo(f"engine: {parlour.native.status()}")
    for name in parlour.game_names():
        click.echo(f"  {name}: {'native kernel' if parlour.native.kernel(name) else 'pure Python'}")
    extras = {"sim": "pyarrow", "web": "fastapi", "ray": "ray", "test": "pytest"}
    found = [f"{extra} ({module})" for extra, module in extras.items() if importlib.util.find_spec(module)]
    missing = [extra for extra, module in extras.items() if not importlib.util.find_spec(module)]
    click.echo(f"extras: {', '.join(found) or 'none'}" + (f"; not installed: {', '.join(missing)}" if missing else ""))


def main(argv: Sequence[str] | None = None) -> None:
    """The console script's entry point."""
    cli.main(args=list(argv) if argv is not None else None, prog_name="parlour")


if __name__ == "__main__":  # pragma: no cover
    main()
