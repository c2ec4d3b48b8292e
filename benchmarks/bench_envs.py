"""What the research environments cost over the engine: the PettingZoo AEC environment's
step against the raw engine's ``state.apply`` of the same actions.

Random games are first played through the environment (ids drawn from the masks) and kept
as records. Then, for the same games, each run times:

- ``apply``: the engine alone, ``state.apply(action)`` for each action of each record;
- ``ids``: the engine and the codec, the ids of each record turned into its actions
  (``state.action_from_ids``) and applied, with no environment around them;
- ``step``: ``env.reset(seed)`` and ``env.step(id)`` for each id (the mask check, the ids
  to the action, the apply and the rewards; an action of several sub-decisions is several steps);
- ``step+last``: as a learner's loop runs it, ``env.last()`` (the observation tensor and the
  mask) before every step.

Each figure is microseconds per action of the rules, the median of ``--runs`` runs (the
four measures taken in turn within each run, so a busy machine slows them alike); the
ratios are to ``apply``.

    .venv/bin/python benchmarks/bench_envs.py --runs 5 --games 20
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import parlour
from parlour.envs.aec import ParlourAECEnv

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("psalter-row", {}),
    ("decktet-golf", {"players": 2}),
    ("decktet-golf", {"players": 5}),
    ("quisquilian", {"players": 4}),
]


def record_games(env: ParlourAECEnv, games: int) -> list[tuple[int, list[int], list[str]]]:
    """``games`` random games through ``env``: (reset seed, ids played, the record's actions)."""
    rng = np.random.default_rng(0)
    played = []
    for seed in range(games):
        env.reset(seed=seed)
        ids = []
        while not env.decisions.state.is_terminal():
            mask = env.observe(env.agent_selection)["action_mask"]
            ids.append(int(rng.choice(np.flatnonzero(mask))))
            env.step(ids[-1])
        played.append((seed, ids, env.decisions.state.record()["actions"]))
    return played


def time_apply(game: Any, played: list[tuple[int, list[int], list[str]]], seeds: list[int]) -> float:
    """Seconds to apply every recorded action to a fresh state of its game (the deals left out)."""
    starts = [game.new_state(seed) for seed in seeds]
    actions = []
    for state, (_, _, texts) in zip(starts, played):
        probe = state.clone()  # the recorded notation to the game's own Action objects, untimed
        found = []
        for text in texts:
            found.append(game.parse_action(probe, text))
            probe.apply(found[-1])
        actions.append(found)
    start = time.perf_counter()
    for state, found in zip(starts, actions):
        for action in found:
            state.apply(action)
    return time.perf_counter() - start


def time_ids(game: Any, played: list[tuple[int, list[int], list[str]]], seeds: list[int]) -> float:
    """Seconds to turn every recorded id into its action and apply it (the deals left out)."""
    starts = [game.new_state(seed) for seed in seeds]
    start = time.perf_counter()
    for state, (_, ids, _) in zip(starts, played):
        prefix: tuple[int, ...] = ()
        for i in ids:
            prefix = (*prefix, i)
            action = state.action_from_ids(prefix)
            if action is not None:
                state.apply(action)
                prefix = ()
    return time.perf_counter() - start


def time_env(env: ParlourAECEnv, played: list[tuple[int, list[int], list[str]]], observe: bool) -> float:
    """Seconds to step the recorded ids through ``env`` (resets left out), with ``last()`` or not."""
    total = 0.0
    for seed, ids, _ in played:
        env.reset(seed=seed)
        step, last = env.step, env.last
        start = time.perf_counter()
        if observe:
            for i in ids:
                last()
                step(i)
        else:
            for i in ids:
                step(i)
        total += time.perf_counter() - start
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs per figure; the median is shown")
    parser.add_argument("--games", type=int, default=20, help="random games per configuration")
    args = parser.parse_args()
    print(f"{'configuration':<24} {'actions':>8} {'ids':>6} {'apply us':>9} {'ids us':>7} {'ratio':>6} "
          f"{'step us':>8} {'ratio':>6} {'step+last us':>13} {'ratio':>6}")
    for name, options in CONFIGS:
        env = ParlourAECEnv(name, **options)
        played = record_games(env, args.games)
        seeds = []  # the game seed the environment dealt from each reset seed
        for seed, _, _ in played:
            env.reset(seed=seed)
            seeds.append(env.decisions.state.record()["seed"])
        game = parlour.load(name, **options)
        measures: dict[str, Callable[[], float]] = {
            "apply": lambda: time_apply(game, played, seeds),
            "ids": lambda: time_ids(game, played, seeds),
            "step": lambda: time_env(env, played, observe=False),
            "step+last": lambda: time_env(env, played, observe=True),
        }
        times: dict[str, list[float]] = {key: [] for key in measures}
        for _ in range(args.runs):
            for key, measure in measures.items():
                times[key].append(measure())
        actions = sum(len(texts) for _, _, texts in played)
        us = {key: statistics.median(values) / actions * 1e6 for key, values in times.items()}
        label = name + "".join(f" {k}={v}" for k, v in options.items())
        print(f"{label:<24} {actions:>8} {sum(len(i) for _, i, _ in played):>6} {us['apply']:>9.1f} "
              + " ".join(f"{us[key]:>{width}.1f} {us[key] / us['apply']:>6.2f}"
                         for key, width in (("ids", 7), ("step", 8), ("step+last", 13))))


if __name__ == "__main__":
    main()
