"""Throughput of playouts, in one process: the native kernels against the Python engine.

For each game configuration and policy (uniform random, the heuristic) it measures the
games/s and decisions/s of whole games, deals included, played by the Python engine
(``acts = s.legal_actions(); s.apply(acts[i])``, or the heuristic agent) and by the game's
kernel (``parlour.native``), and their ratio in the same run; and the playouts/s of IS-MCTS
with heuristic playouts (``--search``), both ways. Each figure is the median of ``--runs`` runs.

    .venv/bin/python benchmarks/bench_playouts.py --runs 5 --seconds 2
    .venv/bin/python benchmarks/bench_playouts.py --engine python --detail   # clone/legal_actions costs

``--detail`` adds the Python engine's earlier table: ``clone()`` and ``legal_actions()`` in
microseconds over states met in play, and a fixed pure-Python baseline loop run in the same
process, so figures from a noisy machine can be compared as ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

import parlour
import parlour.native

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "psalter-row": [{}],
    "decktet-golf": [{"players": 2}, {"players": 5}],
    "quisquilian": [{"players": 3}, {"players": 8}],
}

#: The largest Quisquilian dig we found (a hill climb over two decks' 26 hearts split
#: between a 6-card hand and the nine spots, maximising the number of legal runs).
LARGEST_DIG = {
    "spots": [["6H", "4H"], ["4H", "6H"], ["KH", "9H", "8H"], ["8H", "9H"], ["QH", "10H"],
              ["AH", "2H", "3H"], ["7H", "5H"], ["KH", "JH"], ["5H", "7H"]],
    "hands": [["3H", "AH", "2H", "10H", "JH", "QH"], [], [], [], []],
    "player": 0,
}


def baseline(seconds: float) -> float:
    """Iterations/s of a fixed pure-Python loop (list building, indexing, an rng call)."""
    rng = random.Random(0)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            acts = [i for i in range(8)]
            acts[rng.randrange(len(acts))]
        n += 1000
    return n / (time.perf_counter() - start)


def playouts(game: Any, seconds: float, seed: int) -> tuple[float, float]:
    """(games/s, decisions/s) of uniform random playouts, the deal included."""
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(rng.getrandbits(32))
        while not state.is_terminal():
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def heuristic_playouts(game: Any, seconds: float, seed: int) -> tuple[float, float]:
    """(games/s, decisions/s) of the heuristic agent in every seat, in Python."""
    from parlour.analysis.simulate import play_out

    agents = [parlour.agent("heuristic")] * game.num_players
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = play_out(game.new_state(rng.getrandbits(32)), agents, rng)
        decisions += len(state.history())
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def native_playouts(game: Any, policy: str, seconds: float, seed: int, batch: int = 64) -> tuple[float, float]:
    """(games/s, decisions/s) of whole games played by the game's kernel, in batches."""
    kernel = parlour.native.kernel(game.name)
    assert kernel is not None, parlour.native.status()
    agents = [parlour.agent(policy)] * game.num_players
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deals = [rng.getrandbits(32) for _ in range(batch)]
        played = kernel.play_dealt(game, deals, [rng.getrandbits(63) for _ in range(batch)], agents)
        decisions += sum(p.decisions for p in played)
        games += batch
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed


def python_playouts(game: Any, policy: str, seconds: float, seed: int) -> tuple[float, float]:
    return playouts(game, seconds, seed) if policy == "random" else heuristic_playouts(game, seconds, seed)


def search_playouts(game: Any, engine: str, seconds: float, seed: int) -> float:
    """Playouts/s of IS-MCTS (rollout=heuristic) on the states of a game in play."""
    agent = parlour.agent(f"ismcts:iterations=1000000,time={seconds / 4},rollout=heuristic,engine={engine}")
    rng = random.Random(seed)
    state = game.new_state(seed)
    done = 0.0
    start = time.perf_counter()
    for _ in range(4):
        view = state.view(state.current_player)
        root = agent.search(view, rng)
        done += sum(edge.visits for edge in root.edges.values())
        for _ in range(3):
            if state.is_terminal():
                state = game.new_state(rng.getrandbits(32))
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    return done / (time.perf_counter() - start)


def states_in_play(game: Any, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = game.new_state(rng.getrandbits(32))
        while not state.is_terminal() and len(out) < count:
            out.append(state.clone())
            acts = state.legal_actions()
            state.apply(acts[rng.randrange(len(acts))])
    return out


def per_call_us(states: list[Any], method: str) -> float:
    """Microseconds per call of ``method`` over the states (legal-action cache cleared)."""
    fresh = [s.clone() for s in states]
    for s in fresh:
        s._legal = None  # measure the generation, not the cache
    calls = [getattr(s, method) for s in fresh]
    start = time.perf_counter()
    for call in calls:
        call()
    return (time.perf_counter() - start) / len(calls) * 1e6


def largest_dig(runs: int) -> tuple[int, float]:
    """(legal actions, median milliseconds to generate them) for LARGEST_DIG."""
    state = parlour.load("quisquilian", players=5).from_position(LARGEST_DIG)
    times = []
    for _ in range(runs):
        fresh = state.clone()
        fresh._legal = None
        start = time.perf_counter()
        count = len(fresh.legal_actions())
        times.append(time.perf_counter() - start)
    return count, statistics.median(times) * 1000


def configurations(names: list[str]) -> Iterator[tuple[str, Any, str]]:
    """Each configured game of ``names``: its name, the game, its options as a label."""
    for name in names:
        for options in CONFIGS[name]:
            yield name, parlour.load(name, **options), ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def ratio(speeds: dict[str, float], engine: str) -> str:
    """The native engine's speed over the Python engine's, on the native row of a pair."""
    return f"{speeds[engine] / speeds['python']:.1f}x" if engine == "native" and "python" in speeds else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", action="append", help="only these games (default: all configured)")
    parser.add_argument("--engine", choices=("both", "native", "python"), default="both",
                        help="both: each engine and their ratio (default)")
    parser.add_argument("--policy", action="append", choices=("random", "heuristic"),
                        help="only these policies (default: both)")
    parser.add_argument("--search", action="store_true", help="also IS-MCTS playouts/s with heuristic playouts")
    parser.add_argument("--detail", action="store_true", help="also the Python engine's clone/legal_actions costs")
    args = parser.parse_args()
    names = args.game or list(CONFIGS)
    engines = ("python", "native") if args.engine == "both" else (args.engine,)
    if parlour.native.engine() != "native":
        if args.engine == "native":
            parser.error(f"no native kernels: {parlour.native.status()}")
        engines = ("python",)
    print(f"parlour {parlour.__version__}; engine {parlour.native.status()}; medians of {args.runs} runs of "
          f"{args.seconds}s each\n")
    print("| game | options | policy | engine | games/s | decisions/s | native / python |")
    print("|---|---|---|---|---|---|---|")
    for name, game, opts in configurations(names):
        for policy in args.policy or ("random", "heuristic"):
            figures: dict[str, tuple[float, float]] = {}
            for engine in engines:
                measure = native_playouts if engine == "native" else python_playouts
                runs = [measure(game, policy, args.seconds, run) for run in range(args.runs)]
                figures[engine] = tuple(statistics.median(col) for col in zip(*runs))  # type: ignore[assignment]
            speeds = {engine: dps for engine, (_, dps) in figures.items()}
            for engine, (gps, dps) in figures.items():
                print(f"| {name} | {opts} | {policy} | {engine} | {gps:,.0f} | {dps:,.0f} | {ratio(speeds, engine)} |")
    if args.search:
        print("\n| game | options | IS-MCTS rollout=heuristic | playouts/s | native / python |")
        print("|---|---|---|---|---|")
        for name, game, opts in configurations(names):
            rates = {engine: statistics.median(search_playouts(game, engine, args.seconds, run)
                                               for run in range(args.runs)) for engine in engines}
            for engine, rate in rates.items():
                print(f"| {name} | {opts} | {engine} | {rate:,.0f} | {ratio(rates, engine)} |")
    if args.detail:
        detail(names, args.runs, args.seconds)


def detail(names: list[str], runs: int, seconds: float) -> None:
    """The Python engine's table: random playouts, clone and legal_actions costs, baseline."""
    print("\n| game | options | games/s | decisions/s | clone us | legal_actions us | baseline kit/s | decisions per baseline it |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        for options in CONFIGS[name]:
            game = parlour.load(name, **options)
            states = states_in_play(game, 20000, seed=1)
            rows = []
            for run in range(runs):
                base = baseline(seconds / 4)
                gps, dps = playouts(game, seconds, seed=run)
                rows.append((gps, dps, per_call_us(states, "clone"), per_call_us(states, "legal_actions"), base))
            gps, dps, clone_us, legal_us, base = (statistics.median(col) for col in zip(*rows))
            opts = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(
                f"| {name} | {opts} | {gps:,.0f} | {dps:,.0f} | {clone_us:.2f} | {legal_us:.2f} "
                f"| {base / 1000:,.0f} | {dps / base:.3f} |"
            )
    if "quisquilian" in names:
        count, ms = largest_dig(runs)
        print(f"\nQuisquilian, the largest dig found: {count:,} legal actions generated in {ms:.1f} ms (median)")


if __name__ == "__main__":
    main()
