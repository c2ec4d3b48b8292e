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
  ``seat`` None is a spectator, who knows only public cards (``observation(None)``);
- ``junk_notation``: texts that are illegal or do not parse in (nearly) every state;
- ``start_positions``: hand-written positions played out too (edge cases random play
  rarely reaches), and ``policy``: a chooser of actions less aimless than uniform
  random, used for half of the playouts (a start position's ``"options"``, if any,
  fix those options when it is played; the other options vary as for every game);
  ``end_reasons``: the end reasons that the
  fast run must reach (so that rare endings are not left untested);
- how many random playouts the fast run and the soak run make.

A new game adds one entry to ``ADAPTERS``; ``test_every_game_has_an_adapter`` fails
until it does.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

import parlour
from parlour.core.game import State


@dataclass(frozen=True)
class Adapter:
    cards_by_place: Callable[[dict[str, Any]], dict[str, list[str]]]
    deck: Callable[[dict[str, Any]], list[str]]
    invariants: Callable[[State], None]
    hidden_twin: Callable[[State, int | None, random.Random], State]
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


def _pr_hidden_twin(state: State, seat: int | None, rng: random.Random) -> State:
    """The same position with the draw pile in another order and another chance seed.

    The player sees neither (DESIGN.md "Hidden information"; engine-notes: the
    observation never has the pile order or the chance seed). A spectator (``seat``
    None) does not see the hand either: hand and pile are dealt again as one pool.
    """
    pos = state.to_position()
    hand = list(pos["hand"]) if seat is None else []
    pile = list(pos["draw_pile"]) + hand
    before = list(pile)
    rng.shuffle(pile)
    if len(pile) >= 2 and pile == before:
        pile.reverse()
    if seat is None:
        pos["hand"], pile = pile[: len(hand)], pile[len(hand) :]
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


# ---------------------------------------------------------------------------------------
# Decktet Golf (RULINGS.md DG-1 .. DG-12; DESIGN.md "Decktet Golf"; docs/engine-notes.md)
# ---------------------------------------------------------------------------------------

# The 45 codes of shared/decktet.md, written out here (DESIGN.md "Card codes": suit letters
# M S W L Y K in that order; Ace A+suit, numerals rank+suits, Crown X+suit, Pawn P+suits,
# Court C+suits, Excuse EX).
_DG_BASIC = (
    "AM", "AS", "AW", "AL", "AY", "AK",
    "2MK", "2SY", "2WL", "3MW", "3SK", "3LY", "4MS", "4WL", "4YK",
    "5ML", "5SW", "5YK", "6MW", "6SY", "6LK", "7ML", "7SK", "7WY",
    "8MS", "8WL", "8YK", "9MS", "9WY", "9LK",
    "XM", "XS", "XW", "XL", "XY", "XK",
)
_DG_EXTENDED = _DG_BASIC + ("PMYK", "PSWK", "PMSL", "PWLY", "CMWK", "CSWY", "CSLK", "CMLY")
_DG_EXCUSE = "EX"
_DG_CELLS = ("B1", "C1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "B4", "C4")
_DG_CORE = frozenset({"B2", "C2", "B3", "C3"})
_DG_OUTSIDE = tuple(c for c in _DG_CELLS if c not in _DG_CORE)
#: DG-2/DG-6: the four-card lines, in the order they are handled, as key -> cells in order.
_DG_LINES = {
    "2": ("A2", "B2", "C2", "D2"),
    "3": ("A3", "B3", "C3", "D3"),
    "B": ("B1", "B2", "B3", "B4"),
    "C": ("C1", "C2", "C3", "C4"),
}
_DG_PHASES = ("opening", "start", "taken", "drawn", "flip", "ontop", "swap")


def _dg_value(code: str) -> int:
    """DG-9: Courts -2, Pawns -1, Aces 1, numerals their rank, Crowns 10, Excuse 15."""
    if code == _DG_EXCUSE:
        return 15
    head = code[0]
    return {"C": -2, "P": -1, "A": 1, "X": 10}.get(head) or int(head)


def _dg_suits(code: str) -> frozenset[str]:
    return frozenset() if code == _DG_EXCUSE else frozenset(code[1:])


# The checks decktet.md asks of any card list.
assert len(set(_DG_EXTENDED)) == 44 and len(_DG_BASIC) == 36
assert all(
    sorted(s for c in _DG_BASIC if c[0] == str(rank) for s in _dg_suits(c)) == sorted("MSWLYK")
    for rank in range(2, 10)
)
assert all(sum(s in _dg_suits(c) for c in _DG_EXTENDED if c[0] in "PC") == 4 for s in "MSWLYK")


def _dg_deck(options: dict[str, Any]) -> list[str]:
    """DG-1: 44 cards for 2 players, two such decks for 3-5; one Excuse per deck with excuse."""
    copies = 1 if options.get("players", 2) == 2 else 2
    one = list(_DG_EXTENDED) + ([_DG_EXCUSE] if options.get("excuse", False) else [])
    return one * copies


def _dg_cards_by_place(position: dict[str, Any]) -> dict[str, list[str]]:
    places: dict[str, list[str]] = {}
    for seat, layout in enumerate(position["layouts"]):
        for cell in _DG_CELLS:
            places[f"{seat}:{cell}"] = [layout[cell]] if layout.get(cell) is not None else []
    places["draw_pile"] = list(position["draw_pile"])
    places["discard"] = list(position["discard"])
    places["drawn"] = [position["drawn"]] if position["drawn"] is not None else []
    return places


def _dg_suited(layout: dict[str, str], up: set[str] | None = None) -> list[str]:
    """DG-6: the lines whose four cards are present (and face up, when ``up`` is given)
    and share at least one suit, in the order row 2, row 3, column B, column C."""
    found = []
    for key, cells in _DG_LINES.items():
        if all(c in layout for c in cells) and (up is None or all(c in up for c in cells)):
            if frozenset.intersection(*(_dg_suits(layout[c]) for c in cells)):
                found.append(key)
    return found


def _dg_outer(key: str) -> tuple[str, str]:
    cells = _DG_LINES[key]
    return cells[0], cells[3]


def _dg_first_player(pos: dict[str, Any]) -> int:
    """DG-4: the highest face-up total; ties to the seat earliest after the dealer."""
    n = len(pos["layouts"])
    order = [(pos["dealer"] + 1 + i) % n for i in range(n)]
    shown = [sum(_dg_value(pos["layouts"][s][c]) for c in pos["face_up"][s]) for s in order]
    return order[shown.index(max(shown))]


def _dg_expected_legal(pos: dict[str, Any]) -> set[str]:
    if pos["end"] is not None:
        return set()
    phase, p = pos["phase"], pos["player"]
    layout, up = pos["layouts"][p], set(pos["face_up"][p])
    occupied = [c for c in _DG_CELLS if c in layout]
    down = [c for c in occupied if c not in up]
    if phase == "opening":  # DG-3: only outside the core
        return {f"flip {c}" for c in down if c not in _DG_CORE}
    if phase == "start":  # DG-5, engine-notes: take needs a discard, draw a pile
        return {v for v, ok in (("take", pos["discard"]), ("draw", pos["draw_pile"])) if ok}
    if phase == "taken":
        return {f"replace {c}" for c in occupied}
    if phase == "drawn":
        return {f"replace {c}" for c in occupied} | {"discard"}
    if phase == "flip":
        return {f"flip {c}" for c in down}
    if phase == "ontop":
        return {f"ontop {c}" for c in _dg_outer(pos["lines"][0])}
    assert phase == "swap", phase
    return {f"swap {a} {b}" for i, a in enumerate(occupied) for b in occupied[i + 1 :]}


def _dg_invariants(state: State) -> None:
    pos = state.to_position()
    options = pos["options"]
    n = options["players"]
    layouts, face_up = pos["layouts"], pos["face_up"]
    assert len(layouts) == len(face_up) == n == state.game.num_players
    phase, turn, player = pos["phase"], pos["turn"], pos["player"]
    assert phase in _DG_PHASES, phase
    for seat in range(n):
        layout, up = layouts[seat], face_up[seat]
        assert set(layout) <= set(_DG_CELLS), layout
        # DG-2: the core is never discarded; face-up cells are occupied.
        assert _DG_CORE <= set(layout), f"seat {seat}: a core cell is empty: {layout}"
        assert len(set(up)) == len(up) and set(up) <= set(layout), f"seat {seat}: face-up {up}, layout {layout}"
        # DG-5/DG-6: cells empty only by a suited line, which takes both outer cards at once;
        # an emptied cell stays empty. So the empty cells are whole pairs of outer cells.
        empty = set(_DG_CELLS) - set(layout)
        assert len(empty) <= 8
        for key in _DG_LINES:
            a, b = _dg_outer(key)
            assert (a in empty) == (b in empty), f"seat {seat}: one outer card of line {key} is gone: {layout}"
    # DG-10: the match score.
    rounds_done = pos["round_scores"]
    assert all(len(r) == n for r in rounds_done)
    totals = [sum(r[s] for r in rounds_done) for s in range(n)]
    assert pos["totals"] == totals, (pos["totals"], rounds_done)
    assert state.scores() == totals, state.scores()
    end = pos["end"]
    assert end in (None, "target", "rounds"), end
    assert len(rounds_done) == pos["round"] - (end is None), (pos["round"], len(rounds_done), end)
    # No earlier round ended the match.
    running = [0] * n
    for r in rounds_done[:-1]:
        running = [t + s for t, s in zip(running, r)]
        assert options["rounds"] is not None or max(running) < options["target"], "the match went on past its target"
    if options["rounds"] is not None:
        assert len(rounds_done) <= options["rounds"]
        assert (end == "rounds") == (len(rounds_done) == options["rounds"]), (end, len(rounds_done))
    else:
        reached = bool(rounds_done) and max(totals) >= options["target"]
        assert (end == "target") == reached, (end, totals, options["target"])
    if end is None:
        assert state.winners() == []
    else:
        best = min(totals)
        assert state.winners() == [s for s in range(n) if totals[s] == best], (state.winners(), totals)
        # DG-8: all cards turned up, no suited line left, each round score the sum of DG-9 values.
        assert state.current_player is None
        for seat in range(n):
            assert set(face_up[seat]) == set(layouts[seat]), f"seat {seat}: a card face down at the end"
            assert not _dg_suited(layouts[seat]), f"seat {seat}: a suited line survived the end: {layouts[seat]}"
            recount = sum(_dg_value(c) for c in layouts[seat].values())
            assert rounds_done[-1][seat] == recount, (seat, rounds_done[-1], recount, layouts[seat])
    # DG-4: the dealer is seat 0 in round 1 and passes left each round.
    assert pos["dealer"] == (pos["round"] - 1) % n, (pos["dealer"], pos["round"])
    # Who decides.
    if end is None:
        assert state.current_player == player
        if phase != "swap":
            assert player == turn, (player, turn)
    # The drawn card.
    drawn, drawn_from = pos["drawn"], pos["drawn_from"]
    # (from_position itself insists on this, so a position that breaks it does not round-trip)
    assert (drawn is not None) == (phase in ("taken", "drawn")) == (drawn_from is not None), (
        f"phase {phase!r} with drawn card {drawn!r} from {drawn_from!r} (end {end!r})"
    )
    assert drawn_from == {"taken": "discard", "drawn": "pile"}.get(phase), (phase, drawn_from)
    # DG-7: the new pile's contents are public after a reshuffle, which happens in a round
    # only after the deal.
    assert pos["pile_known"] == (pos["reshuffles"] > 0), (pos["pile_known"], pos["reshuffles"])
    lines, swappers = pos["lines"], pos["swappers"]
    assert (phase == "ontop") == bool(lines), f"phase {phase!r} with lines {lines} (end {end!r})"
    assert (phase == "swap") == bool(swappers) == (pos["after_swaps"] is not None), (
        f"phase {phase!r} with swappers {swappers}, after_swaps {pos['after_swaps']!r} (end {end!r})"
    )
    if pos["excuse_owed"]:  # DG-11: a discarded drawn Excuse; the flip comes first
        assert phase == "flip" and pos["discard"][0] == _DG_EXCUSE, (phase, pos["discard"])
        assert options["excuse"]
    # DG-11: a discarded Excuse goes to the bottom, so every Excuse in the discard pile lies
    # under all the other cards.
    k = pos["discard"].count(_DG_EXCUSE)
    assert pos["discard"][:k] == [_DG_EXCUSE] * k, pos["discard"]
    mover_layout, mover_up = layouts[turn], set(face_up[turn])
    if phase == "opening":
        # DG-3: seats flip in turn order from the dealer's left, each all its flips, only
        # outside the core; the layouts are full and only the opening discard is out.
        flips = options["opening_flips"]
        assert 1 <= pos["flips_left"] <= flips and pos["discard"] and len(pos["discard"]) == 1
        order = [(pos["dealer"] + 1 + i) % n for i in range(n)]
        at = order.index(player)
        for i, seat in enumerate(order):
            want = flips if i < at else flips - pos["flips_left"] if i == at else 0
            assert len(face_up[seat]) == want, (seat, face_up[seat], want)
            assert not set(face_up[seat]) & _DG_CORE
            assert len(layouts[seat]) == 12
    if phase == "start" and end is None:
        # A turn starts with a discard pile; an empty draw pile only after a reshuffle of a
        # one-card discard pile (DG-7).
        assert pos["discard"], "a turn starts with an empty discard pile"
        assert pos["draw_pile"] or (
            pos["pile_known"] and len(pos["discard"]) - pos["discard"].count(_DG_EXCUSE) <= 1
        ), (pos["draw_pile"], pos["discard"])
    if phase == "flip":
        assert mover_up < set(mover_layout), "a flip is owed by a seat with no face-down card"
    if phase == "ontop":
        # DG-6: the pending lines are suited, present and face up; the first asks a choice.
        assert lines == [k for k in _DG_LINES if k in lines], lines
        assert set(lines) <= set(_dg_suited(mover_layout, mover_up)), (lines, mover_layout)
        a, b = _dg_outer(lines[0])
        assert mover_layout[a] != mover_layout[b], "DG-6: identical twins ask no ontop choice"
    if phase == "swap":
        # DG-11: everyone swaps once, in turn order, starting with the player about to move
        # (the one who discarded the Excuse, the first player at the deal).
        cycle = [(turn + i) % n for i in range(n)]
        assert swappers == cycle[n - len(swappers) :], (swappers, turn)
        assert player == swappers[0]
        assert pos["after_swaps"] in ("lines", "cover")
        if pos["after_swaps"] == "cover":
            assert pos["discard"] and pos["discard"][0] == _DG_EXCUSE
    # DG-4 at the match's first turn (the opening flips or their absence; the Excuse's
    # swaps at the deal keep every card's orientation, so the face-up totals too).
    if end is None and pos["turns"] == 0 and (phase == "start" or pos["after_swaps"] == "cover"):
        assert turn == _dg_first_player(pos), f"DG-4: seat {turn} moves first, face up {face_up}"
    # DG-8: the seat that ended the round has no face-down card left.
    if pos["ender"] is not None and end is None:
        assert set(face_up[pos["ender"]]) == set(layouts[pos["ender"]]), (pos["ender"], face_up)
    # The legal actions, from DG-3, DG-5, DG-6 and DG-11.
    legal = {str(a) for a in state.legal_actions()}
    assert legal == _dg_expected_legal(pos), (sorted(legal), sorted(_dg_expected_legal(pos)))
    # DG-12 / DESIGN.md "Hidden information": each seat's observation.
    for seat in range(n):
        obs = state.observation(seat)
        assert "draw_pile" not in obs and "chance" not in obs, sorted(obs)
        assert obs["seat"] == seat and obs["current_player"] == state.current_player
        assert obs["game"] == "decktet-golf"
        for key in (
            "round", "dealer", "turn", "player", "phase", "face_up", "discard", "drawn_from", "flips_left",
            "lines", "swappers", "after_swaps", "excuse_owed", "ender", "totals", "round_scores", "pile_known",
            "reshuffles", "turns", "line_discards", "options", "end",
        ):
            assert obs[key] == pos[key], key
        for s in range(n):
            up = set(face_up[s])
            want = {c: (code if c in up else "?") for c, code in layouts[s].items()}
            assert obs["layouts"][s] == want, f"seat {seat} sees layout {s} as {obs['layouts'][s]}, want {want}"
        assert obs["draw_pile_size"] == len(pos["draw_pile"])
        secret = drawn_from == "pile" and seat != turn
        assert obs["drawn"] == (None if secret else drawn), (seat, obs["drawn"], drawn, drawn_from)
        if pos["pile_known"]:
            assert obs["pile_contents"] == sorted(pos["draw_pile"] + ([drawn] if secret else [])), seat
        else:
            assert obs["pile_contents"] is None, "pile contents shown before a reshuffle"
    # engine-notes: a turn's mover holds a face-down card until the turn ends (a seat with
    # none at the end of its turn ends the round, DG-8).
    if end is None and phase in ("start", "taken", "drawn"):
        assert mover_up < set(mover_layout), f"seat {turn} moves with no face-down card"
    if end is None:
        for seat in range(n):
            if seat != turn and set(face_up[seat]) == set(layouts[seat]):
                assert pos["ender"] is not None, f"seat {seat} has no face-down card but no one ended the round"


def _dg_lines_removed(
    expected: dict[str, str], expected_up: set[str], actual: dict[str, str], actual_up: set[str], may: bool
) -> list[str]:
    """Compare a layout with the one expected before DG-6: it may have lost only the outer
    pairs of lines that were present, face up and suited (and only when ``may``)."""
    assert set(actual) <= set(expected), (expected, actual)
    assert all(actual[c] == expected[c] for c in actual), (expected, actual)
    gone = set(expected) - set(actual)
    assert set(actual_up) == expected_up - gone, (sorted(expected_up), sorted(actual_up))
    keys = [k for k in _DG_LINES if set(_dg_outer(k)) <= gone]
    assert gone == {c for k in keys for c in _dg_outer(k)}, f"cells gone {sorted(gone)} are not outer pairs"
    if keys:
        assert may, f"lines {keys} left a layout outside its owner's turn"
        suited = _dg_suited(expected, expected_up)
        assert set(keys) <= set(suited), f"lines {keys} left but only {suited} were suited and face up"
    return keys


def _dg_strip_bottom(before: list[str], after: list[str]) -> tuple[int, list[str]]:
    """``after`` as k Excuses put at the bottom, then ``before``, then the cards added on top."""
    for k in (2, 1, 0):
        if after[:k] == [_DG_EXCUSE] * k and after[k : k + len(before)] == before:
            return k, after[k + len(before) :]
    raise AssertionError(f"the discard pile changed under its top: {before} -> {after}")


def _dg_transition(before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
    verb, *args = action.split()
    options = before["options"]
    n = options["players"]
    p, t = before["player"], before["turn"]
    phase = before["phase"]
    assert after["options"] == options
    rounds_added = len(after["round_scores"]) - len(before["round_scores"])
    turns_added = after["turns"] - before["turns"]
    assert rounds_added in (0, 1) and turns_added in (0, 1), (rounds_added, turns_added)
    round_over = rounds_added == 1
    assert turns_added or not round_over
    assert after["line_discards"] >= before["line_discards"]

    # The action's own effect on the layouts (before any suited line leaves).
    lay = [dict(layout) for layout in before["layouts"]]
    up = [set(cells) for cells in before["face_up"]]
    released: str | None = None  # the card the action puts on the discard pile
    if verb == "replace":  # DG-5: the new card face up, the old one onto the discard
        assert phase in ("taken", "drawn")
        cell = args[0]
        released, lay[p][cell] = lay[p][cell], before["drawn"]
        up[p].add(cell)
    elif verb == "flip":  # exactly one face-down card turns up
        assert phase in ("opening", "flip") and args[0] in lay[p] and args[0] not in up[p]
        up[p].add(args[0])
    elif verb == "swap":  # DG-11: the cards change places, each keeps its orientation
        assert phase == "swap"
        a, b = args
        lay[p][a], lay[p][b] = lay[p][b], lay[p][a]
        if (a in up[p]) != (b in up[p]):
            up[p] ^= {a, b}
    elif verb == "discard":
        assert phase == "drawn"
        released = before["drawn"]
    elif verb == "ontop":
        assert phase == "ontop" and args[0] in _dg_outer(before["lines"][0])
    else:
        assert verb in ("take", "draw") and phase == "start", (verb, phase)

    if round_over:
        # DG-8: the round ends when the turn would pass back to the seat that ended it; all
        # cards turn up, suited lines leave, each seat scores what is left (DG-9).
        assert before["ender"] is not None and (t + 1) % n == before["ender"], (t, before["ender"])
        finals = []
        for seat in range(n):
            layout = lay[seat]
            for key in _dg_suited(layout):
                for cell in _dg_outer(key):
                    del layout[cell]
            finals.append(layout)
        scores = [sum(_dg_value(c) for c in layout.values()) for layout in finals]
        assert after["round_scores"][-1] == scores, (after["round_scores"][-1], scores, finals)
        assert after["totals"] == [a + b for a, b in zip(before["totals"], scores)]
        if after["end"] is not None:
            # DG-7: no reshuffle after a round's last turn (the last action is never a draw).
            assert after["draw_pile"] == before["draw_pile"] and after["reshuffles"] == before["reshuffles"]
            assert after["layouts"] == finals, (after["layouts"], finals)
            assert [set(u) for u in after["face_up"]] == [set(layout) for layout in finals]
            assert after["round"] == before["round"]
            return
        # The next deal (DG-2, DG-3, DG-4, DG-10): the deal passes left, everything face down.
        assert after["round"] == before["round"] + 1 and after["dealer"] == (before["dealer"] + 1) % n
        assert all(len(layout) == 12 for layout in after["layouts"])
        assert after["face_up"] == [[] for _ in range(n)], after["face_up"]
        assert after["ender"] is None and not after["pile_known"] and after["reshuffles"] == 0
        left = (after["dealer"] + 1) % n
        assert after["turn"] == left, "the dealer's left flips first, or moves first with no face-up cards"
        if options["opening_flips"]:
            assert after["phase"] == "opening" and after["flips_left"] == options["opening_flips"]
        else:
            assert after["phase"] in ("start", "swap")
        cards = n * 12 + len(after["discard"]) + len(after["draw_pile"])
        assert cards == len(_dg_deck(options))
        return

    assert after["round"] == before["round"] and after["dealer"] == before["dealer"]
    reshuffled = after["reshuffles"] - before["reshuffles"]
    assert reshuffled in (0, 1)
    if turns_added:
        nxt = (t + 1) % n
        assert after["turn"] == nxt, (t, after["turn"])
        assert before["ender"] is None or before["ender"] != nxt, "DG-8: the round should have ended"
        mover_down = set(after["layouts"][t]) - set(after["face_up"][t])
        assert after["ender"] == (before["ender"] if before["ender"] is not None else None if mover_down else t)
        # DG-6: no suited face-up line of the mover survives its turn.
        assert not _dg_suited(after["layouts"][t], set(after["face_up"][t])), after["layouts"][t]
        # DG-7: the reshuffle comes exactly when the pile is empty at the end of a turn.
        assert reshuffled == (not before["draw_pile"]), (reshuffled, before["draw_pile"])
    else:
        # The turn passes only at a turn's end, and from seat to seat in the opening flips.
        assert after["turn"] == (after["player"] if after["phase"] == "opening" else t) or phase == "opening"
        assert after["ender"] == before["ender"] and not reshuffled
    if reshuffled:
        assert after["pile_known"]

    # Layouts: only the decider's changes by the action; lines only in the mover's own turn.
    for seat in range(n):
        if seat not in (p, t):
            assert after["layouts"][seat] == before["layouts"][seat], f"seat {seat}'s layout changed"
            assert set(after["face_up"][seat]) == set(before["face_up"][seat])
    for seat in {p, t}:
        _dg_lines_removed(lay[seat], up[seat], after["layouts"][seat], set(after["face_up"][seat]), seat == t)

    b_disc, a_disc = before["discard"], after["discard"]
    if verb == "take":
        assert a_disc == b_disc[:-1] and after["drawn"] == b_disc[-1] and after["drawn_from"] == "discard"
        assert after["phase"] == "taken" and after["draw_pile"] == before["draw_pile"]
        return
    if verb == "draw":
        assert after["drawn"] == before["draw_pile"][0] and after["drawn_from"] == "pile"
        assert after["draw_pile"] == before["draw_pile"][1:] and a_disc == b_disc
        assert after["phase"] == "drawn"
        return
    assert after["drawn"] is None
    if not reshuffled:
        # The discard pile only grows within a turn (an Excuse at the bottom, DG-11).
        bottom, added = _dg_strip_bottom(b_disc, a_disc)
        if released is not None:
            if released == _DG_EXCUSE:
                assert bottom >= 1, a_disc
            else:
                assert added[:1] == [released], f"{released} should lie on the discard, got {added}"
        if verb == "ontop":
            first, second = _dg_outer(before["lines"][0])
            other = second if args[0] == first else first
            assert added[:2] == [lay[t][other], lay[t][args[0]]], f"{action}: discard gets {added}"
        # Cards come only from the pile when an Excuse is covered (DG-11).
        taken = len(before["draw_pile"]) - len(after["draw_pile"])
        assert after["draw_pile"] == before["draw_pile"][taken:], "the draw pile changed under its top"
        assert taken == 0 or (verb == "swap" and before["after_swaps"] == "cover"), (action, taken)
    # DG-11: what starts the Excuse's swaps.
    if released == _DG_EXCUSE:
        if verb == "discard" and set(lay[p]) - up[p]:
            assert after["phase"] == "flip" and after["excuse_owed"], "DG-11: the flip comes first"
        else:
            assert after["phase"] == "swap" and after["after_swaps"] == "lines" and after["swappers"][0] == t
    if before["excuse_owed"] and verb == "flip":
        assert after["phase"] == "swap" and after["after_swaps"] == "lines" and not after["excuse_owed"]
    if verb == "discard" and released != _DG_EXCUSE:
        # DG-5: then flip a face-down card, if there is one.
        assert (after["phase"] == "flip" and after["player"] == p) == bool(set(lay[p]) - up[p])
    if phase == "opening":
        if after["phase"] == "opening":
            assert after["flips_left"] == before["flips_left"] - 1 or (
                before["flips_left"] == 1 and after["player"] == (p + 1) % n
                and after["flips_left"] == options["opening_flips"]
            )
        else:
            # DG-4 after the last opening flip; DG-11 when the Excuse is the opening discard.
            assert before["flips_left"] == 1 and (p + 1) % n == (before["dealer"] + 1) % n
            assert after["turn"] == _dg_first_player(after), (after["turn"], after["face_up"])
            if before["discard"] == [_DG_EXCUSE]:
                assert after["phase"] == "swap" and after["after_swaps"] == "cover"
            else:
                assert after["phase"] == "start"
    if verb == "swap":
        if before["swappers"][1:]:
            assert after["phase"] == "swap" and after["swappers"] == before["swappers"][1:]


def _dg_hidden_twin(state: State, seat: int | None, rng: random.Random) -> State:
    """The same position with the cards ``seat`` cannot know dealt otherwise, and another chance seed.

    DG-12: face-down cards are hidden from everyone (their owner too), the draw pile's order
    from everyone, and a card drawn from the pile from everyone but its drawer. Before a
    reshuffle in the round, those cards could be anywhere among those places; after one,
    the pile's contents are public, so face-down cards and pile cards are permuted separately.
    """
    pos = state.to_position()
    n = len(pos["layouts"])
    down = [(s, c) for s in range(n) for c in _DG_CELLS if c in pos["layouts"][s] and c not in pos["face_up"][s]]
    hidden_drawn = pos["drawn_from"] == "pile" and (seat is None or seat != pos["turn"])
    down_cards = [pos["layouts"][s][c] for s, c in down]
    pile_cards = list(pos["draw_pile"]) + ([pos["drawn"]] if hidden_drawn else [])
    for _ in range(6):
        if pos["pile_known"]:
            new_down, new_pile = down_cards[:], pile_cards[:]
            rng.shuffle(new_down)
            rng.shuffle(new_pile)
        else:
            pool = down_cards + pile_cards
            rng.shuffle(pool)
            new_down, new_pile = pool[: len(down_cards)], pool[len(down_cards) :]
        if (new_down, new_pile) != (down_cards, pile_cards):
            break
    for (s, c), code in zip(down, new_down):
        pos["layouts"][s][c] = code
    if hidden_drawn:
        pos["drawn"] = new_pile.pop()
    pos["draw_pile"] = new_pile
    pos["chance"] = (pos["chance"] + 1 + rng.randrange(2**40)) % 2**63
    return state.game.from_position(pos)


def _dg_policy(state: State, rng: random.Random) -> int:
    """A greedy golfer: keep low cards, replace high ones, so that rounds last longer
    (reshuffles, suited lines, several rounds to the target).

    Only in 2-player games: with 3-5 players random play already reshuffles and makes
    suited lines, and the greedy games are twice as long, which the no-leak check (every
    seat, every step) pays for five times over.
    """
    legal = [str(a) for a in state.legal_actions()]
    if state.game.num_players > 2 or rng.random() < 0.1 or len(legal) == 1:
        return rng.randrange(len(legal))
    pos = state.to_position()
    phase, p = pos["phase"], pos["player"]
    layout, up = pos["layouts"][p], set(pos["face_up"][p])
    if phase == "start":
        top = pos["discard"][-1] if pos["discard"] else None
        want = "take" if top is not None and _dg_value(top) <= 4 else "draw"
        return legal.index(want) if want in legal else 0
    if phase in ("taken", "drawn"):
        value = _dg_value(pos["drawn"])
        shown = sorted((c for c in _DG_CELLS if c in up), key=lambda c: -_dg_value(layout[c]))
        hidden = [c for c in _DG_CELLS if c in layout and c not in up]
        if shown and _dg_value(layout[shown[0]]) > value:
            return legal.index(f"replace {shown[0]}")
        if hidden and (value <= 5 or phase == "taken"):
            return legal.index(f"replace {rng.choice(hidden)}")
        if "discard" in legal:
            return legal.index("discard")
    return rng.randrange(len(legal))


def _dg_position(
    options: dict[str, Any],
    layouts: list[dict[str, str]],
    face_up: list[list[str] | str],
    discard: list[str],
    rest_to: str = "pile",
    draw_pile_top: tuple[str, ...] = (),
    **flow: Any,
) -> dict[str, Any]:
    """A hand-written position: the named cells as given, the other cells dealt from the
    rest of the deck (Excuses last), the remaining cards to the draw pile (after
    ``draw_pile_top``) or under the given discard pile."""
    rest = Counter(_dg_deck(options))
    given = [c for layout in layouts for c in layout.values() if c] + list(discard) + list(draw_pile_top)
    given += [flow["drawn"]] if flow.get("drawn") else []
    rest.subtract(given)
    assert all(v >= 0 for v in rest.values()), f"more copies than the deck has: {+rest}"
    pool = sorted(rest.elements(), key=lambda c: (c == _DG_EXCUSE, c))
    random.Random(f"dg-start/{options}/{sorted(given)}").shuffle(pool)
    pool.sort(key=lambda c: c == _DG_EXCUSE)  # Excuses last: never dealt face down here
    full = []
    for layout in layouts:
        full.append({c: layout[c] if c in layout else pool.pop(0) for c in _DG_CELLS if layout.get(c, "") is not None})
    position: dict[str, Any] = {
        "options": dict(options),
        "layouts": full,
        "face_up": [list(_DG_CELLS) if u == "all" else list(u) for u in face_up],
        **flow,
    }
    if rest_to == "pile":
        position["discard"] = list(discard)
        if draw_pile_top:
            position["draw_pile"] = list(draw_pile_top) + pool
    else:
        k = sum(c == _DG_EXCUSE for c in pool)
        position["discard"] = pool[len(pool) - k :] + pool[: len(pool) - k] + list(discard)
        position["draw_pile"] = list(draw_pile_top)
    for seat, cells in enumerate(position["face_up"]):
        position["face_up"][seat] = [c for c in cells if c in full[seat]]
    return position


def _dg_all_but(*cells: str) -> list[str]:
    return [c for c in _DG_CELLS if c not in cells]


_DG_STARTS: tuple[dict[str, Any], ...] = (
    # DG-11: the Excuse is the opening discard and the card that covers it is the other
    # Excuse: after the opening flips and DG-4, everyone swaps twice, then a card covers.
    _dg_position(
        {"players": 3, "excuse": True, "opening_flips": 1},
        [{}, {}, {}], [[], [], []], ["EX"], draw_pile_top=("EX",),
        round=1, dealer=0, turn=1, player=1, phase="opening", flips_left=1,
    ),
    # DG-7: the mover drew the pile's last card; a reshuffle follows the turn (the Excuse
    # at the bottom of the discard pile may turn up to start the new one).
    _dg_position(
        {"players": 2, "excuse": True},
        [{"A2": "XK", "B2": "9MS"}, {}], [["A2", "B2", "C1"], ["B1", "A3", "D3", "C4"]], [],
        rest_to="discard", round=1, dealer=0, turn=0, player=0, phase="drawn", drawn="XS", drawn_from="pile",
        turns=30,
    ),
    # DG-7/DG-8: the round's last turn with an empty pile: no reshuffle, the round ends.
    _dg_position(
        {"players": 2, "excuse": False},
        [{}, {"A2": None, "D2": None}], [["B1", "C1"], "all"], [],
        rest_to="discard", round=1, dealer=0, turn=0, player=0, phase="drawn", drawn="8WL", drawn_from="pile",
        ender=1, turns=41, line_discards=2,
    ),
    # DG-6 with a double deck: flipping B2 makes row 2 (twins 7ML at A2 and D2: no choice
    # is asked) and column B (AM and XM: ontop asked) suited; seat 0 then has no face-down
    # card and ends the round (DG-8).
    _dg_position(
        {"players": 3},
        [
            {"B1": "AM", "C1": "2SY", "A2": "7ML", "B2": "3MW", "C2": "5ML", "D2": "7ML",
             "A3": "9WY", "B3": "6MW", "C3": "4YK", "D3": "XS", "B4": "XM", "C4": "8WL"},
            {}, {},
        ],
        [_dg_all_but("B2"), ["B1", "C1"], ["A3", "D3", "C4"]], ["9MS"],
        round=1, dealer=0, turn=0, player=0, phase="flip", turns=9,
    ),
    # DG-10: one round from the target, totals tied (a shared win is possible).
    _dg_position(
        {"players": 2, "target": 50, "rounds": None},
        [{}, {"A2": None, "D2": None}], [_dg_all_but("C3"), ["B1", "B2", "C1", "B4"]], ["6LK"],
        round=4, dealer=1, turn=0, player=0, phase="start", totals=[44, 44],
        round_scores=[[10, 20], [20, 4], [14, 20]], turns=70, line_discards=2,
    ),
    # DG-11: the mover drew an Excuse and discards it: the flip, then everyone's swaps,
    # then the mover's lines.
    _dg_position(
        {"players": 2, "excuse": True},
        [{"B1": "AS", "B2": "5SW", "B3": "4MS", "B4": "XS"}, {}],
        [["B1", "B2", "B3", "A2"], ["C1", "C4"]], ["3LY"],
        round=1, dealer=0, turn=0, player=0, phase="drawn", drawn="EX", drawn_from="pile", turns=4,
    ),
)


DECKTET_GOLF = Adapter(
    cards_by_place=_dg_cards_by_place,
    deck=_dg_deck,
    invariants=_dg_invariants,
    transition=_dg_transition,
    hidden_twin=_dg_hidden_twin,
    junk_notation=(
        "flip", "flip A1", "flip E2", "flip B2 C2", "take B1", "draw 2", "replace", "replace D4",
        "discard B1", "ontop", "ontop B2", "swap A2", "swap A2 A2", "swap A2 C3 D3", "place 7ML",
        "replace C3 C2", "ontop Z9",
    ),
    start_positions=_DG_STARTS,
    policy=_dg_policy,
    end_reasons=frozenset({"target", "rounds"}),
    fast_playouts=6,  # 5-player games cost ~5-9 s each in the no-leak check
    soak_playouts=144,  # 3 games (2 random, 1 greedy) for each of the 48 option combinations
    max_actions=20_000,
)


# ---------------------------------------------------------------------------------------
# Quisquilian (RULINGS.md QU-1 .. QU-9; DESIGN.md "Quisquilian"; docs/engine-notes.md)
# ---------------------------------------------------------------------------------------

_QU_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_QU_SUITS = ("C", "D", "H", "S")
_QU_FULL = frozenset(range(1, 14))  # QU-5: Ace through King
_QU_ENDS = (None, "complete", "stalemate", "max_turns")
_QU_OBS_KEYS = {
    "game", "seat", "current_player", "spots", "runs", "player", "phase", "roll", "to_discard", "used_spots",
    "began_empty", "played", "quiet_turns", "barren", "turns", "clearings", "pile_contents", "pool_counts",
    "winner", "options", "end", "hand", "hand_sizes", "coverage", "draw_pile_size", "scores",
}
#: keys shown only while they apply: ``earlier_pools``, while a hand may hold unseen cards drawn
#: after a clearing before the last one, and ``pool_readings``, while a two-deck record of the
#: cleared cards reads more than one way (QU-9)
_QU_OPTIONAL_KEYS = {"earlier_pools", "pool_readings"}
#: the observation keys that are the position's own, shown to every seat as they are
_QU_PUBLIC = (
    "spots", "runs", "player", "phase", "roll", "to_discard", "used_spots", "began_empty", "played", "quiet_turns",
    "barren", "turns", "clearings", "pile_contents", "pool_counts", "options", "end",
)


def _qu_rank(code: str) -> int:
    """QU-2: Ace 1 ... King 13 (Ace low only)."""
    return _QU_RANKS.index(code[:-1]) + 1


def _qu_code(rank: int, suit: str) -> str:
    return _QU_RANKS[rank - 1] + suit


def _qu_decks(options: dict[str, Any]) -> int:
    """QU-1: one deck for 3-4 players, two for 5-8, unless the option says."""
    return options.get("decks") or (1 if options.get("players", 4) <= 4 else 2)


def _qu_deck(options: dict[str, Any]) -> list[str]:
    one = [rank + suit for suit in _QU_SUITS for rank in _QU_RANKS]
    return one * _qu_decks(options)


def _qu_cards_by_place(position: dict[str, Any]) -> dict[str, list[str]]:
    places: dict[str, list[str]] = {f"spot {i + 1}": list(stack) for i, stack in enumerate(position["spots"])}
    for seat, hand in enumerate(position["hands"]):
        places[f"hand {seat}"] = list(hand)
    for seat, runs in enumerate(position["runs"]):
        places[f"runs {seat}"] = [code for run in runs for code in run]
    places["draw_pile"] = list(position["draw_pile"])
    return places


def _qu_is_run(cards: list[str]) -> bool:
    """QU-4/QU-2: three or more of one suit in consecutive ranks (rank order), Ace low, no wrap."""
    ranks = [_qu_rank(c) for c in cards]
    return (
        len(cards) >= 3 and len({c[-1] for c in cards}) == 1
        and all(b == a + 1 for a, b in zip(ranks, ranks[1:]))
    )


def _qu_cover(runs: list[list[str]]) -> set[int]:
    """QU-5: the union of the ranks of all the runs."""
    return {_qu_rank(c) for run in runs for c in run}


def _qu_new_runs(hand: list[str], spots: list[list[str]]) -> set[str]:
    """QU-4, by brute force: every new run, as notation (cards in rank order, spot cards
    ``code@spot``). The cards taken from one spot are its top k cards (any order within
    the run); a card from the hand is written bare (identical copies are one choice)."""
    out: set[str] = set()
    for suit in _QU_SUITS:
        in_hand = {_qu_rank(c) for c in hand if c[-1] == suit}
        takes = []  # per spot with a card of the suit on top: the rank lists of its top k
        for number, stack in enumerate(spots, 1):
            ranks: list[int] = []
            options: list[tuple[int, ...]] = [()]
            for code in reversed(stack):
                if code[-1] != suit or _qu_rank(code) in ranks:
                    break
                ranks.append(_qu_rank(code))
                options.append(tuple(ranks))
            if len(options) > 1:
                takes.append((number, options))
        for choice in itertools.product(*(options for _, options in takes)):
            taken: dict[int, int] = {}
            clash = False
            for (number, _), ranks in zip(takes, choice):
                for r in ranks:
                    clash = clash or r in taken
                    taken[r] = number
            if clash:
                continue
            have = in_hand | set(taken)
            for low in range(1, 12):
                for high in range(low + 2, 14):
                    if taken and (low > min(taken) or high < max(taken)):
                        continue
                    if all(r in have for r in range(low, high + 1)):
                        out.add("run " + " ".join(
                            _qu_code(r, suit) + (f"@{taken[r]}" if r in taken else "") for r in range(low, high + 1)
                        ))
    return out


def _qu_additions(hand: list[str], spots: list[list[str]], runs: list[list[str]]) -> set[str]:
    """QU-4: one card (from the hand or a spot's top) continuing one of the player's runs
    at either end; ``to N`` only when the same card from the same place fits two runs."""
    wants: dict[str, list[int]] = {}
    for index, run in enumerate(runs):
        suit, low, high = run[0][-1], _qu_rank(run[0]), _qu_rank(run[-1])
        for rank in (low - 1, high + 1):
            if 1 <= rank <= 13:
                wants.setdefault(_qu_code(rank, suit), []).append(index)
    out = set()
    for code, targets in wants.items():
        places = ([""] if code in hand else []) + [f"@{n}" for n, st in enumerate(spots, 1) if st and st[-1] == code]
        for place in places:
            for index in targets:
                out.add(f"add {code}{place}" + (f" to {index + 1}" if len(targets) > 1 else ""))
    return out


def _qu_digs(hand: list[str], spots: list[list[str]], runs: list[list[str]]) -> set[str]:
    return _qu_new_runs(hand, spots) | _qu_additions(hand, spots, runs)


def _qu_expected_legal(pos: dict[str, Any]) -> set[str]:
    if pos["end"] is not None:
        return set()
    p = pos["player"]
    hand = pos["hands"][p]
    if pos["phase"] == "discard":  # QU-3: any hand card onto any spot not used this turn
        free = [s for s in range(1, 10) if s not in pos["used_spots"]]
        return {f"discard {c} {s}" for c in set(hand) for s in free}
    return _qu_digs(hand, pos["spots"], pos["runs"][p]) | {"stop"}


def _qu_invariants(state: State) -> None:
    pos = state.to_position()
    options = pos["options"]
    n = options["players"]
    one_deck = _qu_decks(options) == 1
    hands, spots, runs, pile = pos["hands"], pos["spots"], pos["runs"], pos["draw_pile"]
    assert n == state.game.num_players and len(hands) == len(runs) == len(pos["pool_counts"]) == n
    assert len(spots) == 9
    end, p = pos["end"], pos["player"]
    assert end in _QU_ENDS, end
    assert 0 <= p < n
    # QU-4/QU-2: every run three or more of one suit in consecutive ranks.
    for seat in range(n):
        for run in runs[seat]:
            assert _qu_is_run(run), f"seat {seat}: {run} is not a run"
    covers = [_qu_cover(runs[seat]) for seat in range(n)]
    complete = [seat for seat in range(n) if covers[seat] == _QU_FULL]
    # QU-5: a seat covering A-K wins at once; the game is then over with it as the winner.
    assert (end == "complete") == bool(complete), (end, complete)
    assert len(complete) <= 1, complete
    winner = complete[0] if complete else None
    assert pos["winner"] == winner, (pos["winner"], winner)
    assert state.winners() == ([] if winner is None else [winner]), state.winners()
    assert state.scores() == [int(seat == winner) for seat in range(n)], state.scores()
    assert state.current_player == (None if end else p)
    # QU-8 / engine-notes: the safety net.
    turns = pos["turns"]
    if end == "max_turns":
        assert turns == options["max_turns"], (turns, options["max_turns"])
    elif end is None:
        assert turns < options["max_turns"], (turns, options["max_turns"])
    if end == "stalemate":  # a clearing found nothing beneath any top, twice
        assert not pile and all(len(stack) <= 1 for stack in spots), (pile, spots)
        assert pos["barren"]
    # QU-6 and QU-3: hands hold at most six.
    assert all(len(hand) <= 6 for hand in hands), [len(h) for h in hands]
    if pos["clearings"] == 0 and pile:
        # Before any clearing the pile only shrinks; every seat not moving refilled to six
        # (or was dealt six) while it had cards.
        for seat in range(n):
            if seat != p:
                assert len(hands[seat]) == 6, (seat, hands[seat])
    used = pos["used_spots"]
    assert len(set(used)) == len(used) and all(1 <= s <= 9 for s in used), used
    assert pos["quiet_turns"] < n
    if pos["barren"]:
        assert not pile, "QU-8: a barren clearing leaves the pile empty, and only a clearing fills it"
    if end is None:
        assert pos["phase"] in ("discard", "dig"), pos["phase"]
        assert 1 <= pos["roll"] <= 6, pos["roll"]
        if pos["began_empty"]:
            assert not pile, "QU-7: the pile was empty at the roll and can only fill at a turn's end"
        if pos["phase"] == "discard":
            # QU-3: the roll's discards (all of the hand if shorter), each on a different spot.
            owed, hand = pos["to_discard"], hands[p]
            assert 1 <= owed <= len(hand), (owed, hand)
            assert owed <= 9 - len(used), (owed, used)
            assert owed + len(used) == min(pos["roll"], len(hand) + len(used)), (pos["roll"], owed, used, hand)
            if pos["clearings"] == 0 and pile:
                assert len(hand) + len(used) == 6
        else:
            assert pos["to_discard"] == 0
    # QU-9 / engine-notes: after a clearing, the cleared cards not yet seen are public.
    _qu_pool_invariants(pos, one_deck)
    # The legal actions, from QU-3 and QU-4.
    legal = {str(a) for a in state.legal_actions()}
    expected = _qu_expected_legal(pos)
    assert legal == expected, (sorted(legal ^ expected), "engine only:", sorted(legal - expected))
    if end is None and pos["phase"] == "dig":
        assert legal - {"stop"}, "QU-4: a dig with no run or addition to play should have ended by itself"
    # DESIGN.md "Hidden information", QU-9: each seat's observation.
    for seat in range(n):
        obs = state.observation(seat)
        assert set(obs) - _QU_OPTIONAL_KEYS == _QU_OBS_KEYS, sorted((set(obs) - _QU_OPTIONAL_KEYS) ^ _QU_OBS_KEYS)
        for key in _QU_PUBLIC:
            assert obs[key] == pos[key], key
        assert obs.get("earlier_pools") == pos.get("earlier_pools")
        assert obs["winner"] == pos["winner"] and obs["scores"] == state.scores()
        assert obs["game"] == "quisquilian" and obs["seat"] == seat and obs["current_player"] == state.current_player
        assert obs["hand"] == hands[seat]
        assert obs["hand_sizes"] == [len(h) for h in hands]
        assert obs["draw_pile_size"] == len(pile)
        assert obs["coverage"] == [sorted(c) for c in covers], (obs["coverage"], covers)


def _qu_readings(pos: dict[str, Any]) -> dict[tuple, float] | None:
    """QU-9: the readings of the cleared cards a position holds, as {pools: probability}, each
    pool (sorted codes, counts per seat), oldest first; None before the first clearing."""
    if pos["pile_contents"] is None:
        return None
    items = pos.get("pool_readings") or [{"weight": 1.0, **pos}]
    out = {}
    for item in items:
        groups = [(g["cards"], g["counts"]) for g in item.get("earlier_pools", [])]
        groups.append((item["pile_contents"], item["pool_counts"]))
        out[tuple((tuple(sorted(cards, key=_qu_sort)), tuple(counts)) for cards, counts in groups)] = item["weight"]
    return out


def _qu_same_readings(a: dict[tuple, float] | None, b: dict[tuple, float] | None) -> bool:
    """The same readings, with the same probabilities (to rounding)."""
    if a is None or b is None:
        return a is b
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) < 1e-9 for k in a)


def _qu_pool_invariants(pos: dict[str, Any], one_deck: bool) -> None:
    """Each reading: the last clearing's unseen cards are the pile and what hands hold of them,
    an earlier clearing's all in hands; no hand holds more pool cards than it has cards; the
    probabilities add up to 1; the hidden cards as they lie fit a reading (with one deck there
    is one, and each hand holds exactly its counts of each pool's cards)."""
    n, hands, pile = len(pos["hands"]), pos["hands"], pos["draw_pile"]
    readings = _qu_readings(pos)
    assert (readings is None) == (pos["clearings"] == 0), (pos["pile_contents"], pos["clearings"])
    if readings is None:
        assert pos["pool_counts"] == [0] * n and "earlier_pools" not in pos and "pool_readings" not in pos
        return
    assert abs(sum(readings.values()) - 1) < 1e-9 and all(w > 0 for w in readings.values()), readings.values()
    assert (len(readings) > 1) == ("pool_readings" in pos)
    if "pool_readings" in pos:  # the top-level keys: every card any reading has there, the most it counts
        union = Counter()
        for pools in readings:
            union |= Counter(pools[-1][0])
        assert Counter(pos["pile_contents"]) == union and "earlier_pools" not in pos
        assert pos["pool_counts"] == [max(pools[-1][1][s] for pools in readings) for s in range(n)]
    fitting = 0
    for pools in readings:
        for i, (cards, counts) in enumerate(pools):
            last = i == len(pools) - 1
            assert all(isinstance(c, int) and c >= 0 for c in counts), counts
            assert len(cards) == sum(counts) + (len(pile) if last else 0), (cards, counts, len(pile))
            assert last or any(counts), "an earlier pool with no card left unseen is dropped"
        for seat in range(n):
            assert sum(counts[seat] for _, counts in pools) <= len(hands[seat]), "pool_counts above a hand's size"
        fitting += Counter(pile) <= Counter(pools[-1][0])
        if one_deck:
            assert len(readings) == 1, "with one deck the record reads one way"
            assert Counter(pile) <= Counter(pools[-1][0]), "a pile card is not among the cleared cards"
            for cards, counts in pools:
                for seat in range(n):
                    assert len([c for c in hands[seat] if c in cards]) == counts[seat], (seat, hands[seat], cards)
            assert not Counter(pile) & Counter(c for cards, _ in pools[:-1] for c in cards)
    assert fitting, "the pile fits no reading: the true state is not among those the record allows"


def _qu_left(readings: dict[tuple, float], seat: int, code: str, sizes: list[int], unseen: int) -> dict[tuple, float]:
    """QU-9: the readings after ``code`` left ``seat``'s hand (``sizes``: the hand sizes before;
    ``unseen``: copies of the code on no spot and in no run): each place it may have come from
    (a pool the hand holds cards of, or the hand's own cards), weighed by the chance that place
    held a copy, each copy as likely as any other card of that place."""
    out: dict[tuple, float] = {}
    for pools, weight in readings.items():
        for i, (cards, counts) in enumerate(pools):
            m = cards.count(code)
            if counts[seat] and m:
                rest = list(cards)
                rest.remove(code)
                new = list(pools)
                new[i] = (tuple(rest), counts[:seat] + (counts[seat] - 1,) + counts[seat + 1:])
                if i < len(pools) - 1 and not rest:
                    del new[i]
                out[tuple(new)] = out.get(tuple(new), 0) + weight * m * counts[seat] / len(cards)
        own = sizes[seat] - sum(counts[seat] for _, counts in pools)
        own_copies = unseen - sum(cards.count(code) for cards, _ in pools)
        if own and own_copies:
            every_own = sum(sizes) - sum(sum(counts) for _, counts in pools)
            out[pools] = out.get(pools, 0) + weight * own_copies * own / every_own
    assert out, f"{code} cannot have left seat {seat}'s hand by any reading"
    total = sum(out.values())
    return {pools: w / total for pools, w in out.items()}


def _qu_card(word: str) -> tuple[str, int]:
    code, _, spot = word.partition("@")
    return code, int(spot) if spot else 0


def _qu_transition(before: dict[str, Any], action: str, after: dict[str, Any]) -> None:
    verb, *args = action.split()
    options = before["options"]
    n = options["players"]
    p = before["player"]
    assert after["options"] == options
    hands = [list(h) for h in before["hands"]]
    spots = [list(s) for s in before["spots"]]
    runs = [[list(r) for r in rs] for rs in before["runs"]]
    readings = _qu_readings(before)
    played = before["played"]
    decks = _qu_decks(options)

    def leave_hand(code: str) -> None:  # QU-9: what is known of the cleared cards follows it
        nonlocal readings
        sizes = [len(h) for h in hands]
        hands[p].remove(code)
        if readings is not None:
            public = sum(st.count(code) for st in before["spots"]) + sum(r.count(code) for rs in before["runs"] for r in rs)
            readings = _qu_left(readings, p, code, sizes, decks - public)

    # The action's own effect.
    if verb == "discard":  # QU-3: one hand card onto one spot not used this turn
        assert before["phase"] == "discard"
        code, spot = args[0], int(args[1])
        assert spot not in before["used_spots"], (spot, before["used_spots"])
        leave_hand(code)
        spots[spot - 1].append(code)
    elif verb in ("run", "add"):
        assert before["phase"] == "dig"
        words = args[:1] if verb == "add" else args
        cards = [_qu_card(w) for w in words]
        taken: dict[int, list[str]] = {}
        for code, spot in cards:
            if spot:
                taken.setdefault(spot, []).append(code)
            else:
                leave_hand(code)
        for spot, codes in taken.items():  # QU-4: the spot's top cards, in any order
            stack = spots[spot - 1]
            assert len(codes) <= len(stack) and Counter(stack[len(stack) - len(codes):]) == Counter(codes), (
                f"{action}: {codes} are not the top cards of spot {spot}: {stack}"
            )
            del stack[len(stack) - len(codes):]
        played = True
        if verb == "run":
            new = [code for code, _ in cards]
            assert _qu_is_run(new), action
            runs[p].append(new)
        else:
            code = cards[0][0]
            old, grown = runs[p], after["runs"][p]
            assert len(grown) == len(old), (old, grown)
            changed = [i for i in range(len(old)) if old[i] != grown[i]]
            assert len(changed) == 1, f"{action}: runs {old} -> {grown}"
            i = changed[0]
            assert grown[i] in ([code] + old[i], old[i] + [code]), f"{action}: {old[i]} -> {grown[i]}"
            if "to" in args:
                assert i == int(args[-1]) - 1, (action, i)
            runs[p][i] = grown[i]
    else:
        assert verb == "stop" and before["phase"] == "dig", action
    assert after["runs"] == runs, (action, before["runs"], after["runs"])
    if after["end"] == "complete":  # QU-5: wins at once, nothing more happens
        assert verb in ("run", "add") and after["winner"] == p
        assert _qu_cover(runs[p]) == _QU_FULL
        assert [Counter(h) for h in after["hands"]] == [Counter(h) for h in hands]
        assert after["spots"] == spots and after["draw_pile"] == before["draw_pile"]
        assert after["turns"] == before["turns"]
        return
    turns = after["turns"] - before["turns"]
    assert turns >= 0
    if turns == 0:  # the same turn goes on
        assert after["player"] == p and after["end"] is None
        assert [Counter(h) for h in after["hands"]] == [Counter(h) for h in hands]
        assert after["spots"] == spots and after["draw_pile"] == before["draw_pile"]
        assert _qu_same_readings(_qu_readings(after), readings), (after.get("pool_readings"), readings)
        assert after["played"] == played and after["roll"] == before["roll"]
        assert after["quiet_turns"] == before["quiet_turns"] and after["clearings"] == before["clearings"]
        if verb == "discard" and before["to_discard"] > 1:
            assert after["phase"] == "discard" and after["to_discard"] == before["to_discard"] - 1
            assert after["used_spots"] == sorted(before["used_spots"] + [int(args[1])])
        else:
            assert after["phase"] == "dig" and after["to_discard"] == 0
        return
    # The turn ended: after ``stop``, or by itself when no run or addition was left.
    if verb == "discard":
        assert before["to_discard"] == 1, "the turn ended with discards owed"
    if verb != "stop":
        left = _qu_digs(hands[p], spots, runs[p])
        assert not left, f"QU-4: the turn ended after {action} with {sorted(left)[:3]} still playable"
    # Automatic turns (asking nothing) are those of seats with an empty hand.
    for k in range(1, min(turns, n)):
        seat = (p + k) % n
        assert before["hands"][seat] == [], f"seat {seat}'s turn passed by itself with a hand {before['hands'][seat]}"
    # QU-6: the mover draws back up to six while the pile lasts.
    pile = before["draw_pile"]
    drawn = pile[: max(0, 6 - len(hands[p]))]
    refilled = Counter(hands[p] + drawn)
    if turns < n:
        assert Counter(after["hands"][p]) == refilled, (hands[p], drawn, after["hands"][p])
    if turns == 1:
        for seat in range(n):
            if seat != p:
                assert after["hands"][seat] == before["hands"][seat], f"seat {seat}'s hand changed"
        if readings is not None:  # QU-9: the refill's cards are the last clearing's
            readings = {pools[:-1] + ((pools[-1][0], pools[-1][1][:p] + (pools[-1][1][p] + len(drawn),)
                                       + pools[-1][1][p + 1:]),): w for pools, w in readings.items()}
        # QU-7: the yard is cleared after as many consecutive quiet turns as players.
        quiet = before["quiet_turns"] + 1 if before["began_empty"] and not played else 0
        barren = before["barren"] and not played
        if quiet >= n:
            beneath = [c for stack in spots for c in stack[:-1]]
            if beneath:
                assert after["clearings"] == before["clearings"] + 1
                assert after["spots"] == [stack[-1:] for stack in spots], after["spots"]
                assert Counter(after["draw_pile"]) == Counter(beneath), "the new pile is not the cards beneath"
                new = (tuple(sorted(beneath, key=_qu_sort)), (0,) * n)
                kept: dict[tuple, float] = {}
                for pools, w in (readings or {(): 1.0}).items():  # the pools hands still hold cards of
                    key = tuple(pool for pool in pools if any(pool[1])) + (new,)
                    kept[key] = kept.get(key, 0) + w
                assert _qu_same_readings(_qu_readings(after), {k: w / sum(kept.values()) for k, w in kept.items()})
                assert not after["barren"] and after["quiet_turns"] == 0
                expected_end = None
            else:  # QU-8
                assert after["clearings"] == before["clearings"] and after["spots"] == spots
                assert after["draw_pile"] == [] and after["barren"]
                expected_end = "stalemate" if barren else None
                assert after["quiet_turns"] == 0 or expected_end
        else:
            assert after["clearings"] == before["clearings"] and after["spots"] == spots
            assert after["draw_pile"] == pile[len(drawn):]
            assert after["quiet_turns"] == quiet and after["barren"] == barren
            assert _qu_same_readings(_qu_readings(after), readings), (after.get("pool_readings"), readings)
            expected_end = None
        if expected_end is None and before["turns"] + 1 >= options["max_turns"]:
            expected_end = "max_turns"
        assert after["end"] == expected_end, (after["end"], expected_end)
    if after["end"] is None:
        # The next seat's turn: a die roll (QU-3), everything of the turn fresh.
        q = after["player"]
        assert q == (p + turns) % n, (p, turns, q)
        assert 1 <= after["roll"] <= 6 and after["used_spots"] == [] and not after["played"]
        assert after["began_empty"] == (not after["draw_pile"])
        hand = after["hands"][q]
        assert after["to_discard"] == min(after["roll"], len(hand)), (after["roll"], hand)
        assert after["phase"] == ("discard" if hand else "dig")


def _qu_sort(code: str) -> tuple[int, int]:
    return _QU_SUITS.index(code[-1]), _qu_rank(code)


def _qu_hidden_twin(state: State, seat: int | None, rng: random.Random) -> State:
    """The same position with the cards ``seat`` cannot know dealt otherwise, and another chance seed.

    QU-9: the other hands (every hand for a spectator, ``seat`` None) and the pile's order
    are hidden; every stack and run is public. Before any clearing, the other seats' hand
    cards and the pile are one group (hand sizes kept). After one, the hidden cards are read
    as one reading of the cleared cards allows (``_qu_split``: each hand's cards of each pool,
    the rest its own, the pile the last pool's), and each group's cards are permuted among its
    places (the other seats' and the pile), which keeps the observation (the harness asserts it).
    """
    pos = state.to_position()
    n = len(pos["hands"])
    split = _qu_split(pos)
    for attempt in range(12):
        keep_mover = attempt >= 6  # a digging player must keep a hand that can dig
        movable = [s for s in range(n) if s != seat and not (keep_mover and s == pos["player"] and pos["end"] is None)]
        twin, groups = copy.deepcopy(pos), copy.deepcopy(split)
        for group in groups:  # group: place -> its cards of that group ("pile" or a seat)
            places = [at for at in group if at == "pile" or at in movable]
            cards = [c for at in places for c in group[at]]
            rng.shuffle(cards)
            for at in places:
                group[at], cards = cards[: len(group[at])], cards[len(group[at]):]
        for s in movable:
            twin["hands"][s] = [c for group in groups for c in group.get(s, [])]
        twin["draw_pile"] = [c for group in groups for c in group.get("pile", [])]
        twin["chance"] = (pos["chance"] + 1 + rng.randrange(2**40)) % 2**63
        try:
            return state.game.from_position(twin)
        except parlour.PositionError:
            continue  # the digging player got a hand with nothing to dig: deal again
    raise AssertionError("no hidden twin found")


def _qu_split(pos: dict[str, Any]) -> list[dict[Any, list[str]]]:
    """The hidden cards as groups a reading of the cleared cards allows (QU-9): for each group,
    each place's cards of it (a seat, or "pile"). Before any clearing one group holds them all;
    after one, the first group is the hands' own cards, then each pool, the last with the pile."""
    n = len(pos["hands"])
    readings = _qu_readings(pos)
    if readings is None:
        group = {s: list(pos["hands"][s]) for s in range(n)}
        group["pile"] = list(pos["draw_pile"])
        return [group]
    unseen = Counter(c for h in pos["hands"] for c in h) + Counter(pos["draw_pile"])
    for pools in readings:
        stock = [unseen - sum((Counter(cards) for cards, _ in pools), Counter())] + [Counter(cards) for cards, _ in pools]
        caps = [[len(pos["hands"][s]) - sum(counts[s] for _, counts in pools) for s in range(n)]]
        caps += [list(counts) for _, counts in pools]
        groups: list[dict[Any, list[str]]] = [{s: [] for s in range(n)} for _ in stock]
        groups[-1]["pile"] = list(pos["draw_pile"])
        if Counter(pos["draw_pile"]) <= stock[-1] and all(v >= 0 for c in caps for v in c):
            stock[-1] = stock[-1] - Counter(pos["draw_pile"])
            copies = [(s, code) for s in range(n) for code in pos["hands"][s]]
            if _qu_assign(copies, stock, caps, groups):
                return groups
    raise AssertionError(f"the hidden cards fit no reading of the cleared cards: {pos}")


def _qu_assign(copies: list[tuple[int, str]], stock: list[Counter], caps: list[list[int]],
               groups: list[dict[Any, list[str]]]) -> bool:
    """Depth-first: give each hand card (seat, code) a group with a copy of it left and a slot
    of that seat's left."""
    if not copies:
        return all(v == 0 for c in caps for v in c)
    (s, code), rest = copies[0], copies[1:]
    for g in range(len(stock)):
        if stock[g][code] > 0 and caps[g][s] > 0:
            stock[g][code] -= 1
            caps[g][s] -= 1
            groups[g][s].append(code)
            if _qu_assign(rest, stock, caps, groups):
                return True
            groups[g][s].pop()
            stock[g][code] += 1
            caps[g][s] += 1
    return False


def _qu_policy(state: State, rng: random.Random) -> int:
    """Mostly dig when there is something to dig (more runs, additions and complete sets)."""
    texts = [str(a) for a in state.legal_actions()]
    plays = [i for i, t in enumerate(texts) if t.startswith(("run", "add"))]
    if plays and rng.random() < 0.85:
        return rng.choice(plays)
    return rng.randrange(len(texts))


def _qu_position(
    options: dict[str, Any],
    spots: list[list[str]],
    hands: list[list[str] | None],
    runs: list[list[list[str]]] | None = None,
    rest_to: str = "pile",
    pool_parts: list[list[str]] | None = None,
    **flow: Any,
) -> dict[str, Any]:
    """A hand-written position: the given cards as given; a hand of None gets six cards of
    the rest of the deck; the remaining cards go to the draw pile, or beneath the spots'
    given cards (``rest_to="spots"``, the pile then empty). With ``pool_parts`` (per seat,
    hand cards drawn from the last clearing), ``pile_contents`` is the pile plus the parts."""
    n = options["players"]
    runs = runs or [[] for _ in range(n)]
    rest = Counter(_qu_deck(options))
    given = [c for st in spots for c in st] + [c for h in hands if h for c in h]
    given += [c for rs in runs for r in rs for c in r]
    rest.subtract(given)
    assert all(v >= 0 for v in rest.values()), f"more copies than the deck has: {-rest}"
    pool = sorted(rest.elements(), key=_qu_sort)
    random.Random(f"qu-start/{sorted(given)}").shuffle(pool)
    full_hands = []
    for hand in hands:
        if hand is None:
            hand, pool = pool[:6], pool[6:]
        full_hands.append(sorted(hand, key=_qu_sort))
    spots = [list(st) for st in spots]
    if rest_to == "spots":
        for i, code in enumerate(pool):
            stack = spots[i % 9]
            stack.insert(0, code)
        pile: list[str] = []
    else:
        pile = pool
    position = {"options": dict(options), "spots": spots, "hands": full_hands, "runs": runs, "draw_pile": pile, **flow}
    if pool_parts is not None:
        position["pile_contents"] = sorted(pile + [c for part in pool_parts for c in part], key=_qu_sort)
        position["pool_counts"] = [len(part) for part in pool_parts]
    return position


def _qu_suit_run(suit: str, low: int, high: int) -> list[str]:
    return [_qu_code(r, suit) for r in range(low, high + 1)]


_QU_STARTS: tuple[dict[str, Any], ...] = (
    # QU-7: the third quiet turn of three with the pile empty: after these discards (and a
    # dig, if any), the yard is cleared; every stack holds cards beneath its top.
    _qu_position(
        {"players": 3, "decks": 1, "max_turns": 40},  # (the game after the clearing, in short)
        [["KS"], ["2D"], ["9C"], ["5H"], ["JD"], ["7S"], ["QC"], ["3H"], ["10D"]],
        [["AC", "8D", "4S", "KH"], ["6C", "9H", "JS"], ["2S", "QD"]],
        runs=[[["5D", "6D", "7D"]], [], [["8S", "9S", "10S"]]],
        rest_to="spots", player=0, phase="discard", roll=2, to_discard=2, began_empty=True, quiet_turns=2,
    ),
    # QU-8: empty hands and pile, nothing beneath the tops, a barren clearing behind: seat 0
    # may add 8H (to either of its runs) or stop; either way the next barren clearing
    # ends the game in a stalemate (after further turns that pass by themselves).
    _qu_position(
        {"players": 3, "decks": 1},
        [["8H"], [], [], [], [], [], [], [], []],
        [[], [], []],
        runs=[
            [_qu_suit_run("H", 5, 7), _qu_suit_run("H", 9, 13)],
            [_qu_suit_run("C", 1, 6), _qu_suit_run("D", 1, 6), _qu_suit_run("S", 1, 6), _qu_suit_run("H", 1, 4)],
            [_qu_suit_run("C", 7, 13), _qu_suit_run("D", 7, 13), _qu_suit_run("S", 7, 13)],
        ],
        player=0, phase="dig", roll=4, to_discard=0, began_empty=True, quiet_turns=2, barren=True,
        clearings=1, pile_contents=[], pool_counts=[0, 0, 0],
    ),
    # QU-5: seat 1 covers Ace to Queen; KD in hand (or QH JH KH as a run) completes the set.
    _qu_position(
        {"players": 4, "decks": 1},
        [["4D"], ["QH"], ["2H", "9S"], ["AS"], ["JH"], ["8C", "KC"], ["5S"], ["3D"], ["10C", "6H"]],
        [None, ["KD", "KH", "3H", "7S", "4S", "9H"], None, None],
        runs=[[], [_qu_suit_run("C", 1, 6), _qu_suit_run("D", 7, 12)], [], []],
        player=1, phase="dig", roll=1, to_discard=0,
    ),
    # QU-4: a dig taking several cards from one spot (its top cards in any order): spot 5
    # holds 8H 7H 5H 6H (6H on top), spot 7 QH JH; the hand 3H 4H 9H 10H.
    _qu_position(
        {"players": 3, "decks": 1},
        [["2C"], ["KD"], ["9S"], ["4C"], ["8H", "7H", "5H", "6H"], ["AS"], ["QH", "JH"], ["10S", "3D"], []],
        [None, None, ["3H", "4H", "9H", "10H", "6S", "KC"]],
        player=2, phase="dig", roll=3, to_discard=0, used_spots=[],
    ),
    # Two decks: identical cards in a hand, on a spot and in two identical runs (``add 7H
    # to 1`` / ``to 2``, from the hand or from spot 3), after a clearing whose unseen cards
    # include codes that other hands hold twice.
    _qu_position(
        {"players": 5, "decks": 2, "max_turns": 30},
        [["2D"], ["9C", "KS"], ["7H"], ["QC", "3S"], [], ["JD"], ["5C"], ["6S", "AH"], ["10D"]],
        [
            ["7H", "8H", "2C", "2C", "QS", "9D"],
            ["3D", "3D", "KC", "5S", "6S", "JC"],
            ["AD", "4C", "4C"],
            ["9C", "8S", "8S", "2S", "QD", "KD"],
            None,
        ],
        runs=[[_qu_suit_run("H", 4, 6), _qu_suit_run("H", 4, 6)], [], [_qu_suit_run("S", 9, 11)], [], []],
        pool_parts=[["QS"], ["3D"], [], ["9C", "8S"], []],
        player=0, phase="dig", roll=5, to_discard=0, clearings=1,
    ),
)


QUISQUILIAN = Adapter(
    cards_by_place=_qu_cards_by_place,
    deck=_qu_deck,
    invariants=_qu_invariants,
    transition=_qu_transition,
    hidden_twin=_qu_hidden_twin,
    junk_notation=(
        "discard 7H 0", "discard 7H 10", "discard 7H 5 6", "discard", "discard 1H 5", "run 5H 6H", "run",
        "run 5H 6H@3 6H@3", "run QS KS AS", "run KH AH 2H", "run 5H 6C 7H", "run 5H 7H 9H", "add", "add 8H to 0",
        "add 8H@10", "add 8H 9H", "add 8H to", "stop now", "stop 3", "dig 5H", "discard ZZ 5", "run 2C 3C 4C@0",
    ),
    start_positions=_QU_STARTS,
    policy=_qu_policy,
    end_reasons=frozenset({"complete", "stalemate", "max_turns"}),
    fast_playouts=6,  # an 8-player game costs ~10 s in the no-leak check (every seat, every step)
    soak_playouts=160,  # 10 games for each of the 16 accepted option combinations
    max_actions=5_000,
)


ADAPTERS: dict[str, Adapter] = {
    "decktet-golf": DECKTET_GOLF,
    "psalter-row": PSALTER_ROW,
    "quisquilian": QUISQUILIAN,
}
