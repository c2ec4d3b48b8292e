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

Below the tree (which grows without limit, or ``tree`` decisions deep), a playout by the
``rollout`` policy goes to the end of the game, or ``depth`` moves, after which the
heuristic strategy's ``value`` scores each seat. With ``margin``, a finished game rewards
each seat by how far its score is ahead of or behind each opponent's (a soft win), which
tells good moves from lucky ones in fewer playouts.

The move played is the most visited one; with ``keep`` it is the heuristic's move unless
another move's mean reward is ahead of it by ``keep`` standard errors of the difference
(a lower confidence bound): the search leaves a good default only on evidence, not on the
noise of a few playouts.

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
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

from parlour.agents.base import Advice, Searching
from parlour.agents.heuristic import HeuristicAgent, strategy
from parlour.core.action import Action
from parlour.core.options import Option
from parlour.core.scores import lower_is_better
from parlour.core.view import View

if TYPE_CHECKING:
    from parlour.core.game import Game, State
    from parlour.native.runner import Kernel

#: Used when neither ``iterations`` nor ``time`` is given.
DEFAULT_ITERATIONS = 1000


class Edge:
    """One move from an information set: made by ``player``, tried ``visits`` times, open
    to choice in ``available`` iterations, worth ``reward`` to its player in total; it
    leads to the nodes ``after`` it, one per information set of the searching seat."""

    __slots__ = ("after", "available", "player", "reward", "squares", "visits")

    def __init__(self, player: int) -> None:
        self.player = player
        self.visits = 0
        self.available = 1
        self.reward = 0.0
        #: The sum of the squared rewards, for their spread (``keep``).
        self.squares = 0.0
        self.after: dict[Hashable, Node] = {}

    def mean(self) -> float:
        return self.reward / self.visits

    def variance(self) -> float:
        """The sample variance of the rewards (0 below two visits)."""
        n = self.visits
        if n < 2:
            return 0.0
        return max(0.0, self.squares - self.reward * self.reward / n) / (n - 1)


class Node:
    """An information set of the searching seat (or a point between its moves), with
    the moves tried from it."""

    __slots__ = ("edges", "hint")

    def __init__(self) -> None:
        self.edges: dict[Action, Edge] = {}
        #: The heuristic's move here (with ``bias``), worked out on the first visit.
        self.hint: Action | None = None


def outcome(state: State, margin: float | None = None) -> list[float]:
    """Each seat's reward in [0, 1] for a finished game: the winners share 1 (nobody
    wins a stalemate); a solitaire's reward is its score scaled to the game's score range.
    With a ``margin`` (in points), each seat's reward is instead its mean over the opponents
    of ``0.5 + 0.5 * tanh(lead / margin)``, its lead over each opponent counted in the
    direction the winners show (lower is better in Decktet Golf).

    >>> import parlour
    >>> state = parlour.load("psalter-row").new_state(seed=1)
    >>> round(outcome(state)[0], 3)  # an empty Row scores -9, the lowest
    0.0
    """
    return rewards_of(state.game, state.scores(), state.winners(), margin)


def rewards_of(game: Game, scores: Sequence[float], winners: Sequence[int], margin: float | None = None) -> list[float]:
    """:func:`outcome` from a finished game's scores and winners (a kernel's playout gives these)."""
    bounds = game.score_range
    if game.num_players == 1 and bounds is not None:
        low, high = bounds
        return [(scores[0] - low) / (high - low)]
    if margin is not None:
        lower = lower_is_better(scores, winners)
        if lower is not None:
            return soft_wins(scores, margin if lower else -margin)
    rewards = [0.0] * game.num_players
    for seat in winners:
        rewards[seat] = 1.0 / len(winners)
    return rewards


def soft_wins(scores: Sequence[float], margin: float) -> list[float]:
    """Each seat's mean over the opponents of ``0.5 + 0.5 * tanh(lead / margin)``, where the
    lead is the opponent's score less the seat's (a negative margin: higher is better).

    >>> [round(r, 3) for r in soft_wins([3, 11], 8.0)]  # 8 points fewer: a clear but soft win
    [0.881, 0.119]
    """
    last = len(scores) - 1
    return [sum(0.5 + 0.5 * math.tanh((other - mine) / margin) for other in scores) / last - 0.5 / last
            for mine in scores]


def estimate(state: State, margin: float | None = None) -> list[float]:
    """Each seat's reward: the outcome of a finished game (see :func:`outcome` for
    ``margin``), else the heuristic strategy's ``value`` of each seat's observation (its
    estimate of the same reward)."""
    if state.is_terminal():
        return outcome(state, margin)
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


class IsmctsAgent(Searching):
    """IS-MCTS with an iteration budget and/or a time budget per decision.

    Without ``iterations`` or ``time`` it runs 1,000 iterations; with one, that one is the
    budget; with both, it stops at whichever comes first.
    """

    name = "ismcts"
    DEFAULT_COUNT = DEFAULT_ITERATIONS
    params = (
        Option("iterations", None, "iterations per decision (none: 1000 unless a time is set)",
               minimum=1, nullable=True),
        Searching.TIME,
        Option("rollout", "random", "the policy of the playouts below the tree", choices=("random", "heuristic")),
        Option("depth", None, "moves a playout makes before the heuristic value scores it (none: to the end)",
               minimum=0, nullable=True),
        Option("c", 0.7, "UCB exploration constant (rewards are in 0..1)", minimum=0.0, maximum=10.0),
        Option("fpu", None, "first-play urgency: the UCB value of a move not yet tried (none: every move is "
               "tried once before any is tried twice)", minimum=0.0, maximum=10.0, nullable=True),
        Option("bias", 0.0, "progressive bias towards the heuristic's move at the seat's own decisions "
               "(added to its mean, fading as 1/visits; 0: none)", minimum=0.0, maximum=10.0),
        Option("margin", None, "reward a finished game by soft score margins, tanh(lead/margin) against each "
               "opponent (none: win or lose)", minimum=0.1, maximum=1000.0, nullable=True),
        Option("tree", None, "decisions the tree grows below the root (none: no limit; 1: the root's moves only, "
               "each judged by the playout policy's play after it)", minimum=1, nullable=True),
        Option("keep", None, "play the heuristic's move unless another's mean reward beats it by this many "
               "standard errors (none: play the most visited move)", minimum=0.0, maximum=10.0, nullable=True),
        Option("engine", "native", "native: playouts to the end run in the game's compiled kernel where there is "
               "one (the same playouts, faster); python: in Python", choices=("native", "python")),
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
        if s["rollout"] == "heuristic" or s["depth"] is not None or s["bias"] or s["keep"] is not None:
            strategy(game.name)

    def act(self, view: View, rng: random.Random) -> Action:
        return self.decide(view, rng)[0]

    def advise(self, view: View, rng: random.Random) -> Advice:
        """The move :meth:`act` makes (the same search, drawing the same numbers), with the
        search's estimate for it and for the next best move (the most tried of the others).

        >>> import parlour
        >>> state = parlour.load("decktet-golf", players=2).new_state(seed=4)
        >>> view = state.view(state.current_player)
        >>> advice = IsmctsAgent(iterations=60).advise(view, random.Random(0))
        >>> advice.action in view.legal_actions, "playouts" in advice.reason
        (True, True)
        """
        action, root = self.decide(view, rng)
        if root is None:
            return Advice(action, "the only legal move")
        return Advice(action, self.reason(root, action, view.game))

    def decide(self, view: View, rng: random.Random) -> tuple[Action, Node | None]:
        """The move and the root of the search that chose it (None: the only legal move,
        played without search)."""
        if len(view.legal_actions) == 1:
            return view.legal_actions[0], None
        if self.settings["keep"] is None:
            root = self.search(view, rng)
            return self.best(root, view.legal_actions, rng), root
        root = Node()
        # The heuristic's move first, from the generator as handed in: with the same
        # generator it is the very move the default heuristic agent would make (its ties fall by
        # chance), so a duplicate match sees this agent differ from it only by choice.
        root.hint = self._heuristic_move(view, rng)
        root = self.search(view, rng, root)
        return self.secure(root, self.settings["keep"]), root

    def reason(self, root: Node, action: Action, game: Game) -> str | None:
        """The estimate for ``action`` and for the next best root move (the most tried of the
        others), in one line: a solitaire's expected score, else the share of the playouts
        won (with ``margin``, the soft-margin reward, 50% being level). None when the move
        was never tried (a search cut to nothing)."""
        chosen = root.edges.get(action)
        if chosen is None or not chosen.visits:
            return None
        worth = _worth(game, self.settings["margin"] is not None)
        line = worth(chosen, True)
        others = [(other, edge) for other, edge in root.edges.items() if other is not action and edge.visits]
        if not others:
            return line + "; no other move was tried"
        other, edge = max(others, key=lambda pair: (pair[1].visits, pair[1].mean()))
        line += f"; next best {str(other)!r} " + worth(edge, False)
        if root.hint is action and edge.mean() > chosen.mean():
            line += f" (kept as the strategy's move: no other is {self.settings['keep']:g} standard errors ahead)"
        return line

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

    @staticmethod
    def secure(root: Node, z: float) -> Action:
        """The heuristic's move, unless another move's mean reward is ahead of it by ``z``
        standard errors of the difference; of several such, the one furthest ahead by
        that bound. A move tried fewer than twice has no spread and is never preferred."""
        assert root.hint is not None  # set by act before the search
        kept = root.edges.get(root.hint)
        if kept is None or kept.visits < 2:
            return root.hint

        def bound(edge: Edge) -> float:
            # The larger of the two spreads for both: a move tried a few times can show
            # almost none by chance, and must not look certain for it.
            variance = max(edge.variance(), kept.variance())
            spread = math.sqrt(variance / edge.visits + variance / kept.visits)
            return edge.mean() - kept.mean() - z * spread

        rivals = [(bound(edge), action) for action, edge in root.edges.items()
                  if edge is not kept and edge.visits >= 2]
        best = max(rivals, key=lambda rival: rival[0], default=None)
        return best[1] if best is not None and best[0] > 0 else root.hint

    def search(self, view: View, rng: random.Random, root: Node | None = None) -> Node:
        """The tree grown within the budget from determinizations of ``view`` (from ``root``,
        else from a new node)."""
        budget = self.budget()
        iterations, seconds = budget.iterations, budget.seconds
        deadline = None if seconds is None else time.perf_counter() + seconds
        root = Node() if root is None else root
        done = 0
        while (iterations is None or done < iterations) and (deadline is None or time.perf_counter() < deadline):
            self.iterate(root, view.seat, view.sample(rng), rng)
            done += 1
        return root

    def iterate(self, root: Node, seat: int, state: State, rng: random.Random) -> None:
        """One iteration: select and expand with one determinization, play out, back up."""
        path = self.select(root, seat, state, rng)
        rewards = self.playout(state, rng)
        for edge in path:
            reward = rewards[edge.player]
            edge.visits += 1
            edge.reward += reward
            edge.squares += reward * reward

    def playout(self, state: State, rng: random.Random) -> list[float]:
        """Each seat's reward after the playout from ``state`` (changed, or left as it is when
        the kernel plays it: a kernel plays the same playout, drawing the same numbers)."""
        margin = self.settings["margin"]
        kernel = self._kernel(state.game)
        if kernel is not None and self.settings["depth"] is None and not state.is_terminal():
            scores, winners, _, _ = kernel.playout(state, self.settings["rollout"] == "heuristic",
                                                    self._heuristic_settings(), rng)
            return rewards_of(state.game, scores, winners, margin)
        rollout(state, self._policy, self.settings["depth"], rng)
        return estimate(state, margin)

    def _kernel(self, game: Game) -> Kernel | None:
        if self.settings["engine"] != "native":
            return None
        from parlour.native import kernel

        return kernel(game.name)

    def select(self, node: Node, seat: int, state: State, rng: random.Random) -> list[Edge]:
        """Walk down by UCB among the moves legal in this determinization, applying them,
        until a move not yet in the tree is added (or the game ends); the edges passed."""
        path: list[Edge] = []
        c, bias, fpu = self.settings["c"], self.settings["bias"], self.settings["fpu"]
        hinted = bias or self.settings["keep"] is not None
        tree = self.settings["tree"]
        log, sqrt = math.log, math.sqrt
        while (player := state.current_player) is not None:
            actions = state.legal_actions()
            edges = node.edges
            hint = self._hint(node, state, seat, rng) if hinted else None
            untried, tried = [], []
            for action in actions:
                edge = edges.get(action)
                if edge is None:
                    untried.append(action)
                else:
                    edge.available += 1
                    tried.append((action, edge))
            # The best by UCB1 with availability counts (plus the bias of the hint), the first of
            # equals; all available counts are up first (an action listed twice counts twice).
            # Written out: this runs for every tried move at every level of every iteration.
            best, top = None, 0.0
            for action, edge in tried:
                visits = edge.visits
                score = edge.reward / visits + c * sqrt(log(edge.available) / visits)
                if bias and action is hint:
                    score += bias / visits
                if best is None or score > top:
                    best, top = action, score
            if untried and (best is None or fpu is None or fpu > top):
                action = hint if hint in untried else untried[rng.randrange(len(untried))]
                edges[action] = edge = Edge(player)
                state.apply(action)
                path.append(edge)
                return path
            assert best is not None  # every legal move is tried, so one is best
            edge = edges[best]
            state.apply(best)
            path.append(edge)
            if tree is not None and len(path) == tree:
                return path
            node = _node_after(edge, state, seat)
        return path

    def _hint(self, node: Node, state: State, seat: int, rng: random.Random) -> Action | None:
        """The heuristic's move at the seat's own information set (progressive bias: the
        search starts from the heuristic's opinion and leaves it only on evidence)."""
        if node.hint is None and state.current_player == seat:
            node.hint = self._heuristic_move(state.view(seat), rng)
        return node.hint

    def _heuristic_move(self, view: View, rng: random.Random) -> Action:
        actions = view.legal_actions
        return actions[0] if len(actions) == 1 else strategy(view.game.name).choose(
            view, rng, self._heuristic_settings())


def _node_after(edge: Edge, state: State, seat: int) -> Node:
    """The node an edge leads to in this determinization: where ``seat`` is to move, the
    one of its observation now (what it drew, what chance showed); else the only one."""
    key = state.observation_key(seat) if state.current_player == seat else None
    node = edge.after.get(key)
    if node is None:
        node = edge.after[key] = Node()
    return node


def _worth(game: Game, margin: bool) -> Callable[[Edge, bool], str]:
    """How a root edge's estimate reads in a hint: ``expected score 3.4 over 7,200 playouts``
    (a solitaire with a score range), ``wins 62% of 340 playouts``, or with score-margin
    rewards ``62% by score margin over 340 playouts (50% is level)``. ``first``: the chosen move's
    words in full, else shorter ones for the next best."""
    bounds = game.score_range
    if game.num_players == 1 and bounds is not None:
        low, high = bounds

        def score(edge: Edge, first: bool) -> str:
            value = low + edge.mean() * (high - low)
            return (f"expected score {value:.1f} over {edge.visits:,} playouts" if first
                    else f"{value:.1f} over {edge.visits:,}")
        return score

    def share(edge: Edge, first: bool) -> str:
        percent = f"{100 * edge.mean():.0f}%"
        if not first:
            return f"{percent} of {edge.visits:,}"
        if margin:
            return f"{percent} by score margin over {edge.visits:,} playouts (50% is level)"
        return f"wins {percent} of {edge.visits:,} playouts"
    return share
