"""The standard study of a game: what a designer asks of it, played and measured in one go.

A study plays, on common random numbers (game ``i`` of every part is dealt by
``derive_seed(seed, i)``):

- the **base**: the game as given, every seat the study's agent; the first
  ``branching_games`` of it traced for the branching factor;
- every **variant** (each option's other values, :func:`default_variants`) against the base,
  paired game by game (:func:`~parlour.analysis.compare.comparison`);
- every **player count** the game allows (and the ``players_variants`` at each);
- the **skill ladder**: each pair of adjacent levels (and the weakest against the strongest)
  head to head on shared deals, every seating of the stronger level once per deal;
- an optional **bound** (an analysis-only agent, e.g. the clairvoyant) on the ladder's deals.

:func:`analyse` turns the rows into the measures of :mod:`parlour.analysis.measures`;
:mod:`parlour.analysis.study_report` writes them as Markdown and HTML with plots.

>>> plan = plan_study("decktet-golf", games=4, players=[2], player_games=2, levels=["novice", "casual"],
...                   ladder_games=2, branching_games=2, variants=["excuse=true"])
>>> [(job.stage, job.label, len(job.indices)) for job in jobs(plan)][:3]
[('base', 'default', 2), ('base', 'default', 2), ('variants', 'excuse=true', 4)]
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

import parlour
from parlour.analysis.compare import Comparison, Variant, comparison, figures, parse_variants
from parlour.analysis.figures import is_rate
from parlour.analysis.figures import difference_bounds, score_bounds
from parlour.analysis.lead import lead_track
from parlour.analysis.measures import (
    Branching,
    Rung,
    SeatBalance,
    Spread,
    branching,
    detectable,
    elo,
    games_needed,
    head_to_head,
    ladder,
    seat_balance,
    skill_index,
    spread,
    track_measures,
)
from parlour.analysis.metrics import design_metrics, seat_count
from parlour.analysis.parallel import Run, run_games
from parlour.analysis.simulate import game_row, native_row, play_out
from parlour.analysis.stats import Estimate, mean_ci, proportion_ci
from parlour.core.chance import derive_seed
from parlour.core.errors import OptionError
from parlour.core.scores import win_share

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import Game
    from parlour.core.options import Option

#: The label of the game as given, the baseline of every comparison.
DEFAULT = "default"
#: Options that are not rule variants: the number of seats has its own part of the study.
NOT_VARIANTS = {"players"}


# -- one measured game ------------------------------------------------------------------------
@dataclass(frozen=True)
class StudyRun(Run):
    """A run whose rows also carry ``margin`` and ``deficit`` (from the lead track) and, with
    ``trace``, ``legal`` (legal actions summed over the game's decisions) and ``forced``."""

    trace: bool = False

    def play(self, game: Game, agents: list[Agent], index: int) -> dict[str, Any]:
        deal = derive_seed(self.seed, index)
        row = measured_game(game, agents, self.agents, index, deal, self.seed, self.engine, self.trace)
        row.update(self.extra)
        return row


def measured(run: Run, trace: bool = False) -> StudyRun:
    """``run`` (e.g. one of :func:`~parlour.analysis.compare.variant_runs`) as a :class:`StudyRun`."""
    return StudyRun(**{f.name: getattr(run, f.name) for f in fields(Run)}, trace=trace)


def measured_game(game: Game, agents: Sequence[Agent], names: Sequence[str], index: int, deal: int, seed: int,
                  engine: str = "native", trace: bool = False) -> dict[str, Any]:
    """Game ``index``, dealt by ``deal``, as :func:`~parlour.analysis.simulate.play_game` plays
    it (the same row), with the study's figures besides (see :class:`StudyRun`).

    >>> import parlour
    >>> game = parlour.load("decktet-golf")
    >>> row = measured_game(game, [parlour.agent("heuristic")] * 2, ["heuristic"] * 2, 0, deal=5, seed=1, trace=True)
    >>> row["legal"] >= row["decisions"] > row["forced"] >= 0, row["margin"] > 0
    (True, True)
    """
    from parlour.native import kernel

    agent_seed = derive_seed(seed, index, "agents")
    several = game.num_players > 1
    native = kernel(game.name) if engine == "native" else None
    if native is not None and native.setup(agents) is not None:
        played = native.play_dealt(game, [deal], [agent_seed], agents, lead=several, trace=trace)[0]
        row = native_row(game, played, index, deal, names)
        track = played.lead
        counts = [len(decision.legal) for decision in played.trace or ()]
    else:
        state = game.new_state(deal)
        first, (track, standing) = state.current_player, lead_track(state)
        counts = [len(state.legal_actions())] if trace and state.current_player is not None else []

        def watch(now: Any) -> None:
            track.see(standing(now))
            if trace and now.current_player is not None:
                counts.append(len(now.legal_actions()))

        play_out(state, agents, random.Random(agent_seed), watch)
        row = game_row(state, index, deal, names)
        if several:
            row["first_player"] = first
            row.update(track.figures(state.winners()))
    if several:
        assert track is not None
        row.update(track_measures(track, row["winners"]))
    if trace:
        row["legal"], row["forced"] = sum(counts), sum(1 for c in counts if c == 1)
        row["decisions"] = len(counts)
    return row


# -- the plan --------------------------------------------------------------------------------
def default_variants(game: Game) -> list[Variant]:
    """Each option's other values: every other choice; the other truth value; for a range,
    its least, middle and greatest values (those not the default); for a number with no top,
    half and twice the default. An option whose default is 'none' with no choices is left out
    (there is no value to try it at), and so is ``players`` (it has its own part).

    >>> import parlour
    >>> [v.label for v in default_variants(parlour.load("decktet-golf"))]
    ['excuse=true', 'target=25', 'target=100', 'opening_flips=0', 'opening_flips=4', 'opening_flips=8']
    """
    found = []
    for spec in game.option_specs:
        if spec.name in NOT_VARIANTS:
            continue
        found += [Variant(f"{spec.name}={_text(value)}", {spec.name: _text(value)}) for value in _tried(spec)
                  if value != game.options.get(spec.name)]
    return found


def _tried(spec: Option) -> list[Any]:
    if spec.choices is not None:
        return [c for c in spec.choices if c != spec.default]
    if isinstance(spec.default, bool):
        return [not spec.default]
    if spec.default is None:
        return []
    if spec.minimum is not None and spec.maximum is not None:
        low, high = int(spec.minimum), int(spec.maximum)
        return list(dict.fromkeys([low, (low + high) // 2, high]))
    return [max(int(spec.minimum or 1), spec.default // 2), spec.default * 2]


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class Plan:
    """Everything a study plays; :func:`plan_study` checks it."""

    game: str
    options: dict[str, Any]
    agent: str
    games: int
    seed: int
    variants: list[Variant]
    players: list[int]
    player_games: int
    players_variants: list[Variant]
    levels: list[str]
    ladder_games: int
    ladder_players: int
    branching_games: int
    #: Games of a pair in which a level searches (strong, expert: seconds a move, not microseconds).
    search_games: int = 0
    bound: str | None = None
    bound_games: int = 0
    engine: str = "native"
    #: (players, variant label) pairs left out because the variant does not allow that count.
    skipped: list[tuple[int, str]] = field(default_factory=list)

    @property
    def seats(self) -> int:
        return parlour.load(self.game, **self.options).num_players


def plan_study(game: str, options: dict[str, Any] | None = None, agent: str = "heuristic", games: int = 2000,
               seed: int = 0, variants: Sequence[str] | None = None, players: Sequence[int] | None = None,
               player_games: int | None = None, players_variants: Sequence[str] = (),
               levels: Sequence[str] = ("novice", "casual"), ladder_games: int = 200,
               branching_games: int = 500, bound: str | None = None, bound_games: int = 0,
               engine: str = "native", search_games: int | None = None) -> Plan:
    """The study of ``game`` (its options as given), every choice checked before anything is
    played: a bad option, agent, level, player count or size is an OptionError saying what
    is allowed. ``variants`` None tries :func:`default_variants`; ``players`` None every
    count the game allows; ``search_games`` (default ``ladder_games``) sizes the ladder's pairs
    with a level that searches."""
    from parlour.agents.levels import level_names

    options = dict(options or {})
    base = parlour.load(game, **options)
    search_games = ladder_games if search_games is None else search_games
    for name, value in (("--games", games), ("--ladder-games", ladder_games), ("--search-games", search_games)):
        if value < 1:
            raise OptionError(f"{name} must be 1 or more, not {value}")
    for name, value in (("--branching-games", branching_games), ("--bound-games", bound_games),
                        ("--player-games", player_games or 0)):
        if value < 0:
            raise OptionError(f"{name} must be 0 or more, not {value}")
    _check_agent(base, agent)
    chosen = default_variants(base) if variants is None else _variants(variants, base)
    counts = _player_counts(base, players)
    extra = _variants(players_variants, base) if players_variants else []
    known = level_names()
    unknown = [level for level in levels if level not in known]
    if unknown or len(levels) < 2 or len(set(levels)) != len(levels):
        raise OptionError(f"--levels needs two or more different levels of {', '.join(known)} (weakest first), "
                          f"not {','.join(levels)}")
    levels = sorted(levels, key=known.index)
    ladder_players = base.num_players if "players" not in base.options else _fewest(base)
    if bound is not None:
        if base.num_players != 1:
            raise OptionError(f"--bound compares an analysis-only agent's score on the ladder's deals: "
                              f"a solitaire's, and {game} has {base.num_players} seats")
        _check_agent(base, bound, cheats=True)
        if bound_games < 1:
            raise OptionError("--bound needs --bound-games 1 or more")
    skipped = [(count, v.label) for count in counts for v in extra
               if not _allows(game, {**options, **v.options, "players": count})]
    return Plan(base.name, options, agent, games, seed, chosen, counts, games if player_games is None else player_games,
                extra, list(levels), ladder_games, ladder_players, min(branching_games, games), search_games, bound,
                bound_games, engine, skipped)


def _check_agent(game: Game, spec: str, cheats: bool = False) -> None:
    agent = parlour.agent(spec)
    agent.check(game)
    if getattr(agent, "cheats", False) and not cheats:
        raise OptionError(f"{spec} cheats (it sees the hidden cards): it can only be a --bound, not the study's agent")


def _variants(texts: Sequence[str], game: Game) -> list[Variant]:
    found = parse_variants(texts, game)
    return [v for v in found if v.options]  # parse_variants puts the game "as given" before one alone


def _player_counts(game: Game, given: Sequence[int] | None) -> list[int]:
    spec = next((s for s in game.option_specs if s.name == "players"), None)
    if spec is None:
        if given and list(given) != [game.num_players]:
            raise OptionError(f"{game.name} has no 'players' option: it always has {game.num_players} seat(s)")
        return []
    allowed = list(range(int(spec.minimum), int(spec.maximum) + 1))
    counts = allowed if given is None else sorted(set(given))
    wrong = [c for c in counts if c not in allowed]
    if wrong:
        raise OptionError(f"{game.name} plays {allowed[0]}-{allowed[-1]} players, not {', '.join(map(str, wrong))}")
    return counts


def _fewest(game: Game) -> int:
    spec = next(s for s in game.option_specs if s.name == "players")
    return int(spec.minimum)


def _allows(game: str, options: dict[str, Any]) -> bool:
    try:
        parlour.load(game, **options)
    except OptionError:
        return False
    return True


# -- the jobs --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Job:
    """A run of games: which part of the study (``stage``), its label, the run and its games."""

    stage: str
    label: str
    run: Run
    indices: range


def jobs(plan: Plan) -> list[Job]:
    """Everything ``plan`` plays, cheapest parts first."""
    found: list[Job] = []
    seats = plan.seats
    specs = (plan.agent,) * seats
    variants = [Variant(DEFAULT, {}), *plan.variants]
    for number, variant in enumerate(variants):
        run = Run(plan.game, {**plan.options, **variant.options}, specs, plan.seed,
                  extra={"variant": variant.label, "variant_index": number}, engine=plan.engine)
        if number == 0:
            found.append(Job("base", DEFAULT, measured(run, trace=True), range(plan.branching_games)))
            found.append(Job("base", DEFAULT, measured(run), range(plan.branching_games, plan.games)))
        else:
            found.append(Job("variants", variant.label, measured(run), range(plan.games)))
    skipped = set(plan.skipped)
    for count in plan.players if plan.player_games else ():
        for number, variant in enumerate([Variant(DEFAULT, {}), *plan.players_variants]):
            if (count, variant.label) in skipped:
                continue
            options = {**plan.options, **variant.options, "players": count}
            extra = {"variant": variant.label, "variant_index": number, "study_players": count}
            found.append(Job("players", f"{count} players, {variant.label}",
                             measured(Run(plan.game, options, (plan.agent,) * count, plan.seed, extra=extra,
                                          engine=plan.engine)), range(plan.player_games)))
    found += _ladder_jobs(plan)
    return found


def _ladder_jobs(plan: Plan) -> list[Job]:
    """Each pair of adjacent levels, and the weakest against the strongest, on the same deals:
    in a solitaire each level plays every deal; otherwise every seating of one stronger seat
    among weaker ones is played on each deal (so each seat is the stronger's equally often)."""
    levels = plan.levels
    pairs = list(zip(levels, levels[1:]))
    if len(levels) > 2:
        pairs.append((levels[0], levels[-1]))
    options = dict(plan.options)
    if "players" in parlour.load(plan.game, **options).options:
        options["players"] = plan.ladder_players
    seats = plan.ladder_players

    def games(*named: str) -> int:
        return plan.search_games if any(searches(level) for level in named) else plan.ladder_games

    found = []
    if seats == 1:
        for level in levels:
            run = Run(plan.game, options, (f"level:{level}",), plan.seed, extra={"level": level}, engine=plan.engine)
            found.append(Job("ladder", level, run, range(games(level))))
        if plan.bound is not None:
            run = Run(plan.game, options, (plan.bound,), plan.seed, extra={"level": "bound"}, engine=plan.engine)
            found.append(Job("bound", plan.bound, run, range(plan.bound_games)))
        return found
    for weaker, stronger in pairs:
        deals = range(max(1, -(-games(weaker, stronger) // seats)))
        for seat in range(seats):
            lineup = tuple(f"level:{stronger}" if s == seat else f"level:{weaker}" for s in range(seats))
            extra = {"weaker": weaker, "stronger": stronger, "stronger_seat": seat}
            found.append(Job("ladder", f"{stronger} v {weaker}, seat {seat}",
                             Run(plan.game, options, lineup, plan.seed, extra=extra, engine=plan.engine), deals))
    return found


def searches(level: str) -> bool:
    """Whether a level thinks (searches) before it moves: its games cost seconds, not microseconds.

    >>> searches("casual"), searches("strong")
    (False, True)
    """
    budget = parlour.agent(f"level:{level}").budget()
    return bool(budget.seconds) or bool(budget.iterations)


def play(plan: Plan, workers: int | None = None, backend: str = "process", address: str | None = None,
         progress: Callable[[Job, int], None] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Play every job of ``plan``: the rows by stage; ``progress(job, games done)`` after each game."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for job in jobs(plan):
        if not job.indices:
            continue
        for done, row in enumerate(run_games(job.run, job.indices, workers, backend, address), 1):
            rows.setdefault(job.stage, []).append(row)
            if progress is not None:
                progress(job, done)
    return rows



# -- the measures ----------------------------------------------------------------------------
#: The counts whose spread a study gives, where the rows have them, and the least each can be:
#: the durations, and Quisquilian's clearings (how often the yard was cleared, QU-7).
DURATIONS = {"decisions": 0, "turns": 0, "rounds": 1, "clearings": 0}


@dataclass(frozen=True)
class Part:
    """The measures of one group of rows (one variant at one player count)."""

    label: str
    games: int
    seats: int
    #: A solitaire's score and completion rate (None elsewhere).
    score: Estimate | None
    completion: Estimate | None
    ends: list[tuple[str, Estimate]]
    #: The :data:`DURATIONS` the rows have; a solitaire's score too.
    durations: dict[str, Spread]
    balance: SeatBalance | None
    #: The first player's share of the wins of decided games (fair: 1/seats).
    first_player: Estimate | None
    margin: Estimate | None
    deficit: Estimate | None
    #: How often the winner was behind the leader at some point.
    trailed: Estimate | None
    decisiveness: Estimate | None
    lead_changes: Estimate | None
    branching: Branching | None


def part(label: str, rows: Sequence[dict[str, Any]]) -> Part:
    """The measures of ``rows`` (one game, one variant, one player count).

    >>> rows = [{"game": "g", "score_0": 1, "score_1": 0, "winners": [0], "end": "won", "turns": 9,
    ...          "first_player": 0, "margin": 2, "deficit": 0, "lead_changes": 0, "midpoint_leader": 0}] * 3
    >>> p = part("all", rows)
    >>> p.balance.seat, p.first_player.mean, p.margin.mean, p.trailed.mean, p.durations["turns"].sd
    (0, 1.0, 2.0, 0.0, 0.0)
    """
    seats = seat_count(rows[0])
    design = design_metrics(rows)
    durations = {name: spread([row[name] for row in rows], floor) for name, floor in DURATIONS.items()
                 if all(isinstance(row.get(name), (int, float)) for row in rows)}
    traced = [row for row in rows if "legal" in row]
    found = Part(label, len(rows), seats, None, None, design.ends, durations, None, None, None, None, None,
                 design.decisiveness, design.lead_changes,
                 branching([r["legal"] for r in traced], [r["forced"] for r in traced],
                           [r["decisions"] for r in traced]) if traced else None)
    if seats == 1:
        completion = [row["complete"] for row in rows if isinstance(row.get("complete"), bool)]
        scores, bounds = [row["score"] for row in rows], score_bounds(rows[0].get("game"), rows[0].get("options"))
        return replace(found, score=mean_ci(scores, within=bounds),
                       durations={"score": spread(scores, None, bounds), **durations},
                       completion=proportion_ci(sum(completion), len(completion)) if completion else None)
    decided = [row for row in rows if row["winners"]]
    wins = [math.fsum(win_share(seat, row["winners"]) for row in decided) for seat in range(seats)]
    first = [win_share(row["first_player"], row["winners"]) for row in decided if row.get("first_player") is not None]
    margins = [row["margin"] for row in rows if row.get("margin") is not None]
    deficits = [row["deficit"] for row in rows if row.get("deficit") is not None]
    return replace(found, balance=seat_balance(wins, len(decided)),
                   first_player=proportion_ci(math.fsum(first), len(first)) if first else None,
                   margin=mean_ci(margins, within=(0, None)) if margins else None,  # both never below 0
                   deficit=mean_ci(deficits, within=(0, None)) if deficits else None,
                   trailed=proportion_ci(sum(d > 0 for d in deficits), len(deficits)) if deficits else None)


@dataclass(frozen=True)
class Ladder:
    """The skill ladder: the rungs (adjacent levels), the weakest against the strongest
    (``extremes``), the skill index, each level's mean score and completion (a solitaire),
    and the seats it was played at."""

    rungs: list[Rung]
    extremes: Rung
    skill: Estimate
    seats: int
    games: int
    scores: dict[str, Estimate] = field(default_factory=dict)
    completion: dict[str, Estimate] = field(default_factory=dict)


def skill_ladder(rows: Sequence[dict[str, Any]], levels: Sequence[str], seats: int) -> Ladder:
    """The ladder of ``levels`` (weakest first) from the ladder rows of a study."""
    pairs = list(zip(levels, levels[1:]))
    if seats == 1:
        by_level: dict[str, dict[int, dict[str, Any]]] = {}
        for row in rows:
            by_level.setdefault(row["level"], {})[row["index"]] = row
        rungs = [_solitaire_rung(by_level[w], by_level[s], w, s) for w, s in pairs]
        extremes = _solitaire_rung(by_level[levels[0]], by_level[levels[-1]], levels[0], levels[-1])
        bounds = score_bounds(rows[0].get("game"), rows[0].get("options")) if rows else (None, None)
        scores = {level: mean_ci([r["score"] for r in by_level[level].values()], within=bounds) for level in levels}
        completion = {level: proportion_ci(sum(bool(r.get("complete")) for r in by_level[level].values()),
                                           len(by_level[level])) for level in levels}
        return Ladder(ladder(rungs), extremes, skill_index(extremes.p), 1, len(by_level[levels[0]]), scores, completion)
    rungs = [_table_rung(rows, w, s, seats) for w, s in pairs]
    extremes = rungs[0] if len(levels) == 2 else _table_rung(rows, levels[0], levels[-1], seats)
    return Ladder(ladder(rungs), extremes, skill_index(extremes.p, seats), seats, extremes.p.n)


def _solitaire_rung(weak: dict[int, dict[str, Any]], strong: dict[int, dict[str, Any]], weaker: str,
                    stronger: str) -> Rung:
    deals = sorted(set(weak) & set(strong))
    ahead = [float(strong[d]["score"] > weak[d]["score"]) for d in deals]
    behind = [float(strong[d]["score"] < weak[d]["score"]) for d in deals]
    p, upset = head_to_head(ahead, behind)
    first = next(iter(weak.values()), {})
    bounds = difference_bounds(score_bounds(first.get("game"), first.get("options")))
    gap = mean_ci([strong[d]["score"] - weak[d]["score"] for d in deals], within=bounds)
    return Rung(weaker, stronger, p, upset, gap)


def _table_rung(rows: Sequence[dict[str, Any]], weaker: str, stronger: str, seats: int) -> Rung:
    games = [row for row in rows if row["weaker"] == weaker and row["stronger"] == stronger]
    if not games:
        raise OptionError(f"no ladder games of {stronger} against {weaker}")
    strong = [win_share(row["stronger_seat"], row["winners"]) for row in games]
    weak = [sum(win_share(s, row["winners"]) for s in range(seats) if s != row["stronger_seat"]) for row in games]
    p, upset = head_to_head(strong, weak, seats)
    return Rung(weaker, stronger, p, upset, elo(p, seats))


@dataclass(frozen=True)
class Bound:
    """An analysis-only agent's mean score on the ladder's deals, and how far the ladder's
    strongest level is below it (paired on the same deals)."""

    agent: str
    score: Estimate
    completion: Estimate
    level: str
    below: Estimate


def bound(rows: Sequence[dict[str, Any]], ladder_rows: Sequence[dict[str, Any]], level: str, agent: str) -> Bound:
    """The bound's figures against ``level``'s scores on the same deals."""
    strongest = {row["index"]: row for row in ladder_rows if row["level"] == level}
    deals = [row for row in rows if row["index"] in strongest]
    bounds = score_bounds(deals[0].get("game"), deals[0].get("options")) if deals else (None, None)
    return Bound(agent, mean_ci([r["score"] for r in deals], within=bounds),
                 proportion_ci(sum(bool(r.get("complete")) for r in deals), len(deals)), level,
                 mean_ci([r["score"] - strongest[r["index"]]["score"] for r in deals], within=difference_bounds(bounds)))


@dataclass(frozen=True)
class Advice:
    """How many games a figure's difference needs: its per-game standard deviation (of the
    paired differences, the largest over the variants), the least difference this study's
    games find (80% power, 95% confidence), and the games a difference of ``difference`` needs."""

    figure: str
    sd: float
    detectable: float | None
    difference: float
    games: int


#: The difference asked about: 2 percentage points for a share, 1 for a score or a count.
SHARE_DIFFERENCE, UNIT_DIFFERENCE = 0.02, 1.0


def advice(rows: Sequence[dict[str, Any]], names: Sequence[str]) -> list[Advice]:
    """Sample-size advice for the figures ``names`` of variant rows on common random numbers
    (variant 0 the baseline), from the standard deviation of their paired differences.

    >>> rows = [{"variant_index": v, "index": i, "winners": [], "end": "x", "turns": 10 + v * (i % 2)}
    ...         for v in (0, 1) for i in range(4)]
    >>> [(a.figure, round(a.sd, 3), a.difference, a.games) for a in advice(rows, ["turns"])]
    [('turns', 0.577, 1.0, 5)]
    """
    by_variant: dict[int, dict[int, dict[str, float]]] = {}
    for row in rows:
        found = figures(row)
        found[f"end: {row['end']}"] = 1.0
        by_variant.setdefault(row["variant_index"], {})[row["index"]] = found
    base = by_variant.pop(0, {})
    result = []
    for name in names:
        sds = []
        for games in by_variant.values():
            common = sorted(set(games) & set(base))
            differences = [games[i].get(name, 0.0) - base[i].get(name, 0.0) for i in common]
            if len(differences) > 1:
                sds.append(statistics.stdev(differences))
        if not sds or max(sds) == 0:  # never differs: nothing to find
            continue
        sd, games_played = max(sds), len(base)
        share = is_rate(name, [games.get(name, 0.0) for games in base.values()])
        difference = SHARE_DIFFERENCE if share else UNIT_DIFFERENCE
        result.append(Advice(name, sd, detectable(sd, games_played), difference, games_needed(sd, difference)))
    return result


@dataclass(frozen=True)
class Findings:
    """What a study found: the base, each variant (and their comparison), each player count,
    the ladder, the bound, the sample-size advice."""

    plan: Plan
    base: Part
    variants: list[Part]
    comparison: Comparison | None
    players: dict[int, list[Part]]
    ladder: Ladder
    bound: Bound | None
    advice: list[Advice]
    #: The figures of the comparison worth a panel and a line of advice.
    headline: list[str]


def variant_groups(rows: Sequence[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """A study's rows by variant label, in variant order (rows with no variant under ``all
    games``): the rows stay dicts, since a study's parts differ in their keys (only the traced
    games carry ``legal``).

    >>> list(variant_groups([{"variant": "decks=2", "variant_index": 1}, {"variant_index": 0}]))
    ['all games', 'decks=2']
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(rows, key=lambda r: r.get("variant_index", 0)):
        groups.setdefault(str(row.get("variant", "all games")), []).append(row)
    return groups


def analyse(plan: Plan, rows: dict[str, list[dict[str, Any]]]) -> Findings:
    """The measures of a study's rows (from :func:`play`)."""
    compared = rows.get("base", []) + rows.get("variants", [])
    groups = variant_groups(compared)
    parts = [part(label, group) for label, group in groups.items()]
    result = comparison([_comparable(row) for row in compared]) if len(groups) > 1 else None
    headline = headline_figures(result) if result is not None else []
    by_count: dict[int, list[Part]] = {}
    for row in rows.get("players", []):
        by_count.setdefault(row["study_players"], [])
    for count in by_count:
        here = variant_groups([row for row in rows["players"] if row["study_players"] == count])
        by_count[count] = [part(label, group) for label, group in here.items()]
    ladder_found = skill_ladder(rows.get("ladder", []), plan.levels, plan.ladder_players)
    found_bound = None if plan.bound is None else bound(rows.get("bound", []), rows["ladder"], plan.levels[-1],
                                                        plan.bound)
    found_advice = advice(compared, headline)
    if parts[0].first_player is not None:  # a seat's edge is read from one run, not a paired one
        fair = 1 / parts[0].seats
        sd = math.sqrt(fair * (1 - fair))
        found_advice.append(Advice("first player wins (one run, against the fair share)", sd, detectable(sd, parts[0].first_player.n),
                                   SHARE_DIFFERENCE, games_needed(sd, SHARE_DIFFERENCE)))
    return Findings(plan, parts[0], parts[1:], result, by_count, ladder_found, found_bound, found_advice, headline)


#: The figures a variant's effect is shown for, where the game has them, then every end reason.
HEADLINE = ("score", "complete", "first player wins", "turns", "rounds", "clearings", "lead_changes")


def headline_figures(result: Comparison) -> list[str]:
    """The figures of a comparison a study shows: a solitaire's score, the first player's
    share of the wins (a seat's own share says little across variants), the length, and
    how the games end (an end reason that repeats a figure shown, or that ends every game, is
    left out).

    >>> from parlour.analysis.compare import Effect
    >>> means = {"score_0": 40.0, "win_0": 0.5, "first player wins": 0.6, "turns": 90.0, "end: target": 0.9,
    ...          "end: rounds": 0.0, "end: stalemate": 0.1}
    >>> effects = [Effect(name, [Estimate(mean, None, None, 1)], [None]) for name, mean in means.items()]
    >>> headline_figures(Comparison(["a"], 1, effects, []))
    ['first player wins', 'turns', 'end: target']
    """
    names = [effect.figure for effect in result.effects]
    shown = [n for n in HEADLINE if n in names]
    means = {e.figure: [m.mean for m in e.means] for e in result.effects}
    for name in names:  # an end reason that only repeats a figure shown (a solitaire's 'complete'), or
        # that every game of every variant ends by, is left out
        if not name.startswith("end: ") or set(means[name]) <= {0.0} or set(means[name]) <= {1.0}:
            continue
        if not any(_same(means[name], means[s]) or _same(means[name], [1 - m for m in means[s]]) for s in shown):
            shown.append(name)
    return shown


def _same(first: Sequence[float], second: Sequence[float]) -> bool:
    return len(first) == len(second) and all(math.isclose(a, b, abs_tol=1e-12) for a, b in zip(first, second))


#: The study's own figures: compared per variant in its measures, not as paired differences
#: (a game nobody won has no margin, so they are not in every row).
STUDY_FIGURES = ("margin", "deficit", "legal", "forced")


def _comparable(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key not in STUDY_FIGURES}
