"""The worked example of docs/research.md: PPO with masks, in numpy, on a parlour Gymnasium env.

``python -m parlour.envs.ppo psalter-row`` (or ``decktet-golf``, or any game with a Gymnasium
id: ``quisquilian`` runs too, untried beyond a short run) trains a masked policy on
``parlour/PsalterRow-v0`` (``parlour/DecktetGolf-v0``: seat 0 against the heuristic), one id a
step, and writes to ``--out``: ``policy.npz`` (plays as ``policy:path=.../policy.npz``),
``curve.csv`` (a row per update; the evaluations in their columns) and ``curve.png``.

Two networks (policy and value, each an MLP of ``--hidden`` tanh units, ``parlour.agents.mlp``)
see the observation tensor; the policy is a categorical over the legal ids of the mask. Each
update plays ``--horizon`` steps in each of ``--envs`` environments, takes generalised advantage
estimates and runs ``--epochs`` passes of Adam in minibatches over the clipped objective with an
entropy bonus (``parlour.envs.ppo_math``). Every ``--eval-every`` updates the policy so far is
saved and played as the agent it will be, greedy, on the same held-out deals
(``parlour.analysis.tournament``): Psalter Row, its mean score; Decktet Golf, the share of
games it finished ahead of the heuristic, both seats of each deal; with 95% intervals.

The same arguments give the same run (numpy's generator, the environments' seeds and the
evaluation deals all come from ``--seed``), on one machine: BLAS may round differently elsewhere.

>>> config = Config("psalter-row", steps=64, envs=2, horizon=16, minibatch=16, hidden=(8,), eval_games=2)
>>> config.updates, config.batch
(2, 32)
"""

from __future__ import annotations

import argparse
import csv
import dataclasses
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import parlour
import parlour.envs  # noqa: F401  (registers the Gymnasium ids)
from parlour.agents.mlp import Mlp
from parlour.agents.policy import save_policy
from parlour.analysis.tournament import agent_labels, standings, tournament
from parlour.core.errors import OptionError
from parlour.core.options import option_dict
from parlour.core.scores import lower_is_better
from parlour.envs.ppo_math import Adam, advantages, clip_norm, masked_log_softmax, policy_loss, value_loss
from parlour.envs.registration import ENV_IDS

#: The Gymnasium id of each game.
ENV_OF = {kwargs["game"]: env_id for env_id, kwargs in ENV_IDS.items()}
#: Each game's options when the command line gives none (Decktet Golf: one round) ...
DEFAULT_OPTIONS: dict[str, dict[str, Any]] = {"decktet-golf": {"rounds": 1}}
#: ... and its reward (Decktet Golf: the margin too, see :class:`Config`).
DEFAULT_REWARD = {"decktet-golf": "margin"}
#: The agents each evaluation is measured against (the curve's reference lines).
REFERENCES = ("random", "heuristic")


@dataclass(frozen=True)
class Config:
    """A training run. ``steps``: learner steps (ids) in all; ``reward``: ``result``, the
    env's own, or ``margin``, the env's plus the score margin over the other seats' mean
    divided by ``margin_scale`` (a signal before the first win: the heuristic beats a random
    Decktet Golf player every time)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    steps: int = 200_000
    envs: int = 16
    horizon: int = 128
    epochs: int = 4
    minibatch: int = 512
    hidden: tuple[int, ...] = (128, 128)
    lr: float = 3e-4
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    max_grad_norm: float = 0.5
    reward: str = "result"
    margin_scale: float = 20.0
    max_episode_steps: int = 1000
    eval_every: int = 10
    eval_games: int = 200
    seed: int = 0

    def __post_init__(self) -> None:
        if self.game not in ENV_OF:
            raise OptionError(f"there is no environment for {self.game!r}: the games are {', '.join(sorted(ENV_OF))}")
        if self.reward not in ("result", "margin"):
            raise OptionError(f"reward={self.reward!r} is not allowed: expected result or margin")
        if min(self.steps, self.envs, self.horizon, self.epochs, self.minibatch, self.eval_every, self.eval_games) < 1:
            raise OptionError("steps, envs, horizon, epochs, minibatch, eval_every and eval_games must be 1 or more")

    @property
    def batch(self) -> int:
        return self.envs * self.horizon

    @property
    def updates(self) -> int:
        return max(1, -(-self.steps // self.batch))


class MarginReward(gymnasium.Wrapper):
    """At the end, add the learner's score margin over the other seats' mean, divided by
    ``scale`` (signed so that a better score gives more, whichever way the game counts)."""

    def __init__(self, env: gymnasium.Env, scale: float) -> None:
        super().__init__(env)
        if env.unwrapped.game.num_players == 1:
            raise OptionError(f"reward=margin needs other seats to be ahead of: {env.unwrapped.game.name} is a "
                              "solitaire (use reward=result, its score)")
        self.scale = scale

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        if terminated:
            state, seat = self.env.unwrapped.decisions.state, self.env.unwrapped.seat
            scores = state.scores()
            others = float(np.mean([s for i, s in enumerate(scores) if i != seat]))
            lower = lower_is_better(scores, state.winners())  # None: level, or the result does not tell
            sign = 0.0 if lower is None else -1.0 if lower else 1.0
            reward += sign * (scores[seat] - others) / self.scale
        return observation, reward, terminated, truncated, info


def make_env(config: Config) -> gymnasium.Env:
    env = gymnasium.make(ENV_OF[config.game], disable_env_checker=True, max_episode_steps=config.max_episode_steps,
                         **config.options)
    return MarginReward(env, config.margin_scale) if config.reward == "margin" else env


class Learner:
    """The two networks and their optimisers."""

    def __init__(self, config: Config, inputs: int, ids: int, rng: np.random.Generator) -> None:
        self.config = config
        self.policy = Mlp.initial([inputs, *config.hidden, ids], rng, out_gain=0.01, dtype=np.float32)
        self.value = Mlp.initial([inputs, *config.hidden, 1], rng, out_gain=1.0, dtype=np.float32)
        self.policy_opt = Adam(self.policy.params(), config.lr)
        self.value_opt = Adam(self.value.params(), config.lr)

    def act(self, x: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray,
                                                                                        np.ndarray]:
        """Sampled ids (Gumbel-max over the masked log-probabilities), their log-probabilities, the values."""
        logp = masked_log_softmax(self.policy.forward(x), mask)
        ids = np.argmax(logp - np.log(-np.log(rng.random(logp.shape))), axis=1)
        return ids, logp[np.arange(len(ids)), ids], self.value.forward(x)[:, 0]

    def update(self, batch: dict[str, np.ndarray], rng: np.random.Generator, lr: float) -> dict[str, float]:
        """The epochs of minibatch steps on one rollout; the last epoch's mean diagnostics."""
        c = self.config
        self.policy_opt.lr = self.value_opt.lr = lr
        n = len(batch["ids"])
        stats: dict[str, list[float]] = {"entropy": [], "kl": [], "clipped": [], "value_loss": []}
        for epoch in range(c.epochs):
            order = rng.permutation(n)
            for start in range(0, n, c.minibatch):
                rows = order[start:start + c.minibatch]
                x, adv = batch["x"][rows], batch["advantages"][rows]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                logits, inputs = self.policy.forward_train(x)
                loss = policy_loss(logits, batch["mask"][rows], batch["ids"][rows], batch["logp"][rows], adv,
                                   c.clip, c.entropy)
                grads = self.policy.backward(inputs, loss.d_logits.astype(np.float32))
                clip_norm(grads, c.max_grad_norm)
                self.policy_opt.step(grads)
                values, inputs = self.value.forward_train(x)
                v_loss, d_values = value_loss(values[:, 0], batch["returns"][rows])
                grads = self.value.backward(inputs, d_values[:, None].astype(np.float32))
                clip_norm(grads, c.max_grad_norm)
                self.value_opt.step(grads)
                if epoch == c.epochs - 1:
                    for key, value in (("entropy", loss.entropy), ("kl", loss.kl), ("clipped", loss.clipped),
                                       ("value_loss", v_loss)):
                        stats[key].append(value)
        return {key: float(np.mean(values)) for key, values in stats.items()}


class Rollouts:
    """``envs`` environments played in step, the episodes they finish counted."""

    def __init__(self, config: Config) -> None:
        self.envs = [make_env(config) for _ in range(config.envs)]
        first = [env.reset(seed=config.seed * 1_000 + i)[0] for i, env in enumerate(self.envs)]
        self.x = np.stack([o["observation"] for o in first])
        self.mask = np.stack([o["action_mask"] for o in first]).astype(bool)
        self.running = np.zeros(config.envs)
        self.finished: list[float] = []
        self.cut = 0

    def play(self, learner: Learner, horizon: int, rng: np.random.Generator, gamma: float,
             lam: float) -> dict[str, np.ndarray]:
        """``horizon`` steps in every environment: the batch an update learns from."""
        shape = (horizon, len(self.envs))
        xs = np.zeros(shape + self.x.shape[1:], np.float32)
        masks = np.zeros(shape + self.mask.shape[1:], bool)
        ids, logp, values, rewards, dones = (np.zeros(shape, t) for t in (np.int64, float, float, float, float))
        for t in range(horizon):
            xs[t], masks[t] = self.x, self.mask
            ids[t], logp[t], values[t] = learner.act(self.x, self.mask, rng)
            for e, env in enumerate(self.envs):
                observation, reward, terminated, truncated, _ = env.step(int(ids[t, e]))
                rewards[t, e] = reward
                self.running[e] += reward
                if terminated or truncated:  # a cut episode (a step cap) counts as over, bootstrapped by nothing
                    dones[t, e] = 1.0
                    self.finished.append(self.running[e])
                    self.cut += truncated
                    self.running[e] = 0.0
                    observation, _ = env.reset()
                self.x[e], self.mask[e] = observation["observation"], observation["action_mask"]
        last = learner.value.forward(self.x)[:, 0]
        adv, returns = advantages(rewards, values, dones, last, gamma, lam)
        flat = {"x": xs, "mask": masks, "ids": ids, "logp": logp, "advantages": adv, "returns": returns}
        return {key: value.reshape((-1,) + value.shape[2:]) for key, value in flat.items()}


def evaluate(game: parlour.Game, spec: str, games: int, seed: int) -> tuple[float, float | None, float | None]:
    """The agent's measure on ``games`` held-out games and its 95% interval: Psalter Row, the
    mean score; otherwise the share of games it finished ahead of the heuristic, a level finish
    counting half (every seating of each deal, as ``parlour tournament --agents SPEC,heuristic``)."""
    agents = [parlour.agent(spec)] + ([] if game.num_players == 1 else [parlour.agent("heuristic")])
    labels = agent_labels([agent.spec for agent in agents])
    table = standings(tournament(game, agents, games, seed), labels, game.num_players, resamples=0)
    estimate = table.agents[0].score if game.num_players == 1 else table.pairs[0].ahead
    assert estimate is not None
    return estimate.mean, estimate.low, estimate.high


CURVE = ["update", "steps", "episodes", "seconds", "train_return", "entropy", "kl", "clipped", "value_loss",
         "cut_episodes", "eval", "eval_low", "eval_high"]


def train(config: Config, out: Path, say: Callable[[str], None] = print) -> list[dict[str, Any]]:
    """Run ``config``, writing ``policy.npz``, ``curve.csv``, ``references.json`` and
    ``curve.png`` (with matplotlib) under ``out``; the curve's rows."""
    out.mkdir(parents=True, exist_ok=True)
    game = parlour.load(config.game, **config.options)
    rng = np.random.default_rng(config.seed)
    learner = Learner(config, game.observation_shape[0], game.num_distinct_actions, rng)
    rollouts = Rollouts(config)
    eval_seed = config.seed + 10_000  # deals no training environment is dealt from
    references = {spec: evaluate(game, spec, config.eval_games, eval_seed) for spec in REFERENCES}
    (out / "references.json").write_text(json.dumps(references, indent=1) + "\n")
    notes = {"config": {**dataclasses.asdict(config), "hidden": list(config.hidden)}}
    rows: list[dict[str, Any]] = []
    start, seen = time.monotonic(), 0
    with open(out / "curve.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, CURVE)
        writer.writeheader()
        for update in range(1, config.updates + 1):
            lr = config.lr * (1 - (update - 1) / config.updates)
            batch = rollouts.play(learner, config.horizon, rng, config.gamma, config.lam)
            stats = learner.update(batch, rng, lr)
            new = rollouts.finished[seen:]
            seen = len(rollouts.finished)
            row = {"update": update, "steps": update * config.batch, "episodes": seen,
                   "seconds": round(time.monotonic() - start, 1),
                   "train_return": float(np.mean(new)) if new else "", **stats, "cut_episodes": rollouts.cut,
                   "eval": "", "eval_low": "", "eval_high": ""}
            if update % config.eval_every == 0 or update == config.updates:
                save_policy(out / "policy.npz", learner.policy, game, {**notes, "steps": row["steps"]})
                row["eval"], row["eval_low"], row["eval_high"] = evaluate(
                    game, f"policy:path={out / 'policy.npz'}", config.eval_games, eval_seed)
            rows.append(row)
            writer.writerow(row)
            handle.flush()
            say(_progress(row))
    plot(rows, references, config, out / "curve.png")
    return rows


def _progress(row: dict[str, Any]) -> str:
    text = (f"update {row['update']}: {row['steps']:,} steps, {row['episodes']:,} episodes, {row['seconds']} s, "
            f"return {row['train_return'] if row['train_return'] == '' else round(row['train_return'], 3)}, "
            f"entropy {row['entropy']:.3f}, kl {row['kl']:.4f}")
    if row["eval"] != "":
        text += f"; evaluation {row['eval']:.3f} [{_num(row['eval_low'])}, {_num(row['eval_high'])}]"
    return text


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def plot(rows: list[dict[str, Any]], references: dict[str, tuple[float, float | None, float | None]],
         config: Config, path: Path) -> None:
    """The learning curve: the training episodes' mean return per update (smoothed), and the
    evaluations with their intervals against the reference agents'."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(2, 1, figsize=(7, 6), sharex=True)
    trained = [(r["steps"], r["train_return"]) for r in rows if r["train_return"] != ""]
    if trained:
        steps, returns = np.array(trained).T
        width = max(1, len(returns) // 20)
        smooth = np.convolve(returns, np.ones(width) / width, mode="valid")
        top.plot(steps, returns, color="0.8", lw=0.8, label="per update")
        top.plot(steps[width - 1:], smooth, color="C0", label=f"mean of {width} updates")
        top.legend(loc="lower right")
    top.set_ylabel(f"training return ({config.reward})")
    evals = [(r["steps"], r["eval"], r["eval_low"], r["eval_high"]) for r in rows if r["eval"] != ""]
    if evals:
        steps, mean = np.array([e[:2] for e in evals]).T
        low = np.array([e[2] if e[2] is not None else e[1] for e in evals])
        high = np.array([e[3] if e[3] is not None else e[1] for e in evals])
        bottom.errorbar(steps, mean, yerr=[mean - low, high - mean], fmt="o-", color="C0", capsize=3,
                        label="PPO policy (greedy)")
    for (spec, (value, _, _)), colour in zip(references.items(), ("C3", "C2")):
        bottom.axhline(value, color=colour, ls="--", label=spec)
    solo = parlour.load(config.game, **config.options).num_players == 1
    bottom.set_ylabel("mean score" if solo else "share of games ahead of heuristic")
    bottom.set_xlabel("learner steps (ids)")
    bottom.legend(loc="best")
    fig.suptitle(f"PPO on {config.game} ({config.eval_games} held-out games per point, 95% intervals)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m parlour.envs.ppo", description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(ENV_OF))
    parser.add_argument("--option", action="append", default=[], help="a game option KEY=VALUE (repeatable)")
    parser.add_argument("--out", type=Path, help="where to write (default runs/ppo-GAME)")
    defaults = Config("psalter-row")
    for f in dataclasses.fields(Config):
        if f.name in ("game", "options"):
            continue
        value = getattr(defaults, f.name)
        if f.name == "reward":
            parser.add_argument("--reward", choices=("result", "margin"),
                                help="default margin for decktet-golf, else result")
            continue
        kind = (lambda text: tuple(int(v) for v in text.split(","))) if f.name == "hidden" else type(value)
        parser.add_argument("--" + f.name.replace("_", "-"), type=kind, default=value,
                            help=f"default {','.join(map(str, value)) if f.name == 'hidden' else value}")
    args = parser.parse_args(argv)
    try:
        options = {**DEFAULT_OPTIONS.get(args.game, {}), **option_dict(args.option)}
        fields = {f.name: getattr(args, f.name) for f in dataclasses.fields(Config) if f.name not in ("game", "options")}
        fields["reward"] = args.reward or DEFAULT_REWARD.get(args.game, "result")
        config = Config(args.game, options, **fields)
        parlour.load(config.game, **options)  # options checked before any work
        train(config, args.out or Path("runs") / f"ppo-{args.game}", lambda text: print(text, flush=True))
    except OptionError as err:
        print(f"Error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
