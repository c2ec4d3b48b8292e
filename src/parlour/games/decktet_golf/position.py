"""Positions and observations (and their keys) of Decktet Golf.

Position keys (besides ``options``, ``end`` and ``chance``): ``round`` (1-based),
``dealer``, ``turn`` (whose turn), ``player`` (who decides now; differs from
``turn`` only during the Excuse's swaps), ``phase``, ``layouts`` (per seat, cell
name -> card code; a missing cell is empty), ``face_up`` (per seat, cell names),
``draw_pile`` (top first), ``discard`` (bottom..top), ``drawn`` and ``drawn_from``,
``flips_left``, ``lines`` (suited lines still to discard: ``"2" "3" "B" "C"``),
``swappers``, ``after_swaps``, ``excuse_owed``, ``ender``, ``totals``,
``round_scores``, ``pile_known``, ``reshuffles``, ``turns``, ``line_discards``,
``first_players`` (the first seat of each round so far) and ``last_round_layouts``
(every layout, face up, as the last finished round ended; null in the first round).

>>> import parlour
>>> game = parlour.load("decktet-golf")
>>> state = game.new_state(seed=4)
>>> game.from_position(state.to_position()).to_position() == state.to_position()
True
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from parlour.cards.decktet import CODE, EXCUSE, parse_card
from parlour.core.errors import PositionError
from parlour.core.position import (
    draw_pile,
    is_int,
    opening,
    read_cards,
    read_choice,
    read_flag,
    read_int,
    read_seat,
)
from parlour.core.words import counted, plural, shown
from parlour.games.decktet_golf.layout import (
    CELL_INDEX,
    CELLS,
    CORE_CELLS,
    FULL,
    LINE_KEYS,
    LINE_OUTER,
    MASK_CELLS,
    N_CELLS,
    OUTSIDE,
)
from parlour.games.decktet_golf.state import (
    AFTER_COVER,
    AFTER_LINES,
    DRAWN,
    FLIPPING,
    ONTOP_PHASE,
    OPENING,
    PHASE_NAMES,
    ROUNDS,
    START,
    SWAPPING,
    TAKEN,
    TARGET,
    GolfState,
    suited_lines,
)

if TYPE_CHECKING:
    from parlour.games.decktet_golf.game import DecktetGolf

HIDDEN = "?"  # a face-down card in an observation


def new_state(game: "DecktetGolf", seed: int) -> GolfState:
    state = _blank(game, seed)
    state._deal()
    state._origin = ("seed", seed)
    return state


def _blank(game: "DecktetGolf", seed: int) -> GolfState:
    state = GolfState.__new__(GolfState)
    n = game.num_players
    state.game, state._history, state._legal, state._origin = game, None, None, ("seed", seed)
    state.n, state.seed = n, seed
    state.dealer, state.round, state.totals, state.round_scores = 0, 0, (0,) * n, ()
    state.turns = state.line_discards = 0
    state.firsts, state.last_cells, state.end = (), None, None
    return state


def _layouts(state: GolfState, reveal: bool) -> list[dict[str, str]]:
    """Each seat's layout as cell -> code; unless ``reveal`` (a position), face-down cards
    are '?' (DG-12: the same for every seat and for spectators)."""
    out = []
    for s in range(state.n):
        cells, up = state.layout(s), state.up[s]
        out.append({
            CELLS[c]: CODE[card] if reveal or up >> c & 1 else HIDDEN
            for c, card in enumerate(cells) if card >= 0
        })
    return out


def _common(state: GolfState) -> dict[str, Any]:
    return {
        "round": state.round + 1,
        "dealer": state.dealer,
        "turn": state.turn,
        "player": state.player,
        "phase": PHASE_NAMES[state.phase],
        "face_up": [[CELLS[c] for c in range(N_CELLS) if state.up[s] >> c & 1] for s in range(state.n)],
        "discard": [CODE[c] for c in state.discard],
        "drawn_from": None if state.drawn < 0 else "pile" if state.from_pile else "discard",
        "flips_left": state.flips_left,
        "lines": [LINE_KEYS[line] for line in state.lines],
        "swappers": list(state.swappers),
        "after_swaps": state.after_swaps,
        "excuse_owed": state.excuse_owed,
        "ender": None if state.ender < 0 else state.ender,
        "totals": list(state.totals),
        "round_scores": [list(r) for r in state.round_scores],
        "pile_known": state.pile_known,
        "reshuffles": state.reshuffles,
        "turns": state.turns,
        "line_discards": state.line_discards,
        "first_players": list(state.firsts),
        "last_round_layouts": None if state.last_cells is None else [
            {CELLS[c]: CODE[card] for c, card in enumerate(state.last_cells[s * N_CELLS : (s + 1) * N_CELLS]) if card >= 0}
            for s in range(state.n)
        ],
        "options": dict(state.game.options),
        "end": state.end,
    }


def to_position(state: GolfState) -> dict[str, Any]:
    return {
        **_common(state),
        "layouts": _layouts(state, True),
        "draw_pile": [CODE[c] for c in state.pile[state.top :]],
        "drawn": CODE[state.drawn] if state.drawn >= 0 else None,
        "chance": state.seed,
    }


def observation(state: GolfState, seat: int | None) -> dict[str, Any]:
    """DG-12: face-up cards, the whole discard pile, pile size (and contents after a reshuffle).

    Nobody sees a face-down card, not even its owner; a card drawn from the pile is
    seen by its drawer alone until it is placed or discarded (``seat`` None, a
    spectator, is never its drawer).
    """
    held_secret = state.drawn >= 0 and state.from_pile and (seat is None or seat != state.turn)
    contents = None
    if state.pile_known:
        cards = state.pile[state.top :] + ([state.drawn] if held_secret else [])
        contents = sorted(CODE[c] for c in cards)
    return {
        "game": state.game.name,
        "seat": seat,
        "current_player": state.current_player,
        **_common(state),
        "layouts": _layouts(state, False),
        "draw_pile_size": len(state.pile) - state.top,
        "pile_contents": contents,
        "drawn": CODE[state.drawn] if state.drawn >= 0 and not held_secret else None,
        "scores": list(state.totals),
    }


def observation_key(state: GolfState, seat: int | None) -> tuple:
    """What :func:`observation` shows, as a tuple that is equal exactly when the observation is:
    the cells that hold a card (``occ``) and those face up, the face-up cells' cards, the pile's
    contents sorted once they are public, the drawn card where ``seat`` sees it, and the rest as
    the state keeps it (the options are the game's; the scores and the player to move follow from
    the totals and the end).

    >>> import parlour, random
    >>> state = parlour.load("decktet-golf").new_state(seed=1)
    >>> observation_key(state, 0) == observation_key(state.view(0).sample(random.Random(2)), 0)
    True
    """
    held_secret = state.drawn >= 0 and state.from_pile and (seat is None or seat != state.turn)
    contents = None
    if state.pile_known:
        cards = state.pile[state.top :] + ([state.drawn] if held_secret else [])
        contents = tuple(sorted(cards))
    cells, up = state.cells, state.up
    face_up = tuple([cells[s * N_CELLS + c] for s in range(state.n) for c in MASK_CELLS[up[s]]])
    return (
        tuple(state.occ), tuple(up), face_up, tuple(state.discard), len(state.pile) - state.top, contents,
        state.drawn if state.drawn >= 0 and not held_secret else -1, None if state.drawn < 0 else state.from_pile,
        state.round, state.dealer, state.turn, state.player, state.phase, state.flips_left, state.lines,
        state.swappers, state.after_swaps, state.excuse_owed, state.ender, state.totals, state.round_scores,
        state.pile_known, state.reshuffles, state.turns, state.line_discards, state.firsts, state.last_cells,
        state.end,
    )


#: The observation's keys a sample keeps as they are.
KEPT = (
    "round", "dealer", "turn", "player", "phase", "face_up", "discard", "drawn_from", "flips_left", "lines",
    "swappers", "after_swaps", "excuse_owed", "ender", "totals", "round_scores", "pile_known", "reshuffles",
    "turns", "line_discards", "first_players", "last_round_layouts", "options", "end",
)


def from_position(game: "DecktetGolf", position: dict[str, Any]) -> GolfState:
    """The state a position describes; a missing draw pile holds the deck's remaining cards."""
    game, chance = opening(game, position, "layouts, face_up, discard")  # type: ignore[assignment]
    state = _blank(game, chance)
    _read_seats(state, position)
    _read_cards(state, position)
    _read_flow(state, position)
    state._origin = ("position", state.clone())
    return state


def _read_seats(state: GolfState, position: dict[str, Any]) -> None:
    n = state.n
    state.round = read_int(position, "round", 1, low=1) - 1
    state.dealer = read_seat(position.get("dealer", 0), "dealer", n)
    state.turn = read_seat(position.get("turn", position.get("player", (state.dealer + 1) % n)), "turn", n)
    state.player = read_seat(position.get("player", state.turn), "player", n)
    state.ender = read_seat(position.get("ender"), "ender", n, allow_none=True)
    totals = position.get("totals", [0] * n)
    rounds = position.get("round_scores", [])
    if not _ints(totals, n) or not isinstance(rounds, list) or not all(_ints(r, n) for r in rounds):
        raise PositionError(f"totals and each of round_scores must be lists of {n} integers")
    state.totals = tuple(totals)
    state.round_scores = tuple(tuple(r) for r in rounds)
    state.turns = read_int(position, "turns", 0)
    state.line_discards = read_int(position, "line_discards", 0)
    state.reshuffles = read_int(position, "reshuffles", 0)
    firsts = position.get("first_players", [])
    if not isinstance(firsts, list):
        raise PositionError("first_players must list the first seat of each round so far")
    state.firsts = tuple(read_seat(s, "first_players", n) for s in firsts)
    last = position.get("last_round_layouts")
    state.last_cells = None if last is None else tuple(_cells_of(last, n, "last_round_layouts"))


def _ints(values: Any, n: int) -> bool:
    return isinstance(values, list) and len(values) == n and all(is_int(v) for v in values)


def _cells_of(layouts: Any, n: int, key: str) -> list[int]:
    """Every seat's layout (cell name -> code; missing or null is empty) as flat cells."""
    if not isinstance(layouts, list) or len(layouts) != n or not all(isinstance(x, dict) for x in layouts):
        raise PositionError(f"{key} must be a list of {n} dicts, cell name -> card code, not {shown(layouts)}")
    cells = [-1] * (n * N_CELLS)
    for seat, layout in enumerate(layouts):
        for cell, code in layout.items():
            if code is not None:
                cells[seat * N_CELLS + _cell(cell)] = read_cards([code], f"{key}[{seat}].{cell}", parse_card)[0]
    return cells


def _read_cards(state: GolfState, position: dict[str, Any]) -> None:
    n = state.n
    state.cells = _cells_of(position.get("layouts"), n, "layouts")
    state.occ = [sum(1 << c for c in range(N_CELLS) if state.cells[s * N_CELLS + c] >= 0) for s in range(n)]
    for seat in range(n):
        _check_empty_cells(seat, state.occ[seat])
    face_up = position.get("face_up", [[] for _ in range(n)])
    if not isinstance(face_up, list) or len(face_up) != n or not all(isinstance(x, list) for x in face_up):
        raise PositionError(f"face_up must be a list of {n} lists of cell names, not {shown(face_up)}")
    state.up = [sum(1 << cell for cell in {_cell(name) for name in names}) for names in face_up]
    for seat in range(n):
        if state.up[seat] & ~state.occ[seat]:
            raise PositionError(f"seat {seat}: a face-up cell is empty")
    state.discard = read_cards(position.get("discard"), "discard", parse_card)
    drawn = position.get("drawn")
    state.drawn = -1 if drawn is None else read_cards([drawn], "drawn", parse_card)[0]
    placed = Counter(c for c in state.cells if c >= 0) + Counter(state.discard) + Counter([state.drawn] * (state.drawn >= 0))
    given = position.get("draw_pile")
    listed = None if given is None else read_cards(given, "draw_pile", parse_card)
    state.pile, state.top = draw_pile(state.game.deck, placed, listed, state.seed, CODE), 0  # type: ignore[attr-defined]


def _check_empty_cells(seat: int, occ: int) -> None:
    """Only suit lines empty cells: never the core (DG-2), and a line's two outer cells together (DG-6)."""
    for cell in CORE_CELLS:
        if not occ >> cell & 1:
            raise PositionError(
                f"seat {seat}: the core cell {CELLS[cell]} is empty, but the core is never discarded (DG-2)"
            )
    for first, second in LINE_OUTER:
        if (occ >> first & 1) != (occ >> second & 1):
            empty, full = (first, second) if occ >> second & 1 else (second, first)
            raise PositionError(
                f"seat {seat}: {CELLS[empty]} is empty but {CELLS[full]} is not; a suited line discards"
                " both its outer cards (DG-6)"
            )


def _cell(name: Any) -> int:
    at = CELL_INDEX.get(name.upper()) if isinstance(name, str) else None
    if at is None:
        raise PositionError(f"{shown(name)} is not a cell: the cells are {' '.join(CELLS)}")
    return at


def _read_flow(state: GolfState, position: dict[str, Any]) -> None:
    state.phase = PHASE_NAMES.index(read_choice(position, "phase", PHASE_NAMES, "start"))
    drawn_from = read_choice(position, "drawn_from", (None, "pile", "discard"))
    if (state.drawn >= 0) != (state.phase in (TAKEN, DRAWN)) or (drawn_from is None) != (state.drawn < 0):
        raise PositionError("a drawn card (with drawn_from 'pile' or 'discard') exists exactly in the taken and drawn phases")
    state.from_pile = drawn_from == "pile"
    _read_owed(state, position)
    _read_swaps(state, position)
    state.excuse_owed = read_flag(position, "excuse_owed")
    state.pile_known = read_flag(position, "pile_known")
    state.end = _read_end(state, position)
    if state.phase != SWAPPING and state.player != state.turn:
        raise PositionError("player and turn differ only during the Excuse's swaps")
    if state.phase == OPENING and any(state.occ[s] != FULL for s in range(state.n)):
        raise PositionError("the opening flips happen with full layouts")
    ender = state.ender
    if ender >= 0 and state.end is None and (state.occ[ender] & ~state.up[ender] or ender == state.turn):
        raise PositionError(
            f"ender {ender} ended a turn with no face-down card, and the others' last turns follow (DG-8):"
            f" seat {ender} must have every card face up and not be the seat to move"
        )
    _check_flips_owed(state)


def _read_owed(state: GolfState, position: dict[str, Any]) -> None:
    """The opening flips left and the suited lines still to discard. Missing, they are what the
    layouts imply (DESIGN.md "Positions"): in the opening, the flips the player has not made
    yet (DG-3: its face-up cells outside the core are those it flipped), in the ontop phase
    the turn's seat's suited lines (DG-6)."""
    flipped = (OUTSIDE & state.up[state.player]).bit_count()
    owed = max(0, state.game.options["opening_flips"] - flipped) if state.phase == OPENING else 0
    state.flips_left = read_int(position, "flips_left", owed, 0, 8)
    suited = suited_lines(state.cells, state.turn * N_CELLS, state.up[state.turn])
    lines = position.get("lines", [LINE_KEYS[line] for line in suited] if state.phase == ONTOP_PHASE else [])
    if not isinstance(lines, list) or not all(isinstance(key, str) and key in LINE_KEYS for key in lines):
        raise PositionError(f"lines must list line keys from {', '.join(LINE_KEYS)}, not {shown(lines)}")
    state.lines = tuple(LINE_KEYS.index(key) for key in lines)
    if (state.phase == ONTOP_PHASE) != bool(state.lines):
        raise PositionError("lines are pending exactly in the ontop phase")
    if state.lines and state.lines != suited:
        raise PositionError(
            f"lines must be the suited lines of seat {state.turn} in the order 2 3 B C (DG-6):"
            f" {' '.join(LINE_KEYS[line] for line in suited) or 'none'}, not {' '.join(lines)}"
        )


def _read_swaps(state: GolfState, position: dict[str, Any]) -> None:
    """The Excuse's swaps (DG-11): the seats still to swap and what follows them. Missing in the
    swap phase, the swappers are the player and the seats after it up to the turn's seat
    (DESIGN.md "Positions"), and what follows is the turn's lines when the discard pile holds
    more than Excuses (an Excuse discarded in a turn goes under it); an Excuse alone on the
    discard pile may be waiting for its cover, so that one must be said."""
    n = state.n
    swapping = state.phase == SWAPPING
    after = [(state.turn + i) % n for i in range((state.player - state.turn) % n, n)] if swapping else []
    swappers = position.get("swappers", after)
    state.swappers = tuple(read_seat(s, "swappers", n) for s in (swappers if isinstance(swappers, list) else [None]))
    follows = AFTER_LINES if swapping and any(card != EXCUSE for card in state.discard) else None
    state.after_swaps = read_choice(position, "after_swaps", (None, AFTER_LINES, AFTER_COVER), follows)
    if swapping != bool(state.swappers) or swapping != bool(state.after_swaps):
        raise PositionError("swappers and after_swaps ('lines' or 'cover') are set exactly in the swap phase")
    k = len(state.swappers)
    still = tuple((state.turn + i) % n for i in range(n - k, n))  # DG-11: from the turn's seat, in turn order
    if k and (state.swappers != still or state.player != state.swappers[0]):
        raise PositionError(
            f"swappers must be the last {k} of the turn order from seat {state.turn}"
            f" ({' '.join(map(str, still))}, DG-11), the first of them the player"
        )


def _read_end(state: GolfState, position: dict[str, Any]) -> str | None:
    """DG-10: the match is over when a round ends with some total at the target, or with the
    fixed number of rounds played. Missing, the end is what the totals and rounds imply
    (DESIGN.md "Positions"); given, it must be that. An ended match shows every card face up
    and no turn under way (DG-8)."""
    options = state.game.options
    rounds, played = options["rounds"], len(state.round_scores)
    if rounds is not None:
        if played > rounds:
            raise PositionError(f"round_scores has {played} rounds, but the match has {rounds} (rounds)")
        implied, why = (ROUNDS, f"{rounds} of {rounds} rounds played") if played == rounds else (
            None, f"{played} of {rounds} rounds played")
    else:
        reached = max(state.totals) >= options["target"]
        implied, why = (TARGET, f"a total has reached {options['target']}") if reached else (
            None, f"no total has reached {options['target']}")
    end = read_choice(position, "end", (None, TARGET, ROUNDS), implied)
    if end != implied:
        expected = "null (the match goes on)" if implied is None else repr(implied)
        raise PositionError(f"end {shown(end)} does not agree with the match: {why}, so the end is {expected} (DG-10)")
    if end is not None and (state.phase != START or state.up != state.occ or state.drawn >= 0):
        raise PositionError("a match ends as its last round ends: every card face up and no turn under way "
                            "(phase 'start', nothing drawn; DG-8)")
    return end


def _check_flips_owed(state: GolfState) -> None:
    """Every flip a position still owes can be made, or the game would stop with no legal action.

    DG-5: a flip follows a discard only while a card is face down. DG-3: the seat flipping has
    1..``opening_flips`` flips left, and it and each seat after it up to the dealer has enough
    face-down cards outside the core for its flips.
    """
    p = state.player
    if state.phase == FLIPPING and not state.occ[p] & ~state.up[p]:
        raise PositionError(f"seat {p} has no face-down card to flip (DG-5: then no flip is owed)")
    if state.phase != OPENING:
        return
    flips = state.game.options["opening_flips"]
    if not 1 <= state.flips_left <= flips:
        allowed = f"1-{flips}" if flips else "none: with opening_flips=0 there is no opening phase"
        raise PositionError(f"flips_left {state.flips_left} in the opening: allowed {allowed} (DG-3)")
    seat, owed = p, state.flips_left
    while True:
        down = (OUTSIDE & ~state.up[seat]).bit_count()
        if down < owed:
            raise PositionError(
                f"seat {seat} still owes {counted(owed, 'opening flip')} but has {down} face-down"
                f" {plural(down, 'card')} outside the core (DG-3)"
            )
        if seat == state.dealer:
            return
        seat, owed = (seat + 1) % state.n, flips
