"""The kernel's search (csrc/search.c) is PIMC's, sample for sample: the same samples drawn from
the same generator, the same sums to the last bit, the same move, the generator left the same.

Each check runs :meth:`PimcAgent.decide` twice from one seed, once in the kernel and once in
Python (``engine=python``: ``view.sample`` and the Python heuristic's playouts), on deals,
states in the middle of games of every option combination, Errands half done, the pile after
the reshuffle and states near the end; then the search's own promises: the clock, its
refusals, and that it reads the view alone.
"""

from __future__ import annotations

import random

import pytest
from native.harness import kernel_of, mid_game
from native.test_psalter_row import COMBOS

import parlour
from parlour.agents.pimc import PimcAgent

GAME = parlour.load("psalter-row")


def states():
    """Searched states: deals and mid-game states over the option combinations (every fourth
    combination, a few depths each), with more than one legal move."""
    rng = random.Random(20261202)
    for number, options in enumerate(COMBOS[::4]):
        game = parlour.load("psalter-row", **options)
        for moves in (0, 7, 19, 33):
            state = mid_game(game.new_state(number * 10 + moves), moves, rng)
            if not state.is_terminal() and len(state.legal_actions()) > 1:
                yield state


STATES = list(states())


def same_search(state, spec: str, seed: int) -> tuple:
    """``spec`` decided in the kernel and in Python from ``seed``: asserted equal, returned."""
    native, python = parlour.agent(spec), parlour.agent(spec + ",engine=python")
    native_rng, python_rng = random.Random(seed), random.Random(seed)
    kernel_side, python_side = native.decide(state.view(0), native_rng), python.decide(state.view(0), python_rng)
    assert kernel_side == python_side, f"{spec} at {state.to_position()}"
    assert native_rng.getstate() == python_rng.getstate(), "the kernel drew from the generator differently"
    return kernel_side


def test_the_states_cover_what_a_search_meets():
    pending = [s for s in STATES if s.to_position().get("pending")]
    reshuffled = [s for s in STATES if s.to_position()["reshuffled"]]
    assert len(STATES) >= 80 and pending and reshuffled


@pytest.mark.parametrize("index", range(0, len(STATES)))
def test_the_heuristic_rollout_sums_the_same(index):
    _, totals, samples = same_search(STATES[index], "pimc:samples=12", index)
    assert samples == 12 and len(totals) == len(STATES[index].legal_actions())


@pytest.mark.parametrize("index", range(0, len(STATES), 8))
def test_the_pimc_rollout_sums_the_same(index):
    # rollout=pimc: after each move a PIMC player of 2 samples plays to the end, each of its
    # decisions drawing its own samples from the same generator.
    _, _, samples = same_search(STATES[index], "pimc:samples=2,rollout=pimc,inner=2", index)
    assert samples == 2


@pytest.mark.parametrize("index", range(0, len(STATES), 3))
def test_a_race_drops_the_same_moves(index):
    # The kernel's race sums each pair's differences in the Python's order: the same moves
    # dropped at the same samples, the same samples drawn.
    _, totals, samples = same_search(STATES[index], "pimc:samples=40,race=1", index)
    assert 1 <= len(totals) <= len(STATES[index].legal_actions()) and samples <= 40




def test_near_the_end_both_rollouts_play_the_odds():
    # helpers.psalter_near_the_end: the Errand draws 2 of the 3 unseen cards and so finds 2H
    # (a one-suit Psalter, 14) 2 times in 3; placing 2C binds a mixed one (9) for certain.
    from helpers import psalter_near_the_end

    state = psalter_near_the_end("8D 2H 7D")
    for spec in ("pimc:samples=300", "pimc:samples=60,rollout=pimc,inner=5"):
        action, totals, _ = same_search(state, spec, 3)
        assert str(action) == "errand AS"
    advice = parlour.agent("pimc:samples=30,rollout=pimc,inner=5").advise(state.view(0), random.Random(0))
    assert advice.reason.startswith("after it a search of 5 samples a move scores ")


def test_a_generator_that_is_not_a_plain_random_draws_the_same():
    class Counted(random.Random):
        pass

    state = STATES[5]
    plain, counted = random.Random(8), Counted(8)
    assert PimcAgent(samples=9).decide(state.view(0), plain) == PimcAgent(samples=9).decide(state.view(0), counted)
    assert plain.getstate() == counted.getstate()


def test_the_search_reads_the_view_alone():
    # Two states that differ only in what the seat cannot see (the pile's order and the chance
    # seed): the same move and the same totals from the same generator.
    for state in STATES[:40:4]:
        twin = state.view(0).sample(random.Random(99))
        assert twin.to_position() != state.to_position()
        for spec in ("pimc:samples=6", "pimc:samples=2,rollout=pimc,inner=2"):
            agent = parlour.agent(spec)
            assert agent.decide(state.view(0), random.Random(4)) == agent.decide(twin.view(0), random.Random(4))


def test_a_clock_overtaking_the_first_sample_leaves_one_sample_of_the_heuristic():
    # inner=1000 at a deal: one sample of the PIMC player takes far longer than 1 ms, so the
    # clock overtakes it; the moves are judged by one sample of the heuristic's playouts.
    view = GAME.new_state(2).view(0)
    for engine in ("native", "python"):
        agent = parlour.agent(f"pimc:samples=50,rollout=pimc,inner=1000,time=0.001,engine={engine}")
        action, totals, samples = agent.decide(view, random.Random(0))
        assert samples == 1 and action in view.legal_actions
        assert set(totals) == set(view.legal_actions) and all(0.0 <= t <= 1.0 for t in totals.values())


def test_a_clock_stops_the_samples_and_never_before_the_first():
    view = GAME.new_state(2).view(0)
    _, _, samples = parlour.agent("pimc:time=0.001,samples=100000").decide(view, random.Random(0))
    assert 1 <= samples < 100000
    _, _, samples = parlour.agent("pimc:time=0.05,rollout=pimc,inner=3").decide(view, random.Random(0))
    assert samples >= 1


def test_rollout_pimc_needs_a_solitaire_and_level_0():
    agent = parlour.agent("pimc:rollout=pimc")
    agent.check(GAME)
    with pytest.raises(parlour.OptionError, match="rollout=pimc searches a one-player game only, not decktet-golf"):
        agent.check(parlour.load("decktet-golf"))
    with pytest.raises(parlour.OptionError, match="level 1 and rollout=pimc are two ways"):
        parlour.agent("pimc:level=1,rollout=pimc").check(GAME)
    with pytest.raises(parlour.OptionError, match="inner"):
        parlour.agent("pimc:rollout=pimc,inner=0")
    with pytest.raises(parlour.OptionError, match="rollout"):
        parlour.agent("pimc:rollout=random")


def test_only_a_kernel_with_a_search_is_asked_and_bad_arguments_are_refused():
    from array import array

    from parlour.native import psalter_row as codec
    from parlour.native.runner import _packed_params

    kernel = kernel_of("psalter-row")
    assert kernel.searches and not kernel_of("decktet-golf").searches and not kernel_of("quisquilian").searches
    module = kernel._module
    words, seed = codec.pack_state(GAME.new_state(1))
    packed = array("i", words).tobytes()
    params = _packed_params((10.0, 8.0, 4.0, 1.0, 6.0))
    assert module.search("psalter-row", packed, str(seed), 1, params, 3, 0, -9.0, 14.0, 0.0, 0.0)[1] == 3
    golf = parlour.load("decktet-golf", players=2)
    from parlour.native import decktet_golf

    golf_words, golf_seed = decktet_golf.pack_state(golf.new_state(1))
    with pytest.raises(ValueError, match="decktet-golf kernel has no search"):
        module.search("decktet-golf", array("i", golf_words).tobytes(), str(golf_seed), 1,
                      _packed_params((0.0,) * len(decktet_golf.PARAMS)), 3, 0, 0.0, 1.0, 0.0, 0.0)
    for samples, inner, low, high, race in ((0, 0, -9.0, 14.0, 0.0), (3, -1, -9.0, 14.0, 0.0),
                                            (3, 0, 14.0, -9.0, 0.0), (3, 0, float("nan"), 14.0, 0.0),
                                            (3, 0, -9.0, 14.0, -1.0), (3, 0, -9.0, 14.0, float("nan"))):
        with pytest.raises(ValueError, match="refused its input"):
            module.search("psalter-row", packed, str(seed), 1, params, samples, inner, low, high, 0.0, race)
    with pytest.raises(ValueError, match="refused its input"):
        module.search("psalter-row", packed[:-4], str(seed), 1, params, 3, 0, -9.0, 14.0, 0.0, 0.0)
    over = GAME.new_state(1)
    while not over.is_terminal():
        over.apply(over.legal_actions()[0])
    over_words, _ = codec.pack_state(over)
    with pytest.raises(ValueError, match="refused its input"):
        module.search("psalter-row", array("i", over_words).tobytes(), str(seed), 1, params, 3, 0, -9.0, 14.0,
                      0.0, 0.0)


def test_the_races_checked_drop_moves_and_end_early():
    # So that the heuristic-rollout race check above compares races that drop moves and end early.
    dropped = ended = 0
    for index in range(0, len(STATES), 3):
        _, totals, samples = parlour.agent("pimc:samples=40,race=1").decide(STATES[index].view(0), random.Random(index))
        dropped += len(totals) < len(STATES[index].legal_actions())
        ended += samples < 40
    assert dropped >= 20 and ended >= 10


#: States after the reshuffle with 20 to 40 cards left to draw, the fewest first: the inner
#: player has decisions to race (with fewer, its moves are mostly forced), and the Python
#: side's games are short.
AFTER_THE_RESHUFFLE = sorted((s for s in STATES
                       if s.to_position()["reshuffled"] and 20 <= len(s.to_position()["draw_pile"]) <= 40),
                      key=lambda s: len(s.to_position()["draw_pile"]))[:3]


#: States after the reshuffle with 20 to 45 cards to draw and three moves or more (the fewest
#: cards first), for the root's race over the inner player's games.
MANY_MOVES = sorted((s for s in STATES if s.to_position()["reshuffled"]
                     and 20 <= len(s.to_position()["draw_pile"]) <= 45 and len(s.legal_actions()) > 2),
                    key=lambda s: len(s.to_position()["draw_pile"]))[:4]


@pytest.mark.parametrize("index", range(len(MANY_MOVES)))
def test_a_race_of_the_pimc_rollout_drops_the_same_moves(index):
    # The root's race over the inner player's games: moves dropped (asserted), the same in both.
    _, totals, samples = same_search(MANY_MOVES[index], "pimc:samples=6,rollout=pimc,inner=2,race=0.5", index)
    assert len(totals) < len(MANY_MOVES[index].legal_actions())


@pytest.mark.parametrize("index", range(len(AFTER_THE_RESHUFFLE)))
def test_the_inner_players_race_drops_the_same_moves(index):
    # Four samples at the root: its race could act only after the last one, so what the race
    # changes here is the inner player's, which races each of its decisions' eight samples.
    same_search(AFTER_THE_RESHUFFLE[index], "pimc:samples=4,rollout=pimc,inner=8,race=1", index)


def test_the_inner_race_checked_draws_fewer_samples():
    # So that the check above compares inner races that drop moves: with the race the inner
    # player stops sampling its decisions early, and the generator ends elsewhere.
    for state in AFTER_THE_RESHUFFLE:
        raced, plain = random.Random(1), random.Random(1)
        parlour.agent("pimc:samples=4,rollout=pimc,inner=8,race=1").decide(state.view(0), raced)
        parlour.agent("pimc:samples=4,rollout=pimc,inner=8").decide(state.view(0), plain)
        assert raced.getstate() != plain.getstate()
