"""Agent strength and search speed.

``strength``: a tournament (fair seat rotation on shared deals, as ``parlour tournament``)
played on all cores, then the standings and, for each pair of agents, whether the first
finished ahead of the second with 95% confidence (Psalter Row: the paired score
difference on the same deals).

    .venv/bin/python benchmarks/bench_agents.py strength decktet-golf --players 2 \\
        --agents ismcts:iterations=1000,heuristic --games 200 --workers 16

``duplicate``: a duplicate match (``parlour.analysis.duplicate``): ``--tried`` in each seat
of deals that ``--base`` plays against itself, the same cards and opponents' generators, and
whether it finishes ahead of more opponents than the base agent did, with 95% confidence;
before that, the tried agent's own results in its seat (against the base agent in every other
seat), the base agent's in the same seats, and the tried seat's think time a decision (the
figures of the issue-20 targets; ``parlour duplicate`` is the command for everyone else).

    .venv/bin/python benchmarks/bench_agents.py duplicate decktet-golf --players 4 --option rounds=1 \\
        --tried ismcts:time=0.5,rollout=heuristic,tree=1,margin=8,keep=3 --deals 200 --workers 16

``ladder``: the levels (``parlour.agents.levels.LEVELS``) of one game in one tournament, as
``strength`` plays it, each level by its spec for the game without its clock: the levels'
searches are bound by iterations, so this is the level's play wherever its clock does not bind
(``levels`` measures that), and the same games on a busy machine as on a quiet one. ``--clock``
keeps each level's clock, as in play: for a level whose clock binds (Psalter Row's expert, whose
whole search would take 10-50 s an early decision), the level as players meet it on this machine.

    .venv/bin/python benchmarks/bench_agents.py ladder quisquilian --players 4 --games 400 --workers 16
    .venv/bin/python benchmarks/bench_agents.py ladder psalter-row --clock --games 300 --seed 3 --workers 2

``levels``: each level's think time per decision (median, 95th percentile, most) in every
game, on decisions met in heuristic play, one process, against each level's bound.

    .venv/bin/python benchmarks/bench_agents.py levels --decisions 40

``think``: how long an agent thinks a decision: each of ``--games`` deals played by ``--agent``
alone (one seat; the other seats, if any, play the heuristic), every decision of its timed; the
median, the 90th percentile and the most.

    .venv/bin/python benchmarks/bench_agents.py think psalter-row --agent level:expert --games 5

``pooled``: the figures of ``duplicate --out`` row files, each file's deals kept apart.

    .venv/bin/python benchmarks/bench_agents.py pooled dg4-seed44.csv dg4-seed45.csv

``speed``: IS-MCTS iterations per second per game, over decisions met in random play,
the median of ``--runs`` runs, with the pure-Python baseline of ``bench_playouts.py``
run in the same process.

    .venv/bin/python benchmarks/bench_agents.py speed --runs 5
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import multiprocessing
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_playouts import baseline
from rich.console import Console
from rich.progress import Progress

import parlour
from parlour.agents.base import Agent
from parlour.agents.ismcts import IsmctsAgent
from parlour.agents.levels import LEVELS
from parlour.analysis.duplicate import duplicate_deal, interval_text, print_summary, standing, summary
from parlour.analysis.results import RowWriter, read_rows
from parlour.analysis.stats import mean_ci, paired_difference, proportion_ci
from parlour.analysis.tournament import (
    PairResult,
    agent_labels,
    block_orders,
    play_match,
    print_standings,
    schedule,
    standings,
)
from parlour.cli import split_specs

SPEED_CONFIGS = [("psalter-row", {}), ("decktet-golf", {"players": 2}), ("decktet-golf", {"players": 4}),
                 ("quisquilian", {"players": 4})]

_worker: dict[str, Any] = {}


def _setup(name: str, options: dict[str, Any], specs: list[str]) -> None:
    _worker["game"] = parlour.load(name, **options)
    _worker["agents"] = [parlour.agent(spec) for spec in specs]
    _worker["labels"] = agent_labels(specs)


def _play(job: tuple[Any, int]) -> dict[str, Any]:
    match, seed = job
    return play_match(_worker["game"], _worker["agents"], _worker["labels"], match, seed)


def strength(args: argparse.Namespace) -> None:
    options = game_options(args)
    specs = split_specs(args.agents)
    game = parlour.load(args.game, **options)
    matches = schedule(len(specs), game.num_players, args.games)
    console = Console(width=120)
    console.print(f"{args.game} {options or ''}: {len(matches)} games of {', '.join(specs)}, "
                  f"seed {args.seed}, {args.workers} workers")
    # Each game is written as it ends, so a run stopped early keeps what it played.
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(RowWriter(Path(args.out))) if args.out else None
        rows = play_all(args, options, specs, matches, console, each=None if out is None else out.write)
    labels = agent_labels(specs)
    result = standings(rows, labels, game.num_players, seed=args.seed)
    print_standings(result, console)
    for pair in result.pairs:
        console.print(verdict(pair))


def ladder(args: argparse.Namespace) -> None:
    specs = [level.spec_for(args.game) for level in LEVELS]
    args.agents = ",".join(specs if args.clock else map(unclocked, specs))
    strength(args)


def unclocked(spec: str) -> str:
    """``spec`` without its ``time=`` bound.

    >>> unclocked("ismcts:iterations=1000,time=1,rollout=heuristic")
    'ismcts:iterations=1000,rollout=heuristic'
    """
    name, _, rest = spec.partition(":")
    kept = [part for part in rest.split(",") if part and not part.strip().startswith("time=")]
    return name + (":" + ",".join(kept) if kept else "")


THINK_CONFIGS = [("psalter-row", {}), ("decktet-golf", {"players": 2, "rounds": 1}),
                 ("decktet-golf", {"players": 4, "rounds": 1}), ("quisquilian", {"players": 4})]


def level_times(args: argparse.Namespace) -> None:
    print(f"parlour {parlour.__version__}; seconds a decision over {args.decisions} decisions a game")
    print("| game | options | level | bound | median | 95th percentile | most |")
    print("|---|---|---|---|---|---|---|")
    for name, options in THINK_CONFIGS:
        game = parlour.load(name, **options)
        views = decisions(game, args.decisions, seed=args.seed, agent=parlour.agent("heuristic"))
        for level in LEVELS:
            agent, rng, times = parlour.agent(f"level:{level.name}"), random.Random(args.seed), []
            for view in views:
                start = time.perf_counter()
                agent.act(view, rng)
                times.append(time.perf_counter() - start)
            times.sort()
            opts = " ".join(f"{k}={v}" for k, v in options.items()) or "default"
            print(f"| {name} | {opts} | {level.name} | {level.seconds:g} | {statistics.median(times):.3f} | "
                  f"{times[int(0.95 * (len(times) - 1))]:.3f} | {times[-1]:.3f} |", flush=True)


def play_all(args: argparse.Namespace, options: dict[str, Any], specs: list[str], matches: list[Any],
             console: Console, each: Callable[[Any], None] | None = None) -> list[dict[str, Any]]:
    """The rows of the matches, played on ``args.workers`` processes (``each`` called on every
    row as its game ends); past ``args.seconds`` the games not yet started are dropped, and only
    whole blocks (every seating of a deal) are kept, so the seats stay balanced."""
    start = time.perf_counter()
    rows = run_jobs(args, _play, [(m, args.seed) for m in matches], (args.game, options, specs), console, each)
    per_block = len(block_orders(len(specs), len(matches[0].seats)))
    done = Counter(row["block"] for row in rows)
    rows = sorted((row for row in rows if done[row["block"]] == per_block), key=lambda row: row["index"])
    console.print(f"{len(rows)} games in whole blocks, {time.perf_counter() - start:.0f} s")
    return rows


def run_jobs(args: argparse.Namespace, work: Callable[[Any], Any], jobs: list[Any], setup: tuple[Any, ...],
             console: Console, each: Callable[[Any], None] | None = None) -> list[Any]:
    """``work`` done on every job by ``args.workers`` processes (each first running
    ``_setup(*setup)``), with a progress bar, ``each`` called on every result as it comes; past
    ``args.seconds`` the jobs not finished are dropped."""
    deadline = None if args.seconds is None else time.perf_counter() + args.seconds
    found: list[Any] = []
    with multiprocessing.Pool(args.workers, initializer=_setup, initargs=setup) as pool, \
            Progress(console=console) as progress:
        task = progress.add_task("games", total=len(jobs))
        results = pool.imap_unordered(work, jobs)
        while len(found) < len(jobs):
            try:
                wait = None if deadline is None else max(0.0, deadline - time.perf_counter())
                found.append(results.next(timeout=wait))
                if each is not None:
                    each(found[-1])
            except multiprocessing.TimeoutError:
                console.print(f"time is up after {args.seconds} s: the games not finished are dropped")
                break
            progress.advance(task)
    return found


def duplicate(args: argparse.Namespace) -> None:
    """A duplicate match (:mod:`parlour.analysis.duplicate`): ``--tried`` in each seat of
    ``--deals`` deals that ``--base`` plays against itself; only whole deals are kept."""
    options = game_options(args)
    game = parlour.load(args.game, **options)
    for spec in (args.tried, args.base):
        parlour.agent(spec).check(game)  # an agent that cannot play fails here, not in the workers
    console = Console(width=120)
    console.print(f"{args.game} {options or ''}: {args.tried} tried in each seat of {args.deals} deals of "
                  f"{args.base}, seed {args.seed}, {args.workers} workers")
    start = time.perf_counter()
    jobs = [(deal, seat, args.seed) for deal in range(args.deals) for seat in range(game.num_players)]
    # Each trial is written as it ends, so a run stopped early keeps what it played (``pooled``
    # reads such a file, keeping whole deals only).
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(RowWriter(Path(args.out))) if args.out else None
        rows = run_jobs(args, _trial, jobs, (args.game, options, [args.tried, args.base]), console,
                        each=None if out is None else out.write)
    rows = whole_deals(rows, game.num_players)
    console.print(f"{len(rows)} trials on {len(rows) // game.num_players} whole deals, "
                  f"{time.perf_counter() - start:.0f} s")
    if len(rows) < 2 * game.num_players:
        console.print("fewer than two whole deals: no interval to judge by (give more --seconds)")
        return
    print_duplicate(rows, f"{args.tried} in place of {args.base}", console)


def pooled(args: argparse.Namespace) -> None:
    """The duplicate figures of row files written by ``duplicate --out``, pooled (each file's
    deals kept apart: two runs' deal 0 are different deals when their seeds differ)."""
    rows = []
    for index, path in enumerate(args.files):
        found = duplicate_rows(Path(path))
        if not found:
            raise parlour.ParlourError(f"{path} holds no trials: expected the rows of bench_agents.py duplicate --out")
        seats = 1 + max(row["seat"] for row in found)
        rows += [{**row, "deal": (index, row["deal"])} for row in whole_deals(found, seats)]
    console = Console(width=120)
    deals = len({row["deal"] for row in rows})
    console.print(f"{len(rows)} trials on {deals} whole deals from {len(args.files)} files")
    if deals < 2:
        console.print("fewer than two whole deals: no interval to judge by")
        return
    print_duplicate(rows, args.title, console)


def compare(args: argparse.Namespace) -> None:
    """Two solitaire agents' ``strength --out`` files of one seed: each agent's mean score and
    share of complete games, and the second's score less the first's on the deals both played
    (the paired t interval), so that runs made apart, or stopped early, still pair up."""
    first, second = (solitaire_rows(Path(path)) for path in args.files)
    game = parlour.load(first[0]["game"], **first[0]["options"])
    console = Console(width=120)
    for path, rows in zip(args.files, (first, second)):
        score = mean_ci([row["score"] for row in rows], within=game.score_bounds())
        complete = proportion_ci(sum(bool(row["complete"]) for row in rows), len(rows))
        console.print(f"{rows[0]['agent']} ({path}): {len(rows)} deals, score {score.mean:.2f} "
                      f"[{score.low:.2f}, {score.high:.2f}], complete {complete.mean:.1%} "
                      f"[{complete.low:.1%}, {complete.high:.1%}]")
    theirs = {row["seed"]: row["score"] for row in second}
    shared = [row for row in first if row["seed"] in theirs]
    if len(shared) < 2:
        console.print(f"{len(shared)} deals in both: no interval to judge by")
        return
    low, high = game.score_bounds()
    span = None if low is None or high is None else high - low
    difference, p = paired_difference([row["score"] for row in shared], [theirs[row["seed"]] for row in shared],
                                      within=(None, None) if span is None else (-span, span))
    console.print(f"second less first on the {len(shared)} deals both played: {difference.mean:+.2f} "
                  f"[{difference.low:+.2f}, {difference.high:+.2f}], p = {p:.3g}")


def solitaire_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a one-agent solitaire ``strength --out`` file, one per deal."""
    rows = read_rows(path)  # (a ResultsError for a file with no rows)
    if len({row.get("agent") for row in rows}) != 1 or rows[0].get("game") != "psalter-row":
        raise parlour.ParlourError(f"{path}: expected the rows of one agent's strength --out run of psalter-row")
    return rows


def whole_deals(rows: list[dict[str, Any]], seats: int) -> list[dict[str, Any]]:
    """The rows of the deals tried in all ``seats``, in order of deal and seat."""
    done = Counter(row["deal"] for row in rows)
    return sorted((row for row in rows if done[row["deal"]] == seats), key=lambda row: (row["deal"], row["seat"]))


def duplicate_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a ``duplicate --out`` CSV file, numbers as numbers."""
    with path.open(encoding="utf-8", newline="") as file:
        return [{key: _duplicate_value(key, text) for key, text in row.items()} for row in csv.DictReader(file)]


def _duplicate_value(key: str, text: str) -> Any:
    if key == "think":  # the tried seat's think times, joined by spaces
        return [float(part) for part in text.split()]
    return None if text == "" else float(text) if "_" in key else int(text)


def print_duplicate(rows: list[dict[str, Any]], title: str, console: Console) -> None:
    """The tried agent's and the base agent's results in the same seats, the changes of a
    duplicate match and the verdict on ``ahead``."""
    for side, who in (("trial", "tried, one seat against the base"), ("base", "base, the same seats")):
        e = standing(rows, side)
        console.print(f"{who:>34}: ahead of {e['ahead'].mean:.2%} {interval_text(e['ahead'], '.2%')} of the opponents, "
                      f"won {e['won'].mean:.2%} {interval_text(e['won'], '.2%')}, "
                      f"score {e['score'].mean:.2f} {interval_text(e['score'], '.2f')}")
    think = sorted(t for row in rows for t in row.get("think") or ())
    if think:
        console.print(f"{'think time of the tried seat':>34}: median {statistics.median(think):.3f} s, "
                      f"max {think[-1]:.3f} s over {len(think)} decisions with a choice")
    print_summary(summary(rows), title, console)


def _trial(job: tuple[int, int, int]) -> dict[str, Any]:
    # A job a seat, each replaying its deal's base game (a small cost beside a trial's search):
    # the deadline then drops trials, not whole deals at once.
    deal, seat, seed = job
    tried, base = _worker["agents"]
    clock = Clocked(tried)
    row = duplicate_deal(_worker["game"], clock, base, deal, seed, seats=[seat])[0]
    return {**row, "think": clock.seconds}


class Clocked(Agent):
    """An agent that plays as ``agent`` does and keeps the seconds each of its decisions with
    a choice took (``seconds``): the think time of a duplicate match's tried seat."""

    name = "clocked"

    def __init__(self, agent: Agent) -> None:
        super().__init__()
        self.agent = agent
        self.cheats = agent.cheats
        self.seconds: list[float] = []

    def act(self, view: Any, rng: random.Random) -> Any:
        start = time.perf_counter()
        action = self.agent.act(view, rng)
        if len(view.legal_actions) > 1:
            self.seconds.append(time.perf_counter() - start)
        return action


def verdict(pair: PairResult) -> str:
    """Whether ``pair.first`` is better than ``pair.second`` with 95% confidence."""
    if pair.ahead is not None:
        e, what, level, unit = pair.ahead, "finished ahead in", 0.5, "of {} games"
        show = "{:.1%}".format
    else:
        e, what, level, unit = pair.score_difference, "scored, on the same deals,", 0.0, "points over {} deals"
        show = "{:+.2f}".format
    better, worse = e.low is not None and e.low > level, e.high is not None and e.high < level
    spread = "(no interval: one deal)" if e.low is None or e.high is None else f"[{show(e.low)}, {show(e.high)}]"
    word = "BETTER" if better else "WORSE" if worse else "not separated"
    return f"{pair.first} vs {pair.second}: {what} {show(e.mean)} {spread} {unit.format(pair.games)}: {word} at 95%"


def think(args: argparse.Namespace) -> None:
    """Per-decision think time of ``args.agent`` in seat 0 of ``args.games`` deals."""
    game = parlour.load(args.game, **game_options(args))
    agent, other = parlour.agent(args.agent), parlour.agent("heuristic")
    agent.check(game)
    times: list[float] = []
    for deal in range(args.games):
        state, rng = game.new_state(args.seed * 1_000_003 + deal), random.Random(deal)
        while not state.is_terminal():
            seat = state.current_player
            if seat != 0:
                state.apply(other.move(state, seat, rng))
                continue
            start = time.perf_counter()
            action = agent.move(state, seat, rng)
            times.append(time.perf_counter() - start)
            state.apply(action)
    deciles = statistics.quantiles(times, n=10)
    print(f"{args.agent} in {args.game}: {len(times)} decisions over {args.games} deals; seconds a decision: "
          f"median {statistics.median(times):.3f}, 90th percentile {deciles[-1]:.3f}, most {max(times):.3f}")
    seconds = agent.budget().seconds
    if seconds is not None:  # a search its clock stopped: the decisions that took (nearly) all of it
        stopped = sum(t >= 0.95 * seconds for t in times)
        print(f"stopped by its clock of {seconds:g} s (took 95% of it or more): {stopped} of {len(times)} decisions "
              f"({stopped / len(times):.0%})")


def speed(args: argparse.Namespace) -> None:
    print(f"parlour {parlour.__version__}; IS-MCTS, random rollouts; medians of {args.runs} runs")
    print("| game | options | iterations/s | baseline kit/s | iterations per baseline kit |")
    print("|---|---|---|---|---|")
    for name, options in SPEED_CONFIGS:
        game = parlour.load(name, **options)
        views = decisions(game, 10, seed=1)
        rates, bases = [], []
        for run in range(args.runs):
            bases.append(baseline(0.5) / 1000)
            rates.append(iterations_per_second(views, args.iterations, random.Random(run)))
        rate, base = statistics.median(rates), statistics.median(bases)
        opts = " ".join(f"{k}={v}" for k, v in options.items()) or "default"
        print(f"| {name} | {opts} | {rate:,.0f} | {base:,.0f} | {rate / base:.2f} |")


def decisions(game: Any, count: int, seed: int, agent: Agent | None = None) -> list[Any]:
    """Views of decisions with two or more legal actions, met in random play (or ``agent``'s)."""
    rng, views = random.Random(seed), []
    while len(views) < count:
        state = game.new_state(rng.getrandbits(32))
        while not state.is_terminal() and len(views) < count:
            actions = state.legal_actions()
            if len(actions) > 1 and rng.random() < 0.2:
                views.append(state.view(state.current_player))
            state.apply(actions[rng.randrange(len(actions))] if agent is None
                        else agent.act(state.view(state.current_player), rng))
    return views


def iterations_per_second(views: list[Any], iterations: int, rng: random.Random) -> float:
    agent = IsmctsAgent(iterations=iterations)
    start = time.perf_counter()
    for view in views:
        agent.search(view, rng)
    return iterations * len(views) / (time.perf_counter() - start)


def run_options(command: argparse.ArgumentParser) -> None:
    """The game and how the games are run, as ``strength`` and ``duplicate`` take them."""
    command.add_argument("game")
    command.add_argument("--players", type=int)
    command.add_argument("--seed", type=int, default=1)
    command.add_argument("--option", action="append", default=[])
    command.add_argument("--workers", type=int, default=os.cpu_count())
    command.add_argument("--seconds", type=float, default=None, help="stop starting games after this long")
    command.add_argument("--out")


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game's options from ``--option`` and ``--players``."""
    options = dict(parlour.core.options.parse_option_text(text) for text in args.option)
    if args.players:
        options["players"] = args.players
    return options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    s = commands.add_parser("strength", help="a tournament on all cores, with verdicts")
    s.add_argument("--agents", required=True)
    s.add_argument("--games", type=int, default=200)
    run_options(s)
    lad = commands.add_parser("ladder", help="the levels of one game in one tournament, with verdicts")
    lad.add_argument("--games", type=int, default=200)
    lad.add_argument("--clock", action="store_true", help="keep each level's time= bound, as in play")
    run_options(lad)
    lv = commands.add_parser("levels", help="each level's seconds a decision in every game")
    lv.add_argument("--decisions", type=int, default=40)
    lv.add_argument("--seed", type=int, default=1)
    v = commands.add_parser("speed", help="IS-MCTS iterations per second per game")
    v.add_argument("--runs", type=int, default=5)
    v.add_argument("--iterations", type=int, default=200)
    t = commands.add_parser("think", help="seconds a decision of one agent: median, 90th percentile, most")
    t.add_argument("--agent", required=True)
    t.add_argument("--games", type=int, default=5)
    run_options(t)
    d = commands.add_parser("duplicate", help="one agent tried in each seat of deals another plays against itself")
    d.add_argument("--tried", required=True)
    d.add_argument("--base", default="heuristic")
    d.add_argument("--deals", type=int, default=100)
    run_options(d)  # --seconds: the trials not finished by then are dropped
    p = commands.add_parser("pooled", help="the duplicate figures of row files written by duplicate --out")
    p.add_argument("files", nargs="+")
    p.add_argument("--title", default="tried in place of base")
    c = commands.add_parser("compare", help="two Psalter Row agents' strength --out files, paired on shared deals")
    c.add_argument("files", nargs=2)
    args = parser.parse_args()
    try:
        {"strength": strength, "ladder": ladder, "levels": level_times, "think": think, "speed": speed,
         "duplicate": duplicate, "pooled": pooled, "compare": compare}[args.command](args)
    except parlour.ParlourError as error:  # an unknown agent, game or option: one line, not a trace
        parser.error(str(error))


if __name__ == "__main__":
    main()
