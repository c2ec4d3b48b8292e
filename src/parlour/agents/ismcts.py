"""Information-set Monte Carlo tree search (single-observer IS-MCTS), one for every game.

Each iteration deals a *determinization*, a full state drawn by ``view.sample(rng)``
from what the seat knows, and walks one shared tree with it. The tree's nodes are the
searching seat's *information sets*: where that seat is to move, the node is found by
its observation (so its own draws and every public chance event, such as a die roll,
lead to nodes of their own, and a plan can depend on the card drawn); between its
moves, the other seats' moves are edges keyed by action alone (the games intern
actions, so an action is the same object in every determinization), merged over what
those seats hold in hand. An action that is legal in some determinizations only is
judged by UCB with *availability counts* (Cowling, Powley and Whitehouse 2012): its
exploration term counts the iterations in which it could have been chosen, not all
visits of the node. Rewards are vectors, one per seat, and each edge scores the move
for the seat that made it, so every seat plays for itself (max-n).

Below the tree, a playout by the ``rollout`` policy goes to the end of the game, or
``depth`` moves, after which the heuristic strategy's ``value`` scores each seat.

The agent reads nothing but its view: its legal actions and ``view.sample``, which is
built from the observation alone.

>>> import parlour, random
>>> view = parlour.load("psalter-row").new_state(seed=4).view(0)
>>> agent = parlour.agent("ismcts:iterations=50")
>>> agent.act(view, random.Random(0)) in view.legal_actions
True
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING

from parlour.agents.base import Agent
from parlour.agents.heuristic import HeuristicAgent, strategy
from parlour.core.action import Action
from parlour.core.options import Option
from parlour.core.view import View

if TYPE_CHECKING:
    from parlour.core.game import Game, State

#: Used when neither ``iterations`` nor ``time`` is given.
DEFAULT_ITERATIONS = 1000


class Edge:
    """One move from an information set: made by ``player``, tried ``visits`` times, open
    to choice in ``available`` iterations, worth ``reward`` to its player in total; it
    leads to the nodes ``after`` it, one per information set of the searching seat."""

    __slots__ = ("player", "visits", "available", "reward", "after")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.available = 1
        self.reward = 0.0
        self.after: dict[Hashable, Node] = {}


class Node:
    """An information set of the searching seat (or a point between its moves), with
    the moves tried from it."""

    __slots__ = ("edges", "hint")

    def __init__(self) -> None:
        self.edges: dict[Action, Edge] = {}
        #: The heuristic's move here (with ``bias``), worked out on the first visit.
        self.hint: Action | None = None


def outcome(state: State) -> list[float]:
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


def estimate(state: State) -> list[float]:
    """Each seat's reward: the outcome of a finished game, else the heuristic strategy's
    ``value`` of each seat's observation (its estimate of the same reward)."""
    if state.is_terminal():
        return outcome(state)
    value = strategy(state.game.name).value
    return [value(state.observation(seat), seat) for seat in range(state.game.num_players)]


Policy = Callable[["State", random.Random], Action]


def random_policy(state: State, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def heuristic_policy(settings: dict) -> Policy:
    """The heuristic agent's move for the seat to move, from that seat's own view."""
    def policy(state: State, rng: random.Random) -> Action:
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = state.current_player
        assert seat is not None  # a playout stops at the end of the game
        return strategy(state.game.name).choose(state.view(seat), rng, settings)

    return policy


def rollout(state: State, policy: Policy, depth: int | None, rng: random.Random) -> None:
    """Play ``depth`` moves by ``policy`` (``None``: to the end)."""
    moves = 0
    while not state.is_terminal() and (depth is None or moves < depth):
        state.apply(policy(state, rng))
        moves += 1


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
        Option("depth", None, "moves a playout makes before the heuristic value scores it (none: to the end)",
               minimum=0, nullable=True),
        Option("c", 0.7, "UCB exploration constant (rewards are in 0..1)", minimum=0.0, maximum=10.0),
        Option("fpu", None, "first-play urgency: the UCB value of a move not yet tried (none: every move is "
               "tried once before any is tried twice)", minimum=0.0, maximum=10.0, nullable=True),
        Option("bias", 0.0, "progressive bias towards the heuristic's move at the seat's own decisions "
               "(added to its mean, fading as 1/visits; 0: none)", minimum=0.0, maximum=10.0),
    )
    summary = "information-set Monte Carlo tree search over samples of the hidden cards"

    def __init__(self, **params: object) -> None:
        super().__init__(**params)
        self._policy = (
            random_policy if self.settings["rollout"] == "random" else heuristic_policy(self._heuristic_settings())
        )

    @staticmethod
    @functools.cache
    def _heuristic_settings() -> dict:
        return HeuristicAgent().settings

    def check(self, game: Game) -> None:
        """The heuristic's playouts, values and bias need the game's strategy."""
        s = self.settings
        if s["rollout"] == "heuristic" or s["depth"] is not None or s["bias"]:
            strategy(game.name)

    def act(self, view: View, rng: random.Random) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        return self.best(self.search(view, rng), view.legal_actions, rng)

    @staticmethod
    def best(root: Node, actions: list[Action], rng: random.Random) -> Action:
        """The most visited move; ties go to the better mean reward, then to ``rng``
        (never to the first in order: a fixed preference can make a match cycle)."""
        def merit(action: Action) -> tuple[int, float, float]:
            edge = root.edges.get(action)
            if edge is None:
                return (0, 0.0, rng.random())
            return (edge.visits, edge.reward / edge.visits, rng.random())

        return max(actions, key=merit)

    def search(self, view: View, rng: random.Random) -> Node:
        """The tree grown within the budget from determinizations of ``view``."""
        iterations, seconds = self.settings["iterations"], self.settings["time"]
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        deadline = None if seconds is None else time.perf_counter() + seconds
        root = Node()
        done = 0
        while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
            self.iterate(root, view.seat, view.sample(rng), rng)
            done += 1
        return root

    def iterate(self, root: Node, seat: int, state: State, rng: random.Random) -> None:
        """One iteration: select and expand with one determinization, play out, back up."""
        path = self.select(root, seat, state, rng)
        rollout(state, self._policy, self.settings["depth"], rng)
        rewards = estimate(state)
        for edge in path:
            edge.visits += 1
            edge.reward += rewards[edge.player]

    def select(self, node: Node, seat: int, state: State, rng: random.Random) -> list[Edge]:
        """Walk down by UCB among the moves legal in this determinization, applying them,
        until a move not yet in the tree is added (or the game ends); the edges passed."""
        path: list[Edge] = []
        c, bias, fpu = self.settings["c"], self.settings["bias"], self.settings["fpu"]
        while (player := state.current_player) is not None:
            actions = state.legal_actions()
            edges = node.edges
            hint = self._hint(node, state, seat, rng) if bias else None
            untried = [a for a in actions if a not in edges]
            for action in actions:
                if action in edges:
                    edges[action].available += 1
            tried = [a for a in actions if a in edges]
            scores = {a: _ucb(edges[a], c) + (bias / edges[a].visits if a is hint else 0.0) for a in tried}
            best = max(tried, key=scores.__getitem__, default=None)
            if untried and (best is None or fpu is None or fpu > scores[best]):
                action = hint if hint in untried else untried[rng.randrange(len(untried))]
                edges[action] = edge = Edge(player)
                state.apply(action)
                path.append(edge)
                return path
            assert best is not None  # every legal move is tried, so one is best
            edge = edges[best]
            state.apply(best)
            path.append(edge)
            node = _node_after(edge, state, seat)
        return path

    def _hint(self, node: Node, state: State, seat: int, rng: random.Random) -> Action | None:
        """The heuristic's move at the seat's own information set (progressive bias: the
        search starts from the heuristic's opinion and leaves it only on evidence)."""
        if node.hint is None and state.current_player == seat:
            actions = state.legal_actions()
            node.hint = actions[0] if len(actions) == 1 else strategy(state.game.name).choose(
                state.view(seat), rng, self._heuristic_settings())
        return node.hint


def _node_after(edge: Edge, state: State, seat: int) -> Node:
    """The node an edge leads to in this determinization: where ``seat`` is to move, the
    one of its observation now (what it drew, what chance showed); else the only one."""
    key = repr(state.observation(seat)) if state.current_player == seat else None
    node = edge.after.get(key)
    if node is None:
        node = edge.after[key] = Node()
    return node


def _ucb(edge: Edge, c: float) -> float:
    return edge.reward / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
