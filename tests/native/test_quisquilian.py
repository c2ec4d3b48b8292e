"""The Quisquilian kernel plays the Python engine's games, decision by decision (issue 19).

Every check goes through :func:`native.harness.check_same_game`: the same seat to move, the
same legal actions in the same order (digging's runs and additions included), the same
choice of the random and heuristic agents from the same generator, the same result, lead
figures and record. The fast suite plays 1,023 dealt games over every option combination
and policy, and more from hand-written, mid-game and sampled states; ``-m slow`` 100,000.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

import parlour
from conformance.adapters import ADAPTERS, _qu_position
from native.harness import check_same_game, kernel_of, mid_game
from parlour.core.errors import ParlourError
from parlour.native import quisquilian as codec

#: Every (players, decks) the game allows: one deck deals at most 7 players.
COMBOS = [(players, decks) for decks in (1, 2) for players in range(3, 9) if players <= 7 or decks == 2]
RANDOM, HEURISTIC = parlour.agent("random"), parlour.agent("heuristic")
#: Non-default settings of every parameter the kernel reads.
TUNED = parlour.agent("heuristic:qu_deny=0,qu_feed=10,qu_idle=false,qu_dig_back=false")
TUNED_TOO = parlour.agent("heuristic:qu_deny=7,qu_feed=3")
POLICIES = {
    "random": lambda n: [RANDOM] * n,
    "heuristic": lambda n: [HEURISTIC] * n,
    "mixed": lambda n: [HEURISTIC if seat % 2 else RANDOM for seat in range(n)],
    "tuned": lambda n: [TUNED if seat % 3 else RANDOM for seat in range(n)],
}


def game_of(players: int, decks: int, **options: int) -> parlour.core.game.Game:
    return parlour.load("quisquilian", players=players, decks=decks, **options)


def play_dealt(players: int, decks: int, policy: str, seeds: range, **options: int) -> list[str | None]:
    """check_same_game on the games dealt by ``seeds``; their ends."""
    game = game_of(players, decks, **options)
    agents = POLICIES[policy](players)
    return [check_same_game(game.new_state(seed), agents, seed * 31 + 7).outcome.end for seed in seeds]


def _seeds(players: int, decks: int, policy: str, count: int) -> range:
    start = (players * 2 + decks) * 1_000_000 + list(POLICIES).index(policy) * 100_000
    return range(start, start + count)


# -- dealt games: 11 combinations x 3 policies x 31 games = 1,023 ----------------------
@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
@pytest.mark.parametrize(("players", "decks"), COMBOS)
def test_dealt_games(players, decks, policy):
    ends = play_dealt(players, decks, policy, _seeds(players, decks, policy, 31))
    assert set(ends) <= {"complete", "stalemate", "max_turns"}


@pytest.mark.slow
@pytest.mark.parametrize("policy", list(POLICIES))
@pytest.mark.parametrize(("players", "decks"), COMBOS)
def test_dealt_games_soak(players, decks, policy):
    play_dealt(players, decks, policy, _seeds(players, decks, policy, 2_273))  # 11 x 4 x 2,273 > 100,000


@pytest.mark.parametrize(("players", "decks"), [(3, 1), (6, 2), (8, 2)])
def test_tuned_heuristic(players, decks):
    """Every heuristic parameter at a non-default value (and the others at theirs)."""
    play_dealt(players, decks, "tuned", _seeds(players, decks, "tuned", 15))
    game = game_of(players, decks)
    for seed in range(5):
        check_same_game(game.new_state(seed), [TUNED_TOO] * players, seed)


@pytest.mark.parametrize("max_turns", [1, 2, 9, 40])
def test_the_turn_limit(max_turns):
    """QU-8's safety net ends games after max_turns turns, in the kernel as in Python."""
    ends = [end for policy in ("random", "heuristic") for players, decks in ((3, 1), (5, 2))
            for end in play_dealt(players, decks, policy, range(12), max_turns=max_turns)]
    assert "max_turns" in ends


def test_every_end_is_reached():
    """Stalemates (QU-8) are rare in dealt games; these deals reach all three ends."""
    ends = set(play_dealt(3, 1, "random", range(60)))
    ends.update(play_dealt(3, 2, "random", range(20), max_turns=30))
    ends.update(check_same_game(start, [RANDOM] * start.game.num_players, 5).outcome.end for start in _starts())
    assert ends == {"complete", "stalemate", "max_turns"}


# -- hand-written, mid-game, finished and sampled states -------------------------------
def _starts() -> list[parlour.core.game.State]:
    out = []
    for position in ADAPTERS["quisquilian"].start_positions:
        game = parlour.load("quisquilian", **position["options"])
        out.append(game.from_position(position))
    return out


#: Digs of many runs (two decks): every rank of a stretch in the hand and on a spot
#: (_runs_from_tops with choices), and spots offering several cards besides (_search).
BIG_DIGS = (
    _qu_position({"players": 5, "decks": 2}, [["2H"], ["3H"], ["4H"], ["5H"], ["6H"], ["7H"], ["8H"], ["9H"], ["10H"]],
                 [["2H", "3H", "4H", "5H", "6H", "7H"], None, None, None, None], player=0, phase="dig", roll=3,
                 to_discard=0),
    _qu_position({"players": 5, "decks": 2},
                 [["8H", "7H", "5H", "6H"], ["6H"], ["QH", "JH"], ["4H"], ["9H", "3H"], ["7H"], ["8H"], ["9H"], ["10H"]],
                 [["2H", "4H", "5H", "10H", "JH", "KH"], None, None, None, None], player=0, phase="dig", roll=3,
                 to_discard=0),
    # One deck, deep spots: runs must take a top part of each spot's prefix.
    _qu_position({"players": 4, "decks": 1},
                 [["8H", "7H", "5H", "6H"], ["QH", "JH"], ["3H", "2H"], ["KH"], ["9H"], [], ["4C"], ["5C", "6C"], ["7C"]],
                 [["4H", "10H", "AH", "3C", "8C", "9C"], None, None, None], player=0, phase="dig", roll=3,
                 to_discard=0),
)


@pytest.mark.parametrize("start", range(len(ADAPTERS["quisquilian"].start_positions)))
def test_conformance_positions(start):
    state = _starts()[start]
    n = state.game.num_players
    for seed in range(12):
        for policy in POLICIES:
            check_same_game(state, POLICIES[policy](n), seed)




def _largest_dig() -> dict:
    """benchmarks/bench_playouts.py's LARGEST_DIG: the most runs a dig was found to offer."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_playouts.py"
    spec = importlib.util.spec_from_file_location("bench_playouts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {"options": {"players": 5, "decks": 2}, **module.LARGEST_DIG}


@pytest.mark.parametrize(("position", "least"), [*zip(BIG_DIGS, (500, 700, 50)), (_largest_dig(), 5000)])
def test_big_digs(position, least):
    game = parlour.load("quisquilian", **position["options"])
    state = game.from_position(position)
    assert len(state.legal_actions()) > least
    n = game.num_players
    for seed in range(6):
        for policy in POLICIES:
            check_same_game(state, POLICIES[policy](n), seed)


@pytest.mark.parametrize(("players", "decks"), COMBOS)
def test_mid_game_states(players, decks):
    """States some way into a game (clearings behind them, in the longer ones): the
    record's decisions, runs and additions so far count in the kernel's stats."""
    game, rng = game_of(players, decks), random.Random(players * 10 + decks)
    for index in range(8):
        state = mid_game(game.new_state(500 + index), rng.choice((3, 40, 150, 400)), rng)
        check_same_game(state, POLICIES[("random", "heuristic", "mixed")[index % 3]](players), index)


def test_finished_states():
    """A finished game packs and loads: nothing to play, its result as Python's."""
    for players, decks in ((3, 1), (8, 2)):
        game = game_of(players, decks)
        for seed in range(4):
            state = mid_game(game.new_state(seed), 10_000, random.Random(seed))
            assert state.is_terminal()
            played = check_same_game(state, [RANDOM] * players, seed)
            assert played.decisions == 0 and played.first_player is None


@pytest.mark.parametrize(("players", "decks"), [(3, 1), (4, 2), (6, 2), (7, 1), (8, 2)])
def test_sampled_states(players, decks):
    """view.sample determinizations (what IS-MCTS plays out), after clearings too, for the
    seat to move and for the others (QU-9's readings, QU-10's digger)."""
    game, rng = game_of(players, decks), random.Random(players + 100 * decks)
    for index in range(8):
        state = mid_game(game.new_state(900 + index), rng.choice((5, 120, 300)), rng)
        if state.is_terminal():
            continue
        for seat in {state.current_player, (state.current_player + 1) % players}:
            sample = state.view(seat).sample(rng)
            check_same_game(sample, POLICIES[("random", "heuristic")[index % 2]](players), index)


# -- packing: what load refuses ----------------------------------------------------------
def _corrupt(words: list[int], how: str) -> list[int]:
    hand = codec.HEADER + 1  # the first seat's first hand card
    bad = list(words)
    if how == "truncated":
        return bad[:-1]
    if how == "longer":
        return bad + [0]
    if how == "empty":
        return []
    if how == "players":
        bad[0] = 9
    elif how == "decks":
        bad[1] = 3
    elif how == "player":
        bad[codec.HEADER - 13] = 5  # 3 players: seats 0..2
    elif how == "phase":
        bad[codec.HEADER - 12] = 2
    elif how == "card":
        bad[hand] = 52
    elif how == "copy":  # one card twice, another missing
        bad[hand] = bad[hand + 1]
    elif how == "negative":
        bad[hand - 1] = -1
    elif how == "winner":
        bad[codec.HEADER - 5] = 1  # a winner without a complete set's end
    elif how == "max_turns":
        bad[2] = bad[3] = 0
    return bad


CORRUPTIONS = ("truncated", "longer", "empty", "players", "decks", "player", "phase", "card", "copy", "negative",
               "winner", "max_turns")


@pytest.mark.parametrize("how", CORRUPTIONS)
def test_load_refuses_corrupted_words(how, monkeypatch):
    """Words no valid state packs to are refused by the kernel (PN_ERR_INPUT) and come back
    as a ParlourError: no crash, and the state and generator are left as they were."""
    state = game_of(3, 1).new_state(4)
    words, seed = codec.pack_state(state)
    corrupted = _corrupt(words, how)
    assert corrupted != words
    monkeypatch.setattr(codec, "pack_state", lambda _: (corrupted, seed))
    rng = random.Random(1)
    before, position = rng.getstate(), state.to_position()
    with pytest.raises(ParlourError, match="refused"):
        kernel_of("quisquilian").play_from(state, [RANDOM] * 3, rng)
    assert rng.getstate() == before and state.to_position() == position


def test_pack_state_words():
    """The words as the codec's docstring lays them out, for a dealt game."""
    state = game_of(5, 2).new_state(3)
    words, seed = codec.pack_state(state)
    assert seed == 3 and words[:2] == [5, 2]
    assert words[codec.HEADER - 13 : codec.HEADER - 11] == [state.player, 0]
    hand = state.hands[0]
    assert words[codec.HEADER : codec.HEADER + 1 + len(hand)] == [len(hand), *hand]
    assert words[-(len(state.pile) - state.top) - 1] == len(state.pile) - state.top


def test_wide_numbers_pack():
    """max_turns, turns and clearings up to 2**63 - 1 travel as two words each."""
    game = parlour.load("quisquilian", players=3, max_turns=2**63 - 1)
    assert codec.pack_options(game) == [3, 1, -1, 2**31 - 1]
    check_same_game(game.new_state(8), [RANDOM] * 3, 8)


@pytest.mark.parametrize("seed", [-1, -(2**127), 2**64 + 5, 2**128 - 1])
def test_seeds_of_any_size(seed):
    """Negative and 128-bit seeds key the deal, the dice and the clearings as in Python."""
    for players, decks in ((3, 1), (6, 2)):
        check_same_game(game_of(players, decks).new_state(seed), [HEURISTIC] * players, 3)
        check_same_game(game_of(players, decks).new_state(seed), [RANDOM] * players, 4)
