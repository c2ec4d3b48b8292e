"""Duplicate matches: one agent tried in each seat of the deals another plays against itself.

A tournament compares agents sitting at one table, whose cards differ: with four players
the luck of the deal swamps a small difference in play. A duplicate match (as in duplicate
bridge) compares an agent with itself instead. Each deal is first played by the *base*
agent in every seat (the *base game*); then, once for each seat, with the *tried* agent in
that seat and the base agent in the others (a *trial*). The seat's result in the trial less
its result in the base game is what the tried agent's play changed.

Every seat's ``k``-th decision draws from its own generator,
``random.Random(derive_seed(seed, deal, seat, k))``, in the base game and in the trials alike,
so a trial is move for move the base game until the tried agent first plays a move the base
agent would not have: the results differ only after a choice (and through the draws that
choice moved), never by luck alone (every game's shuffles are fixed by its seed). This needs a
base agent whose moves follow from its view and its generator alone: not one with a time
budget, whose move depends on the machine's speed. An IS-MCTS agent with ``keep`` works out
the default heuristic's move from that generator before it searches, so against the default
heuristic it differs only where its search overrules it.

Per seat and deal a row gives three results in the base game and the trial: ``score``,
``ahead`` (the share of the opponents the seat finished ahead of, level counting half, by
:func:`~parlour.analysis.tournament.finishing_order`) and ``won`` (its share of the win).
:func:`summary` gives the mean of each difference, trial less base, with a 95% interval over
deals (the seats of a deal share its base game, so the deal is the unit).

>>> import parlour
>>> game = parlour.load("decktet-golf", players=3)
>>> rows = duplicate_deal(game, parlour.agent("heuristic"), parlour.agent("heuristic"), deal=0, seed=1)
>>> [(row["seat"], row["diverged"], row["score_trial"] == row["score_base"]) for row in rows]
[(0, None, True), (1, None, True), (2, None, True)]
"""

from __future__ import annotations

import random
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.markup import escape

from parlour.analysis.stats import Estimate, Moments, mean_ci, mean_estimate
from parlour.analysis.tournament import finished_ahead, finishing_order
from parlour.core.chance import derive_seed
from parlour.core.errors import OptionError
from parlour.core.scores import win_share

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.action import Action
    from parlour.core.game import Game, State

#: The results compared, seat by seat.
MEASURES = ("score", "ahead", "won")
#: What a change of each can be: ``ahead`` and ``won`` are shares, so a change lies in [-1, 1].
WITHIN: dict[str, tuple[float | None, float | None]] = {"score": (None, None), "ahead": (-1, 1), "won": (-1, 1)}
#: What a result itself can be: ``ahead`` and ``won`` are shares in [0, 1].
BOUNDS: dict[str, tuple[float | None, float | None]] = {"score": (None, None), "ahead": (0, 1), "won": (0, 1)}


def play_seated(game: Game, agents: Sequence[Agent], deal: int, seed: int) -> tuple[State, list[Action]]:
    """Play ``deal`` (the game's seed ``derive_seed(seed, deal)``) to its end, each seat's
    ``k``-th decision drawing from ``random.Random(derive_seed(seed, deal, seat, k))``: the
    final state and the actions played.

    >>> import parlour
    >>> game = parlour.load("decktet-golf")
    >>> a = play_seated(game, [parlour.agent("random")] * 2, deal=3, seed=9)[1]
    >>> a == play_seated(game, [parlour.agent("random")] * 2, deal=3, seed=9)[1]
    True
    """
    state = game.new_state(derive_seed(seed, deal))
    decisions = [0] * game.num_players
    played: list[Action] = []
    while (seat := state.current_player) is not None:
        rng = random.Random(derive_seed(seed, deal, seat, decisions[seat]))
        decisions[seat] += 1
        action = agents[seat].move(state, seat, rng)
        state.apply(action)
        played.append(action)
    return state, played


def seat_results(state: State, seat: int) -> dict[str, float]:
    """A seat's ``score``, ``ahead`` (the share of opponents it finished ahead of, level
    counting half; in a solitaire, the win) and ``won`` (its share of the win) in a finished game.

    >>> import parlour
    >>> game = parlour.load("decktet-golf", players=3)
    >>> state, _ = play_seated(game, [parlour.agent("heuristic")] * 3, deal=0, seed=1)
    >>> sorted(seat_results(state, 0))
    ['ahead', 'score', 'won']
    """
    scores, winners = state.scores(), state.winners()
    order = finishing_order(scores, winners)
    others = [s for s in range(len(scores)) if s != seat]
    won = win_share(seat, winners)
    if not others:  # a solitaire: what it finishes ahead of is the game itself
        return {"score": float(scores[seat]), "ahead": won, "won": won}
    ahead = sum(finished_ahead(order, seat, s) for s in others)
    return {"score": float(scores[seat]), "ahead": ahead / len(others), "won": won}


def duplicate_deal(game: Game, tried: Agent, base: Agent, deal: int, seed: int,
                   seats: Iterable[int] | None = None) -> list[dict[str, Any]]:
    """The rows of one deal: the base game, then a trial for each of ``seats`` (all by
    default). A row has ``deal``, ``seat``, ``<measure>_base`` and ``<measure>_trial`` for each
    of :data:`MEASURES`, and ``diverged``: the index of the first action in which the trial
    left the base game (None if it never did).

    >>> import parlour
    >>> game = parlour.load("decktet-golf", players=2, rounds=1)
    >>> [row] = duplicate_deal(game, parlour.agent("random"), parlour.agent("heuristic"), deal=0, seed=1, seats=[1])
    >>> row["seat"], row["diverged"] is not None, 0 <= row["ahead_trial"] <= 1
    (1, True, True)
    """
    base_state, base_actions = play_seated(game, [base] * game.num_players, deal, seed)
    rows = []
    for seat in range(game.num_players) if seats is None else seats:
        agents = [tried if s == seat else base for s in range(game.num_players)]
        state, actions = play_seated(game, agents, deal, seed)
        before, after = seat_results(base_state, seat), seat_results(state, seat)
        row: dict[str, Any] = {"deal": deal, "seat": seat, "diverged": first_difference(base_actions, actions)}
        for measure in MEASURES:
            row[f"{measure}_base"], row[f"{measure}_trial"] = before[measure], after[measure]
        rows.append(row)
    return rows


def first_difference(first: Sequence[Action], second: Sequence[Action]) -> int | None:
    """The index of the first place the two sequences differ (one ending early counts).

    >>> first_difference("abc", "abd"), first_difference("ab", "abc"), first_difference("ab", "ab")
    (2, 2, None)
    """
    for index, (a, b) in enumerate(zip(first, second)):
        if a != b:
            return index
    return None if len(first) == len(second) else min(len(first), len(second))


def summary(rows: Iterable[dict[str, Any]]) -> dict[str, Estimate]:
    """For each of :data:`MEASURES`, the mean change trial less base per seat, with a 95%
    interval over deals (each deal's mean over its seats is one value); ``diverged``: the share
    of trials that left the base game at all. The rows are read once, a deal's together (see
    :class:`DuplicateSummary`).

    >>> rows = [{"deal": d, "seat": s, "diverged": 4 if s else None, "score_base": 10, "score_trial": 10 - d,
    ...          "ahead_base": 0.5, "ahead_trial": 0.5, "won_base": 0, "won_trial": 0} for d in range(3) for s in (0, 1)]
    >>> result = summary(rows)
    >>> result["score"].mean, result["ahead"].mean, result["diverged"].mean
    (-1.0, 0.0, 0.5)
    """
    gathered = DuplicateSummary()
    for row in rows:
        gathered.add(row)
    return gathered.summary()


class DuplicateSummary:
    """:func:`summary` a row at a time: a deal's rows come together, and when the next deal
    begins its means over the seats go into each measure's
    :class:`~parlour.analysis.stats.Moments`, so memory holds one deal, whatever their number."""

    def __init__(self) -> None:
        self.moments = {measure: Moments() for measure in (*MEASURES, "diverged")}
        self.deal: Any = None
        self.seats: list[dict[str, Any]] = []

    def add(self, row: dict[str, Any]) -> None:
        """One more trial's row."""
        if row["deal"] != self.deal:
            if self.deal is not None and row["deal"] < self.deal:
                raise ValueError(f"the trials of deal {row['deal']} come after deal {self.deal}: give a "
                                 "duplicate match's rows in the order they were played")
            self._close()
            self.deal = row["deal"]
        self.seats.append(row)

    def _close(self) -> None:
        if not self.seats:
            return
        for measure in MEASURES:
            self.moments[measure].add(statistics.fmean(r[f"{measure}_trial"] - r[f"{measure}_base"] for r in self.seats))
        self.moments["diverged"].add(statistics.fmean(r["diverged"] is not None for r in self.seats))
        self.seats = []

    @property
    def deals(self) -> int:
        """The deals taken in so far (the one still open counts)."""
        return self.moments["diverged"].n + bool(self.seats)

    def summary(self) -> dict[str, Estimate]:
        """The changes over the deals so far."""
        self._close()
        if not self.moments["diverged"].n:
            raise OptionError("no trials were played: give --deals 1 or more")
        found = {measure: mean_estimate(self.moments[measure].sample(), within=WITHIN[measure]) for measure in MEASURES}
        found["diverged"] = mean_estimate(self.moments["diverged"].sample(), within=(0, 1))
        return found


def print_summary(result: dict[str, Estimate], title: str, console: Console) -> None:
    """The changes of a duplicate match, and the verdict on ``ahead``: better, worse, or not
    separated at 95% (no verdict from a single deal, which has no interval).

    >>> import io
    >>> out = Console(file=io.StringIO(), width=200)
    >>> print_summary(summary([{"deal": d, "seat": 0, "diverged": 1, "score_base": 1, "score_trial": 2 + d,
    ...     "ahead_base": 0, "ahead_trial": 1, "won_base": 0, "won_trial": 1} for d in range(8)]), "x for y", out)
    >>> out.file.getvalue().splitlines()[-1]
    'x for y: finished ahead of +100.00% [+35.12%, +100.00%] more of the opponents, over 8 deals: BETTER at 95%'

    (Ahead in every deal of two would be "not separated": [-31.52%, +100.00%].)
    """
    for measure in (*MEASURES, "diverged"):
        e = result[measure]
        console.print(f"{measure:>8}: {e.mean:+.4f} {interval_text(e, '+.4f')}"
                      + ("" if measure == "diverged" else ", trial less base, per seat"), highlight=False)
    e = result["ahead"]
    word = ("no interval from one deal" if e.low is None or e.high is None else
            "BETTER at 95%" if e.low > 0 else "WORSE at 95%" if e.high < 0 else "not separated at 95%")
    console.print(f"{escape(title)}: finished ahead of {e.mean:+.2%} {interval_text(e, '+.2%')} more of the "
                  f"opponents, over {e.n} deals: {word}", highlight=False)


def interval_text(e: Estimate, form: str) -> str:
    """The interval as printed, ``[n/a]`` where there is none (escaped: rich would read
    ``[n/a]`` as a markup tag and drop it).

    >>> print(interval_text(Estimate(1.0, None, None, 1), ".2f"), interval_text(Estimate(1.0, 0.5, 1.5, 3), ".1f"))
    \\[n/a] [0.5, 1.5]
    """
    return escape("[n/a]" if e.low is None or e.high is None else f"[{e.low:{form}}, {e.high:{form}}]")


def standing(rows: Iterable[dict[str, Any]], side: str = "trial") -> dict[str, Estimate]:
    """For each of :data:`MEASURES`, the mean result per seat of one side (``trial``: the tried
    agent in its seat against the base agent in the others; ``base``: the base agent in the
    same seats) with a 95% interval over deals: the share of opponents a lone tried seat
    finishes ahead of, and of games it wins, is what "one seat against the rest" targets ask.

    >>> rows = [{"deal": d, "seat": s, "ahead_trial": 0.5 + d / 4, "won_trial": d % 2, "score_trial": 3}
    ...         for d in range(3) for s in (0, 1)]
    >>> result = standing(rows)
    >>> result["ahead"].mean, result["won"].n
    (0.75, 3)
    """
    if side not in ("trial", "base"):
        raise ValueError(f"side {side!r}: expected 'trial' or 'base'")
    deals = _by_deal(rows)
    return {measure: mean_ci([statistics.fmean(r[f"{measure}_{side}"] for r in seats) for seats in deals.values()],
                             within=BOUNDS[measure]) for measure in MEASURES}


def _by_deal(rows: Iterable[dict[str, Any]]) -> dict[Any, list[dict[str, Any]]]:
    """The rows of each deal: the unit of the intervals (a deal's seats share its base game)."""
    deals: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        deals[row["deal"]].append(row)
    return deals
