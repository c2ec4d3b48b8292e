"""Decktet Golf's side of its native kernel (``csrc/decktet_golf.c``): the options and states
packed into the words the kernel reads, and its figures read back as the state's results.

>>> import parlour
>>> game = parlour.load("decktet-golf", players=3, rounds=2)
>>> pack_options(game)
[3, 0, 50, 2, 2]
>>> words, seed = pack_state(game.new_state(seed=5))
>>> words[0] == MAGIC, words[1], seed
(True, 3, 5)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from parlour.core.errors import PositionError
from parlour.games.decktet_golf.state import AFTER_COVER, AFTER_LINES, ROUNDS, TARGET
from parlour.native.runner import Outcome

if TYPE_CHECKING:
    from parlour.core.game import Game, State

GAME = "decktet-golf"
#: The heuristic's settings the kernel reads, in order (agents/heuristic/decktet_golf.py).
PARAMS: tuple[str, ...] = ("dg_take", "dg_keep", "dg_lines", "dg_out_margin")
#: The first word of a packed state ("DG").
MAGIC = 0x4447
#: The header of a packed state, word by word (the kernel's ``W_*``); after it come the pending
#: lines, the cells, the face-up masks, the totals, the round-score sums per seat and per place,
#: the draw pile (top first), the discard pile (bottom first) and the unpaired entries.
HEADER = (
    "magic", "players", "excuse", "target", "rounds", "opening_flips", "phase", "player", "turn", "dealer",
    "round", "flips_left", "drawn", "from_pile", "ender", "after_swaps", "excuse_owed", "pile_known",
    "reshuffles", "turns", "line_discards", "end", "decisions", "swappers", "round_scores", "first_players",
    "lines", "draw_pile", "discard", "unpaired_kind", "unpaired",
)
_AFTER = {None: 0, AFTER_LINES: 1, AFTER_COVER: 2}
_ENDS = (None, TARGET, ROUNDS)
_END = {end: code for code, end in enumerate(_ENDS)}
#: stats() pairs each round's scores with its first player (zip); the kernel keeps the
#: entries one list has beyond the other, up to this many.
MAX_UNPAIRED = 15
_FIRSTS, _SCORES = 1, 2
_WORD = 2**31  # a packed word is a signed 32-bit int


def pack_options(game: Game) -> list[int]:
    """players, excuse, target, rounds (0: play to the target), opening_flips."""
    options = game.options
    return [options["players"], int(options["excuse"]), options["target"], options["rounds"] or 0,
            options["opening_flips"]]


def pack_state(state: State) -> tuple[list[int], int]:
    """The words ``load()`` reads (:data:`HEADER`, then the lists) and the chance seed.

    Besides the state's slots: the decisions made so far (``stats()["decisions"]``) and what
    ``stats()`` averages, the round scores summed per seat and per place in turn order.
    """
    n, options = state.n, state.game.options  # type: ignore[attr-defined]
    rounds, firsts = state.round_scores, state.firsts  # type: ignore[attr-defined]
    paired = min(len(rounds), len(firsts))
    if len(rounds) - paired > MAX_UNPAIRED or len(firsts) - paired > MAX_UNPAIRED:
        raise PositionError(
            f"the native kernel pairs round_scores with first_players (at most {MAX_UNPAIRED} more of one"
            f" than of the other), not {len(rounds)} with {len(firsts)}")
    if len(rounds) > paired:
        kind, queue = _SCORES, [score for scores in rounds[paired:] for score in scores]
    else:
        kind, queue = (_FIRSTS if len(firsts) > paired else 0), list(firsts[paired:])
    sums = [sum(scores[seat] for scores in rounds) for seat in range(n)]
    places = [sum(scores[(first + place) % n] for scores, first in zip(rounds, firsts)) for place in range(n)]
    pile = state.pile[state.top:]  # type: ignore[attr-defined]
    figures = (state.round, state.reshuffles, state.turns, state.line_discards,  # type: ignore[attr-defined]
               *state.totals, *sums, *places)  # type: ignore[attr-defined]
    if max(figures) >= _WORD or min(figures) < -_WORD:
        raise PositionError("the native kernel holds a match's counts and totals in 32 bits: this state's are larger")
    words = [
        MAGIC, n, int(options["excuse"]), options["target"], options["rounds"] or 0, options["opening_flips"],
        state.phase, state.player, state.turn, state.dealer, state.round,  # type: ignore[attr-defined]
        state.flips_left, state.drawn, int(state.from_pile), state.ender,  # type: ignore[attr-defined]
        _AFTER[state.after_swaps], int(state.excuse_owed), int(state.pile_known),  # type: ignore[attr-defined]
        state.reshuffles, state.turns, state.line_discards, _END[state.end],  # type: ignore[attr-defined]
        _history_length(state), len(state.swappers), len(rounds), len(firsts),  # type: ignore[attr-defined]
        len(state.lines), len(pile), len(state.discard),  # type: ignore[attr-defined]
        kind, len(rounds) + len(firsts) - 2 * paired,
        *state.lines, *state.cells, *state.up, *state.totals, *sums, *places,  # type: ignore[attr-defined]
        *pile, *state.discard, *queue,  # type: ignore[attr-defined]
    ]
    return words, state.seed  # type: ignore[attr-defined]


def _history_length(state: State) -> int:
    """len(state.history()) without building the list (a sampled state has none)."""
    count, node = 0, state._history
    while node is not None:
        count, node = count + 1, node[1]
    return count


def decode(game: Game, figures: Sequence[float]) -> Outcome:
    """The kernel's figures as ``scores(), winners(), end_reason, stats()`` of the finished state.

    The layout (``F_*`` in the kernel): players, 5 totals, the end, rounds, turns, line
    discards, decisions, 5 round-score sums per seat, the rounds paired with a first player,
    5 such sums per place in turn order. The averages are worked out here as stats() does
    (an integral float over an int divides as the two ints do).
    """
    n = game.num_players
    scores = [int(x) for x in figures[1:1 + n]]
    end = _ENDS[int(figures[6])]
    rounds, turns, discards, decisions = int(figures[7]), int(figures[8]), int(figures[9]), int(figures[10])
    per = rounds or 1
    stats: dict[str, Any] = {
        "rounds": rounds,
        "turns": turns,
        "turns_per_round": turns / per,
        "line_discards": discards,
        "line_discards_per_round": discards / per,
        "decisions": decisions,
        "end": end,
    }
    by_seat, by_place = _stat_keys(n)
    paired = int(figures[16])
    stats.update(zip(by_seat, [x / rounds for x in figures[11:11 + n]] if rounds else [0.0] * n))
    stats.update(zip(by_place, [x / paired for x in figures[17:17 + n]] if paired else [0.0] * n))
    if end is None:
        return Outcome(scores, [], end, stats)
    best = min(scores)
    return Outcome(scores, [seat for seat, total in enumerate(scores) if total == best], end, stats)


@functools.cache
def _stat_keys(n: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """stats()'s keys of the averages, per seat and per place in turn order."""
    return (tuple(f"round_score_{seat}" for seat in range(n)),
            tuple(f"round_score_turn_order{place + 1}" for place in range(n)))
