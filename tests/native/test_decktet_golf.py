"""The Decktet Golf kernel plays the Python engine's games, decision by decision.

Each check (tests/native/harness.py) plays a state in the kernel and again in Python with the
Python agents on the same generator: the same seat, legal actions (in order) and choice at
every decision, the same outcome and stats, and a record that replays. The fast suite covers
over 1,000 dealt games over the option combinations, besides hand-written positions, mid-game
states and their view.sample determinizations; ``-m slow`` plays 100,000 dealt games.
"""

from __future__ import annotations

import itertools
import random

import pytest
from native.harness import check_same_game, kernel_of, mid_game

import parlour
from conformance.adapters import ADAPTERS
from parlour.core.errors import PositionError
from parlour.core.game import State
from parlour.games.decktet_golf.state import PHASE_NAMES
from parlour.native import decktet_golf as codec

GAME = "decktet-golf"
#: Every option that changes play: seats (one deck or two), the Excuse, the opening flips, and
#: how a match ends (the default target, a lower one, a fixed number of rounds).
COMBOS = [
    {"players": players, "excuse": excuse, "opening_flips": flips, **ending}
    for players, excuse, flips, ending in itertools.product(
        (2, 3, 4, 5), (False, True), (0, 2, 8), ({}, {"target": 20}, {"rounds": 1}))
]
POLICIES = ("random", "heuristic", "mixed")
#: Heuristic settings away from the defaults, within each setting's range (and at its ends).
SETTINGS = (
    "heuristic:dg_take=1,dg_keep=-3,dg_lines=250,dg_out_margin=-5",
    "heuristic:dg_take=20,dg_keep=20,dg_lines=0,dg_out_margin=50",
    "heuristic:dg_take=-10,dg_keep=-10,dg_lines=400,dg_out_margin=-50",
)


def seats(policy: str, players: int) -> list:
    """The agents of a game: every seat on one policy, or heuristic and random by turns."""
    if policy == "mixed":
        return [parlour.agent("heuristic" if seat % 2 == 0 else "random") for seat in range(players)]
    return [parlour.agent(policy)] * players


def play_dealt(options: dict, policy: str, seeds: range) -> int:
    game = parlour.load(GAME, **options)
    decisions = 0
    for seed in seeds:
        decisions += check_same_game(game.new_state(seed), seats(policy, game.num_players), seed).decisions
    return decisions


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("options", COMBOS, ids=str)
def test_dealt_games_are_the_same(options, policy):
    """72 combinations x 3 policies x 5 seeds: 1,080 dealt games."""
    assert play_dealt(options, policy, range(5)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("options", COMBOS, ids=str)
def test_many_dealt_games_are_the_same(options, policy):
    """72 x 3 x 463 seeds: 100,008 dealt games."""
    play_dealt(options, policy, range(1000, 1463))


@pytest.mark.parametrize("spec", SETTINGS)
@pytest.mark.parametrize("players", (2, 3, 4, 5))
def test_other_heuristic_settings_play_the_same(spec, players):
    game = parlour.load(GAME, players=players, excuse=players % 2 == 1)
    for seed in range(4):
        check_same_game(game.new_state(seed), [parlour.agent(spec)] * players, seed)


@pytest.mark.parametrize("at", range(len(ADAPTERS[GAME].start_positions)))
def test_hand_written_positions_play_the_same(at):
    position = ADAPTERS[GAME].start_positions[at]
    game = parlour.load(GAME, **position["options"])
    state = game.from_position(position)
    for seed, policy in itertools.product(range(3), (*POLICIES, *SETTINGS)):
        agents = seats(policy, game.num_players) if policy in POLICIES else [parlour.agent(policy)] * game.num_players
        check_same_game(state, agents, seed)


def in_phase(phase: int, rng: random.Random) -> State:
    """A state of a random option combination (the Excuse in, for its swaps) in ``phase``:
    random moves from a deal, stopping in that phase after a random number of them."""
    options = {**rng.choice(COMBOS), "excuse": True, "opening_flips": rng.randint(1, 8)}
    game, skip = parlour.load(GAME, **options), rng.randrange(300)
    state, moves = game.new_state(rng.getrandbits(32)), 0
    while state.is_terminal() or state.phase != phase or moves < skip:
        if state.is_terminal():
            state = game.new_state(rng.getrandbits(32))
        state = mid_game(state, 1, rng)
        moves += 1
        assert moves < 100_000, f"no state in the phase {PHASE_NAMES[phase]}"
    return state


def test_mid_game_states_and_their_samples_play_the_same():
    """States in every phase, and a determinization their player might sample, mid-game;
    finished games too (the kernel plays nothing and gives their outcome)."""
    rng = random.Random(19)
    states = [in_phase(phase, rng) for phase in range(len(PHASE_NAMES)) for _ in range(6)]
    states += [state.view(state.current_player).sample(random.Random(at)) for at, state in enumerate(states)]
    states += [mid_game(parlour.load(GAME, **COMBOS[at]).new_state(at), 100_000, rng) for at in range(0, 72, 12)]
    assert sum(bool(state.history()) for state in states[:42]) >= 36
    assert all(state.is_terminal() for state in states[-6:])
    for at, state in enumerate(states):
        policy = (*POLICIES, *SETTINGS)[at % 6]
        agents = seats(policy, state.n) if policy in POLICIES else [parlour.agent(policy)] * state.n
        check_same_game(state, agents, at)


def with_firsts(rounds: int, firsts: int, seed: int):
    """A state of round ``rounds + 1`` whose record holds ``rounds`` round scores and
    ``firsts`` first players: stats() pairs them as zip does, the rest wait for a partner.
    The match is of ``rounds + 1`` rounds, so that the round scores written never end it."""
    game = parlour.load(GAME, players=3, rounds=rounds + 1)
    position = game.new_state(seed).to_position()
    rng = random.Random(seed)
    position["round_scores"] = [[rng.randint(-4, 30) for _ in range(3)] for _ in range(rounds)]
    position["totals"] = [sum(scores[seat] for scores in position["round_scores"]) for seat in range(3)]
    position["first_players"] = [rng.randrange(3) for _ in range(firsts)]
    position["round"] = rounds + 1
    return game.from_position(position)


@pytest.mark.parametrize(("rounds", "firsts"), [(0, 0), (3, 3), (4, 1), (1, 5), (0, 15), (15, 0), (2, 17)])
def test_round_scores_and_first_players_pair_up_as_in_python(rounds, firsts):
    for seed in range(2):
        check_same_game(with_firsts(rounds, firsts, seed), seats("heuristic", 3), seed)


def test_more_unpaired_entries_than_the_kernel_holds_are_refused():
    state = with_firsts(16, 0, seed=1)
    with pytest.raises(PositionError, match="at most 15 more"):
        codec.pack_state(state)
    with pytest.raises(PositionError, match="at most 15 more"):
        kernel_of(GAME).playout(state, True, None, random.Random(1))


def test_counts_beyond_32_bits_are_refused():
    position = parlour.load(GAME).new_state(3).to_position()
    position["turns"] = 2**31
    with pytest.raises(PositionError, match="32 bits"):
        codec.pack_state(parlour.load(GAME).from_position(position))


def corruptions(words: list[int]) -> list[tuple[str, list[int]]]:
    """Packed words with one thing wrong: a header word out of range, a list cut short or
    too long, a card that is no card, a card in two places, a face-up empty cell."""
    header = {name: at for at, name in enumerate(codec.HEADER)}
    out_of_range = {
        "magic": 0, "players": 6, "excuse": 2, "target": 0, "rounds": -1, "opening_flips": 9, "phase": 7,
        "player": 5, "turn": -1, "dealer": 7, "round": -1, "flips_left": 9, "drawn": 45, "from_pile": 2,
        "ender": 9, "after_swaps": 3, "excuse_owed": -1, "pile_known": 2, "reshuffles": -1, "turns": -1,
        "line_discards": -1, "end": 3, "decisions": -1, "swappers": 6, "round_scores": -1, "first_players": -1,
        "lines": 5, "draw_pile": 91, "discard": 91, "unpaired_kind": 3, "unpaired": 16,
    }
    out = []
    for name, value in out_of_range.items():
        bad = list(words)
        bad[header[name]] = value
        out.append((name, bad))
    cells = len(codec.HEADER) + words[header["lines"]]
    out.append(("cut short", words[:-1]))
    out.append(("a word too many", [*words, 0]))
    out.append(("no card", [*words[:cells], 45, *words[cells + 1:]]))
    duplicate = list(words)
    duplicate[cells] = words[cells + 1] if words[cells] != words[cells + 1] else words[cells + 2]
    out.append(("a card in two places", duplicate))
    players = words[header["players"]]
    up = cells + 12 * players
    empty = list(words)
    empty[cells + 2] = empty[cells + 5] = -1  # A2 and D2 of seat 0 emptied, their cards nowhere
    out.append(("a card missing", empty))
    face_up = list(words)
    face_up[up] = 1 << 12
    out.append(("a face-up cell outside the layout", face_up))
    phase = list(words)
    phase[header["phase"]] = PHASE_NAMES.index("drawn")  # a drawn card is owed, but none is held
    out.append(("drawn with no card", phase))
    return out


@pytest.mark.parametrize("players", (2, 5))
def test_corrupted_words_are_refused_and_nothing_is_played(players, monkeypatch):
    kernel = kernel_of(GAME)
    state = parlour.load(GAME, players=players, excuse=True).new_state(8)
    state.apply(state.legal_actions()[0])
    before = state.to_position()
    words, seed = codec.pack_state(state)
    for why, bad in corruptions(words):
        monkeypatch.setattr(codec, "pack_state", lambda _state, bad=bad: (bad, seed))
        rng = random.Random(2)
        with pytest.raises(PositionError, match="refused this state"):
            kernel.playout(state, True, None, rng)
        assert rng.getstate() == random.Random(2).getstate(), why
    assert state.to_position() == before
    monkeypatch.undo()
    assert kernel.playout(state, True, None, random.Random(2)).end == "target"


def test_the_header_is_what_the_state_holds():
    state = parlour.load(GAME, players=4, excuse=True, rounds=3, opening_flips=5).new_state(11)
    words, seed = codec.pack_state(state)
    header = dict(zip(codec.HEADER, words))
    assert seed == 11 and header["magic"] == codec.MAGIC
    assert (header["players"], header["excuse"], header["rounds"], header["opening_flips"]) == (4, 1, 3, 5)
    assert (header["phase"], header["player"], header["flips_left"]) == (0, 1, 5)
    assert header["draw_pile"] == 90 - 4 * 12 - 1 and header["discard"] == 1
    assert len(words) == len(codec.HEADER) + 4 * 12 + 4 * 4 + 41 + 1
