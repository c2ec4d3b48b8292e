"""What the conformance suite needs to know about each game, and nothing more.

The suite in this folder is generic: it runs against every name in
``parlour.game_names()``. All game-specific knowledge lives here, one
:class:`Adapter` per game:

- ``cards_by_place(position)``: every card code in a position, by place, for the
  card-conservation check (each card of the deck in exactly one place);
- ``deck(options)``: the game's deck as a list of codes (a multiset: a double
  Decktet has two cards with one code);
- ``invariants(state)``: the game's own invariants, written here from the rule
  text and RULINGS.md, independently of the engine (never by calling the game's
  rules or scoring modules);
- ``transition(before, action_text, after)``: optional checks of one step
  (positions before and after an action);
- ``hidden_twin(state, seat, rng)``: a state that differs from ``state`` only in
  what ``seat`` cannot know (the no-leak check compares what the seat gets from both);
- ``junk_notation``: texts that are illegal or do not parse in (nearly) every state;
- ``start_positions``: hand-written positions played out too (edge cases random play
  rarely reaches), and ``policy``: a chooser of actions less aimless than uniform
  random, used for half of the playouts; ``end_reasons``: the end reasons that the
  fast run must reach (so that rare endings are not left untested);
- how many random playouts the fast run and the soak run make.

A new game adds one entry to ``ADAPTERS``; ``test_every_game_has_an_adapter`` fails
until it does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from parlour.core.game import State


@dataclass(frozen=True)
class Adapter:
    cards_by_place: Callable[[dict[str, Any]], dict[str, list[str]]]
    deck: Callable[[dict[str, Any]], list[str]]
    invariants: Callable[[State], None]
    hidden_twin: Callable[[State, int, random.Random], State]
    transition: Callable[[dict[str, Any], str, dict[str, Any]], None] | None = None
    junk_notation: tuple[str, ...] = ()
    start_positions: tuple[dict[str, Any], ...] = ()
    policy: Callable[[State, random.Random], int] | None = None
    end_reasons: frozenset[str] = frozenset()
    #: playouts in the default (fast) run: a random subset of the option combinations
    fast_playouts: int = 16
    #: playouts in the ``-m slow`` soak: every option combination, round-robin
    soak_playouts: int = 1000
    #: a playout that has not ended after this many actions fails
    max_actions: int = 100_000


# ---------------------------------------------------------------------------------------
# Psalter Row (RULINGS.md PR-1 .. PR-14; DESIGN.md "Psalter Row"; docs/engine-notes.md)
# ---------------------------------------------------------------------------------------

_PR_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_PR_SUITS = ("C", "D", "H", "S")
_PR_PLACES = ("row", "hand", "draw_pile", "discard", "removed")
_PR_OBS_KEYS = {
    "game", "seat", "current_player", "options", "row", "hand", "draw_pile_size", "discard",
    "removed", "reshuffled", "pending", "pending_discards", "end", "score",
}


def _pr_rank(code: str) -> str:
    return code[:-1]


def _pr_value(code: str) -> int:
    """A Page's number; 0 for Aces and court cards (not Pages)."""
    rank = _pr_rank(code)
    return int(rank) if rank.isdigit() else 0


def _pr_colour(code: str) -> str:
    return "red" if code[-1] in "DH" else "black"


def _pr_deck(options: dict[str, Any]) -> list[str]:
    return [rank + suit for suit in _PR_SUITS for rank in _PR_RANKS]


def _pr_cards_by_place(position: dict[str, Any]) -> dict[str, list[str]]:
    return {place: list(position[place]) for place in _PR_PLACES}


def pr_recount(row: list[str]) -> int:
    """PR-13, recounted from the ruling text alone.

    +1 per Page in the Row, -1 per missing value of 2-10. The largest Quire (a run
    of >= 2 consecutive values; the best of any tied) earns +2 if its Pages share one
    suit, else +1 if they share one colour. A complete Psalter takes instead +5 for
    one suit, +2 for one colour, +0 mixed.
    """
    values = [_pr_value(c) for c in row]
    pages = len(row)
    total = pages - (9 - pages)
    if pages == 9:
        if len({c[-1] for c in row}) == 1:
            return total + 5
        if len({_pr_colour(c) for c in row}) == 1:
            return total + 2
        return total
    runs: list[list[str]] = []
    for code, value in zip(row, values):
        if runs and value == _pr_value(runs[-1][-1]) + 1:
            runs[-1].append(code)
        else:
            runs.append([code])
    quires = [run for run in runs if len(run) >= 2]
    if not quires:
        return total
    largest = max(len(q) for q in quires)

    def bonus(quire: list[str]) -> int:
        if len({c[-1] for c in quire}) == 1:
            return 2
        return 1 if len({_pr_colour(c) for c in quire}) == 1 else 0

    return total + max(bonus(q) for q in quires if len(q) == largest)


def _pr_invariants(state: State) -> None:
    pos = state.to_position()
    options = pos["options"]
    row, hand, pile = pos["row"], pos["hand"], pos["draw_pile"]
    # PR-1: the Row holds Pages 2-10 only, strictly ascending by value.
    values = [_pr_value(c) for c in row]
    assert all(2 <= v <= 10 for v in values), f"non-Page in the Row: {row}"
    assert all(a < b for a, b in zip(values, values[1:])), f"Row not strictly ascending: {row}"
    # PR-14: only used Patrons, Kings and Aces leave the game.
    assert all(_pr_rank(c) in ("A", "J", "Q", "K") for c in pos["removed"]), pos["removed"]
    # PR-13, recounted here; the observation shows the same score.
    expected = pr_recount(row)
    assert -9 <= expected <= 14
    assert state.scores() == [expected], f"scores {state.scores()} but PR-13 gives {expected} for {row}"
    # PR-11/PR-12 and engine-notes: the end reasons, and who won.
    assert pos["end"] in (None, "complete", "exhausted"), pos["end"]
    assert (pos["end"] == "complete") == (len(row) == 9), (pos["end"], row)
    assert state.winners() == ([0] if pos["end"] == "complete" else []), state.winners()
    assert state.current_player == (None if pos["end"] else 0)
    # Owed discards (PR-6, PR-8).
    assert pos["pending"] in (None, "errand_discard", "revision_discard"), pos["pending"]
    if pos["pending"] == "revision_discard":
        assert options["revision_discard"] == 2
        assert pos["pending_discards"] in (1, 2) and pos["pending_discards"] <= len(hand)
    else:
        assert pos["pending_discards"] == 0
    if pos["pending"] is not None:
        assert pos["end"] is None and hand, "a discard is owed from an empty hand or after the end"
    # PR-10: the hand is drawn back up to 5 unless no card can be drawn; an Errand adds
    # at most one card over 5 until its discard.
    assert len(hand) <= 6
    if pos["end"] is None and pos["pending"] is None:
        assert len(hand) == 5 or (not pile and options["end_on"] == "failed_draw"), (hand, len(pile))
    if pos["end"] is None and options["end_on"] == "empty":
        assert pile, "PR-11: with end_on=empty the game ends when the draw pile runs out"
    # The observation: everything but the pile's order and the chance seed.
    obs = state.observation(0)
    assert set(obs) == _PR_OBS_KEYS, sorted(set(obs) ^ _PR_OBS_KEYS)
    for key in ("row", "hand", "discard", "removed", "reshuffled", "pending", "pending_discards", "end", "options"):
        assert obs[key] == pos[key], key
    assert obs["draw_pile_size"] == len(pile)
    assert obs["score"] == expected
    assert obs["current_player"] == state.current_player and obs["seat"] == 0
    assert obs["game"] == "psalter-row"


def _pr_transition(before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
    verb = action.split()[0]
    # PR-14: what leaves the game never comes back.
    assert after["removed"][: len(before["removed"])] == before["removed"]
    assert len(after["removed"]) - len(before["removed"]) <= 1
    assert before["reshuffled"] <= after["reshuffled"], "PR-11: a reshuffle cannot be undone"
    # The discard pile only grows, until the single reshuffle empties it into the pile.
    if before["reshuffled"] == after["reshuffled"]:
        assert after["discard"][: len(before["discard"])] == before["discard"]
    # PR-1: a placement adds one Page at an end; a Directive keeps the Row's values;
    # a Revision removes at most one Page; nothing else touches the Row.
    old, new = before["row"], after["row"]
    if verb == "place":
        assert len(new) == len(old) + 1 and (new[1:] == old or new[:-1] == old), (old, action, new)
    elif verb == "swap":
        assert [_pr_value(c) for c in new] == [_pr_value(c) for c in old]
        assert sum(a != b for a, b in zip(old, new)) == 1
    elif verb == "revise":
        assert len(new) == max(0, len(old) - 1) and all(c in old for c in new)
    else:
        assert new == old, (action, old, new)
    if verb in ("errand", "swap"):
        assert len(after["removed"]) == len(before["removed"]) + 1


def _pr_hidden_twin(state: State, seat: int, rng: random.Random) -> State:
    """The same position with the draw pile in another order and another chance seed.

    The player sees neither (DESIGN.md "Hidden information"; engine-notes: the
    observation never has the pile order or the chance seed).
    """
    pos = state.to_position()
    pile = list(pos["draw_pile"])
    rng.shuffle(pile)
    if len(pile) >= 2 and pile == pos["draw_pile"]:
        pile.reverse()
    pos["draw_pile"] = pile
    pos["chance"] = (pos["chance"] + 1 + rng.randrange(2**40)) % 2**63
    return state.game.from_position(pos)


def _pr_policy(state: State, rng: random.Random) -> int:
    """Mostly place Pages, free ones first: random play never completes a Psalter."""
    texts = [str(a) for a in state.legal_actions()]
    free = [i for i, t in enumerate(texts) if t.startswith("place") and " pay " not in t]
    placed = [i for i, t in enumerate(texts) if t.startswith("place")]
    errands = [i for i, t in enumerate(texts) if t.startswith("errand")]
    swaps = [i for i, t in enumerate(texts) if t.startswith("swap")]
    for group in (free, placed, errands, swaps):
        if group and rng.random() < 0.9:
            return rng.choice(group)
    return rng.randrange(len(texts))


def _pr_rest(*used: list[str]) -> list[str]:
    taken = {c for cards in used for c in cards}
    return [c for c in _pr_deck({}) if c not in taken]


# Near the end of a game: completions of each style (PR-12, PR-13), and a draw pile about
# to run out before and after the reshuffle (PR-11). The rest of the deck forms the pile
# (or, where the pile is given, the discard).
_PR_STARTS: tuple[dict[str, Any], ...] = (
    {"row": [f"{v}H" for v in range(2, 10)], "hand": ["10H", "KS", "AC", "2S", "QC"]},
    {"row": ["2H", "3D", "4H", "5D", "6H", "7D", "8H", "9D"], "hand": ["10D", "KS", "AC", "2S", "QC"]},
    {"row": ["3S", "4C", "5H", "6S", "7D", "8C", "9S", "10H"], "hand": ["2D", "KD", "9H", "JS", "AD"]},
    {"row": ["5C", "6C", "8C"], "hand": ["7C", "9C", "KC", "4C", "JD"]},
    {"row": [], "hand": ["2C", "3C", "4C", "5C", "6C"], "draw_pile": ["7C", "8C"], "reshuffled": True,
     "discard": _pr_rest(["2C", "3C", "4C", "5C", "6C", "7C", "8C"])},
    {"row": ["9S"], "hand": ["AS", "KS", "9D", "2C", "QH"], "draw_pile": ["7C"], "reshuffled": False,
     "discard": _pr_rest(["9S", "AS", "KS", "9D", "2C", "QH", "7C"])},
)


PSALTER_ROW = Adapter(
    cards_by_place=_pr_cards_by_place,
    deck=_pr_deck,
    invariants=_pr_invariants,
    transition=_pr_transition,
    hidden_twin=_pr_hidden_twin,
    junk_notation=(
        "place 2C", "place 10C low pay 2D QS", "place 5H high pay 3H", "swap 6S KH", "errand AS",
        "discard 3C", "revise 4H", "place 1H", "place", "place 2C sideways", "fly 2C", "swap 6S",
        "place 9C pay 4D 4D",
    ),
    start_positions=_PR_STARTS,
    policy=_pr_policy,
    end_reasons=frozenset({"complete", "exhausted"}),
    fast_playouts=40,
    soak_playouts=3200,  # 50 games for each of the 64 option combinations
    max_actions=2_000,
)


ADAPTERS: dict[str, Adapter] = {
    "psalter-row": PSALTER_ROW,
}
