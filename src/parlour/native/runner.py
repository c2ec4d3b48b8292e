"""Running a game's kernel: agents to policies, states in, outcomes and records out.

Each game with a kernel has a module ``parlour.native.<game package>`` (its *codec*) that
packs options and states into the words its C kernel reads and decodes the figures it gives
back: ``GAME``, ``PARAMS`` (the heuristic's settings the kernel reads, in order),
``pack_options(game)``, ``pack_state(state) -> (words, seed)`` and
``decode(game, figures) -> Outcome``; ``SEARCH = True`` where the kernel searches the game
(a solitaire's ``pimc``, ``csrc/search.c``).

>>> import parlour, parlour.native
>>> kernel = parlour.native.kernel("psalter-row")
>>> game = parlour.load("psalter-row")
>>> kernel is None or kernel.play_dealt(game, [7], [1], [parlour.agent("random")])[0].decisions > 0
True
"""

from __future__ import annotations

import functools
import random
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from parlour.agents.heuristic import HeuristicAgent
from parlour.agents.random_agent import RandomAgent
from parlour.analysis.lead import LeadTrack
from parlour.core.errors import PositionError

if TYPE_CHECKING:
    from parlour.agents.base import Agent
    from parlour.core.game import Game, State
    from parlour.core.view import View

RANDOM, HEURISTIC = 0, 1
RECORD, TRACE, LEAD = 1, 2, 4
#: A game still going after this many decisions is an error (no game of parlour comes near).
MAX_DECISIONS = 1_000_000
#: The samples of a search bound by its clock alone.
MAX_SAMPLES = 2**31 - 1


class Outcome(NamedTuple):
    """A finished game's ``scores()``, ``winners()``, ``end_reason`` and ``stats()``."""

    scores: list[Any]
    winners: list[int]
    end: str | None
    stats: dict[str, Any]


@dataclass(frozen=True)
class Decision:
    """One decision of a traced game: the seat to move, the legal actions' notation in
    order, and the index of the one chosen."""

    seat: int
    chosen: int
    legal: list[str]


@dataclass(frozen=True)
class Played:
    """A game played by a kernel: its outcome, and what was asked for besides."""

    outcome: Outcome
    decisions: int
    first_player: int | None
    lead: LeadTrack | None = None
    actions: list[str] | None = None
    trace: list[Decision] | None = None

    def record(self, start: State) -> dict[str, Any]:
        """The record of the game played from ``start`` (made with ``record=True``): the
        start's own record with the kernel's actions and result after it."""
        if self.actions is None:
            raise ValueError("this game was played without record=True")
        record = start.record()
        record["actions"] = record["actions"] + self.actions
        scores, winners, end, _ = self.outcome
        record["result"] = {"scores": scores, "winners": winners, "end": end}
        return record


class Kernel:
    """One game's compiled kernel (made by :func:`parlour.native.kernel`)."""

    def __init__(self, module: ModuleType, codec: ModuleType) -> None:
        self._module = module
        self._codec = codec
        self.game_name: str = codec.GAME

    # -- agents ------------------------------------------------------------------------
    def setup(self, agents: Sequence[Agent]) -> tuple[bytes, bytes] | None:
        """The policy bytes and heuristic parameters that play these agents, or None when
        some agent has no kernel (only ``random`` and ``heuristic`` have, and the levels that
        play them; heuristic seats of one game must share their settings)."""
        from parlour.agents.levels import LevelAgent

        policies, settings = bytearray(), None
        for agent in agents:
            if type(agent) is LevelAgent:
                agent = agent.agent_for(self.game_name)
            if type(agent) is RandomAgent:
                policies.append(RANDOM)
            elif type(agent) is HeuristicAgent:
                if settings is not None and settings != agent.settings:
                    return None
                settings = agent.settings
                policies.append(HEURISTIC)
            else:
                return None
        return bytes(policies), self._params(settings or _DEFAULTS)

    def _params(self, settings: dict[str, Any]) -> bytes:
        return _packed_params(tuple(float(settings[name]) for name in self._codec.PARAMS))

    def _setup_or_fail(self, agents: Sequence[Agent]) -> tuple[bytes, bytes]:
        setup = self.setup(agents)
        if setup is None:
            raise ValueError(f"no kernel plays {', '.join(a.spec for a in agents)} (random and heuristic only)")
        return setup

    # -- playing -----------------------------------------------------------------------
    def play_dealt(self, game: Game, deals: Sequence[int], agent_seeds: Sequence[int], agents: Sequence[Agent], *,
                   record: bool = False, trace: bool = False, lead: bool = False) -> list[Played]:
        """Games dealt by ``game.new_state(deals[i])``, their agents drawing from
        ``random.Random(agent_seeds[i])`` (as :func:`parlour.analysis.simulate.play_game` does)."""
        policies, params = self._setup_or_fail(agents)
        flags = _flags(record, trace, lead)
        options = array("i", self._codec.pack_options(game)).tobytes()
        raw = self._module.run_many(self.game_name, options, [str(deal) for deal in deals], list(agent_seeds),
                                    policies, params, flags, MAX_DECISIONS)
        return [self._played(game, item, flags) for item in raw]

    def play_from(self, state: State, agents: Sequence[Agent], rng: random.Random, *, record: bool = False,
                  trace: bool = False, lead: bool = False) -> Played:
        """Play ``state`` (left as it is) to its end, the agents drawing from ``rng`` (left as
        the Python agents would leave it)."""
        policies, params = self._setup_or_fail(agents)
        return self._run(state, policies, params, rng, _flags(record, trace, lead))

    def playout(self, state: State, heuristic: bool, settings: dict[str, Any] | None, rng: random.Random) -> Outcome:
        """The outcome of playing ``state`` (left as it is) to its end with every seat on one
        policy, drawing from ``rng`` as IS-MCTS's playouts in Python would."""
        policies = bytes([HEURISTIC if heuristic else RANDOM]) * state.game.num_players
        return self._run(state, policies, self._params(settings or _DEFAULTS), rng, 0, outcome_only=True)

    def _run(self, state: State, policies: bytes, params: bytes, rng: random.Random, flags: int,
             outcome_only: bool = False) -> Any:
        words, seed = self._codec.pack_state(state)
        source = self._rng_source(rng)
        try:
            *item, after = self._module.run(self.game_name, 1, array("i", words).tobytes(), str(seed), source,
                                            policies, params, flags, MAX_DECISIONS)
        except ValueError as err:
            raise PositionError(f"the native {self.game_name} kernel refused this state: {err}") from None
        _rng_back(rng, source, after)
        if outcome_only:
            return self._codec.decode(state.game, item[0])
        return self._played(state.game, item, flags)

    def _rng_source(self, rng: random.Random) -> object:
        """What the kernel draws from: a plain random.Random itself, read and written in place
        (its layout checked once), else its getstate() words."""
        if type(rng) is random.Random and _rng_in_place(self._module):
            return rng
        return array("I", rng.getstate()[1]).tobytes()

    # -- searching ---------------------------------------------------------------------
    @property
    def searches(self) -> bool:
        """Whether the kernel runs the game's determinized search (a solitaire's, ``pimc``)."""
        return bool(getattr(self._codec, "SEARCH", False))

    def search(self, view: View, rng: random.Random, samples: int | None, inner: int, seconds: float | None,
               settings: dict[str, Any] | None = None, race: float = 0.0) -> tuple[list[float | None], int]:
        """What :meth:`parlour.agents.pimc.PimcAgent.decide` sums, in the kernel: each legal
        move's total reward over the samples of ``view`` it draws from ``rng`` (left as the
        Python search leaves it: the same samples), and how many samples that is. ``inner``: 0
        for the heuristic's playouts, else the samples of the PIMC player that plays after
        each move (``rollout=pimc``); ``seconds``: no sample begun after it, nor (with
        ``inner``) an inner decision: a sample it overtakes is dropped (the first: one
        sample of the heuristic's playouts judges the moves instead); ``race``: PIMC's
        ``race`` (0: none), a move it drops totalled as None.

        >>> import parlour, random
        >>> from parlour.native import kernel
        >>> view = parlour.load("psalter-row").new_state(seed=4).view(0)
        >>> totals, done = kernel("psalter-row").search(view, random.Random(0), 8, 0, None)
        >>> len(totals) == len(view.legal_actions), done
        (True, 8)
        """
        # Any state of the view will do: the kernel deals every sample's hidden cards anew. It
        # is drawn from a generator of its own, so that the agent's draws are the samples' only.
        words, seed = self._codec.pack_state(view.sample(random.Random(0)))
        low, high = view.game.score_range  # type: ignore[misc]  # a searched game is a solitaire
        source = self._rng_source(rng)
        totals, done, after = self._module.search(
            self.game_name, array("i", words).tobytes(), str(seed), source, self._params(settings or _DEFAULTS),
            samples if samples is not None else MAX_SAMPLES, inner, float(low), float(high), seconds or 0.0,
            float(race))
        _rng_back(rng, source, after)
        return totals, done

    def _played(self, game: Game, item: Sequence[Any], flags: int) -> Played:
        figures, decisions, first, lower_better, record, trace, lead = item
        return Played(
            outcome=self._codec.decode(game, figures),
            decisions=decisions,
            first_player=None if first < 0 else first,
            lead=_lead_track(lead, game.num_players, decisions, lower_better) if flags & LEAD else None,
            actions=record.splitlines() if flags & RECORD else None,
            trace=_decisions(trace) if flags & TRACE else None,
        )


_DEFAULTS = HeuristicAgent().settings


@functools.lru_cache(maxsize=256)
def _packed_params(values: tuple[float, ...]) -> bytes:
    return array("d", values).tobytes()


def _rng_back(rng: random.Random, source: object, after: bytes | None) -> None:
    """Where the kernel drew from getstate()'s words, the generator takes its state after."""
    if source is not rng:
        version, _, gauss = rng.getstate()
        rng.setstate((version, tuple(array("I", after)), gauss))  # type: ignore[arg-type]


@functools.cache
def _rng_in_place(module: ModuleType) -> bool:
    """Whether the kernels read a random.Random's state as this CPython keeps it: the words
    they read equal ``getstate()``'s, before and after draws."""
    probe = random.Random(20261201)
    for draws in (0, 700):
        for _ in range(draws):
            probe.random()
        try:
            seen = module.rng_words(probe)
        except TypeError:
            return False
        if seen != array("I", probe.getstate()[1]).tobytes():
            return False
    return True


def _flags(record: bool, trace: bool, lead: bool) -> int:
    return (RECORD if record else 0) | (TRACE if trace else 0) | (LEAD if lead else 0)


def _lead_track(data: bytes, players: int, decisions: int, lower_better: int) -> LeadTrack | None:
    """The lead track the Python driver would have kept, from the kernel's changes."""
    if players < 2:
        return None
    values = array("d", data)
    width = players + 1
    changes = [(int(values[at]), tuple(values[at + 1:at + width])) for at in range(0, len(values), width)]
    track = LeadTrack(changes[0][1], None if lower_better < 0 else bool(lower_better))
    track.changes = changes
    track.last = changes[-1][1]
    track.decisions = decisions
    return track


def _decisions(text: str) -> list[Decision]:
    lines = text.split("\n")
    out, at = [], 0
    while at < len(lines) - 1:
        seat, chosen, count = map(int, lines[at].split())
        out.append(Decision(seat, chosen, lines[at + 1:at + 1 + count]))
        at += 1 + count
    return out
