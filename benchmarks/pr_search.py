"""Variants of Psalter Row's expert search, played on one seed's deals and paired deal by deal.

The expert (``level:expert``, ``pimc:samples=1000,time=2``) tries every move on the same
samples of the draw pile and scores it by the heuristic's playout after it. The variants
below are what docs/benchmarks.md ("Psalter Row: the strongest fair level", "What was
tried") measured against it; none of them is shipped. Each plays blocks of deals as
``bench_agents.py`` deals them (``derive_seed(seed, block)``), the agent drawing from
``random.Random(deal)``, and writes a row a deal (JSON lines), so the rows pair deal by deal
with each other and with ``bench_agents.py strength --out`` rows of the same seed. Every
variant reads the seat's view only (``view.sample`` for what it cannot see).

  pimc      PIMC of --samples samples: the expert's search (the base the others pair with)
  bonus     PIMC, a bound Psalter counted --bonus points more in every playout's score
  parallel  PIMC with a playout per heuristic setting of --settings (JSON objects); a move's
            worth is the best of its means (a plan chosen now, so fair: parallel rollout)
  early     while the Row holds at most --early-row Pages, a move's worth on --samples samples
            is a playout whose first --inner-depth decisions an inner PIMC of --inner samples
            makes from the view it has then; PIMC of --base-samples otherwise
  value     a move's worth is the learned value (--model, made by ``fit``) after it, the mean
            over --samples samples
  correct   PIMC, each playout's score moved by --weight x (--model's value - --base-model's)
            after the move

    ../.venv/bin/python pr_search.py play pimc --samples 300 --seed 4 --deals 150 --out base.jsonl
    ../.venv/bin/python pr_search.py play parallel --samples 300 --seed 4 --deals 150 --out par.jsonl \\
        --settings '{}' '{"pr_hole_cost": 10, "pr_endgame": 40}' '{"pr_hole_cost": 4, "pr_endgame": 5}'
    ../.venv/bin/python pr_search.py fit --agent heuristic --games 20000 --out vh.npz
    ../.venv/bin/python pr_search.py play value --model vh.npz --samples 100 --seed 3 --deals 203 --out v.jsonl
    ../.venv/bin/python pr_search.py handover --decisions 6 --seed 4 --deals 60 --out handover.jsonl
    ../.venv/bin/python pr_search.py plot handover*.jsonl --fair expert.jsonl --out handover.png
    ../.venv/bin/python pr_search.py pair base.jsonl par.jsonl

``handover`` asks where fair play loses the Psalter: PIMC plays the first ``--decisions``
decisions, then the clairvoyant (analysis only: it knows the pile) finishes the deal.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import parlour
from parlour.agents.heuristic.psalter_row import MOST_DRAWS
from parlour.agents.mlp import Mlp, load, save
from parlour.agents.pimc import PimcAgent
from parlour.analysis.figures import difference_bounds, score_bounds
from parlour.analysis.stats import paired_difference, proportion_ci
from parlour.cards.standard import BY_CODE, COLOUR, RANK, SUIT
from parlour.core.chance import derive_seed
from parlour.core.game import State
from parlour.core.view import View
from parlour.envs.ppo_math import Adam
from parlour.games.psalter_row.roles import AID, IS_ACE, IS_KING, PAGE_VALUE
from parlour.games.psalter_row.scoring import quires, score
from parlour.native import kernel

GAME = parlour.load("psalter-row")
LOW, HIGH = GAME.score_range
#: ``fit``'s games of the heuristic are dealt from here on (no bench_agents.py deal is this small).
FIT_DEALS = 2_000_000


# -- the variants --------------------------------------------------------------------------
class Variant(PimcAgent):
    """PIMC whose playout score (in points) a variant changes: ``decide`` as PimcAgent's.

    As it is (``play pimc``) it plays as ``pimc`` does but for ties: summed in whole points, two
    moves that tie do tie, and the first in legal order is played, where ``pimc``'s sums of
    rewards on the 0..1 scale may split them by rounding."""

    def _worth_after(self, state: State, seat: int, rng: random.Random) -> float:
        return self.playout_score(state, rng)

    def playout_score(self, state: State, rng: random.Random) -> float:
        return outcome(state, None, rng)[0]


def outcome(state: State, settings: dict[str, Any] | None, rng: random.Random) -> tuple[float, bool]:
    """The final score from ``state`` and whether a Psalter was bound: the game's own where it
    is over, else the heuristic's playout (with ``settings``) in the kernel."""
    if state.is_terminal():
        return state.scores()[0], state.end_reason == "complete"
    scores, _, end, _ = kernel(GAME.name).playout(state, True, settings, rng)  # type: ignore[union-attr]
    return scores[0], end == "complete"


class Bonus(Variant):
    def __init__(self, bonus: float, **params: Any) -> None:
        super().__init__(**params)
        self.bonus = bonus

    def playout_score(self, state: State, rng: random.Random) -> float:
        points, bound = outcome(state, None, rng)
        return points + (self.bonus if bound else 0.0)


def after_each_move(view: View, actions: Sequence[Any], samples: int,
                    rng: random.Random) -> Iterator[tuple[int, State]]:
    """For each of ``samples`` samples of the view, each move's index and the state after it
    there (the same samples for every move, as PIMC plays them)."""
    for _ in range(samples):
        sample = view.sample(rng)
        for i, action in enumerate(actions):
            yield i, sample.clone().apply(action)


class Parallel(PimcAgent):
    """Every move on the same samples, a playout per setting; a move's worth its best mean."""

    def __init__(self, settings: Sequence[dict[str, Any]], **params: Any) -> None:
        super().__init__(**params)
        default = parlour.agent("heuristic").settings
        self.plans = [{**default, **s} for s in settings]

    def decide(self, view: View, rng: random.Random) -> tuple[Any, dict[Any, float], int]:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0], {}, 0
        totals = np.zeros((len(actions), len(self.plans)))
        samples = self.settings["samples"]
        for i, after in after_each_move(view, actions, samples, rng):
            for p, plan in enumerate(self.plans):
                totals[i, p] += outcome(after, plan, rng)[0]
        best = totals.max(axis=1)
        return actions[int(np.argmax(best))], dict(zip(actions, best.tolist())), samples


class Early(Variant):
    """The early game searched one step deeper, fairly: the inner PIMC reads the view it has then."""

    def __init__(self, early_row: int, inner: int, inner_depth: int, base_samples: int, **params: Any) -> None:
        super().__init__(**params)
        self.early_row, self.inner_depth = early_row, inner_depth
        self.inner = PimcAgent(samples=inner)
        self.base = PimcAgent(samples=base_samples)

    def decide(self, view: View, rng: random.Random) -> tuple[Any, dict[Any, float], int]:
        if len(view.observation["row"]) > self.early_row:
            return self.base.decide(view, rng)
        return super().decide(view, rng)

    def playout_score(self, state: State, rng: random.Random) -> float:
        for _ in range(self.inner_depth):
            if state.is_terminal():
                break
            state.apply(self.inner.decide(state.view(0), rng)[0])
        return super().playout_score(state, rng)


class Value:
    """A fitted value: features of an observation to the expected final score."""

    def __init__(self, path: str) -> None:
        nets, meta = load(path)
        self.net, self.mu, self.sd, self.mean = nets["value"], np.array(meta["mu"]), np.array(meta["sd"]), meta["mean"]

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        return self.net.forward((rows - self.mu) / self.sd)[:, 0] + self.mean


class ValueSearch(PimcAgent):
    """Every move on the same samples; its worth the mean of the fitted value after it."""

    def __init__(self, value: Value, correct: tuple[Value, float] | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.value, self.correct = value, correct

    def decide(self, view: View, rng: random.Random) -> tuple[Any, dict[Any, float], int]:
        actions = view.legal_actions
        if len(actions) == 1:
            return actions[0], {}, 0
        totals, rows, of = np.zeros(len(actions)), [], []
        samples = self.settings["samples"]
        for i, after in after_each_move(view, actions, samples, rng):
            if after.is_terminal():
                totals[i] += after.scores()[0]
                continue
            rows.append(features(after.observation(0)))
            of.append(i)
            if self.correct is not None:
                totals[i] += outcome(after, None, rng)[0]
        if rows:
            table = np.array(rows)
            if self.correct is None:
                worth = self.value(table)
            else:
                base, weight = self.correct
                worth = weight * (self.value(table) - base(table))
            np.add.at(totals, of, worth)
        chosen = int(np.argmax(totals))
        return actions[chosen], dict(zip(actions, totals.tolist())), samples


# -- the learned value's features -----------------------------------------------------------
def features(obs: dict[str, Any]) -> list[float]:
    """49 numbers from an observation: cards left, the Row's shape and style, the hand's
    neighbours 1-3 values beyond each end and its waiting cards, the unseen copies of the
    values a Psalter still needs (the draw pile, and the discard pile until the reshuffle)."""
    row = [BY_CODE[c] for c in obs["row"]]
    hand = [BY_CODE[c] for c in obs["hand"]]
    discard = [BY_CODE[c] for c in obs["discard"]]
    reshuffled = bool(obs["reshuffled"])
    pile = obs["draw_pile_size"]
    draws_left = pile if reshuffled else pile + len(discard)
    known = set(row) | set(hand) | {BY_CODE[c] for c in obs["removed"]} | (set(discard) if reshuffled else set())
    future = [0] * 14
    for c in range(52):
        if c not in known:
            future[RANK[c]] += 1
    held = [0] * 14
    for c in hand:
        held[RANK[c]] += 1
    k = len(row)
    out = [draws_left / MOST_DRAWS, float(reshuffled), pile / 47, k / 9, float(k == 0)]
    low, high, holes, largest, suited, inked = 6, 6, 0, 0, 0.0, 0.0
    if k:
        low, high = RANK[row[0]], RANK[row[-1]]
        holes = high - low + 1 - k
        largest = max((len(q) for q in quires(row)), default=0)
        suited = max(sum(1 for c in row if SUIT[c] == s) for s in range(4)) / k
        red = sum(1 for c in row if COLOUR[c] == COLOUR[row[0]]) / k
        inked = max(red, 1 - red)
    out += [holes / 8, float(k > 0 and holes == 0), low / 10, high / 10, (score(row) - LOW) / (HIGH - LOW),
            largest / 9, suited, inked, (low - 2) / 8 if k else 0.0, (10 - high) / 8 if k else 0.0]
    for side, end in ((-1, low), (1, high)):
        for distance in (1, 2, 3):
            v = end + side * distance
            there = k > 0 and 2 <= v <= 10
            out += [held[v] if there else 0.0, future[v] / 4 if there else 0.0]
        out.append(float(k > 0 and not 2 <= end + side <= 10))  # this end is closed
    inside = sum(1 for c in hand if PAGE_VALUE[c] and k and low <= PAGE_VALUE[c] <= high)
    aces, kings = sum(IS_ACE[c] for c in hand), sum(IS_KING[c] for c in hand)
    pages = sum(1 for c in hand if PAGE_VALUE[c])
    out += [aces, kings, sum(AID[c] == 2 for c in hand), sum(AID[c] == 3 for c in hand), inside, pages - inside,
            len(hand) / 5, float(aces > 0 or (kings > 0 and inside > 0))]
    out += [future[1] / 4, future[13] / 4, (future[11] + future[12]) / 8, sum(future[2:11]) / 36, sum(future) / 52]
    if k:
        missing = [v for v in range(2, 11) if not low <= v <= high]
        copies = [held[v] + future[v] for v in missing]
        out += [float(holes == 0 and all(copies)), min(copies, default=4) / 4, len(missing) / 9]
    else:
        out += [1.0, 1.0, 1.0]
    values = {PAGE_VALUE[c] for c in hand if PAGE_VALUE[c]}
    run = best = 0
    for v in range(2, 11):
        run = run + 1 if v in values else 0
        best = max(best, run)
    return out + [best / 5, len(values) / 5, float(obs["pending"] is not None), obs["pending_discards"] / 2]


def fit(args: argparse.Namespace) -> None:
    """Play ``--games`` games of ``--agent``, then fit the value (features to the final score)."""
    agent = parlour.agent(args.agent)
    rows, finals, games = [], [], []
    started = time.perf_counter()
    for g in range(args.games):
        deal = args.first_deal + g
        state, rng = GAME.new_state(seed=deal), random.Random(deal)
        seen = 0
        while not state.is_terminal():
            rows.append(features(state.observation(0)))
            seen += 1
            state.apply(agent.act(state.view(0), rng))
        finals += [state.scores()[0]] * seen
        games += [g] * seen
        if (g + 1) % 1000 == 0:
            print(f"{g + 1} games, {len(rows)} decisions, {time.perf_counter() - started:.0f} s", flush=True)
    x, y, game = np.array(rows), np.array(finals, dtype=float)[:, None], np.array(games)
    held_out = game % 10 == 0
    mu, sd, mean = x[~held_out].mean(0), x[~held_out].std(0) + 1e-6, float(y[~held_out].mean())
    x = (x - mu) / sd
    gen = np.random.default_rng(0)
    net = Mlp.initial([x.shape[1], args.hidden, args.hidden, 1], gen, out_gain=0.1)
    opt = Adam(net.params(), 1e-3)
    train, test = np.where(~held_out)[0], np.where(held_out)[0]

    def mse(index: np.ndarray) -> float:
        return float(np.mean((net.forward(x[index]) + mean - y[index]) ** 2))

    best, kept = float("inf"), [p.copy() for p in net.params()]
    for epoch in range(args.epochs):
        gen.shuffle(train)
        for start in range(0, len(train), 256):
            batch = train[start:start + 256]
            out, inputs = net.forward_train(x[batch])
            opt.step(net.backward(inputs, 2 * (out + mean - y[batch]) / len(batch)))
        loss = mse(test)
        if loss < best:
            best, kept = loss, [p.copy() for p in net.params()]
        print(f"epoch {epoch}: held-out mean squared error {loss:.3f}", flush=True)
    for param, value in zip(net.params(), kept):
        param[...] = value
    save(args.out, {"value": net}, {"mu": mu.tolist(), "sd": sd.tolist(), "mean": mean, "agent": args.agent,
                                    "games": args.games})
    variance = float(np.var(y[test]))
    print(f"{args.out}: {len(y)} decisions of {args.games} games; explains {1 - best / variance:.1%} of the "
          f"held-out final score's variance ({best:.2f} of {variance:.2f})")


# -- playing and pairing -------------------------------------------------------------------
def make(args: argparse.Namespace) -> PimcAgent:
    """The variant the command line names."""
    samples = {"samples": args.samples}
    makers: dict[str, Callable[[], PimcAgent]] = {
        "pimc": lambda: Variant(**samples),
        "bonus": lambda: Bonus(args.bonus, **samples),
        "parallel": lambda: Parallel([json.loads(s) for s in args.settings], **samples),
        "early": lambda: Early(args.early_row, args.inner, args.inner_depth, args.base_samples, **samples),
        "value": lambda: ValueSearch(Value(args.model), **samples),
        "correct": lambda: ValueSearch(Value(args.model), (Value(args.base_model), args.weight), **samples),
    }
    return makers[args.variant]()


def deals(args: argparse.Namespace) -> Iterator[tuple[int, int, State, random.Random]]:
    """Each block of ``--first``, ``--deals``: its deal (as bench_agents.py deals it), the new
    state and the agents' generator."""
    for block in range(args.first, args.first + args.deals):
        deal = derive_seed(args.seed, block)
        yield block, deal, GAME.new_state(seed=deal), random.Random(deal)


def write(out: Any, row: dict[str, Any]) -> None:
    out.write(json.dumps(row) + "\n")
    out.flush()  # a row a deal, kept if the run is stopped


def rows(path: str) -> list[dict[str, Any]]:
    """The rows of a JSON-lines file (this script's, or ``bench_agents.py --out FILE.jsonl``)."""
    with open(path) as lines:
        return [json.loads(line) for line in lines]


def play(args: argparse.Namespace) -> None:
    agent = make(args)
    with open(args.out, "a") as out:
        for block, deal, state, rng in deals(args):
            started, decisions, longest = time.perf_counter(), 0, 0.0
            while not state.is_terminal():
                began = time.perf_counter()
                state.apply(agent.act(state.view(0), rng))
                longest = max(longest, time.perf_counter() - began)
                decisions += 1
            write(out, {"block": block, "seed": deal, "score": state.scores()[0],
                        "complete": state.end_reason == "complete",
                        "seconds": (time.perf_counter() - started) / decisions, "longest": longest})


def handover(args: argparse.Namespace) -> None:
    """``--agent`` (PIMC of 300 samples) plays the first ``--decisions`` decisions of each deal,
    then the clairvoyant (which cheats: it knows the pile) finishes it: how much of the bound
    is still in reach after that much fair play."""
    fair, seer = parlour.agent(args.agent), parlour.agent("clairvoyant")
    with open(args.out, "a") as out:
        for block, deal, state, rng in deals(args):
            for _ in range(args.decisions):
                if state.is_terminal():
                    break
                state.apply(fair.act(state.view(0), rng))
            while not state.is_terminal():
                state.apply(seer.move(state, 0, rng))
            write(out, {"block": block, "seed": deal, "decisions": args.decisions, "agent": args.agent,
                        "score": state.scores()[0], "complete": state.end_reason == "complete"})


def plot(args: argparse.Namespace) -> None:
    """The handover rows as a curve: the share of deals still bound after T fair decisions."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by: dict[int, list[bool]] = {}
    seen = set()
    for path in args.files:
        for row in rows(path):
            by.setdefault(row["decisions"], []).append(row["complete"])
            seen.add(row["seed"])
    ts = sorted(by)
    rates = [proportion_ci(sum(by[t]), len(by[t])) for t in ts]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.errorbar(ts, [100 * r.mean for r in rates], capsize=3, marker="o",
                yerr=[[100 * (r.mean - r.low) for r in rates], [100 * (r.high - r.mean) for r in rates]],
                label="fair PIMC for T decisions, then the clairvoyant")
    if args.fair:
        fair = [row["complete"] for row in rows(args.fair) if row["seed"] in seen]
        ax.axhline(100 * sum(fair) / len(fair), color="grey", linestyle="--",
                   label=f"fair play throughout ({args.fair_label}, {len(fair)} deals)")
    ax.set_xlabel("decisions played fairly before the clairvoyant takes over")
    ax.set_ylabel("Psalters bound (% of deals, 95% CI)")
    ax.set_ylim(0, 100)
    ax.set_title(f"Psalter Row: where fair play loses the Psalter ({len(by[ts[0]])} deals)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"{args.out}: {', '.join(f'T={t} {100 * r.mean:.1f}%' for t, r in zip(ts, rates))}")


def pair(args: argparse.Namespace) -> None:
    """Each file against the first, on the deals both played (joined on the deal's seed)."""
    base = {r["seed"]: r for r in rows(args.files[0])}
    for path in args.files[1:]:
        other = {r["seed"]: r for r in rows(path)}
        common = sorted(set(base) & set(other))
        if len(common) < 2:
            print(f"{path}: {len(common)} deal in common with {args.files[0]}: no interval")
            continue
        scores = [[side[d]["score"] for d in common] for side in (base, other)]
        diff, _ = paired_difference(*scores, within=difference_bounds(score_bounds("psalter-row")))  # never n/a
        print(f"{path}: {sum(scores[1]) / len(common):.2f} against {sum(scores[0]) / len(common):.2f} on "
              f"{len(common)} deals, "
              f"{diff.mean:+.2f} [{diff.low:+.2f}, {diff.high:+.2f}]; Psalters "
              f"{sum(other[d]['complete'] for d in common)} against {sum(base[d]['complete'] for d in common)}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("play", help="play a variant on deals of a seed, a row a deal")
    p.add_argument("variant", choices=("pimc", "bonus", "parallel", "early", "value", "correct"))
    p.add_argument("--samples", type=int, default=300)
    p.add_argument("--seed", type=int, default=4)
    p.add_argument("--first", type=int, default=0, help="the first block (deal) to play")
    p.add_argument("--deals", type=int, default=150)
    p.add_argument("--out", required=True, help="JSON lines, appended to")
    p.add_argument("--bonus", type=float, default=5.0)
    p.add_argument("--settings", nargs="+", default=["{}"], help="heuristic settings as JSON objects (parallel)")
    p.add_argument("--early-row", type=int, default=2)
    p.add_argument("--inner", type=int, default=20)
    p.add_argument("--inner-depth", type=int, default=1)
    p.add_argument("--base-samples", type=int, default=300)
    p.add_argument("--model", help="a value fitted by `fit` (value, correct)")
    p.add_argument("--base-model", help="the value subtracted (correct)")
    p.add_argument("--weight", type=float, default=1.0)
    p.set_defaults(run=play)
    f = commands.add_parser("fit", help="fit a value to games of an agent")
    f.add_argument("--agent", default="heuristic")
    f.add_argument("--games", type=int, default=20000)
    f.add_argument("--first-deal", type=int, default=FIT_DEALS)
    f.add_argument("--hidden", type=int, default=64)
    f.add_argument("--epochs", type=int, default=25)
    f.add_argument("--out", required=True)
    f.set_defaults(run=fit)
    h = commands.add_parser("handover", help="fair play for some decisions, then the clairvoyant")
    h.add_argument("--decisions", type=int, required=True, help="decisions the fair agent makes first")
    h.add_argument("--agent", default="pimc:samples=300", help="the fair agent (an agent spec)")
    h.add_argument("--seed", type=int, default=4)
    h.add_argument("--first", type=int, default=0)
    h.add_argument("--deals", type=int, default=60)
    h.add_argument("--out", required=True)
    h.set_defaults(run=handover)
    g = commands.add_parser("plot", help="plot handover rows (their share of Psalters by T)")
    g.add_argument("files", nargs="+")
    g.add_argument("--fair", help="rows of a fair agent on the same deals (bench_agents.py --out), drawn as a line")
    g.add_argument("--fair-label", default="level:expert")
    g.add_argument("--out", required=True, help="a PNG file")
    g.set_defaults(run=plot)
    q = commands.add_parser("pair", help="pair rows files deal by deal against the first")
    q.add_argument("files", nargs="+")
    q.set_defaults(run=pair)
    args = parser.parse_args(argv)
    if kernel(GAME.name) is None:
        sys.exit("the variants play their playouts in the native kernel: build it (make native)")
    args.run(args)


if __name__ == "__main__":
    main()
