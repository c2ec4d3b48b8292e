"""Information-set Monte Carlo tree search (single-observer IS-MCTS), one for every game.

Each iteration deals a *determinization*, a full state drawn by ``view.sample(rng)``
from what the seat knows, and walks one shared tree with it. Nodes are reached by
actions (the games intern them, so an action is the same object in every
determinization), which makes a node the statistics of an information set as seen
from the root: the root seat's own moves and the public moves of the others. An
action that is legal in some determinizations only is judged by UCB with
*availability counts* (Cowling, Powley and Whitehouse 2012): its exploration term
counts the iterations in which it could have been chosen, not all visits of the
parent. Rewards are vectors, one per seat, and each node scores the move for the
seat that made it, so every seat plays for itself (max-n).

Chance is inside ``apply`` and each determinization has a fresh chance seed, so the
same action leads to different draws in different iterations; the tree averages them.

The agent reads nothing but its view: its legal actions and ``view.sample``, which is
built from the observation alone.

>>> import parlour, random
>>> view = parlour.load("psalter-row").new_state(seed=4).view(0)
>>> agent = parlour.agent("ismcts:iterations=50")
>>> agent.act(view, random.Random(0)) in view.legal_actions
True
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Callable

from parlour.agents.base import Agent
from parlour.core.action import Action
from parlour.core.options import Option
from parlour.core.view import View

if TYPE_CHECKING:
    from parlour.core.game import State

#: Used when neither ``iterations`` nor ``time`` is given.
DEFAULT_ITERATIONS = 1000


class Node:
    """The statistics of one move: made by ``player``, tried ``visits`` times, open to
    choice in ``available`` iterations, worth ``reward`` to its player in total."""

    __slots__ = ("player", "visits", "available", "reward", "children")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.children: dict[Action, Node] = {}


def outcome(state: "State") -> list[float]:
    """Each seat's reward in [0, 1] for a finished game: the winners share 1 (nobody
    wins a stalemate); a solitaire's reward is its score scaled to the game's score range.

    >>> import parlour
    >>> state = parlour.load("psalter-row").new_state(seed=1)
    >>> round(outcome(state)[0], 3)  # an empty Row scores -9, the lowest
    0.0
    """
    bounds = state.game.score_range
    if state.game.num_players == 1 and bounds is not None:
        low, high = bounds
        return [(state.scores()[0] - low) / (high - low)]
    winners = state.winners()
    rewards = [0.0] * state.game.num_players
    for seat in winners:
        rewards[seat] = 1.0 / len(winners)
    return rewards


def random_rollout(state: "State", rng: random.Random) -> None:
    """Play to the end with uniformly random legal actions."""
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def heuristic_rollout(settings: dict) -> Callable[["State", random.Random], None]:
    """Play to the end with the heuristic agent in every seat (each on its own view)."""
    from parlour.agents.heuristic import strategy

    def rollout(state: "State", rng: random.Random) -> None:
        choose = strategy(state.game.name).choose
        while (seat := state.current_player) is not None:
            actions = state.legal_actions()
            state.apply(actions[0] if len(actions) == 1 else choose(state.view(seat), rng, settings))

    return rollout


class IsmctsAgent(Agent):
    """IS-MCTS with an iteration budget and/or a time budget per decision.

    Without ``iterations`` or ``time`` it runs 1,000 iterations; with one, that one is the
    budget; with both, it stops at whichever comes first.
    """

    name = "ismcts"
    params = (
        Option("iterations", None, "iterations per decision (none: 1000 unless a time is set)",
               minimum=1, nullable=True),
        Option("time", None, "seconds per decision (none: no time limit)", minimum=0.001, maximum=3600.0,
               nullable=True),
        Option("rollout", "random", "the policy of the playouts below the tree", choices=("random", "heuristic")),
        Option("c", 0.7, "UCB exploration constant (rewards are in 0..1)", minimum=0.0, maximum=10.0),
    )
    summary = "information-set Monte Carlo tree search over samples of the hidden cards"

    def __init__(self, **params: object) -> None:
        super().__init__(**params)
        self._rollout = (
            random_rollout if self.settings["rollout"] == "random" else heuristic_rollout(self._heuristic_settings())
        )

    @staticmethod
    def _heuristic_settings() -> dict:
        from parlour.agents.heuristic import HeuristicAgent

        return HeuristicAgent().settings

    def act(self, view: View, rng: random.Random) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        return self.best(self.search(view, rng), view.legal_actions, rng)

    @staticmethod
    def best(root: Node, actions: list[Action], rng: random.Random) -> Action:
        """The most visited move; ties go to the better mean reward, then to ``rng``
        (never to the first in order: a fixed preference can make a match cycle)."""
        def merit(action: Action) -> tuple[int, float, float]:
            node = root.children.get(action)
            if node is None:
                return (0, 0.0, rng.random())
            return (node.visits, node.reward / node.visits, rng.random())

        return max(actions, key=merit)

    def search(self, view: View, rng: random.Random) -> Node:
        """The tree grown within the budget from determinizations of ``view``."""
        iterations, seconds = self.settings["iterations"], self.settings["time"]
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        deadline = None if seconds is None else time.perf_counter() + seconds
        root = Node(view.seat)
        done = 0
        while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
            self.iterate(root, view.sample(rng), rng)
            done += 1
        return root

    def iterate(self, root: Node, state: "State", rng: random.Random) -> None:
        """One iteration: select and expand with one determinization, roll out, back up."""
        path = self.select(root, state, rng)
        self._rollout(state, rng)
        rewards = outcome(state)
        for node in path:
            node.visits += 1
            node.reward += rewards[node.player]

    def select(self, node: Node, state: "State", rng: random.Random) -> list[Node]:
        """Walk down by UCB among the moves legal in this determinization, applying them,
        until a move not yet in the tree is added (or the game ends); the nodes passed."""
        path: list[Node] = []
        c = self.settings["c"]
        while not state.is_terminal():
            actions = state.legal_actions()
            children = node.children
            untried = [a for a in actions if a not in children]
            for action in actions:
                if action in children:
                    children[action].available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = Node(state.current_player)
                child.available = 1
                state.apply(action)
                path.append(child)
                return path
            action = max(actions, key=lambda a: _ucb(children[a], c))
            node = children[action]
            state.apply(action)
            path.append(node)
        return path


def _ucb(node: Node, c: float) -> float:
    return node.reward / node.visits + c * math.sqrt(math.log(node.available) / node.visits)
