"""Played by the kernels or in Python, a run gives the same rows, and a search the same moves."""

from __future__ import annotations

import random

import pytest

import parlour
import parlour.native
from parlour.analysis.compare import parse_variants, variant_runs
from parlour.analysis.parallel import Run, TournamentRun, run_games
from parlour.analysis.tournament import block_orders, schedule

GAMES = [("psalter-row", {}), ("decktet-golf", {"players": 3}), ("quisquilian", {"players": 4})]


def kernel_or_fail(name: str):
    kernel = parlour.native.kernel(name)
    assert kernel is not None, parlour.native.status()
    return kernel


def rows(run: Run, games: int) -> list[dict]:
    return list(run_games(run, range(games), workers=1))


@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("agent", ["random", "heuristic", "mixed"])
def test_simulate_rows_are_the_same(name, options, agent):
    kernel_or_fail(name)
    seats = parlour.load(name, **options).num_players
    specs = ("heuristic", "random") * 4 if agent == "mixed" else (agent,) * 8
    run = Run(name, options, specs[:seats], seed=3)
    native, python = rows(run, 24), rows(Run(name, options, specs[:seats], seed=3, engine="python"), 24)
    assert native == python
    assert [list(row) for row in native] == [list(row) for row in python]  # the columns' order too


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_tournament_and_compare_rows_are_the_same(name, options):
    kernel_or_fail(name)
    game = parlour.load(name, **options)
    entrants = ("random", "heuristic")
    orders = tuple(block_orders(len(entrants), game.num_players))
    played = len(schedule(len(entrants), game.num_players, 8))
    by_engine = [rows(TournamentRun(name, options, entrants, 5, orders=orders, engine=engine), played)
                 for engine in ("native", "python")]
    assert by_engine[0] == by_engine[1]
    option = game.option_specs[-1]
    variants = parse_variants([f"{option.name}={value}" for value in option.samples()[:2]], game)
    for native, python in zip(variant_runs(name, options, variants, ("heuristic",) * game.num_players, 2),
                              variant_runs(name, options, variants, ("heuristic",) * game.num_players, 2, "python")):
        assert rows(native, 10) == rows(python, 10)


def test_agents_without_kernels_play_in_python():
    """An IS-MCTS seat: the game is played by the Python driver (its playouts may be native)."""
    kernel = kernel_or_fail("decktet-golf")
    assert kernel.setup([parlour.agent("heuristic"), parlour.agent("ismcts:iterations=5")]) is None
    # Heuristic seats of one game share one parameter set in a kernel.
    assert kernel.setup([parlour.agent("heuristic:dg_take=2"), parlour.agent("heuristic")]) is None
    assert kernel.setup([parlour.agent("heuristic:dg_take=2"), parlour.agent("random")]) is not None
    # The levels that play random and heuristic have the kernels of those agents.
    assert kernel.setup([parlour.agent("level:novice"), parlour.agent("level:casual")]) is not None
    assert kernel.setup([parlour.agent("level:strong"), parlour.agent("heuristic")]) is None
    run = Run("decktet-golf", {}, ("heuristic", "ismcts:iterations=5"), seed=1)
    assert rows(run, 2) == rows(Run("decktet-golf", {}, ("heuristic", "ismcts:iterations=5"), seed=1,
                                    engine="python"), 2)


@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_a_search_with_native_playouts_makes_the_same_moves(name, options, rollout):
    """IS-MCTS's playouts in the kernel are the very playouts it makes in Python: the same
    moves, and the generator left in the same state."""
    kernel_or_fail(name)
    game = parlour.load(name, **options)
    for seed in range(3):
        state = game.new_state(seed)
        for _ in range(5 * seed):
            state.apply(state.legal_actions()[0])
        view = state.view(state.current_player)
        moves, states = [], []
        for engine in ("native", "python"):
            rng = random.Random(seed)
            agent = parlour.agent(f"ismcts:iterations=40,rollout={rollout},margin=5,engine={engine}")
            moves.append(str(agent.act(view, rng)))
            states.append(rng.getstate())
        assert moves[0] == moves[1] and states[0] == states[1]


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_kernels_run_in_parallel_threads(name, options):
    """No global state: games played at once in four threads (the GIL released) are the games
    played one after another."""
    from concurrent.futures import ThreadPoolExecutor

    kernel = kernel_or_fail(name)
    game = parlour.load(name, **options)
    agents = [parlour.agent("heuristic")] * game.num_players
    batches = [list(range(start, start + 30)) for start in range(0, 240, 30)]

    def play(deals: list[int]) -> list:
        return [p.outcome for p in kernel.play_dealt(game, deals, [d + 1 for d in deals], agents, record=True)]

    alone = [play(deals) for deals in batches]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(play, batches)) == alone
