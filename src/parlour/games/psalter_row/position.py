"""Positions and observations (and their keys) of Psalter Row (DESIGN.md "Psalter Row").

>>> import parlour
>>> game = parlour.load("psalter-row")
>>> state = game.from_position({"row": ["4H", "5H"], "hand": ["6H", "9C", "KS", "2D", "QC"]})
>>> [str(a) for a in state.legal_actions()][:2]
['place 6H high', 'place 9C high pay 6H']
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from parlour.cards.standard import CODE, DECK_SIZE, RANK, parse_card
from parlour.core.chance import shuffle
from parlour.core.errors import PositionError
from parlour.core.position import (
    draw_pile,
    opening,
    read_cards,
    read_choice,
    read_flag,
    read_int,
)
from parlour.games.psalter_row.roles import FULL_PSALTER, HAND_SIZE, PAGE_VALUE
from parlour.games.psalter_row.scoring import score
from parlour.games.psalter_row.state import (
    COMPLETE,
    ERRAND_DISCARD,
    EXHAUSTED,
    REVISION_DISCARD,
    PsalterState,
)

if TYPE_CHECKING:
    from parlour.games.psalter_row.game import PsalterRow

PILES = ("row", "hand", "draw_pile", "discard", "removed")
ENDS = (None, COMPLETE, EXHAUSTED)
PENDING = (None, ERRAND_DISCARD, REVISION_DISCARD)


def codes(cards: Any) -> list[str]:
    return [CODE[c] for c in cards]


def new_state(game: "PsalterRow", seed: int) -> PsalterState:
    """Shuffle the deck by the seed and draw a starting hand of 5; the Row starts empty."""
    deck = list(range(DECK_SIZE))
    shuffle(deck, seed, "deal")
    state = _blank(game, seed)
    state.hand = deck[:HAND_SIZE]
    state.pile, state.top = deck, HAND_SIZE
    state._origin = ("seed", seed)
    return state


def _blank(game: "PsalterRow", seed: int) -> PsalterState:
    state = PsalterState.__new__(PsalterState)
    state.game = game
    state._history = None
    state._legal = None
    state._origin = ("seed", seed)
    state.row, state.hand, state.discard = [], [], []
    state.pile, state.top, state.removed = [], 0, ()
    state.reshuffled, state.pending, state.owed, state.end = False, None, 0, None
    state.seed = seed
    return state


def to_position(state: PsalterState) -> dict[str, Any]:
    return {
        "row": codes(state.row),
        "hand": codes(state.hand),
        "draw_pile": codes(state.draw_pile),
        "discard": codes(state.discard),
        "removed": codes(state.removed),
        "reshuffled": state.reshuffled,
        "pending": state.pending,
        "pending_discards": state.owed,
        "options": dict(state.game.options),
        "end": state.end,
        "chance": state.seed,
    }


def observation(state: PsalterState, seat: int | None = 0) -> dict[str, Any]:
    """All that the player may know: everything but the order of the draw pile.

    ``seat`` None is a spectator's: the hand is hidden too (``hand`` null, ``hand_size`` told).
    """
    public = seat is None
    return {
        "game": state.game.name,
        "seat": None if public else 0,
        "current_player": state.current_player,
        "options": dict(state.game.options),
        "row": codes(state.row),
        "hand": None if public else codes(state.hand),
        **({"hand_size": len(state.hand)} if public else {}),
        "draw_pile_size": len(state.pile) - state.top,
        "discard": codes(state.discard),
        "removed": codes(state.removed),
        "reshuffled": state.reshuffled,
        "pending": state.pending,
        "pending_discards": state.owed,
        "end": state.end,
        "score": score(state.row),
    }


def observation_key(state: PsalterState, seat: int | None) -> tuple:
    """What :func:`observation` shows, as a tuple that is equal exactly when the observation is
    (the options are the game's, the score and the player to move follow from the Row and the end).

    >>> import parlour, random
    >>> state = parlour.load("psalter-row").new_state(seed=1)
    >>> observation_key(state, 0) == observation_key(state.view(0).sample(random.Random(2)), 0)
    True
    """
    hand = len(state.hand) if seat is None else tuple(state.hand)
    return (tuple(state.row), hand, len(state.pile) - state.top, tuple(state.discard), state.removed,
            state.reshuffled, state.pending, state.owed, state.end)


def from_position(game: "PsalterRow", position: dict[str, Any]) -> PsalterState:
    """The state a position describes; a missing draw pile holds the cards found nowhere else."""
    game, chance = opening(game, position, ", ".join(PILES))  # type: ignore[assignment]
    state = _blank(game, chance)
    _fill(state, position)
    _check(state)
    state._origin = ("position", state.clone())
    return state


def _fill(state: PsalterState, position: dict[str, Any]) -> None:
    piles = {key: read_cards(position.get(key), key, parse_card) for key in PILES if key != "draw_pile"}
    state.row, state.hand, state.discard = piles["row"], piles["hand"], piles["discard"]
    state.removed = tuple(piles["removed"])
    given = position.get("draw_pile")
    placed = Counter(c for cards in piles.values() for c in cards)
    listed = None if given is None else read_cards(given, "draw_pile", parse_card)
    state.pile = draw_pile(range(DECK_SIZE), placed, listed, state.seed, CODE)
    state.reshuffled = read_flag(position, "reshuffled")
    state.pending = read_choice(position, "pending", PENDING)
    state.end = read_choice(position, "end", ENDS, _implied_end(state))
    revising = state.pending == REVISION_DISCARD
    if revising and state.game.options["revision_discard"] != 2:
        raise PositionError("pending 'revision_discard' comes with the option revision_discard=2 only: by "
                            "default a Revision discards the whole hand at once (PR-8)")
    # Left out, the count is what the rule still owes: two, or the hand if shorter (PR-8).
    owed = read_int(position, "pending_discards", min(2, len(state.hand)) if revising else 0, 0, 2)
    if state.pending is not None and not state.hand:
        raise PositionError(f"pending {state.pending!r} owes a discard, but the hand is empty")
    if revising and not owed:
        raise PositionError("pending 'revision_discard' owes 1 or 2 discards: pending_discards 0 owes none (PR-8)")
    if owed and not revising:
        raise PositionError("pending_discards counts Revision discards: only with pending 'revision_discard'")
    if owed > len(state.hand):  # the last owed discard would find an empty hand: no action, no end
        raise PositionError(
            f"pending_discards {owed} owes more discards than the hand holds ({len(state.hand)}); "
            "a Revision owes at most the cards in hand (PR-8)")
    if state.pending is not None and state.end is not None:
        implied = "" if "end" in position else " (the end this position implies: the draw pile is empty and no reshuffle is left, PR-11)"
        raise PositionError(
            f"end {state.end!r}{implied} with pending {state.pending!r}: a game that is over owes no discard")
    state.owed = owed


def _implied_end(state: PsalterState) -> str | None:
    """The end a position without ``"end"`` has (DESIGN.md "Positions"): complete when the Row
    holds all of 2-10 (PR-12); exhausted when, with ``end_on="empty"``, the draw pile is empty
    and no reshuffle is left (PR-11: the game ended when it emptied); else none."""
    if len(state.row) == FULL_PSALTER:
        return COMPLETE
    no_reshuffle = state.reshuffled or not state.discard
    if state.top == len(state.pile) and no_reshuffle and state.game.options["end_on"] == "empty":
        return EXHAUSTED
    return None


def _check(state: PsalterState) -> None:
    values = [RANK[c] for c in state.row]
    if not all(PAGE_VALUE[c] for c in state.row):
        raise PositionError(f"the Row holds only Pages 2-10, not {' '.join(codes(state.row))}")
    if values != sorted(set(values)):
        raise PositionError(f"the Row must be ascending with no value twice (PR-1): {' '.join(codes(state.row))}")
    if (state.end == COMPLETE) != (len(state.row) == FULL_PSALTER):
        raise PositionError("end is 'complete' exactly when the Row holds all of 2-10 (PR-12)")
    if state.end == EXHAUSTED and state.top < len(state.pile):
        raise PositionError("end 'exhausted' needs an empty draw pile (PR-11)")
