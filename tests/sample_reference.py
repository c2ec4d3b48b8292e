"""The plain samplers and node keys that IS-MCTS used before its per-view caching: the oracle
that the fast ones are checked against (tests/games/test_same_samples.py,
tests/agents/test_ismcts_same_search.py).

Each reference sampler is the game's ``sample`` as it was written (commit 12fe43e): it writes
the sampled deal out as a position and reads it back with the game's ``from_position``, which
checks everything afresh. The fast samplers must give the very same states (every slot alike)
and leave the generator in the very same state.

``reference_key`` is the node key IS-MCTS used: the text of the seat's whole observation.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Callable

from conformance.adapters import ADAPTERS
from helpers import option_combinations

import parlour
from parlour.cards import decktet, standard
from parlour.core.chance import fresh_seed
from parlour.core.errors import PositionError
from parlour.core.game import Game, State
from parlour.games.decktet_golf import position as golf_position
from parlour.games.psalter_row import position as psalter_position
from parlour.games.quisquilian import digging, pools
from parlour.games.quisquilian import position as quis_position
from parlour.games.quisquilian.pool_keys import read_readings
from parlour.games.quisquilian.sampling import _give_a_dig


def views(name: str, games: int, every: int, seed: int) -> list[tuple[str, State, int | None]]:
    """``(label, state, seat)`` for states met along seeded games of ``name``: the option
    combinations in a shuffled turn (tests/helpers.py), dealt games then the conformance suite's
    hand-written start positions, played in turn by the adapter's policy (to reach reshuffles,
    clearings and later rounds), at random, and stopping most digs (clearings), a state kept about every ``every`` decisions,
    each for the seat to move, another seat and a spectator (``None``)."""
    ad = ADAPTERS[name]
    rng = random.Random(f"same-samples/{name}/{seed}")
    combos = option_combinations(name)
    rng.shuffle(combos)
    starts: list[tuple[dict[str, Any], dict[str, Any] | None]] = [
        (combos[i % len(combos)], None) for i in range(games)]
    for position in ad.start_positions:
        options = {**rng.choice(combos), **(position.get("options") or {})}
        try:
            parlour.load(name, **options)
        except parlour.OptionError:
            options = dict(position.get("options") or {})
        starts.append((options, position))
    out: list[tuple[str, State, int | None]] = []
    for i, (options, position) in enumerate(starts):
        game = parlour.load(name, **options)
        state = game.new_state(rng.getrandbits(32)) if position is None else game.from_position(position)
        policy = (ad.policy, None, _stopper)[i % 3] if ad.policy is not None else None
        step = 0
        while not state.is_terminal():
            if rng.randrange(every) == 0:
                mover = state.current_player
                others = [s for s in range(game.num_players) if s != mover]
                for seat in (mover, *(rng.sample(others, 1) if others else ()), None):
                    out.append((f"{name} {options} start {i} step {step} seat {seat}", state.clone(), seat))
            legal = state.legal_actions()
            state.apply(legal[policy(state, rng) if policy else rng.randrange(len(legal))])
            step += 1
        for seat in (0, None):
            out.append((f"{name} {options} start {i} over seat {seat}", state.clone(), seat))
    return out


def _stopper(state: State, rng: random.Random) -> int:
    """Mostly ``stop`` where it is legal (Quisquilian's digs): the piles run out, the yard is
    cleared again and again, and hands keep cleared cards of earlier clearings."""
    texts = [str(action) for action in state.legal_actions()]
    if "stop" in texts and rng.random() < 0.8:
        return texts.index("stop")
    return rng.randrange(len(texts))


def reference_sample(game: Game, obs: dict[str, Any], rng: random.Random) -> State:
    """The sample the game's original ``sample`` deals for ``obs`` from ``rng``."""
    return SAMPLERS[game.name](game, obs, rng)


def reference_key(state: State, seat: int) -> str:
    """The node key of IS-MCTS before game-provided keys: the observation's text."""
    return repr(state.observation(seat))


def slots(state: State) -> str:
    """Every slot of a state as text (types shown: ``True`` is not ``1``), the starting copy
    kept for its record (``_origin``) by its own slots: two states alike here are the same."""
    names = [name for cls in type(state).__mro__ for name in getattr(cls, "__slots__", ())]
    out = {}
    for name in names:
        value = getattr(state, name)
        if name == "_origin":
            kind, start = value
            value = (kind, slots(start) if kind == "position" else start)
        out[name] = value
    return repr(out)


# -- Psalter Row --------------------------------------------------------------------------

def _psalter(game: Any, obs: dict[str, Any], rng: random.Random) -> State:
    codes, parse_card = psalter_position.codes, standard.parse_card
    seen = {parse_card(code) for key in ("row", "discard", "removed") for code in obs[key]}
    seen.update(parse_card(code) for code in obs["hand"] or ())
    unseen = [c for c in range(standard.DECK_SIZE) if c not in seen]
    rng.shuffle(unseen)
    hand = obs["hand"] if obs["hand"] is not None else codes(unseen[: obs["hand_size"]])
    position = {key: obs[key] for key in ("row", "discard", "removed", "reshuffled", "pending", "pending_discards",
                                          "options", "end")}
    position["hand"] = hand
    position["draw_pile"] = codes(unseen[len(hand) if obs["hand"] is None else 0 :])
    position["chance"] = fresh_seed(rng)
    return psalter_position.from_position(game, position)


# -- Decktet Golf -------------------------------------------------------------------------

def _golf(game: Any, obs: dict[str, Any], rng: random.Random) -> State:
    hidden, code = golf_position.HIDDEN, decktet.CODE
    game = game.with_options(obs["options"])
    seen = Counter(c for layout in obs["layouts"] for c in layout.values() if c != hidden)
    seen.update(obs["discard"])
    if obs["drawn"]:
        seen[obs["drawn"]] += 1
    unseen = Counter(code[c] for c in game.deck) - seen
    held = obs["drawn_from"] == "pile" and obs["drawn"] is None
    pile_size = obs["draw_pile_size"]
    if obs["pile_contents"] is not None:
        pile_pool = sorted(obs["pile_contents"])
        rng.shuffle(pile_pool)
        down_pool = sorted((unseen - Counter(pile_pool)).elements())
        rng.shuffle(down_pool)
    else:
        down_pool = sorted(unseen.elements())
        rng.shuffle(down_pool)
        pile_pool = down_pool[len(down_pool) - pile_size - held :]
    deal = iter(down_pool)
    layouts = [{cell: next(deal) if c == hidden else c for cell, c in layout.items()} for layout in obs["layouts"]]
    keys = ("round", "dealer", "turn", "player", "phase", "face_up", "discard", "drawn_from", "flips_left", "lines",
            "swappers", "after_swaps", "excuse_owed", "ender", "totals", "round_scores", "pile_known", "reshuffles",
            "turns", "line_discards", "first_players", "last_round_layouts", "options", "end")
    position = {key: obs[key] for key in keys}
    position["layouts"] = layouts
    position["drawn"] = pile_pool[0] if held else obs["drawn"]
    position["draw_pile"] = pile_pool[held : held + pile_size]
    position["chance"] = fresh_seed(rng)
    return golf_position.from_position(game, position)


# -- Quisquilian --------------------------------------------------------------------------

REDEALS = 5000
_QUIS_PUBLIC = (
    "spots", "runs", "player", "phase", "roll", "to_discard", "used_spots", "began_empty", "played",
    "quiet_turns", "barren", "turns", "clearings", "pile_contents", "pool_counts", "earlier_pools",
    "pool_readings", "winner", "options", "end",
)


def _quis(game: Any, obs: dict[str, Any], rng: random.Random) -> State:
    game = game.with_options(obs["options"])
    deal = _quis_dealer(game, obs)
    position = deal(rng)
    if obs["phase"] == "dig" and obs["player"] != obs["seat"] and obs["end"] is None:
        can_dig = _quis_dig_check(obs)
        for _ in range(REDEALS):
            if can_dig(position["hands"][obs["player"]]):
                break
            position = deal(rng)
        else:
            return _give_a_dig(game, position, obs, rng)  # the exchange is the package's, unchanged
    return quis_position.from_position(game, position, check_dig=False)


def _quis_dig_check(obs: dict[str, Any]) -> Callable[[list[str]], bool]:
    parse_card = standard.parse_card
    spots = [tuple(parse_card(c) for c in stack) for stack in obs["spots"]]
    infos = [digging.spot_info(stack) for stack in spots]
    wanted, _ = digging.wanted_cards([tuple(parse_card(c) for c in run) for run in obs["runs"][obs["player"]]])

    def can_dig(hand: list[str]) -> bool:
        cards = tuple(sorted(parse_card(c) for c in hand))
        return bool(digging.runs(cards, infos)) or bool(wanted and digging.additions(cards, spots, wanted))

    return can_dig


def _quis_dealer(game: Any, obs: dict[str, Any]) -> Callable[[random.Random], dict[str, Any]]:
    parse_card, codes = standard.parse_card, quis_position.codes
    seen = Counter(parse_card(c) for stack in obs["spots"] for c in stack)
    seen.update(parse_card(c) for runs in obs["runs"] for run in runs for c in run)
    unseen = Counter(game.deck) - seen
    hand = [parse_card(c) for c in obs["hand"] or ()]
    dealer = pools.Dealer(read_readings(obs, len(obs["hand_sizes"])), unseen, obs["hand_sizes"],
                          obs["draw_pile_size"], obs["seat"], hand)
    public = {key: obs[key] for key in _QUIS_PUBLIC if key in obs}

    def deal(rng: random.Random) -> dict[str, Any]:
        hands, pile = _quis_deal(dealer, rng)
        return {**public, "hands": [codes(h) for h in hands], "draw_pile": codes(pile), "chance": fresh_seed(rng)}

    return deal


def _quis_deal(dealer: pools.Dealer, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """``pools.Dealer.__call__`` as it was: a reading and a split of the seat's hand, then each
    group's other cards (sorted, then shuffled) into its other places."""
    option = pools._pick(dealer.options, rng)
    groups, parts = option[1], option[2]
    n, seat = len(dealer.sizes), dealer.seat
    hands: list[list[int]] = [[] if s != seat else list(dealer.hand) for s in range(n)]
    pile: list[int] = []
    for g, group in enumerate(groups.cards):
        cards = sorted((group - parts[g]).elements())
        rng.shuffle(cards)
        for at, k in enumerate(groups.slots[g]):
            if at != seat:
                share, cards = cards[:k], cards[k:]
                (pile if at == n else hands[at]).extend(share)
    return hands, pile


SAMPLERS: dict[str, Callable[[Any, dict[str, Any], random.Random], State]] = {
    "psalter-row": _psalter,
    "decktet-golf": _golf,
    "quisquilian": _quis,
}
