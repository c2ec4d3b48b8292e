"""Positions and observations (and their keys) of Quisquilian.

Position keys (besides ``options``, ``end`` and ``chance``): ``spots`` (nine
stacks of codes, bottom..top), ``hands`` (per seat), ``runs`` (per seat, each run
as codes in rank order), ``draw_pile`` (top first), ``player``, ``phase``
(``discard``/``dig``), ``roll``, ``to_discard``, ``used_spots`` (spot numbers),
``began_empty``, ``played``, ``quiet_turns``, ``barren``, ``turns``,
``clearings``, ``winner``, and what is known of the clearings' cards not yet
seen (QU-9, pool_keys.py): ``pile_contents`` (the last clearing's, or null),
``pool_counts``, and where they apply ``earlier_pools`` or ``pool_readings``.

>>> import parlour
>>> game = parlour.load("quisquilian")
>>> state = game.new_state(seed=4)
>>> game.from_position(state.to_position()).to_position() == state.to_position()
True
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from parlour.cards.standard import CODE, parse_card
from parlour.core.chance import randbelow, shuffle
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
from parlour.core.words import counted, shown
from parlour.games.quisquilian import digging, pools
from parlour.games.quisquilian.pool_keys import pool_keys, read_readings
from parlour.games.quisquilian.state import (
    ALL_RANKS,
    COMPLETE,
    DIG_PHASE,
    HAND_SIZE,
    MAX_TURNS,
    N_SPOTS,
    PHASE_NAMES,
    STALEMATE,
    QuisState,
    rank_of,
)

if TYPE_CHECKING:
    from parlour.games.quisquilian.game import Quisquilian


def codes(cards: Any) -> list[str]:
    return [CODE[c] for c in cards]


def new_state(game: "Quisquilian", seed: int) -> QuisState:
    """QU-1: nine cards to the spots, six to each seat in order, a random first player."""
    deck = list(game.deck)
    shuffle(deck, seed, "deal")
    n = game.num_players
    state = _blank(game, seed)
    state._set_spots([(card,) for card in deck[:N_SPOTS]])
    state.hands = [sorted(deck[N_SPOTS + HAND_SIZE * i : N_SPOTS + HAND_SIZE * (i + 1)]) for i in range(n)]
    state.pile, state.top = deck, N_SPOTS + HAND_SIZE * n
    state.player = randbelow(n, seed, "first")
    if not state._begin_turn():
        state._end_turn()
    return state


def _blank(game: "Quisquilian", seed: int) -> QuisState:
    state = QuisState.__new__(QuisState)
    n = game.num_players
    state.game, state._history, state._legal, state._origin = game, None, None, ("seed", seed)
    state.n, state.seed = n, seed
    state.runs, state.cover, state.wants = [()] * n, [0] * n, [digging.NO_WANTS] * n
    state.quiet, state.barren, state.turns, state.clearings = 0, False, 0, 0
    state.readings, state.winner, state.end = None, -1, None
    state.roll = state.owed = state.used = 0
    state.began_empty = state.played = False
    return state


def _public(state: QuisState) -> dict[str, Any]:
    return {
        "spots": [codes(stack) for stack in state.spots],
        "runs": [[codes(run) for run in runs] for runs in state.runs],
        "player": state.player,
        "phase": PHASE_NAMES[state.phase],
        "roll": state.roll,
        "to_discard": state.owed,
        "used_spots": [s for s in range(1, N_SPOTS + 1) if state.used >> s & 1],
        "began_empty": state.began_empty,
        "played": state.played,
        "quiet_turns": state.quiet,
        "barren": state.barren,
        "turns": state.turns,
        "clearings": state.clearings,
        **pool_keys(state.readings, state.n),
        "winner": state.winner if state.winner >= 0 else None,
        "options": dict(state.game.options),
        "end": state.end,
    }


def to_position(state: QuisState) -> dict[str, Any]:
    return {
        **_public(state),
        "hands": [codes(hand) for hand in state.hands],
        "draw_pile": codes(state.pile[state.top :]),
        "chance": state.seed,
    }


def observation(state: QuisState, seat: int | None) -> dict[str, Any]:
    """QU-9: the own hand, every stack in full, every run, hand sizes, the pile's size.

    After a clearing, also the cleared cards not yet seen and how many of them each
    hand may hold (and the same for earlier clearings whose cards a hand still holds:
    ``earlier_pools``); never another hand or the pile's order. ``seat`` None (a spectator)
    sees no hand: ``hand`` is null.
    """
    return {
        "game": state.game.name,
        "seat": seat,
        "current_player": state.current_player,
        **_public(state),
        "hand": None if seat is None else codes(state.hands[seat]),
        "hand_sizes": [len(hand) for hand in state.hands],
        "coverage": [[r for r in range(1, 14) if cover >> r & 1] for cover in state.cover],
        "draw_pile_size": len(state.pile) - state.top,
        "scores": state.scores(),
    }


def observation_key(state: QuisState, seat: int | None) -> tuple:
    """What :func:`observation` shows, as a tuple that is equal exactly when the observation is:
    the seat's hand, every hand's size, the pile's size, the board and the turn as the state
    keeps them, and what is known of the cleared cards as the observation writes it (one
    reading without its weight). The options are the game's; the coverage, the scores and the
    player to move follow from the runs, the winner and the end.

    >>> import parlour, random
    >>> state = parlour.load("quisquilian").new_state(seed=1)
    >>> observation_key(state, 0) == observation_key(state.view(0).sample(random.Random(2)), 0)
    True
    """
    readings = state.readings
    known = None if readings is None else readings[0][1] if len(readings) == 1 else readings
    return (
        None if seat is None else tuple(state.hands[seat]), tuple(map(len, state.hands)), len(state.pile) - state.top,
        tuple(state.spots), tuple(state.runs), state.player, state.phase, state.roll, state.owed, state.used,
        state.began_empty, state.played, state.quiet, state.barren, state.turns, state.clearings, known,
        state.winner, state.end,
    )


#: The observation's keys a sample keeps as they are.
PUBLIC_KEYS = (
    "spots", "runs", "player", "phase", "roll", "to_discard", "used_spots", "began_empty", "played",
    "quiet_turns", "barren", "turns", "clearings", "pile_contents", "pool_counts", "earlier_pools",
    "pool_readings", "winner", "options", "end",
)


def from_position(game: "Quisquilian", position: dict[str, Any], check_dig: bool = True) -> QuisState:
    """The state a position describes; a missing draw pile holds the deck's remaining cards.

    In the dig phase the player must have a run or an addition to play, unless
    ``check_dig`` is off (for samples, which redeal that player's hand).
    """
    game, chance = opening(game, position, "spots, hands, runs")  # type: ignore[assignment]
    state = _blank(game, chance)
    _read_cards(state, position)
    _read_flow(state, position, check_dig)
    state._origin = ("position", state.clone())
    return state


def _codes(value: Any, key: str) -> tuple[int, ...]:
    return tuple(read_cards(value, key, parse_card))


def _per_seat(position: dict[str, Any], key: str, n: int, default: Any) -> list:
    value = position.get(key, default)
    if not isinstance(value, list) or len(value) != n:
        raise PositionError(f"{key} must be a list with one entry per seat ({n})")
    return value


def _read_cards(state: QuisState, position: dict[str, Any]) -> None:
    n = state.n
    spots = position.get("spots")
    if not isinstance(spots, list) or len(spots) != N_SPOTS:
        raise PositionError("spots must be a list of nine stacks (bottom..top), one per spot 1-9")
    state._set_spots([_codes(stack, f"spots[{i + 1}]") for i, stack in enumerate(spots)])
    state.hands = [sorted(_codes(h, f"hands[{i}]")) for i, h in enumerate(_per_seat(position, "hands", n, None))]
    state.runs, state.wants, state.cover = [], [digging.NO_WANTS] * n, [0] * n
    for seat, runs in enumerate(_per_seat(position, "runs", n, [[] for _ in range(n)])):
        if not isinstance(runs, list):
            raise PositionError(f"runs[{seat}] must be a list of runs")
        state.runs.append(tuple(_run(_codes(run, f"runs[{seat}]")) for run in runs))
        state.wants[seat] = digging.wanted_cards(state.runs[seat])
        for run in state.runs[seat]:
            for card in run:
                state.cover[seat] |= 1 << rank_of(card)  # QU-5: runs may overlap; the union counts
    placed = Counter(c for stack in state.spots for c in stack) + Counter(c for h in state.hands for c in h)
    placed += Counter(c for runs in state.runs for run in runs for c in run)
    given = position.get("draw_pile")
    listed = None if given is None else read_cards(given, "draw_pile", parse_card)
    state.pile, state.top = draw_pile(state.game.deck, placed, listed, state.seed, CODE), 0  # type: ignore[attr-defined]


def _run(cards: tuple[int, ...]) -> tuple[int, ...]:
    """A run as written in a position: three or more of one suit in consecutive ranks (QU-4)."""
    ok = len(cards) >= 3 and len({c // 13 for c in cards}) == 1 and all(
        rank_of(b) == rank_of(a) + 1 for a, b in zip(cards, cards[1:]))
    if not ok:
        raise PositionError(f"{' '.join(codes(cards))} is not a run: three or more of one suit in rank order")
    return cards


def _read_flow(state: QuisState, position: dict[str, Any], check_dig: bool) -> None:
    n = state.n
    state.player = read_seat(position.get("player", 0), "player", n)
    _read_discard_step(state, position)
    state.began_empty = read_flag(position, "began_empty")
    state.played = read_flag(position, "played")
    state.quiet = read_int(position, "quiet_turns", 0, 0, n - 1)
    state.barren = read_flag(position, "barren")
    state.turns = read_int(position, "turns", 0)
    _read_pools(state, position)
    _read_end(state, position)
    _check_end(state)
    if state.end is None and state.phase == DIG_PHASE and check_dig:
        if not state._can_dig():
            raise PositionError("in the dig phase the player must have a run or an addition to play")


def _read_pools(state: QuisState, position: dict[str, Any]) -> None:
    """What the table knows of the clearings' cards (QU-9, pool_keys.py), and the clearings:
    missing, as many as the pools (the fewest the position implies). The hands and the pile
    must fit one of the readings: each pool's cards in the hands it counts and (the last one's)
    the pile, the hands' other cards none of them."""
    state.readings = readings = read_readings(position, state.n)
    least = 0 if readings is None else max(len(pools) for _, pools in readings)
    state.clearings = read_int(position, "clearings", least)
    if (state.clearings == 0) != (readings is None) or state.clearings < least:
        raise PositionError(
            f"clearings {state.clearings} and pile_contents disagree: after a clearing its cards are public "
            "(pile_contents lists those not yet seen, null before the first), and each pool is a clearing's")
    if readings is None:
        return
    pile = state.pile[state.top :]
    places = [Counter(hand) for hand in state.hands] + [Counter(pile)]
    unseen = sum(places, Counter())
    sizes = [len(hand) for hand in state.hands]
    problems = []
    for _, pools_ in readings:
        groups = pools.Groups(pools_, unseen, sizes, len(pile))
        problem = groups.problem()
        if problem is None and pools.fits(groups, places):
            return
        problems.append(problem or "the hands and the pile do not fit it")
    raise PositionError(
        "the hidden cards do not fit what is known of the cleared ones (QU-9): each hand holds pool_counts of "
        "pile_contents (and of each earlier pool), the pile only cards of pile_contents; "
        + ("; ".join(sorted(set(problems)))))


def _read_end(state: QuisState, position: dict[str, Any]) -> None:
    """How the game ended and who won. Missing, they are what the runs imply (DESIGN.md
    "Positions"): a seat whose runs cover Ace through King has won at once (QU-5), so a named
    winner means the end ``complete``, and the end ``complete`` names the seat that covers them."""
    complete = [seat for seat in range(state.n) if state.cover[seat] == ALL_RANKS]
    implied = complete[0] if len(complete) == 1 else None
    winner = position.get("winner", implied if position.get("end", COMPLETE) == COMPLETE else None)
    state.winner = read_seat(winner, "winner", state.n, allow_none=True)
    state.end = read_choice(position, "end", (None, COMPLETE, STALEMATE, MAX_TURNS),
                            COMPLETE if state.winner >= 0 else None)


def _read_discard_step(state: QuisState, position: dict[str, Any]) -> None:
    """QU-3: the phase, the roll, the discards still owed and the spots used this turn.
    Missing, they are what the rest implies (DESIGN.md "Positions"): the phase is the discard
    step while discards are owed (``to_discard``, or without it the roll's discards not yet
    made), else the dig; the discards owed in the discard step are
    those the roll asks (or the whole hand, if shorter) less those made; the roll is the
    discards owed plus those made."""
    used = position.get("used_spots", [])
    if not isinstance(used, list) or not all(is_int(s) and 1 <= s <= N_SPOTS for s in used) or len(set(used)) < len(used):
        raise PositionError(f"used_spots lists spot numbers 1-9, each once, not {shown(used)}")
    state.used = sum(1 << s for s in used)
    made, hand, free = len(used), len(state.hands[state.player]), N_SPOTS - len(used)
    owed_given, roll_given = position.get("to_discard"), position.get("roll")
    roll_owes = max(0, min(roll_given, hand + made) - made) if is_int(roll_given) else 0
    # Without to_discard, a roll with discards still to make on it is the discard step.
    discarding = owed_given > 0 if is_int(owed_given) else roll_owes > 0
    state.phase = PHASE_NAMES.index(read_choice(position, "phase", PHASE_NAMES, "discard" if discarding else "dig"))
    state.owed = owed = read_int(position, "to_discard", 0 if state.phase == DIG_PHASE else roll_owes, 0, 6)
    if (owed > 0) == (state.phase == DIG_PHASE) or owed > hand:
        raise PositionError("to_discard counts the discards still owed: at least 1 (at most the hand) in the discard phase, 0 when digging (QU-3)")
    if owed > free:  # the discard step would stop with no legal action
        raise PositionError(
            f"to_discard {owed} owes {counted(owed, 'discard')} on spots not used this turn, but {free} of 9 "
            f"{'is' if free == 1 else 'are'} left: each discard goes on a different spot (QU-3)")
    if "roll" not in position and owed + made > 6:
        raise PositionError(
            f"to_discard {owed} and {counted(made, 'used spot')} make {owed + made} discards this turn, more than "
            "a die shows (QU-3)")
    state.roll = roll = read_int(position, "roll", owed + made, 0, 6)
    if state.phase == DIG_PHASE:
        agree = made <= roll
    else:  # the roll's discards, or the whole hand if it is shorter
        agree = roll >= 1 and owed + made == min(roll, hand + made)
    if not agree:
        raise PositionError(
            f"roll {roll}, to_discard {owed} and {counted(made, 'used spot')} do not agree: the turn discards as many "
            "cards as the die shows (1-6), each on a different spot, or the whole hand if it is shorter (QU-3)")


def _check_end(state: QuisState) -> None:
    """How the game ended agrees with the board: a complete set is a win at once (QU-5), the
    turn limit ends it (QU-8), and a live turn that began with an empty pile still has one."""
    complete = [seat for seat in range(state.n) if state.cover[seat] == ALL_RANKS]
    if (state.winner >= 0) != (state.end == COMPLETE):
        raise PositionError("a winner is named exactly when the game ended with a complete set")
    if complete != ([state.winner] if state.winner >= 0 else []):
        raise PositionError(
            "the game ends at once with a win when a seat's runs cover Ace through King (QU-5): "
            f"{'seats ' + ' '.join(map(str, complete)) if complete else 'no seat'} cover them, "
            f"{'seat ' + str(state.winner) if state.winner >= 0 else 'no seat'} is named the winner")
    pile = len(state.pile) - state.top
    max_turns = state.game.max_turns  # type: ignore[attr-defined]
    if state.end is None and state.turns >= max_turns:
        raise PositionError(f"turns {state.turns}: a game ends after {max_turns} turns (max_turns, QU-8)")
    if state.end == MAX_TURNS and state.turns < max_turns:
        raise PositionError(f"end 'max_turns' after {state.turns} turns: that end comes after {max_turns} (QU-8)")
    if state.end is None and (state.began_empty or state.barren) and pile:
        raise PositionError(
            "began_empty and barren say the draw pile is empty; only a clearing, at a turn's end, fills it (QU-7, QU-8)")
    if state.end == STALEMATE and (pile or not state.barren or any(len(stack) > 1 for stack in state.spots)):
        raise PositionError(
            "end 'stalemate' comes when a clearing finds no card beneath the tops after one that found none: "
            "an empty pile, barren true, and no spot holding more than its top (QU-8)")
