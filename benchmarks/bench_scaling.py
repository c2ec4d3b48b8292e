"""Simulation at scale: games/s with 1 and N worker processes, and on a local Ray instance.

Every configuration plays the same games (game i is dealt by derive_seed(seed, i)), and the
rows are checked to be identical across configurations before any figure is printed. Each
figure is the median of ``--runs`` runs; the start-up of the pool (and of Ray) is included,
as a user of ``parlour simulate`` pays it (Ray starts once per process: its first run
carries the start, the others reuse it; every run's time is printed).

    .venv/bin/python benchmarks/bench_scaling.py --game psalter-row --agent heuristic --games 2000 --runs 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from parlour.analysis.parallel import Run, default_workers, run_games


def timed(run: Run, games: int, workers: int, backend: str) -> tuple[float, list[dict]]:
    start = time.perf_counter()
    rows = list(run_games(run, range(games), workers=workers, backend=backend))
    return time.perf_counter() - start, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="psalter-row")
    parser.add_argument("--agent", default="heuristic")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=default_workers(), help="the N of the parallel runs")
    parser.add_argument("--no-ray", action="store_true", help="leave the Ray backend out")
    args = parser.parse_args()
    options = {} if args.players is None else {"players": args.players}
    import parlour

    seats = parlour.load(args.game, **options).num_players
    run = Run(args.game, options, (args.agent,) * seats, seed=1)
    configs = [("process", 1), ("process", args.workers)] + ([] if args.no_ray else [("ray", args.workers)])
    seconds: dict[tuple[str, int], list[float]] = {config: [] for config in configs}
    reference = None
    for _ in range(args.runs):
        for backend, workers in configs:
            elapsed, rows = timed(run, args.games, workers, backend)
            reference = rows if reference is None else reference
            assert rows == reference, f"{backend} with {workers} workers gave other rows"
            seconds[(backend, workers)].append(elapsed)
    one = statistics.median(seconds[("process", 1)])
    print(f"{args.game} {options or ''} · agent {args.agent} · {args.games} games · median of {args.runs} runs")
    print(f"{'backend':<8} {'workers':>7} {'seconds':>8} {'games/s':>8} {'speed-up':>8}  every run (s)")
    for (backend, workers), values in seconds.items():
        median = statistics.median(values)
        runs = ", ".join(f"{v:.2f}" for v in values)
        print(f"{backend:<8} {workers:>7} {median:>8.2f} {args.games / median:>8.0f} {one / median:>8.2f}  {runs}")
    if not args.no_ray:
        overhead = statistics.median(seconds[("ray", args.workers)]) - statistics.median(seconds[("process", args.workers)])
        print(f"Ray overhead against processes with {args.workers} workers: {overhead:+.2f} s a run")


if __name__ == "__main__":
    main()
