"""Throughput of uniform random playouts, in one process.

Measures, for each game configuration: games/s, decisions/s (the loop
``acts = s.legal_actions(); s.apply(acts[i])``, deals included), the cost of
``clone()`` and ``legal_actions()`` in microseconds over states met in play,
and a fixed pure-Python baseline workload run in the same process, so figures
from a noisy machine can be compared as ratios. Each figure is the median of
``--runs`` runs.

    .venv/bin/python benchmarks/bench_playouts.py --runs 5 --seconds 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import parlour

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--game", action="append", help="only these games (default: all configured)")
    args = parser.parse_args()
    names = args.game or list(CONFIGS)
    print(f"parlour {parlour.__version__}; medians of {args.runs} runs of {args.seconds}s each\n")
    print("| game | options | games/s | decisions/s | clone us | legal_actions us | baseline kit/s | decisions per baseline it |")
    print("|---|---|---|---|---|---|---|---|")
    for name in names:
        for options in CONFIGS[name]:
            game = parlour.load(name, **options)
            states = states_in_play(game, 20000, seed=1)
            rows = []
            for run in range(args.runs):
                base = baseline(args.seconds / 4)
                gps, dps = playouts(game, args.seconds, seed=run)
                rows.append((gps, dps, per_call_us(states, "clone"), per_call_us(states, "legal_actions"), base))
            gps, dps, clone_us, legal_us, base = (statistics.median(col) for col in zip(*rows))
            opts = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(
                f"| {name} | {opts} | {gps:,.0f} | {dps:,.0f} | {clone_us:.2f} | {legal_us:.2f} "
                f"| {base / 1000:,.0f} | {dps / base:.3f} |"
            )
    if "quisquilian" in names:
        count, ms = largest_dig(args.runs)
        print(f"\nQuisquilian, the largest dig found: {count:,} legal actions generated in {ms:.1f} ms (median)")


if __name__ == "__main__":
    main()
