"""Simulate many games with agents: one row of figures per game, and their summary.

Game ``i`` of a run with seed ``S`` is dealt by ``derive_seed(S, i)`` and its agents
draw from ``random.Random(derive_seed(S, i, "agents"))``, so any one game of a run can
be played again alone, and a run gives the same rows on every machine.

>>> import parlour
>>> game = parlour.load("psalter-row")
>>> rows = list(simulate(game, [parlour.agent("random")], games=3, seed=1))
>>> [row["index"] for row in rows], rows[0]["seed"] == parlour.core.chance.derive_seed(1, 0)
([0, 1, 2], True)
>>> summary = summarize(rows, game.num_players)
>>> summary.games, summary.seats[0].agent
(3, 'random')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour.analysis.figures import figure_bounds, figure_estimate, is_share, score_bounds
from parlour.analysis.lead import lead_track
from parlour.analysis.stats import Estimate, Moments, histogram_of, mean_estimate, median_of, proportion_ci
from parlour.core.chance import derive_seed
from parlour.core.errors import OptionError

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import Game, State
    from parlour.native.runner import Played

#: The engines that play a run: ``native`` plays by the compiled kernels (:mod:`parlour.native`)
#: the games whose agents all have one, the rest in Python; ``python`` plays every game in Python.
ENGINES = ("native", "python")

# -- playing -------------------------------------------------------------------------------
def play_out(state: State, agents: Sequence[Agent], rng: random.Random,
             watch: Callable[[State], None] | None = None) -> State:
    """Play ``state`` to its end with one agent per seat; each acts on its own view only
    (but an analysis-only agent that ``cheats`` is handed the state). ``watch`` sees the
    state after every decision."""
    while (seat := state.current_player) is not None:
        state.apply(agents[seat].move(state, seat, rng))
        if watch is not None:
            watch(state)
    return state


def play_game(game: Game, agents: Sequence[Agent], names: Sequence[str], index: int, deal: int,
              seed: int, engine: str = "native") -> dict[str, Any]:
    """Game ``index`` of a run with ``seed``, dealt by ``deal``, its agents drawing from
    ``random.Random(derive_seed(seed, index, "agents"))``: its row (see :func:`game_row`).

    A game of several seats also gets ``first_player`` (the seat that moved first) and
    the lead figures of :class:`~parlour.analysis.lead.LeadTrack` (in Quisquilian, of the
    ranks each seat covers: :func:`~parlour.analysis.lead.lead_track`). With ``engine``
    ``"native"``, a game whose agents all have a kernel (:mod:`parlour.native`) is played
    by it: the very same game, and the same row."""
    agent_seed = derive_seed(seed, index, "agents")
    if engine == "native" and (played := play_native(game, agents, deal, agent_seed)) is not None:
        return native_row(game, played, index, deal, names)
    rng = random.Random(agent_seed)
    state = game.new_state(deal)
    if game.num_players == 1:
        return game_row(play_out(state, agents, rng), index, deal, names)
    first, (track, standing) = state.current_player, lead_track(state)
    row = game_row(play_out(state, agents, rng, lambda now: track.see(standing(now))), index, deal, names)
    row["first_player"] = first
    row.update(track.figures(state.winners()))
    return row


def play_native(game: Game, agents: Sequence[Agent], deal: int, agent_seed: int) -> Played | None:
    """The game played by its kernel, or None when there is none for the game or the agents."""
    from parlour.native import kernel

    native = kernel(game.name)
    if native is None or native.setup(agents) is None:
        return None
    return native.play_dealt(game, [deal], [agent_seed], agents, lead=game.num_players > 1)[0]


def native_row(game: Game, played: Played, index: int, deal: int, names: Sequence[str]) -> dict[str, Any]:
    """The row of a game a kernel played: :func:`game_row`'s, and the lead figures."""
    scores, winners, end, stats = played.outcome
    row = figures_row(game, scores, winners, end, stats, played.decisions, index, deal, names)
    if game.num_players > 1:
        assert played.lead is not None  # asked for above
        row["first_player"] = played.first_player
        row.update(played.lead.figures(winners))
    return row


def simulate(
    game: Game,
    agents: Sequence[Agent],
    games: int,
    seed: int,
) -> Iterator[dict[str, Any]]:
    """Play ``games`` games in this process, with these agent objects, and yield one row per
    game (see :func:`game_row`); :func:`~parlour.analysis.parallel.run_games` plays agent
    specs on many cores."""
    if len(agents) != game.num_players:
        raise OptionError(f"{len(agents)} agents given for the {game.num_players} seats of {game.name}")
    for agent in agents:
        agent.check(game)
    specs = [agent.spec for agent in agents]
    for index in range(games):
        yield play_game(game, agents, specs, index, derive_seed(seed, index), seed)


def score_keys(num_players: int) -> list[str]:
    """The row keys of the scores: ``score`` alone in a solitaire game, else ``score_<seat>``.

    >>> score_keys(1), score_keys(3)
    (['score'], ['score_0', 'score_1', 'score_2'])
    """
    return ["score"] if num_players == 1 else [f"score_{seat}" for seat in range(num_players)]


def game_row(state: State, index: int, seed: int, agents: Sequence[str]) -> dict[str, Any]:
    """The figures of one finished game: seed, scores, winners, turns, end, the game's
    own ``stats()``, options and agents (a flat dict, ready for CSV or JSON)."""
    return figures_row(state.game, state.scores(), state.winners(), state.end_reason, state.stats(),
                       len(state.history()), index, seed, agents)


def figures_row(game: Game, scores: Sequence[Any], winners: list[int], end: str | None, stats: dict[str, Any],
                decisions: int, index: int, seed: int, agents: Sequence[str]) -> dict[str, Any]:
    """:func:`game_row` from a finished game's figures (the Python engine's or a kernel's)."""
    row: dict[str, Any] = {"game": game.name, "index": index, "seed": seed}
    row.update(zip(score_keys(game.num_players), scores))
    row["winners"] = winners
    row["turns"] = stats.get("turns", stats.get("decisions", decisions))
    row["end"] = end
    for key, value in stats.items():
        if key not in row:
            row[key] = value
    row["options"] = dict(game.options)
    row["agents"] = list(agents)
    return row


# -- summary ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatSummary:
    seat: int
    agent: str
    score: Estimate
    wins: Estimate
    minimum: float
    maximum: float
    distribution: list[tuple[str, int]]


@dataclass(frozen=True)
class Summary:
    """What a run shows: per seat scores and wins, the game's figures, and tallies of text figures."""

    games: int
    seats: list[SeatSummary]
    #: name -> (is_rate, estimate): a yes/no figure is a rate, a number a mean, each with the
    #: interval :func:`~parlour.analysis.figures.figure_ci` gives it.
    figures: dict[str, tuple[bool, Estimate]] = field(default_factory=dict)
    #: name -> counts of each value, for text figures such as the end reason.
    tallies: dict[str, list[tuple[object, int]]] = field(default_factory=dict)
    #: name -> one estimate per seat, for the game's figures ``<name>_<seat>`` (e.g. round_score_0).
    seat_figures: dict[str, list[Estimate]] = field(default_factory=dict)
    #: name -> (min, median, max, share of games above 0 as an estimate) of each numeric figure.
    spreads: dict[str, tuple[float, float, float, Estimate]] = field(default_factory=dict)
    #: every score was 1 for a winner and 0 otherwise: the scores say no more than the win rates.
    scores_are_wins: bool = False


SKIP_FIGURES = {"game", "index", "seed", "winners", "winner", "options", "agents", "first_player", "midpoint_leader"}
#: The most distinct values a run keeps of one figure (for its median and its histogram); a
#: figure with more (a continuous one) gets its mean and range only. The games' figures are
#: counts and scores, a few hundred distinct values at most.
MOST_DISTINCT = 10_000


def summarize(rows: Iterable[dict[str, Any]], num_players: int) -> Summary:
    """Summarise rows from :func:`simulate` (they are read once, and not kept: see :class:`Summarizer`).

    Winners who tie share the win (two winners: half a win each), so the win rates of
    the seats add up to the share of games that somebody won. A numeric figure given
    for every seat as ``<name>_<seat>`` is summarised per seat, in ``seat_figures``.
    """
    summarizer = Summarizer(num_players)
    for row in rows:
        summarizer.add(row)
    return summarizer.summary()


class Column:
    """One figure of a run, a game at a time: in how many games it was given, whether every
    value was a yes/no, a number or a text (or missing), and for what it turns out to be, the
    count of yeses, the :class:`~parlour.analysis.stats.Moments` of the numbers, how many were
    above 0, and how often each value occurred (up to :data:`MOST_DISTINCT` of them)."""

    __slots__ = ("n", "flags", "trues", "moments", "above", "tally")

    def __init__(self) -> None:
        self.n = 0
        self.flags = 0b111  # yes/no, number, text-or-missing: which every value so far has been
        self.trues = 0
        self.moments = Moments()
        self.above = 0
        self.tally: dict[Any, int] | None = {}

    def add(self, value: Any) -> None:
        self.n += 1
        if value is True or value is False:
            self.flags &= 0b100
            self.trues += value
            return
        if isinstance(value, (int, float)):
            self.flags &= 0b010
            self.moments.add(value)
            self.above += value > 0
        elif value is None or isinstance(value, str):
            self.flags &= 0b001
        else:
            self.flags = 0
        if self.tally is not None and self.flags & 0b011:
            self.tally[value] = self.tally.get(value, 0) + 1
            if len(self.tally) > MOST_DISTINCT:
                self.tally = None

    @property
    def numbers(self) -> bool:
        return self.flags == 0b010 and self.n > 0


class Summarizer:
    """:func:`summarize` a row at a time, in memory that does not grow with the games: per
    seat its scores' :class:`~parlour.analysis.stats.Moments` and histogram counts and its
    share of the wins, and a :class:`Column` per figure.

    >>> summarizer = Summarizer(num_players=1)
    >>> for score in (3, 5):
    ...     summarizer.add({"score": score, "winners": [], "turns": score + 1, "end": "exhausted"})
    >>> s = summarizer.summary()
    >>> s.games, s.seats[0].score.mean, s.spreads["turns"][1], s.tallies["end"]
    (2, 4.0, 5.0, [('exhausted', 2)])
    """

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        self.keys = score_keys(num_players)
        self.scores = [Moments() for _ in self.keys]
        self.score_tallies: list[dict[float, int] | None] = [{} for _ in self.keys]
        self.wins = [0.0] * num_players
        self.columns: dict[str, Column] = {}
        self.agents: list[str] = []
        self.games = 0
        self.scores_are_wins = True
        self.game: str | None = None  # the rows' game and options: what a seat can score bounds the intervals
        self.options: dict[str, Any] | str | None = None

    def add(self, row: dict[str, Any]) -> None:
        """One more game's row."""
        self.games += 1
        self.agents = row.get("agents", self.agents)
        self.game = row.get("game", self.game)
        self.options = row.get("options", self.options)
        winners = row["winners"]
        for seat, key in enumerate(self.keys):
            score = row[key]
            self.scores[seat].add(score)
            tally = self.score_tallies[seat]
            if tally is not None:
                tally[score] = tally.get(score, 0) + 1
                if len(tally) > MOST_DISTINCT:
                    self.score_tallies[seat] = None
            if self.scores_are_wins and score != (1 if seat in winners else 0):
                self.scores_are_wins = False
        for seat in winners:
            self.wins[seat] += 1 / len(winners)
        for key, value in row.items():
            if key not in SKIP_FIGURES and key not in self.keys:
                column = self.columns.get(key)
                if column is None:
                    column = self.columns[key] = Column()
                column.add(value)

    def summary(self) -> Summary:
        """The summary of the rows so far; OptionError if there were none."""
        n, agents = self.games, self.agents
        if n == 0:
            raise OptionError("no games were played: give --games 1 or more")
        samples = [moments.sample() for moments in self.scores]
        span = (min(s.minimum for s in samples), max(s.maximum for s in samples))
        bounds = score_bounds(self.game, self.options)
        seats = [
            SeatSummary(seat, agents[seat] if seat < len(agents) else "?", mean_estimate(sample, within=bounds),
                        proportion_ci(self.wins[seat], n), sample.minimum, sample.maximum,
                        [] if tally is None else histogram_of(tally, span=span))
            for seat, (sample, tally) in enumerate(zip(samples, self.score_tallies))
        ]
        seat_figures, per_seat = self._seat_figures()
        figures: dict[str, tuple[bool, Estimate]] = {}
        tallies: dict[str, list[tuple[object, int]]] = {}
        spreads: dict[str, tuple[float, float, float, Estimate]] = {}
        for key, column in self.columns.items():
            if key == "score" or column.n != n or key in per_seat:
                continue
            if column.flags & 0b100:
                figures[key] = (True, proportion_ci(column.trues, n))
            elif column.flags & 0b010:
                sample = column.moments.sample()
                binary = column.tally is not None and set(column.tally) <= {0, 1}
                figures[key] = (is_share(key, sample.minimum, sample.maximum, binary),
                                figure_estimate(key, sample, binary, figure_bounds(self.game, self.options, key)))
                if column.tally is not None:
                    spreads[key] = (sample.minimum, median_of(column.tally), sample.maximum,
                                    proportion_ci(column.above, n))
            elif column.flags & 0b001 and column.tally is not None:
                tallies[key] = sorted(column.tally.items(), key=lambda kv: -kv[1])
        return Summary(n, seats, figures, tallies, seat_figures, spreads, self.scores_are_wins)

    def _seat_figures(self) -> tuple[dict[str, list[Estimate]], set[str]]:
        """The figures given for every seat as ``<name>_<seat>``, and their columns."""
        seat_figures: dict[str, list[Estimate]] = {}
        per_seat: set[str] = set()
        if self.num_players == 1:
            return seat_figures, per_seat
        n = self.games
        for key in self.columns:
            base, _, last = key.rpartition("_")
            if base and last == "0" and base not in seat_figures:
                group = [self.columns.get(f"{base}_{seat}") for seat in range(self.num_players)]
                if all(c is not None and c.numbers and c.n == n for c in group) \
                        and f"{base}_{self.num_players}" not in self.columns:
                    within = figure_bounds(self.game, self.options, key)  # every seat's the same
                    seat_figures[base] = [mean_estimate(c.moments.sample(), within=within)  # type: ignore[union-attr]
                                          for c in group]
                    per_seat.update(f"{base}_{seat}" for seat in range(self.num_players))
        return seat_figures, per_seat
