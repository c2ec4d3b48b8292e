"""What one IS-MCTS decision sees in Decktet Golf: playouts within the budget, root moves, and
how often the secure choice (``keep``) leaves the heuristic's move.

Decisions are met in heuristic self-play as in ``dg_headroom.py``; at each, the agent's search runs
on the deciding seat's view and its root is read: the playouts (the root's visits summed), the
moves tried, and whether ``IsmctsAgent.secure`` picks another move than the heuristic's (the
root's own hint, so that the heuristic's tie-breaks do not count as switches). The playouts
depend on the machine and its load.

    .venv/bin/python benchmarks/dg_keep_count.py --players 2 --decisions 30
    .venv/bin/python benchmarks/dg_keep_count.py --players 4 --decisions 30
"""

from __future__ import annotations

import argparse
import random
import statistics

from dg_headroom import decisions

import parlour
from parlour.agents.ismcts import heuristic_policy

SPEC = "ismcts:time=0.5,rollout=heuristic,tree=1,margin=8,keep=1.5"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--agent", default=SPEC, help="an ismcts spec with keep")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    game = parlour.load("decktet-golf", players=args.players, rounds=1)
    agent = parlour.agent(args.agent)
    policy = heuristic_policy(parlour.agent("heuristic").settings)
    rng = random.Random(args.seed)
    playouts, moves, switched = [], [], 0
    for index, state in enumerate(decisions(game, args.decisions, policy, rng, None)):
        root = agent.search(state.view(state.current_player), random.Random(index))
        playouts.append(sum(edge.visits for edge in root.edges.values()))
        moves.append(len(root.edges))
        switched += agent.secure(root, agent.settings["keep"]) != root.hint
    print(f"{args.players} players, {args.decisions} decisions, {args.agent}")
    print(f"playouts a decision: median {statistics.median(playouts):.0f}, "
          f"quartiles {', '.join(f'{q:.0f}' for q in statistics.quantiles(playouts, n=4))}")
    print(f"root moves: median {statistics.median(moves):.1f}")
    print(f"left the heuristic's move in {switched} of {args.decisions}")


if __name__ == "__main__":
    main()
