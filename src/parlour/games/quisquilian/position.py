"""Positions, observations and samples of Quisquilian.

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

import random
from collections import Counter
from typing import TYPE_CHECKING, Any, Callable

from parlour.cards.standard import CODE, parse_card
from parlour.core.chance import fresh_seed, randbelow, shuffle
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


def sample(game: "Quisquilian", obs: dict[str, Any], rng: random.Random) -> QuisState:
    """A state consistent with an observation, the unseen cards dealt by ``rng`` alone.

    After a clearing the hidden cards are dealt by what the table knows of the cleared ones
    (QU-9, pools.Dealer): a reading of the record, then each pool's cards among the pile and
    the hands that drew them, the other unseen cards among the rest of the hands. A player
    seen digging has something to dig (QU-10: else the dig would have ended): deals where
    they would not are rejected and drawn again, up to REDEALS times; past that, one of their
    cards is exchanged for an unseen one that lets them dig.
    """
    game = game.with_options(obs["options"])  # type: ignore[assignment]
    deal = _dealer(game, obs)
    position = deal(rng)
    if obs["phase"] == "dig" and obs["player"] != obs["seat"] and obs["end"] is None:
        can_dig = _dig_check(obs)
        for _ in range(REDEALS):
            if can_dig(position["hands"][obs["player"]]):
                break
            position = deal(rng)
        else:
            return _give_a_dig(game, position, obs, rng)
    return from_position(game, position, check_dig=False)


REDEALS = 5000  # the real deal passes, so rejection ends; a rare case costs some milliseconds


def _dig_check(obs: dict[str, Any]) -> Any:
    """Whether a hand (codes) gives the observed digging player a run or an addition."""
    spots = [tuple(parse_card(c) for c in stack) for stack in obs["spots"]]
    infos = [digging.spot_info(stack) for stack in spots]
    wanted, _ = digging.wanted_cards([tuple(parse_card(c) for c in run) for run in obs["runs"][obs["player"]]])

    def can_dig(hand: list[str]) -> bool:
        cards = tuple(sorted(parse_card(c) for c in hand))
        return bool(digging.runs(cards, infos)) or bool(wanted and digging.additions(cards, spots, wanted))

    return can_dig


def _give_a_dig(game: "Quisquilian", position: dict[str, Any], obs: dict[str, Any], rng: random.Random) -> QuisState:
    """Exchange one of the digging player's cards for an unseen one that lets them dig."""
    mover, seat = obs["player"], obs["seat"]
    places = [("hands", other) for other in range(len(obs["hand_sizes"])) if other not in (mover, seat)]
    candidates: list[tuple[str, int | None, int]] = [
        (key, index, at) for key, index in places for at in range(len(position[key][index]))]
    candidates += [("draw_pile", None, at) for at in range(len(position["draw_pile"]))]
    rng.shuffle(candidates)
    hand = position["hands"][mover]
    for key, index, at in candidates:
        pile = position[key] if index is None else position[key][index]
        for mine in range(len(hand)):
            hand[mine], pile[at] = pile[at], hand[mine]
            try:
                state = from_position(game, position, check_dig=False)
            except PositionError:  # the exchange does not fit what is known of the cleared cards
                state = None
            if state is not None and state._can_dig():
                return state
            hand[mine], pile[at] = pile[at], hand[mine]
    return from_position(game, position, check_dig=False)  # the board allows nothing: stop only


def _dealer(game: "Quisquilian", obs: dict[str, Any]) -> Callable[[random.Random], dict[str, Any]]:
    """A function of an rng giving a position that deals the observation's hidden cards anew."""
    seen = Counter(parse_card(c) for stack in obs["spots"] for c in stack)
    seen.update(parse_card(c) for runs in obs["runs"] for run in runs for c in run)
    unseen = Counter(game.deck) - seen  # type: ignore[attr-defined]
    hand = [parse_card(c) for c in obs["hand"] or ()]
    dealer = pools.Dealer(read_readings(obs, len(obs["hand_sizes"])), unseen, obs["hand_sizes"],
                          obs["draw_pile_size"], obs["seat"], hand)
    public = {key: obs[key] for key in _public_keys() if key in obs}

    def deal(rng: random.Random) -> dict[str, Any]:
        hands, pile = dealer(rng)
        return {**public, "hands": [codes(h) for h in hands], "draw_pile": codes(pile), "chance": fresh_seed(rng)}

    return deal


def _public_keys() -> tuple[str, ...]:
    return (
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
    state.phase = PHASE_NAMES.index(read_choice(position, "phase", PHASE_NAMES, "dig"))
    _read_discard_step(state, position)
    state.began_empty = read_flag(position, "began_empty")
    state.played = read_flag(position, "played")
    state.quiet = read_int(position, "quiet_turns", 0, 0, n - 1)
    state.barren = read_flag(position, "barren")
    state.turns = read_int(position, "turns", 0)
    _read_pools(state, position)
    state.end = read_choice(position, "end", (None, COMPLETE, STALEMATE, MAX_TURNS))
    state.winner = read_seat(position.get("winner"), "winner", n, allow_none=True)
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


def _read_discard_step(state: QuisState, position: dict[str, Any]) -> None:
    """QU-3: the roll, the discards still owed and the spots used this turn. A missing roll is
    the discards owed plus those made (DESIGN.md "Positions")."""
    state.owed = owed = read_int(position, "to_discard", 0, 0, 6)
    used = position.get("used_spots", [])
    if not isinstance(used, list) or not all(is_int(s) and 1 <= s <= N_SPOTS for s in used) or len(set(used)) < len(used):
        raise PositionError(f"used_spots lists spot numbers 1-9, each once, not {shown(used)}")
    state.used = sum(1 << s for s in used)
    made, hand, free = len(used), len(state.hands[state.player]), N_SPOTS - len(used)
    if (owed > 0) == (state.phase == DIG_PHASE) or owed > hand:
        raise PositionError("to_discard counts the discards still owed: at least 1 (at most the hand) in the discard phase, 0 when digging")
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
