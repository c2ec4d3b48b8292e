"""Positions, observations and samples of Psalter Row (DESIGN.md "Psalter Row").

>>> import parlour
>>> game = parlour.load("psalter-row")
>>> state = game.from_position({"row": ["4H", "5H"], "hand": ["6H", "9C", "KS", "2D", "QC"]})
>>> [str(a) for a in state.legal_actions()][:2]
['place 6H high', 'place 9C high pay 6H']
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

from parlour.cards.standard import CODE, DECK_SIZE, RANK, parse_card
from parlour.core.chance import derive_seed, fresh_seed, shuffle
from parlour.core.errors import NotationError, PositionError
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


def observation(state: PsalterState) -> dict[str, Any]:
    """All that the player may know: everything but the order of the draw pile."""
    return {
        "game": state.game.name,
        "seat": 0,
        "current_player": state.current_player,
        "options": dict(state.game.options),
        "row": codes(state.row),
        "hand": codes(state.hand),
        "draw_pile_size": len(state.pile) - state.top,
        "discard": codes(state.discard),
        "removed": codes(state.removed),
        "reshuffled": state.reshuffled,
        "pending": state.pending,
        "pending_discards": state.owed,
        "end": state.end,
        "score": score(state.row),
    }


def sample(game: "PsalterRow", obs: dict[str, Any], rng: random.Random) -> PsalterState:
    """A state consistent with an observation: the unseen cards, in a random order, form the pile.

    The unseen cards are taken in card order before shuffling, so the sample does
    not depend on the real order of the pile.
    """
    state = _blank(game.with_options(obs["options"]), fresh_seed(rng))  # type: ignore[arg-type]
    _fill(state, obs, with_pile=False)
    seen = set(state.row) | set(state.hand) | set(state.discard) | set(state.removed)
    pile = [c for c in range(DECK_SIZE) if c not in seen]
    rng.shuffle(pile)
    state.pile = pile
    state._origin = ("position", state.clone())
    return state


def from_position(game: "PsalterRow", position: dict[str, Any]) -> PsalterState:
    """The state a position describes; a missing draw pile holds the cards found nowhere else."""
    if not isinstance(position, dict):
        raise PositionError("a position is a dict with keys " + ", ".join(PILES))
    if not isinstance(position.get("options", {}), (dict, type(None))):
        raise PositionError(f"options must map option names to values, not {position['options']!r}")
    game = game.with_options(position.get("options"))  # type: ignore[assignment]
    chance = position.get("chance")
    if chance is None:
        chance = derive_seed(json.dumps(position, sort_keys=True, default=str), "position")
    elif not isinstance(chance, int) or isinstance(chance, bool):
        raise PositionError(f"chance {chance!r} must be an integer seed")
    state = _blank(game, chance)
    _fill(state, position, with_pile=True)
    _check(state)
    state._origin = ("position", state.clone())
    return state


def _fill(state: PsalterState, position: dict[str, Any], with_pile: bool) -> None:
    piles = {key: _cards(position, key) for key in PILES if key != "draw_pile"}
    state.row, state.hand, state.discard = piles["row"], piles["hand"], piles["discard"]
    state.removed = tuple(piles["removed"])
    placed = [c for cards in piles.values() for c in cards]
    if with_pile:
        if position.get("draw_pile") is None:
            pile = [c for c in range(DECK_SIZE) if c not in set(placed)]
            shuffle(pile, state.seed, "position-pile")
        else:
            pile = _cards(position, "draw_pile")
        placed += pile
        state.pile = pile
        _check_cards(placed)
    state.reshuffled = _flag(position, "reshuffled")
    state.pending = _choice(position, "pending", PENDING)
    state.end = _choice(position, "end", ENDS)
    owed = position.get("pending_discards") or 0
    if not isinstance(owed, int) or isinstance(owed, bool) or not 0 <= owed <= 2:
        raise PositionError(f"pending_discards {owed!r} must be 0, 1 or 2")
    if state.pending is not None and not state.hand:
        raise PositionError(f"pending {state.pending!r} owes a discard, but the hand is empty")
    if state.pending == REVISION_DISCARD and not owed:
        owed = min(2, len(state.hand))  # a hand-written position may leave the count out
    state.owed = owed if state.pending == REVISION_DISCARD else 0


def _cards(position: dict[str, Any], key: str) -> list[int]:
    value = position.get(key) or []
    if not isinstance(value, list):
        raise PositionError(f"{key} must be a list of card codes, not {value!r}")
    try:
        return [parse_card(str(code)) for code in value]
    except NotationError as err:
        raise PositionError(f"{key}: {err}") from None


def _flag(position: dict[str, Any], key: str) -> bool:
    value = position.get(key, False)
    if not isinstance(value, bool):
        raise PositionError(f"{key} must be true or false, not {value!r}")
    return value


def _choice(position: dict[str, Any], key: str, allowed: tuple) -> Any:
    value = position.get(key)
    if value not in allowed:
        raise PositionError(f"{key} {value!r} is not allowed: expected one of {', '.join(map(repr, allowed))}")
    return value


def _check_cards(cards: list[int]) -> None:
    """Each of the 52 cards in exactly one place."""
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise PositionError(f"{CODE[c]} is in more than one place: each card must be in exactly one")
        seen.add(c)
    missing = [CODE[c] for c in range(DECK_SIZE) if c not in seen]
    if missing:
        raise PositionError(f"cards missing from the position: {' '.join(missing)} (all 52 must be placed)")


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
