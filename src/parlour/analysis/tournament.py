"""Tournaments between agents: a fair schedule, the games, and their standings.

**Schedule.** The agents sit down in *line-ups*: with ``k`` agents and ``P`` seats, every
set of ``P`` different agents when ``k >= P``, else every multiset of ``P`` agents that
includes them all (two agents, three seats: ``aab`` and ``abb``). So the line-ups stay the
same when the agents are renamed, and every agent meets the same mix of opponents. Each
line-up is seated in every rotation of its order and of its mirror image (a duplicate
seating is played once), so every agent holds every seat equally often and plays as often
before as after each neighbour. A *block* is every seating of every line-up, and all the
games of a block share one deal (common random numbers): the deal of block ``b`` is
``derive_seed(seed, b)`` and the agents of game ``i`` draw from
``random.Random(derive_seed(seed, i, "agents"))``, so a tournament gives the same rows on
every machine and :func:`play_match` replays any one game alone. A number of games that is
not a multiple of the block is rounded *up* to whole blocks: a partial block would give
some agents a seat or a deal more than others. In a solitaire game a block is one deal
played by every agent.

>>> block_orders(3, 2)
[(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
>>> block_orders(2, 3)
[(0, 0, 1), (0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 1, 0), (1, 0, 1)]
>>> [(m.index, m.block, m.seats) for m in schedule(2, 2, games=3)]
[(0, 0, (0, 1)), (1, 0, (1, 0)), (2, 1, (0, 1)), (3, 1, (1, 0))]

**Standings** (:func:`standings`): per agent the win rate per seat played (tied winners
share the win) and the mean score, with 95% intervals; for each pair of agents the share
of the games both played in which the first finished ahead of the second (ties count
half); and a Bradley-Terry rating fitted on those pairwise results, on an Elo scale with
the first agent at 0. The games of a deal share its cards, so the deal is the unit of both
intervals: the pairwise shares get Korn and Graubard's interval over deals, the ratings a
bootstrap over deals. In a solitaire game: the mean
score and completion rate per agent, and for each pair the paired differences on the same
deals. The statistics are described in ``docs/tournament.md``.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import statistics
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parlour.analysis.figures import difference_bounds, score_bounds
from parlour.analysis.parallel import TournamentRun
from parlour.analysis.report import fmt, interval
from parlour.analysis.simulate import play_game, score_keys
from parlour.analysis.stats import Estimate, Moments, PooledShare, mean_estimate, proportion_ci
from parlour.core.chance import derive_seed
from parlour.core.errors import OptionError

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import Game

#: Bootstrap resamples (over deals) for the rating intervals.
RESAMPLES = 200
#: One virtual drawn game per pair that met: keeps every rating finite (an agent that
#: never lost would otherwise be rated infinitely strong) and pulls little once pairs
#: have played tens of games.
PRIOR_GAMES = 1.0
ELO_SCALE = 400 / math.log(10)
#: The pairwise results of some games, agent by agent: (how often i finished ahead of j,
#: level counting half; how many games i and j both played; how often i finished strictly
#: ahead of j), each game counting once however many seats an agent held.
Tally = tuple[list[list[float]], list[list[float]], list[list[float]]]


# -- schedule ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Match:
    """One scheduled game: its index, its block (whose deal it plays), the agent per seat."""

    index: int
    block: int
    seats: tuple[int, ...]


def lineups(agents: int, seats: int) -> list[tuple[int, ...]]:
    """The line-ups (agent indices, sorted): the ``seats``-sets of the agents, or when there
    are fewer agents than seats, the multisets that include every agent.

    >>> lineups(4, 3)
    [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    >>> lineups(2, 4)
    [(0, 0, 0, 1), (0, 0, 1, 1), (0, 1, 1, 1)]
    """
    if agents >= seats:
        return list(itertools.combinations(range(agents), seats))
    return [line for line in itertools.combinations_with_replacement(range(agents), seats)
            if len(set(line)) == agents]


def seatings(lineup: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every rotation of the line-up and of its mirror image, each distinct seating once.

    >>> seatings((0, 1, 2))
    [(0, 1, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0), (1, 0, 2), (0, 2, 1)]
    >>> seatings((0, 0, 1, 1))
    [(0, 0, 1, 1), (0, 1, 1, 0), (1, 1, 0, 0), (1, 0, 0, 1)]
    """
    orders: list[tuple[int, ...]] = []
    for line in (lineup, lineup[::-1]):
        for shift in range(len(line)):
            order = line[shift:] + line[:shift]
            if order not in orders:
                orders.append(order)
    return orders


def block_orders(agents: int, seats: int) -> list[tuple[int, ...]]:
    """The seatings of one block, in the order they are played."""
    return [order for lineup in lineups(agents, seats) for order in seatings(lineup)]


def schedule(agents: int, seats: int, games: int) -> list[Match]:
    """The games of a tournament: ``games`` rounded up to whole blocks (see the module)."""
    if games < 1:
        raise OptionError(f"a tournament needs 1 game or more, not {games}")
    orders = block_orders(agents, seats)
    blocks = math.ceil(games / len(orders))
    return [Match(block * len(orders) + i, block, order)
            for block in range(blocks) for i, order in enumerate(orders)]


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Names for the agents in tables and rows: the spec, numbered where it repeats.

    >>> agent_labels(["random", "heuristic", "random"])
    ['random#1', 'heuristic', 'random#2']
    """
    return [f"{spec}#{specs[:i].count(spec) + 1}" if specs.count(spec) > 1 else spec
            for i, spec in enumerate(specs)]


# -- playing -------------------------------------------------------------------------------
def play_match(game: Game, agents: Sequence[Agent], labels: Sequence[str], match: Match,
               seed: int, engine: str = "native") -> dict[str, Any]:
    """Play one scheduled game; its row is :func:`~parlour.analysis.simulate.game_row`'s with
    the block and the agent of each seat (``agent``, or ``agent_<seat>``) added.

    >>> import parlour
    >>> game = parlour.load("decktet-golf")
    >>> row = play_match(game, [parlour.agent("random")] * 2, ["a", "b"], Match(1, 0, (1, 0)), seed=5)
    >>> row["block"], row["agent_0"], row["agents"], row["seed"] == derive_seed(5, 0)
    (0, 'b', ['b', 'a'], True)
    """
    row = play_game(game, [agents[a] for a in match.seats], [labels[a] for a in match.seats], match.index,
                    derive_seed(seed, match.block), seed, engine)
    keys = ["agent"] if len(match.seats) == 1 else [f"agent_{seat}" for seat in range(len(match.seats))]
    front = {"game": row.pop("game"), "index": row.pop("index"), "block": match.block}
    return {**front, **row, **{key: labels[a] for key, a in zip(keys, match.seats)}}


def check_agents(game: Game, agents: Sequence[Agent]) -> None:
    """A multiplayer tournament needs two agents or more; a solitaire one, one or more; and
    every agent must be able to play the game."""
    least = 1 if game.num_players == 1 else 2
    if len(agents) < least:
        raise OptionError(f"a tournament of {game.name} ({game.num_players} seats) needs {least} agents or more, "
                          f"{len(agents)} given: e.g. --agents random,heuristic")
    for agent in agents:
        agent.check(game)


def tournament(
    game: Game,
    agents: Sequence[Agent],
    games: int,
    seed: int,
) -> Iterator[dict[str, Any]]:
    """Play the tournament's games (``games`` rounded up to whole blocks), a row per game.

    >>> import parlour
    >>> rows = list(tournament(parlour.load("psalter-row"), [parlour.agent("random")] * 2, 3, seed=1))
    >>> [(row["block"], row["agent"]) for row in rows]
    [(0, 'random#1'), (0, 'random#2'), (1, 'random#1'), (1, 'random#2')]
    """
    check_agents(game, agents)  # checked now, not at the first game the caller asks for
    orders = tuple(block_orders(len(agents), game.num_players))
    run = TournamentRun(game.name, game.options, tuple(agent.spec for agent in agents), seed, orders=orders)
    return (run.play(game, list(agents), index) for index in range(len(schedule(len(agents), game.num_players, games))))


# -- statistics ----------------------------------------------------------------------------
def finishing_order(scores: Sequence[float], winners: Sequence[int]) -> list[tuple[int, float]]:
    """A key per seat, smaller for a seat further ahead: winners first; then, where the
    winners hold the best scores of the game, the better score (lower or higher as the
    winners show); seats with equal keys finished level.

    >>> finishing_order([115, 95, 130], [1])   # Decktet Golf: the lowest total wins
    [(1, 115), (0, 95), (1, 130)]
    >>> finishing_order([0, 1, 0, 0], [1]), finishing_order([0, 0, 0], [])
    ([(1, 0), (0, -1), (1, 0), (1, 0)], [(1, 0), (1, 0), (1, 0)])
    """
    won = [scores[s] for s in winners]
    lost = [score for s, score in enumerate(scores) if s not in winners]
    direction = 0
    if won and lost:
        direction = 1 if max(won) < min(lost) else -1 if min(won) > max(lost) else 0
    return [(0 if s in winners else 1, direction * score) for s, score in enumerate(scores)]


def finished_ahead(order: Sequence[tuple[int, float]], seat: int, other: int) -> float:
    """1 if ``seat`` finished ahead of ``other`` in a :func:`finishing_order`, 0.5 if level, else 0.

    >>> order = finishing_order([115, 95, 115], [1])
    >>> finished_ahead(order, 1, 0), finished_ahead(order, 0, 2), finished_ahead(order, 0, 1)
    (1.0, 0.5, 0.0)
    """
    return 1.0 if order[seat] < order[other] else 0.5 if order[seat] == order[other] else 0.0


class Meeting(NamedTuple):
    """Two agents at one table: over the comparisons of a seat of ``first`` with a seat of
    ``second``, the share ``first`` finished ahead (level counting half), and the shares each
    finished strictly ahead."""

    first: int
    second: int
    ahead: float
    first_ahead: float
    second_ahead: float


def pair_results(seats: Sequence[int], scores: Sequence[float], winners: Sequence[int],
                 agents: int) -> list[Meeting]:
    """A :class:`Meeting` for each pair of agents at the table.

    >>> pair_results([2, 0], [115, 95], [1], agents=3)
    [Meeting(first=0, second=2, ahead=1.0, first_ahead=1.0, second_ahead=0.0)]
    """
    order = finishing_order(scores, winners)
    found = []
    for a, b in itertools.combinations(range(agents), 2):
        points = [finished_ahead(order, s, t)
                  for s in range(len(seats)) if seats[s] == a for t in range(len(seats)) if seats[t] == b]
        if points:
            found.append(Meeting(a, b, sum(points) / len(points), points.count(1.0) / len(points),
                                 points.count(0.0) / len(points)))
    return found


def bradley_terry(ahead: Sequence[Sequence[float]], games: Sequence[Sequence[float]],
                  prior: float = PRIOR_GAMES, tolerance: float = 1e-10) -> list[float]:
    """Bradley-Terry strengths (geometric mean 1) by Hunter's MM iteration.

    ``ahead[i][j]`` is how often ``i`` finished ahead of ``j`` (ties as halves) out of
    ``games[i][j]``; ``prior`` adds that many drawn games to each pair that met. An agent
    ``i`` beats ``j`` with probability ``p_i / (p_i + p_j)``.

    >>> p = [4, 2, 1]   # results exactly as these strengths predict: the fit gives them back
    >>> n = [[0 if i == j else 90 for j in range(3)] for i in range(3)]
    >>> w = [[n[i][j] * p[i] / (p[i] + p[j]) for j in range(3)] for i in range(3)]
    >>> [round(x / bradley_terry(w, n, prior=0)[2], 6) for x in bradley_terry(w, n, prior=0)]
    [4.0, 2.0, 1.0]
    """
    k = len(games)
    n = [[games[i][j] + (prior if games[i][j] else 0) for j in range(k)] for i in range(k)]
    w = [sum(ahead[i][j] + (prior / 2 if games[i][j] else 0) for j in range(k)) for i in range(k)]
    p = [1.0] * k
    for _ in range(10_000):
        new = [w[i] / sum(n[i][j] / (p[i] + p[j]) for j in range(k) if n[i][j]) for i in range(k)]
        scale = math.exp(statistics.fmean(math.log(x) for x in new))
        new = [x / scale for x in new]
        done = max(abs(math.log(a / b)) for a, b in zip(new, p)) < tolerance
        p = new
        if done:
            break
    return p


def elo(strengths: Sequence[float], anchor: int = 0) -> list[float]:
    """Strengths on the Elo scale, the anchor at 0: 400 points mean 10 to 1 odds.

    >>> [round(x, 1) for x in elo([1.0, 10.0, 2.0])]
    [0.0, 400.0, 120.4]
    """
    return [ELO_SCALE * math.log(p / strengths[anchor]) for p in strengths]


@dataclass(frozen=True)
class Rating:
    """An Elo-scale rating with its bootstrap interval (None with a single deal)."""

    elo: float
    low: float | None
    high: float | None


@dataclass(frozen=True)
class AgentResult:
    """One agent's results. ``seats``: the seats it played (in a solitaire game, games);
    ``wins``: its win rate per seat played (in a solitaire game, its completion rate)."""

    agent: str
    seats: int
    wins: Estimate
    score: Estimate
    rating: Rating | None


@dataclass(frozen=True)
class PairResult:
    """Two agents over the games (or, solitaire, the deals) both played. Multiplayer:
    ``ahead``, the share in which ``first`` finished ahead of ``second`` (level: half), its
    interval over deals (:func:`~parlour.analysis.stats.clustered_proportion_ci`; None with a
    single deal; ``n`` is the games); ``never_ahead``, the one of the two that never finished
    strictly ahead of the other, if one did not (the results went all one way). Solitaire:
    the paired differences ``first - second`` of score and completion."""

    first: str
    second: str
    games: int
    ahead: Estimate | None = None
    never_ahead: str | None = None
    score_difference: Estimate | None = None
    completion_difference: Estimate | None = None


@dataclass(frozen=True)
class Standings:
    game: str
    players: int
    games: int
    deals: int
    agents: list[AgentResult]
    pairs: list[PairResult]
    resamples: int


def standings(rows: Iterable[dict[str, Any]], labels: Sequence[str], players: int,
              resamples: int = RESAMPLES, seed: int = 0) -> Standings:
    """The standings of a tournament's rows (read once, in game order, and not kept: see
    :class:`Tabulation`); ``labels`` in the order of ``--agents`` (the first is the rating's anchor).

    >>> import parlour
    >>> game = parlour.load("decktet-golf")
    >>> agents = [parlour.agent("random"), parlour.agent("heuristic")]
    >>> table = standings(tournament(game, agents, 4, seed=1), ["random", "heuristic"], 2, resamples=20)
    >>> table.games, table.deals, [a.seats for a in table.agents], table.agents[0].rating.elo
    (4, 2, [4, 4], 0.0)
    """
    tabulation = Tabulation(labels, players, resamples, seed)
    for row in rows:
        tabulation.add(row)
    return tabulation.standings()


def poisson_weights(rng: random.Random, count: int) -> list[int]:
    """``count`` draws of a Poisson count of mean 1: how often a deal is drawn in each of the
    bootstrap's resamples (a resample of ``B`` deals draws each about Poisson(1) times).

    >>> weights = poisson_weights(random.Random(1), 10_000)
    >>> round(statistics.fmean(weights), 2), min(weights)
    (1.0, 0)
    """
    return [bisect.bisect_right(POISSON_1, rng.random()) for _ in range(count)]


#: P(X <= k) for a Poisson count X of mean 1, k = 0, 1, ... (to where it is 1 in floating point).
POISSON_1 = tuple(itertools.accumulate(math.exp(-1) / math.factorial(k) for k in range(20)))


class Tabulation:
    """:func:`standings` a row at a time, in memory that does not grow with the games. A block's
    rows (one deal) come together, the blocks in order; when the next block begins, its pairwise tallies go into the
    totals, into each pair's :class:`~parlour.analysis.stats.PooledShare` (the interval over deals)
    and into the bootstrap's resamples, where the deal counts a Poisson(1) number of times in
    each (the Poisson bootstrap, which needs no list of the deals). In a solitaire game a block's
    scores go into each pair's paired differences."""

    def __init__(self, labels: Sequence[str], players: int, resamples: int = RESAMPLES, seed: int = 0) -> None:
        self.labels = list(labels)
        self.index = {label: i for i, label in enumerate(labels)}
        self.players, self.resamples = players, resamples
        k = len(labels)
        self.scores = [Moments() for _ in labels]
        self.wins = [0.0] * k
        self.games, self.name, self.options = 0, "", None
        self.block: int | None = None
        self.deals = 0
        self.rng = random.Random(derive_seed(seed, "bootstrap"))
        pairs = list(itertools.combinations(range(k), 2))
        self.pairs = pairs
        self.tally: Tally = _empty(k)
        self.total: Tally = _empty(k)
        self.pooled = {pair: PooledShare() for pair in pairs}
        self.drawn = [[[0.0, 0.0] for _ in pairs] for _ in range(resamples)]  # resample -> pair -> ahead, met
        self.deal: dict[int, tuple[float, bool]] = {}
        self.solo = {pair: (Moments(), Moments()) for pair in pairs}

    def add(self, row: dict[str, Any]) -> None:
        """One more game's row."""
        block = row["block"]
        if block != self.block:
            if self.block is not None and block < self.block:
                raise OptionError(f"the games of block {block} come after block {self.block}: give a "
                                  "tournament's rows in the order they were played")
            self._close()
            self.block = block
        self.games, self.name, self.options = self.games + 1, row["game"], row.get("options")
        seats = [self.index[label] for label in row["agents"]]
        row_scores = [row[key] for key in score_keys(self.players)]
        for seat, agent in enumerate(seats):
            self.scores[agent].add(row_scores[seat])
            if seat in row["winners"]:
                self.wins[agent] += 1 / len(row["winners"])
        if self.players == 1:
            self.deal[seats[0]] = (row_scores[0], bool(row["winners"]))
            return
        ahead, met, beat = self.tally
        for meeting in pair_results(seats, row_scores, row["winners"], len(self.labels)):
            a, b = meeting.first, meeting.second
            ahead[a][b] += meeting.ahead
            ahead[b][a] += 1 - meeting.ahead
            beat[a][b] += meeting.first_ahead
            beat[b][a] += meeting.second_ahead
            met[a][b] += 1
            met[b][a] += 1

    def _close(self) -> None:
        """The block just finished, into the totals."""
        if self.block is None:
            return
        self.deals += 1
        if self.players == 1:
            for pair, (score, completion) in self.solo.items():
                a, b = pair
                if a in self.deal and b in self.deal:
                    score.add(self.deal[a][0] - self.deal[b][0])
                    completion.add(int(self.deal[a][1]) - int(self.deal[b][1]))
            self.deal = {}
            return
        ahead, met, _ = self.tally
        for m, matrix in enumerate(self.tally):
            for i, line in enumerate(matrix):
                for j, value in enumerate(line):
                    self.total[m][i][j] += value
        for a, b in self.pairs:
            if met[a][b]:
                self.pooled[(a, b)].add(ahead[a][b], met[a][b])
        met_pairs = [(number, ahead[a][b], met[a][b]) for number, (a, b) in enumerate(self.pairs) if met[a][b]]
        for weight, drawn in zip(poisson_weights(self.rng, self.resamples), self.drawn):
            if weight:
                for number, won, played in met_pairs:
                    drawn[number][0] += weight * won
                    drawn[number][1] += weight * played
        self.tally = _empty(len(self.labels))

    def standings(self) -> Standings:
        """The standings of the rows so far; OptionError if there were none."""
        self._close()
        self.block = None
        if self.games == 0:
            raise OptionError("no games were played: give --games 1 or more")
        labels, k = self.labels, len(self.labels)
        deals = self.deals
        multi = self.players > 1
        ratings = self._ratings() if multi else [None] * k
        bounds = score_bounds(self.name, self.options)
        agents = [AgentResult(label, self.scores[i].n, proportion_ci(self.wins[i], self.scores[i].n),
                              mean_estimate(self.scores[i].sample(), within=bounds), ratings[i])
                  for i, label in enumerate(labels)]
        pairs = self._pairs() if multi else self._solo_pairs()
        return Standings(self.name, self.players, self.games, deals, agents, pairs, self.resamples if multi else 0)

    def _ratings(self) -> list[Rating]:
        """The Bradley-Terry ratings of all the results, with percentile intervals from the
        resamples (a fixed seed: the same every run); a resample that drew no deal is left out."""
        ahead, met, _ = self.total
        point = elo(bradley_terry(ahead, met))
        fits = []
        if self.deals >= 2:
            k = len(self.labels)
            for drawn in self.drawn:
                if not all(played for _, played in drawn):
                    continue
                won, games = [[0.0] * k for _ in range(k)], [[0.0] * k for _ in range(k)]
                for (a, b), (wins, played) in zip(self.pairs, drawn):
                    won[a][b], won[b][a] = wins, played - wins
                    games[a][b] = games[b][a] = played
                fits.append(elo(bradley_terry(won, games)))
        if len(fits) < 2:
            return [Rating(x, None, None) for x in point]
        cuts = [statistics.quantiles([fit[i] for fit in fits], n=40) for i in range(len(point))]
        return [Rating(x, cut[0], cut[-1]) for x, cut in zip(point, cuts)]

    def _pairs(self) -> list[PairResult]:
        """Each pair's share ahead over the deals it met on, with an interval that takes the deal
        as the unit (the games of a deal share its cards, so they are not independent)."""
        found = []
        labels = self.labels
        _, met, beat = self.total
        for a, b in self.pairs:
            if not met[a][b]:
                continue
            ahead = self.pooled[(a, b)].estimate()
            games = int(met[a][b])
            never = labels[a] if beat[a][b] == 0 < beat[b][a] else labels[b] if beat[b][a] == 0 < beat[a][b] else None
            found.append(PairResult(labels[a], labels[b], games, Estimate(ahead.mean, ahead.low, ahead.high, games),
                                    never_ahead=never))
        return found

    def _solo_pairs(self) -> list[PairResult]:
        found = []
        for (a, b), (score, completion) in self.solo.items():
            found.append(PairResult(self.labels[a], self.labels[b], score.n,
                                    score_difference=mean_estimate(score.sample(),
                                                                   within=difference_bounds(score_bounds(self.name, self.options))),
                                    completion_difference=mean_estimate(completion.sample(), within=(-1, 1))))
        return found


def _empty(k: int) -> Tally:
    return tuple([[0.0] * k for _ in range(k)] for _ in range(3))  # type: ignore[return-value]


# -- tables --------------------------------------------------------------------------------
def print_standings(result: Standings, console: Console) -> None:
    """The agents' table and the pairs' table.

    >>> import io, parlour
    >>> game = parlour.load("psalter-row")
    >>> rows = tournament(game, [parlour.agent("random"), parlour.agent("heuristic")], 4, seed=1)
    >>> out = Console(file=io.StringIO(), width=120)
    >>> print_standings(standings(rows, ["random", "heuristic"], 1), out)
    >>> "Completion" in out.file.getvalue(), "Score difference" in out.file.getvalue()
    (True, True)
    """
    if result.players == 1:
        console.print(solo_table(result))
    else:
        console.print(agent_table(result))
    if result.pairs:
        console.print(pair_table(result))


def agent_table(result: Standings) -> Table:
    """Win rate, mean score and rating per agent (multiplayer)."""
    table = Table(title=f"{escape(result.game)}: {result.games} games on {result.deals} deals, "
                  f"{result.players} seats", title_justify="left")
    for name in ("Agent", "Seats played", "Win rate", "95% CI", "Mean score", "95% CI ", "Rating", "95% CI  "):
        table.add_column(name, justify="left" if name == "Agent" else "right")
    for i, agent in enumerate(result.agents):
        table.add_row(escape(agent.agent), str(agent.seats), f"{100 * agent.wins.mean:.1f}%",
                      interval(agent.wins, percent=True), fmt(agent.score.mean, 2), interval(agent.score),
                      *_rating_cells(agent.rating, anchor=i == 0))
    table.caption = (f"Win rate per seat played; tied winners share the win (equal agents: "
                     f"{100 / result.players:.1f}% each). Rating: Bradley-Terry on the pairwise results, "
                     f"Elo scale, {escape(result.agents[0].agent)} = 0; interval by bootstrap over deals "
                     f"({result.resamples} resamples).") + one_way_caveat(result.pairs)
    table.caption_justify = "left"
    return table


def one_way_caveat(pairs: Sequence[PairResult]) -> str:
    """What the ratings cannot say where a pair's results went all one way ('' if none did).

    >>> one_way_caveat([PairResult("random", "heuristic", 12, never_ahead="random")])[:52]
    ' All one way: random never finished ahead of heurist'
    """
    one_way = [f"{p.never_ahead} never finished ahead of {p.second if p.never_ahead == p.first else p.first}"
               for p in pairs if p.never_ahead is not None]
    if not one_way:
        return ""
    return (f" All one way: {escape('; '.join(one_way))}. Such a gap rests only on the level finishes "
            "and the prior of one drawn game per pair, not on any game the weaker won: a far stronger "
            "agent would be rated the same, so the gap has no upper bound, and the bootstrap cannot show "
            "that. Read the pairwise table.")


def _rating_cells(rating: Rating | None, anchor: bool) -> tuple[str, str]:
    if rating is None:
        return "n/a", "n/a"
    if anchor:
        return "0", "anchor"
    return f"{rating.elo:+.0f}", "n/a" if rating.low is None else f"[{rating.low:+.0f}, {rating.high:+.0f}]"


def solo_table(result: Standings) -> Table:
    """Mean score and completion rate per agent (solitaire)."""
    table = Table(title=f"{escape(result.game)}: {result.deals} deals, each played by every agent",
                  title_justify="left")
    for name in ("Agent", "Games", "Mean score", "95% CI", "Completion", "95% CI "):
        table.add_column(name, justify="left" if name == "Agent" else "right")
    for agent in result.agents:
        table.add_row(escape(agent.agent), str(agent.seats), fmt(agent.score.mean, 2), interval(agent.score),
                      f"{100 * agent.wins.mean:.1f}%", interval(agent.wins, percent=True))
    return table


def pair_table(result: Standings) -> Table:
    """Each pair over the games both played: how often the first finished ahead, or
    (solitaire) the paired differences on the same deals."""
    solo = result.players == 1
    table = Table(title="Pairs, on the same deals" if solo else "Pairwise results", title_justify="left")
    names = (("Agent", "vs", "Deals", "Score difference", "95% CI", "Completion difference", "95% CI ") if solo
             else ("Agent", "vs", "Games", "Ahead", "95% CI"))
    for name in names:
        table.add_column(name, justify="left" if name in ("Agent", "vs") else "right")
    for pair in result.pairs:
        cells = [escape(pair.first), escape(pair.second), str(pair.games)]
        if pair.ahead is not None:
            cells += [f"{100 * pair.ahead.mean:.1f}%", interval(pair.ahead, percent=True)]
        if pair.score_difference is not None and pair.completion_difference is not None:
            cells += [f"{pair.score_difference.mean:+.2f}", interval(pair.score_difference),
                      f"{100 * pair.completion_difference.mean:+.1f}%", _points(pair.completion_difference)]
        table.add_row(*cells)
    table.caption = ("Agent minus vs, deal by deal." if solo
                     else "Ahead: the share of games both played in which Agent finished ahead of vs; level counts half.")
    table.caption_justify = "left"
    return table


def _points(e: Estimate) -> str:
    """A difference of rates in percentage points, ``[low%, high%]``.

    >>> _points(Estimate(-0.92, -1.0, -0.811, 50))
    '[-100.0%, -81.1%]'
    """
    if e.low is None or e.high is None:
        return "n/a"
    return f"[{100 * e.low:+.1f}%, {100 * e.high:+.1f}%]"
