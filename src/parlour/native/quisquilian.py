"""Quisquilian's codec for its native kernel (``csrc/quisquilian.c``): options and states
packed into the words the kernel reads, its figures decoded into the state's results.

The words of :func:`pack_state`, in order (a 64-bit number is two words, its low 32 bits
first as a signed word, then the rest):

- the header: players, decks, max_turns (64), turns (64), clearings (64), player, phase
  (0 discard, 1 dig), discards owed, the spots used this turn (bits 1-9), began_empty,
  played, quiet turns, barren, the winner (-1: none), the end (0 none, 1 complete,
  2 stalemate, 3 max_turns), and the history's decisions, runs and additions (``stats()``
  counts the whole record's);
- each seat's hand: its size, then its cards;
- each spot: its size, then its cards bottom to top;
- each seat's runs: how many, then each run's lowest card and length;
- the draw pile: its size, then its cards top first.

The die of a turn is not packed: a turn's discards owed are, and the die of later turns
comes from the seed. What the table knows of the cleared cards (QU-9) is not packed either:
no legal action, heuristic choice or result depends on it.

>>> import parlour
>>> game = parlour.load("quisquilian", players=5)
>>> pack_options(game)
[5, 2, 2000, 0]
>>> words, seed = pack_state(game.new_state(seed=3))
>>> words[:2], seed, len(words) == HEADER + 5 * 7 + 9 * 2 + 5 + 1 + 104 - 9 - 30
([5, 2], 3, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.core.errors import ParlourError
from parlour.core.game import Game
from parlour.games.quisquilian.actions import ADD, RUN
from parlour.games.quisquilian.state import COMPLETE, MAX_TURNS, STALEMATE, QuisState
from parlour.native.runner import Outcome

GAME = "quisquilian"
#: The heuristic's settings the kernel reads, in the order of its params array.
PARAMS: tuple[str, ...] = ("qu_deny", "qu_feed", "qu_idle", "qu_dig_back")
#: The header's words (see the module's docstring).
HEADER = 21
ENDS: tuple[str | None, ...] = (None, COMPLETE, STALEMATE, MAX_TURNS)
_END_CODE = {end: code for code, end in enumerate(ENDS)}
_LIMIT = 2**63


def _wide(value: int, what: str) -> tuple[int, int]:
    """A number below 2**63 as two signed 32-bit words, low first."""
    if not 0 <= value < _LIMIT:
        raise ParlourError(f"quisquilian {what} {value} cannot be packed: expected 0 or more, below 2**63")
    low = value & 0xFFFFFFFF
    return low - (1 << 32) if low >= 1 << 31 else low, value >> 32


def pack_options(game: Game) -> list[int]:
    """What the kernel's deal reads: players, decks, and max_turns as two words."""
    return [game.num_players, game.decks, *_wide(game.max_turns, "max_turns")]  # type: ignore[attr-defined]


def _history_counts(state: QuisState) -> tuple[int, int, int]:
    """The record's decisions, runs and additions so far (``stats()`` counts them all)."""
    decisions = runs = additions = 0
    node = state._history
    while node is not None:
        action, node = node
        decisions += 1
        kind = action.kind  # type: ignore[attr-defined]
        if kind == RUN:
            runs += 1
        elif kind == ADD:
            additions += 1
    return decisions, runs, additions


def pack_state(state: QuisState) -> tuple[list[int], int]:  # type: ignore[override]
    """The words the kernel's load reads for ``state`` (any state of the game), and its seed."""
    game = state.game
    n = state.n
    words = [n, game.decks, *_wide(game.max_turns, "max_turns"), *_wide(state.turns, "turns"),  # type: ignore[attr-defined]
             *_wide(state.clearings, "clearings"), state.player, state.phase, state.owed, state.used,
             int(state.began_empty), int(state.played), state.quiet, int(state.barren), state.winner,
             _END_CODE[state.end], *_history_counts(state)]
    for hand in state.hands:
        words.append(len(hand))
        words += hand
    for stack in state.spots:
        words.append(len(stack))
        words += stack
    for runs in state.runs:
        words.append(len(runs))
        for run in runs:
            words += (run[0], len(run))
    pile = state.pile
    words.append(len(pile) - state.top)
    words += pile[state.top :]
    return words, state.seed


def decode(game: Game, figures: Sequence[float]) -> Outcome:
    """The kernel's figures (winner, end, then stats' turns, decisions, runs, additions and
    clearings) as the state's scores(), winners(), end_reason and stats()."""
    winner, end = int(figures[0]), ENDS[int(figures[1])]
    stats: dict[str, Any] = {
        "turns": int(figures[2]),
        "decisions": int(figures[3]),
        "runs": int(figures[4]),
        "additions": int(figures[5]),
        "clearings": int(figures[6]),
        "end": end,
        "winner": winner if winner >= 0 else None,
    }
    scores = [int(seat == winner) for seat in range(game.num_players)]
    return Outcome(scores=scores, winners=[winner] if winner >= 0 else [], end=end, stats=stats)
