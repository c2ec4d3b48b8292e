"""Parallel simulation: the same rows on any number of workers, on Ray, and after Ctrl-C."""

from __future__ import annotations

import pytest

import parlour
from parlour.analysis.parallel import Run, _in_order, chunks, run_games
from parlour.analysis.simulate import simulate
from parlour.core.errors import OptionError

RUN = Run("quisquilian", {"players": 3}, ("random", "random", "random"), seed=11)


def test_rows_do_not_depend_on_the_worker_count():
    one = list(run_games(RUN, range(24), workers=1))
    two = list(run_games(RUN, range(24), workers=2))
    assert one == two
    assert [row["index"] for row in two] == list(range(24))


def test_rows_are_those_of_the_serial_simulation():
    game = parlour.load("quisquilian", players=3)
    serial = list(simulate(game, [parlour.agent("random")] * 3, games=6, seed=11))
    assert list(run_games(RUN, range(6), workers=2)) == serial


def test_ray_gives_the_same_rows_as_processes():
    ray_rows = list(run_games(RUN, range(12), backend="ray"))
    assert ray_rows == list(run_games(RUN, range(12), workers=2))


def test_a_ray_address_that_does_not_answer_is_a_clear_error():
    with pytest.raises(OptionError, match="no Ray cluster answers at 127.0.0.1:9"):
        list(run_games(RUN, range(2), backend="ray", address="127.0.0.1:9"))


def test_bad_arguments_are_refused():
    with pytest.raises(OptionError, match="unknown backend 'dask'"):
        run_games(RUN, range(2), backend="dask")
    with pytest.raises(OptionError, match="--backend ray"):
        run_games(RUN, range(2), address="10.0.0.1:6379")
    with pytest.raises(OptionError, match="1 or more"):
        run_games(RUN, range(2), workers=0)


def test_variant_columns_go_into_every_row():
    run = Run("psalter-row", {}, ("random",), seed=3, extra={"variant": "errand_draw=1"})
    assert {row["variant"] for row in run_games(run, range(3), workers=1)} == {"errand_draw=1"}


def test_chunks_cover_every_game_once_in_order():
    parts = chunks(range(1000), workers=2)
    assert [i for part in parts for i in part] == list(range(1000))
    assert len(parts) >= 16  # enough to balance two workers and move a progress bar


def test_an_interruption_keeps_every_finished_game_in_order():
    def finished():
        yield 2, [{"index": 4}]
        yield 0, [{"index": 0}, {"index": 1}]
        yield 3, [{"index": 5}]
        raise KeyboardInterrupt

    got = []
    with pytest.raises(KeyboardInterrupt):
        for row in _in_order(finished(), [[0, 1], [2, 3], [4], [5]]):
            got.append(row["index"])
    assert got == [0, 1, 4, 5]  # chunk 1 (games 2, 3) never finished


def test_a_tournament_on_two_workers_plays_the_games_of_one_process():
    from parlour.analysis.parallel import TournamentRun
    from parlour.analysis.tournament import block_orders, tournament

    game = parlour.load("decktet-golf", players=2, rounds=1)
    specs = ("random", "heuristic", "random")
    serial = list(tournament(game, [parlour.agent(spec) for spec in specs], 12, seed=5))
    run = TournamentRun(game.name, game.options, specs, seed=5, orders=tuple(block_orders(3, 2)))
    assert list(run_games(run, range(len(serial)), workers=2)) == serial
