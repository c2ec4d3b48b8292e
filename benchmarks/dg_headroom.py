"""How much a one-step search could gain over the Decktet Golf heuristic, and what it sees.

For decisions met in heuristic self-play (one-round matches), every legal action is scored
from the deciding seat's view: ``--truth`` determinizations (``view.sample``), the action
applied, then heuristic play by every seat to the round's end, the score being the round
points the opponents end above the seat on average. The mean over the determinizations is the action's
value under heuristic continuation, the quantity that rollout-based search (IS-MCTS with
heuristic playouts) estimates. The report gives, per decision, the best action's value less
the heuristic's action's value (an upper bound on what searching this decision can gain:
the noise of the means only raises it), the spread of one playout's result (what a search
must average away), and the value lost or gained by picking the action that the heuristic's
reckoning prefers after ``depth`` moves of heuristic play (a cut playout, as ``depth`` does
in IS-MCTS) on ``--estimate`` of the same determinizations.

It also judges the secure choice of ``ismcts``'s ``keep=z`` option: on ``--budget`` playouts
a decision (shared among the actions, all played on the same fresh determinizations and
compared deal by deal with the heuristic's action), play another action only when its mean
lead over the heuristic's action is ``z`` standard errors above 0; the gain is the chosen
action's value on the ``--truth`` determinizations, which the choice never saw. ``--late N``
keeps only the decisions met with at most ``N`` cards face down over all layouts; ``--players``
(default 2) sets the number of players.

    .venv/bin/python benchmarks/dg_headroom.py --positions 30 --truth 200 --estimate 60
    .venv/bin/python benchmarks/dg_headroom.py --positions 60 --truth 140 --late 4 --budget 400
    .venv/bin/python benchmarks/dg_headroom.py --players 4 --positions 60 --truth 140 --estimate 0 --budget 116
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from typing import Any

import parlour
from parlour.agents.heuristic import decktet_golf as strategy
from parlour.agents.ismcts import heuristic_policy, rollout

DEPTHS = (0, 2, 5, 10)
KEEPS = (0.0, 1.0, 1.5, 2.0, 3.0)


def lead(state: Any, seat: int) -> float:
    """The points the opponents are (expected) to end above ``seat``, on average: the round's
    scores at the end, else the heuristic's outlook of every layout from the seat's observation."""
    if state.is_terminal():
        points = state.scores()
    else:
        obs = state.observation(seat)
        pool = strategy.read_pool(obs)
        points = [strategy.round_outlook(strategy.read_cells(layout), pool)[0] for layout in obs["layouts"]]
    return (sum(points) - points[seat]) / (len(points) - 1) - points[seat]


def values(deals: list[tuple[Any, int]], actions: list[Any], seat: int, policy: Any,
           depth: int | None) -> dict[Any, list[float]]:
    """Each action's lead on each determinization (with its playout seed)."""
    out = {}
    for action in actions:
        leads = []
        for deal, dice in deals:
            state = deal.clone()
            state.apply(action)
            rollout(state, policy, depth, random.Random(dice))
            leads.append(lead(state, seat))
        out[action] = leads
    return out


def face_down(state: Any) -> int:
    """Cards face down over all layouts."""
    return sum((occupied & ~up).bit_count() for occupied, up in zip(state.occ, state.up))


def paired_leads(view: Any, actions: list[Any], hint: Any, seat: int, policy: Any, count: int,
                 rng: random.Random) -> dict[Any, list[float]]:
    """Each action's lead less the heuristic action's on ``count`` fresh determinizations."""
    deals = [(view.sample(rng), rng.getrandbits(64)) for _ in range(count)]
    leads = values(deals, actions, seat, policy, None)
    return {action: [mine - theirs for mine, theirs in zip(leads[action], leads[hint])] for action in actions}


def decisions(game: Any, count: int, policy: Any, rng: random.Random, late: int | None) -> list[Any]:
    """States of heuristic self-play where the seat to move has two or more actions (and, with
    ``late``, at most that many cards face down)."""
    found: list[Any] = []
    seed = 500
    chance = 0.15 if late is None else 0.3
    while len(found) < count:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_terminal() and len(found) < count:
            if len(state.legal_actions()) > 1 and (late is None or face_down(state) <= late) and rng.random() < chance:
                found.append(state.clone())
            state.apply(policy(state, rng))
    return found


def kept(paired: dict[Any, list[float]], hint: Any, z: float) -> Any:
    """The keep rule: the action whose mean lead over ``hint`` less ``z`` standard errors is
    highest, if that is above 0; else ``hint``."""
    def bound(action: Any) -> float:
        found = paired[action]
        return statistics.mean(found) - z * statistics.stdev(found) / math.sqrt(len(found))
    rivals = [action for action in paired if action != hint]
    best = max(rivals, key=bound, default=hint)
    return best if best != hint and bound(best) > 0 else hint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--truth", type=int, default=200, help="determinizations per action for its value")
    parser.add_argument("--estimate", type=int, default=60,
                        help="of them, how many the cut playouts use (0: no cut playouts)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--late", type=int, default=None, help="only decisions with at most this many cards face down")
    parser.add_argument("--budget", type=int, default=400, help="playouts a decision for the keep rule")
    args = parser.parse_args()
    game = parlour.load("decktet-golf", players=args.players, rounds=1)
    heuristic = parlour.agent("heuristic")
    policy = heuristic_policy(heuristic.settings)
    rng = random.Random(args.seed)
    keep_rng = random.Random(args.seed + 1)  # its own stream: the other figures stay as they were
    gains: list[float] = []
    spreads: list[float] = []
    depths = DEPTHS if args.estimate else ()
    cut: dict[int, list[float]] = {depth: [] for depth in depths}
    keep: dict[float, list[float]] = {z: [] for z in KEEPS}
    paired_spreads: list[float] = []
    for state in decisions(game, args.positions, policy, rng, args.late):
        seat = state.current_player
        view, actions = state.view(seat), state.legal_actions()
        hint = heuristic.act(view, random.Random(0))
        deals = [(view.sample(rng), rng.getrandbits(64)) for _ in range(args.truth)]
        leads = values(deals, actions, seat, policy, None)
        truth = {action: statistics.mean(found) for action, found in leads.items()}
        gains.append(max(truth.values()) - truth[hint])
        spreads.append(statistics.stdev(leads[hint]))
        line = f"{str(actions[0]).split()[0]:8} {len(actions):2} actions  best - heuristic {gains[-1]:+.2f}"
        for depth in depths:
            estimate = values(deals[:args.estimate], actions, seat, policy, depth)
            pick = max(actions, key=lambda a: statistics.mean(estimate[a]))
            cut[depth].append(truth[pick] - truth[hint])
            line += f"  depth {depth}: {cut[depth][-1]:+.2f}"
        paired = paired_leads(view, actions, hint, seat, policy, max(6, args.budget // len(actions)), keep_rng)
        paired_spreads.append(statistics.median(statistics.stdev(paired[a]) for a in actions if a != hint))
        for z in KEEPS:
            choice = kept(paired, hint, z)
            keep[z].append(truth[choice] - truth[hint])
        line += f"  keep 1.5: {keep[1.5][-1]:+.2f}"
        print(line, flush=True)
    print(f"\n{len(gains)} decisions; heuristic's action best in {sum(g == 0 for g in gains)}")
    print(f"best - heuristic: mean {statistics.mean(gains):+.2f} points (an upper bound)")
    print(f"one playout's lead: standard deviation {statistics.median(spreads):.1f} points (median over decisions)")
    for depth in depths:
        print(f"the reckoning's pick after {depth} moves - heuristic: mean {statistics.mean(cut[depth]):+.2f} points")
    print(f"one playout's lead less the heuristic action's on the same deal: standard deviation "
          f"{statistics.median(paired_spreads):.1f} points (median over decisions)")
    for z in KEEPS:
        found = keep[z]
        print(f"keep={z}: gain {statistics.mean(found):+.2f} points a decision "
              f"(standard error {statistics.stdev(found) / math.sqrt(len(found)):.2f})")


if __name__ == "__main__":
    main()
