"""Parallel simulation: the same rows on any number of workers, on Ray, and after Ctrl-C."""

from __future__ import annotations

import pytest

import parlour
from parlour.analysis.parallel import Run, chunks, in_order, run_games
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
    parts = list(chunks(range(1000), workers=2))
    assert [i for part in parts for i in part] == list(range(1000))
    assert len(parts) >= 16  # enough to balance two workers and move a progress bar


def test_chunks_of_a_million_games_are_ranges_made_as_asked():
    parts = chunks(range(1_000_000), workers=2)
    first = next(parts)
    assert first == range(0, 64) and isinstance(first, range)  # not a list of the games
    assert sum(len(part) for part in parts) == 1_000_000 - 64


def test_no_more_chunks_are_out_than_allowed_however_many_there_are():
    """A slow first chunk: the others finish but wait for it, and no more are handed out
    than ``ahead`` (playing or waiting), so memory holds that many chunks' rows at most."""
    jobs = [(None, range(i, i + 1)) for i in range(1000)]
    out: set = set()
    most = [0]

    def submit(job):
        out.add(job)
        most[0] = max(most[0], len(out))
        return job

    def finished(handles):  # the earliest chunk finishes last of those out
        handle = max(handles, key=lambda h: h[1][0]) if len(handles) > 1 else handles[0]
        out.discard(handle)
        return [(handle, [handle[1][0]])]

    assert list(in_order(submit, finished, jobs, ahead=8)) == list(range(1000))
    assert most[0] == 8


def test_several_runs_take_turns_chunk_by_chunk():
    runs = [Run("psalter-row", {}, ("random",), seed=3, extra={"variant_index": v}) for v in range(2)]
    rows = list(run_games(runs, range(20), workers=1))
    assert sorted((r["variant_index"], r["index"]) for r in rows) == [(v, i) for v in range(2) for i in range(20)]
    assert [r["variant_index"] for r in rows[:4]] == [0, 0, 1, 1]  # chunks of 2 games: game 0 of both soon


def test_an_interruption_keeps_every_finished_game_in_order():
    order = iter([2, 0, 3])

    def finished(handles):
        number = next(order, None)
        if number is None:
            raise KeyboardInterrupt
        return [(number, [{"index": i} for i in jobs[number][1]])]

    jobs = [(None, [0, 1]), (None, [2, 3]), (None, [4]), (None, [5])]
    numbers = iter(range(4))
    got = []
    with pytest.raises(KeyboardInterrupt):
        for row in in_order(lambda job: next(numbers), finished, jobs, ahead=4):
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
