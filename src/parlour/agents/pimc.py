"""Determinized search (Perfect Information Monte Carlo, PIMC) with common samples.

For each decision the agent deals ``samples`` determinizations, full states drawn by
``view.sample(rng)`` from what the seat knows, and in every one of them tries every legal
move: the same samples for every move (common random numbers), so two moves are told
apart by how they differ on the same hidden cards, not by the luck of different ones. A
move's worth in a sample is, at ``level`` 0, the reward of the play from the position after
it to the end of the game: the heuristic strategy's (``rollout=heuristic``: one playout, the
heuristic plays the same from the same state) or, in a solitaire, that of a PIMC player of
``inner`` samples (``rollout=pimc``: each of its decisions draws its own samples of what it
then sees). At ``level`` 1 or 2 (a solitaire only), it is the score that the clairvoyant's
Nested Monte Carlo Search (:func:`parlour.agents.clairvoyant.best_line`, with the heuristic's
playouts) finds in that sample. The move played has the best mean over the samples.

With ``race`` the moves race (a racing algorithm, as Maron and Moore's, with a paired
standard-error test for its bound): from the :data:`RACE_FROM`-th sample on, a move whose
paired difference from the leader's worth over the samples so far, its mean plus ``race``
standard errors, is below 0 is dropped, and the samples go on with the moves left, until one
is left. (A move that trailed by the same amount in every sample has a standard error of 0:
it is dropped whatever ``race`` is.) The samples a clock allows go to the moves still in
contention, so a race helps where the clock binds, or where many moves are plainly worse. With
``rollout=pimc`` the PIMC player after each move races its own moves the same way, so that it
stops sampling a decision once one move is plainly best.

Level 0 is a *rollout algorithm*: the heuristic improved by one move of lookahead, fair
in every sample because the heuristic's play after the move reads no hidden card;
``rollout=pimc`` is that rollout algorithm improved once more (a rollout of the rollout
policy), fair for the same reason: the inner player acts on its view of the sample. A
higher level searches each sample knowing its draws (*strategy fusion*: a plan that only
works when the next card is known counts as if it always worked), which the
measurements in docs/benchmarks.md weigh against its deeper search.

Where the game's kernel searches (Psalter Row), level 0 runs whole in it: the same samples
from the same generator, the same sums, the same move (``csrc/search.c``). The agent reads
nothing but its view: its legal actions and ``view.sample``.

>>> import parlour, random
>>> view = parlour.load("psalter-row").new_state(seed=4).view(0)
>>> agent = parlour.agent("pimc:samples=8")
>>> agent.act(view, random.Random(0)) in view.legal_actions
True
>>> agent.budget()
Budget(seconds=None, iterations=8)
>>> parlour.agent("pimc:samples=2,rollout=pimc,inner=4").act(view, random.Random(0)) in view.legal_actions
True
>>> _, totals, samples = parlour.agent("pimc:samples=400,race=2").decide(view, random.Random(0))
>>> len(view.legal_actions), len(totals), samples  # one move dropped; two tie to the end
(3, 2, 400)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from parlour.agents.base import Advice, Searching
from parlour.agents.clairvoyant import best_line
from parlour.agents.heuristic import strategy
from parlour.agents.ismcts import IsmctsAgent, rewards_of
from parlour.core.action import Action
from parlour.core.errors import OptionError
from parlour.core.options import Option
from parlour.core.view import View

if TYPE_CHECKING:
    from parlour.core.game import Game, State
    from parlour.native.runner import Kernel

#: Used when neither ``samples`` nor ``time`` is given.
DEFAULT_SAMPLES = 200

#: Totals within this much a sample of the best are a tie: rewards that are equal over the
#: samples but come in another order can sum to floats a last bit apart.
TIE = 1e-9
#: ``rollout=pimc``: the inner player's samples when ``inner`` is not given.
DEFAULT_INNER = 20
#: ``race``: the samples every move gets before a race may drop one (csrc/search.c RACE_FROM).
RACE_FROM = 4


class _Late(Exception):
    """The clock ran out inside a sample (``rollout=pimc``): the sample is not counted."""


class PimcAgent(Searching):
    """Every legal move tried on the same ``samples`` determinizations; the best mean wins.

    Without ``samples`` or ``time`` it deals 200 samples; with one, that one is the budget
    (at most: a race ends when one move is left); with both, it stops at whichever comes first
    (a sample is finished for every move still in the race, so they are judged on the same
    samples; with ``rollout=pimc`` a sample that the clock overtakes is dropped, and if it was
    the first, one sample of the heuristic's playouts judges every move).
    """

    name = "pimc"
    COUNT = "samples"
    DEFAULT_COUNT = DEFAULT_SAMPLES
    params = (
        Option("samples", None, "determinizations per decision (none: 200 unless a time is set)",
               minimum=1, nullable=True),
        Searching.TIME,
        Option("level", 0, "0: each move scored by the play after it (see rollout); 1-2 (a solitaire only): "
               "by a Nested Monte Carlo Search of that level in each sample (it knows the sample's draws)",
               minimum=0, maximum=2),
        Option("rollout", "heuristic", "who plays after each move, at level 0: heuristic, its strategy; pimc "
               "(a solitaire only), a PIMC player of `inner` samples", choices=("heuristic", "pimc")),
        Option("inner", DEFAULT_INNER, "rollout=pimc: the samples of each decision of the player after a move",
               minimum=1, maximum=1000),
        Option("race", 0.0, f"from the {RACE_FROM}th sample, drop a move that trails the leader by this many "
               "standard errors of their paired difference; the search ends with one move left (0: no race); with "
               "rollout=pimc the player after each move races its moves too",
               minimum=0.0, maximum=100.0),
        Option("engine", "native", "native: the search runs in the game's compiled kernel where there is one "
               "(the same samples and playouts, faster); python: in Python", choices=("native", "python")),
    )
    summary = "tries every move on the same samples of the hidden cards, scored by the play after it"

    def __init__(self, **params: object) -> None:
        super().__init__(**params)
        engine = self.settings["engine"]
        # IS-MCTS's playout: the heuristic's, in the kernel where there is one, rewards in 0..1.
        self._playouts = IsmctsAgent(rollout="heuristic", engine=engine)
        self._inner = PimcAgent(samples=self.settings["inner"], engine=engine,
                                race=self.settings["race"]) if self._nested else None

    @property
    def _nested(self) -> bool:
        return self.settings["rollout"] == "pimc"

    def check(self, game: Game) -> None:
        """The playouts need the game's strategy; a search above level 0, or a PIMC player
        after each move, needs a solitaire."""
        strategy(game.name)
        level = self.settings["level"]
        if level and self._nested:
            raise OptionError(f"pimc level {level} and rollout=pimc are two ways to play after a move: choose one")
        if (level or self._nested) and game.num_players != 1:
            what = f"level {level}" if level else "rollout=pimc"
            raise OptionError(f"pimc {what} searches a one-player game only, not "
                              f"{game.name} with {game.num_players} players: use level=0, rollout=heuristic")

    def act(self, view: View, rng: random.Random) -> Action:
        return self.decide(view, rng)[0]

    def advise(self, view: View, rng: random.Random) -> Advice:
        """The move :meth:`act` makes, with its mean reward and the next best move's (of those
        still in the race, and how many a race dropped).

        >>> import parlour
        >>> view = parlour.load("psalter-row").new_state(seed=4).view(0)
        >>> PimcAgent(samples=4).advise(view, random.Random(0)).reason.startswith("after it the heuristic scores")
        True
        """
        action, totals, samples = self.decide(view, rng)
        if not samples:
            return Advice(action, "the only legal move")
        worth = _worth(view.game, samples, self.settings)
        line = f"{worth(totals[action], True)} over {samples} samples"
        rivals = [(total, other) for other, total in totals.items() if other is not action]
        if rivals:
            total, other = max(rivals, key=lambda rival: rival[0])
            line += f"; next best {str(other)!r} {worth(total, False)}"
        dropped = len(view.legal_actions) - len(totals)
        if dropped:
            line += f"; {dropped} {'move' if dropped == 1 else 'moves'} fell behind in the race"
        return Advice(action, line)

    def decide(self, view: View, rng: random.Random) -> tuple[Action, dict[Action, float], int]:
        """The move, the total reward of each move still in the race (every move without
        ``race``), and the samples they are over (0: the only legal move, played without
        search). Ties go to the first move in legal order."""
        actions = view.legal_actions
        totals = dict.fromkeys(actions, 0.0)
        if len(actions) == 1:
            return actions[0], totals, 0
        budget, race = self.budget(), self.settings["race"]
        kernel = self._search_kernel(view)
        if kernel is not None:
            sums, done = kernel.search(view, rng, budget.iterations, self.settings["inner"] if self._nested else 0,
                                       budget.seconds, race=race)
            totals = {action: total for action, total in zip(actions, sums) if total is not None}
            return first_best(list(totals), totals, done), totals, done
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        done, alive, worths_so_far = 0, list(range(len(actions))), [[] for _ in actions]
        while len(alive) > 1 and (budget.iterations is None or done < budget.iterations) and (
                deadline is None or time.perf_counter() < deadline or not done):
            sample = view.sample(rng)
            try:
                worths = [self._worth_after(sample.clone().apply(actions[i]), view.seat, rng, deadline)
                          for i in alive]
            except _Late:
                if not done:  # the clock overtook the first sample: the heuristic's playouts judge
                    return PimcAgent(samples=1, engine=self.settings["engine"]).decide(view, rng)
                break
            for i, worth in zip(alive, worths):
                totals[actions[i]] += worth
                if race:
                    worths_so_far[i].append(worth)
            done += 1
            if race and done >= RACE_FROM:
                alive = _race(alive, [totals[action] for action in actions], worths_so_far, done, race)
        totals = {actions[i]: totals[actions[i]] for i in alive}
        return first_best(list(totals), totals, done), totals, done

    def _search_kernel(self, view: View) -> Kernel | None:
        """The kernel that runs the whole search, where the game has one that searches."""
        if self.settings["engine"] != "native" or self.settings["level"] or view.game.num_players != 1:
            return None
        from parlour.native import kernel

        found = kernel(view.game.name)
        return found if found is not None and found.searches else None

    def _worth_after(self, state: State, seat: int, rng: random.Random, deadline: float | None) -> float:
        """The seat's reward in 0..1 from ``state`` on: the heuristic's playout, the inner PIMC
        player's game (rollout=pimc; :class:`_Late` past ``deadline``), or at a higher level the
        best score the nested search finds, scaled as a solitaire's reward."""
        level = self.settings["level"]
        if self._inner is not None:
            return self._inner_game(state, seat, rng, deadline)
        if not level:
            return self._playouts.playout(state, rng)[seat]
        low, high = state.game.score_range  # type: ignore[misc]  # check(): a solitaire has one
        score, _ = best_line(state, rng, level, playout=self._scored_playout)
        return (score - low) / (high - low)

    def _inner_game(self, state: State, seat: int, rng: random.Random, deadline: float | None) -> float:
        """The reward of the inner PIMC player's play from ``state`` (changed) to the end."""
        inner = self._inner
        assert inner is not None
        while (player := state.current_player) is not None:
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Late
            view = state.view(player)
            actions = view.legal_actions
            state.apply(actions[0] if len(actions) == 1 else inner.decide(view, rng)[0])
        return rewards_of(state.game, state.scores(), state.winners())[seat]

    def _scored_playout(self, state: State, rng: random.Random) -> tuple[float, list[Action]]:
        """The heuristic's playout as the nested search's lowest level: its score and no line
        (the heuristic plays the same from the same state, see ``clairvoyant.Playout``)."""
        low, high = state.game.score_range  # type: ignore[misc]
        return round(low + self._playouts.playout(state, rng)[0] * (high - low)), []


Move = TypeVar("Move")


def first_best(actions: list[Move], totals: dict[Move, float], samples: int) -> Move:
    """The first of ``actions`` whose total ties the best of theirs (within :data:`TIE` a sample).

    >>> first_best(["a", "b"], {"a": 0.3 + 0.2 + 0.1, "b": 0.1 + 0.2 + 0.3}, 3)
    'a'
    """
    top = max(totals[action] for action in actions)
    return next(action for action in actions if totals[action] >= top - TIE * max(samples, 1))


def _race(alive: list[int], totals: list[float], worths: list[list[float]], samples: int, z: float) -> list[int]:
    """The moves (indices) of ``alive`` left in the race after ``samples`` samples: the leader
    (:func:`first_best` of them) and each whose paired difference from it, mean plus ``z``
    standard errors, is not below 0. The sums run as csrc/search.c race() runs them, so the
    kernel drops the same moves.

    >>> _race([0, 1, 2], [2.0, 1.9, 1.0], [[.5, .5, .5, .5], [.5, .4, .5, .5], [.25] * 4], 4, 2.0)
    [0, 1]
    """
    lead = first_best(alive, dict(enumerate(totals)), samples)
    left = []
    for i in alive:
        if i != lead:
            total = squares = 0.0
            for mine, leader in zip(worths[i], worths[lead]):
                d = mine - leader
                total += d
                squares += d * d
            mean = total / samples
            spread = max((squares - samples * mean * mean) / (samples - 1), 0.0)
            if mean + z * math.sqrt(spread / samples) < 0.0:
                continue
        left.append(i)
    return left


def _worth(game: Game, samples: int, settings: dict) -> Callable[[float, bool], str]:
    """How a total reads in a hint: in a solitaire, the score that the play after the move
    reaches (the heuristic's, the inner search's, or at a higher level the clairvoyant
    search's: an estimate that compares moves, not a forecast of the agent's own score), else
    the mean reward (``first``: the chosen move's words in full, else the figure alone for the
    next best)."""
    bounds = game.score_range
    if game.num_players == 1 and bounds is not None:
        low, high = bounds
        if settings["level"]:
            after = "after it a search that sees each sample's draws scores "
        elif settings["rollout"] == "pimc":
            after = f"after it a search of {settings['inner']} samples a move scores "
        else:
            after = "after it the heuristic scores "
        return lambda total, first: (after if first else "") + f"{low + total / samples * (high - low):.1f}"
    return lambda total, first: ("mean reward " if first else "") + f"{100 * total / samples:.0f}%"
