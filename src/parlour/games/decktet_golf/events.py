"""Decktet Golf's moves and happenings told in words, from one seat's observations alone.

:func:`events` compares two observations of one receiving seat (or of a spectator), taken
before and after an action, and says what happened, naming every card that is public to
that receiver: the discard top taken, the card that a replace put in and the one it threw
onto the discard pile, a card turned up, the outer cards a suited line shed. A card drawn
from the pile is named to its drawer alone until it is placed or discarded (DG-12). Since
the words come from the receiver's observations, they can name no card it cannot know; when
the observation after no longer shows a card (a round's end dealt new layouts, a reshuffle
took the discard pile away), the words leave it out.

>>> import parlour
>>> game = parlour.load("decktet-golf")
>>> state = game.new_state(seed=4)
>>> for action in ("flip B1", "flip B4", "flip B1", "flip C1"):
...     _ = state.apply(action)
>>> before = state.observation(0)
>>> _ = state.apply("take")
>>> events(before, state.observation(0), "take")
['Seat 1 took [bold]A[/][red]⚕[/] (1, Ace of Wyrms) from the discard pile.']
"""

from __future__ import annotations

from typing import Any

from parlour.games.decktet_golf.layout import CELLS, LINE_NAMES, LINE_OUTER
from parlour.games.decktet_golf.text import card_long

HIDDEN = "?"
_OUTER = tuple((CELLS[a], CELLS[b]) for a, b in LINE_OUTER)  # each line's two outer cells by name


def events(before: dict[str, Any], after: dict[str, Any], action: str | None = None) -> list[str]:
    """What happened between two observations of one seat, as lines of rich markup.

    With ``action`` (the notation played between them), the move first, its cards named;
    then the outer cards a suited line shed (DG-6), a seat out of face-down cards (DG-8), a
    reshuffle (DG-7), a round's end (DG-8) and the next deal's first discard.
    """
    out = []
    if action is not None:
        out.append(move_text(before, after, action))
        shed = shed_text(before, after, action)
        if shed:
            out.append(shed)
    if after["ender"] is not None and before["ender"] is None:
        out.append(f"Seat {after['ender']} has no face-down card left: everyone else has one last turn (DG-8)")
    if before["phase"] == "swap" and before["after_swaps"] == "cover" and after["phase"] != "swap" \
            and after["discard"] and after["round"] == before["round"]:
        out.append(f"{card_long(after['discard'][-1])} from the draw pile covers the Excuse (DG-11)")
    if after["reshuffles"] > before["reshuffles"] and after["round"] == before["round"]:
        top = f", its top card {card_long(after['discard'][-1])} turned up" if after["discard"] else ""
        out.append(f"The draw pile ran out: the discard pile was shuffled into a new one{top} (DG-7)")
    done = len(before["round_scores"])
    for number, scores in enumerate(after["round_scores"][done:], done + 1):
        out.append(f"Round {number} is over: all cards turned up and lines checked; it scored "
                   + " / ".join(str(s) for s in scores) + " (seats in order)")
    if after["round"] > before["round"] and after["discard"]:
        out.append(f"Round {after['round']} is dealt: {card_long(after['discard'][-1])} starts the discard pile")
    return out


def move_text(before: dict[str, Any], after: dict[str, Any], action: str) -> str:
    """One move in words, e.g. ``Seat 1 replaced B4 (face down) with 5⚕∞ (5, the Soldier):
    9☾☀ (9, the Pact) to the discard pile.``"""
    verb, *cells = action.split()
    seat = before["player"]
    who = f"Seat {seat}"
    if verb == "take":
        return f"{who} took {card_long(before['discard'][-1])} from the discard pile."
    if verb == "draw":
        drawn = after["drawn"] if after["drawn_from"] == "pile" else None
        return (f"{who} drew {card_long(drawn)} from the draw pile." if drawn
                else f"{who} drew a card from the draw pile [dim](only they see it)[/dim].")
    if verb == "flip":
        card = _now_at(before, after, seat, cells[0])
        return f"{who} turned up {cells[0]}" + (f": {card_long(card)}." if card else ".")
    if verb == "replace":
        return _replace_text(before, after, seat, cells[0])
    if verb == "discard":
        card = before["drawn"] or _first_discarded(before, after)
        return f"{who} discarded {card_long(card) if card else 'the card drawn'} onto the discard pile."
    if verb == "ontop":
        card = before["layouts"][seat].get(cells[0], HIDDEN)
        return f"{who} chose {cells[0]}" + (f", {card_long(card)}," if card != HIDDEN else "") + " to end on top."
    return _swap_text(before, seat, cells)


def _replace_text(before: dict[str, Any], after: dict[str, Any], seat: int, cell: str) -> str:
    old = before["layouts"][seat].get(cell, HIDDEN)
    face_down = old == HIDDEN
    if face_down:
        old = _first_discarded(before, after) or HIDDEN
    placed = before["drawn"] or _now_at(before, after, seat, cell)
    thrown = card_long(old) if old != HIDDEN else "the face-down card it held"
    return (f"Seat {seat} replaced {cell}{' (face down)' if face_down else ''} with "
            f"{card_long(placed) if placed else 'the card drawn'}: {thrown} to the discard pile.")


def _swap_text(before: dict[str, Any], seat: int, cells: list[str]) -> str:
    layout = before["layouts"][seat]
    shown = [f"{cell} {card_long(layout[cell]) if layout.get(cell, HIDDEN) != HIDDEN else '(face down)'}"
             for cell in cells]
    return f"Seat {seat} swapped {' and '.join(shown)} (the Excuse, DG-11)."


def shed_text(before: dict[str, Any], after: dict[str, Any], action: str) -> str | None:
    """The outer cards a suited line of the seat whose turn it is shed after ``action``, in the
    order they went onto the discard pile (the last on top), or None when no line shed."""
    seat = before["turn"]
    if _round_ended(before, after):
        return None  # the round's end tells of it: every card up, lines checked
    emptied = [cell for cell in before["layouts"][seat] if cell not in after["layouts"][seat]]
    if not emptied:
        return None
    lines = [LINE_NAMES[i] for i, (a, b) in enumerate(_OUTER) if a in emptied and b in emptied]
    added = _discarded(before, after)
    if added is not None and action.split()[0] in ("replace", "discard"):
        added = added[1:]  # the move's own card went first
    cards = (", then ".join(card_long(code) for code in added) + " on top") if added else ""
    return (f"Seat {seat}'s suited {' and '.join(lines) or 'line'} shed {' and '.join(emptied)}"
            + (f": {cards}" if cards else "") + " (DG-6).")


# -- what the observations show ------------------------------------------------------------------
def _round_ended(before: dict[str, Any], after: dict[str, Any]) -> bool:
    return len(after["round_scores"]) > len(before["round_scores"])


def _now_at(before: dict[str, Any], after: dict[str, Any], seat: int, cell: str) -> str | None:
    """The face-up card at ``cell`` of ``seat`` after the move: in the layout, or, when the
    move ended the round, in the layouts as that round was scored; None if it is not there."""
    layout = after["last_round_layouts"][seat] if _round_ended(before, after) else after["layouts"][seat]
    card = layout.get(cell)
    return card if card not in (None, HIDDEN) else None


def _discarded(before: dict[str, Any], after: dict[str, Any]) -> list[str] | None:
    """The cards the move put onto the discard pile, in order; None when the observation after
    cannot tell (a reshuffle or a new deal took the pile away)."""
    if after["round"] != before["round"] or after["reshuffles"] != before["reshuffles"]:
        return None
    old, new = before["discard"], after["discard"]
    if new[: len(old)] == old:
        return new[len(old):]
    if new[:1] == ["EX"] and new[1 : len(old) + 1] == old:  # DG-11: the Excuse goes under the pile
        return ["EX"] + new[len(old) + 1:]
    return None


def _first_discarded(before: dict[str, Any], after: dict[str, Any]) -> str | None:
    added = _discarded(before, after)
    return added[0] if added else None
