"""`parlour simulate` at scale: workers, Parquet, Ray errors, and Ctrl-C keeping the finished games."""

from __future__ import annotations

from click.testing import CliRunner
from test_cli import one_line_error, run

from parlour.analysis import parallel
from parlour.analysis.results import read_rows
from parlour.cli import cli

ARGS = ("simulate", "decktet-golf", "--players", "3", "--option", "rounds=1", "--games", "30", "--seed", "8")


def test_one_or_two_workers_write_the_same_rows(tmp_path):
    runner = CliRunner()
    files = []
    for workers in ("1", "2"):
        path = tmp_path / f"w{workers}.parquet"
        result = run(runner, *ARGS, "--workers", workers, "--out", str(path))
        assert result.exit_code == 0, result.output
        assert "Wrote 30 rows" in result.stdout
        files.append(read_rows(path))
    assert files[0] == files[1]
    assert [row["index"] for row in files[0]] == list(range(30))


def test_ctrl_c_keeps_and_summarises_the_finished_games(tmp_path, monkeypatch):
    real = parallel.run_games

    def interrupted(*args, **kwargs):
        for number, row in enumerate(real(*args, **kwargs)):
            if number == 7:
                raise KeyboardInterrupt
            yield row

    monkeypatch.setattr(parallel, "run_games", interrupted)
    path = tmp_path / "kept.csv"
    result = run(CliRunner(), *ARGS, "--workers", "1", "--out", str(path))
    assert result.exit_code == 130
    assert "Interrupted: 7 of 30 games finished and kept." in result.stdout
    assert "decktet-golf: 7 games" in result.stdout  # the summary of what was played
    assert [row["index"] for row in read_rows(path)] == list(range(7))


def test_a_ray_address_that_does_not_answer(tmp_path):
    result = CliRunner().invoke(cli, [*ARGS, "--backend", "ray", "--address", "127.0.0.1:9"])
    one_line_error(result, "no Ray cluster answers at 127.0.0.1:9")


def test_an_address_without_ray_backend():
    result = CliRunner().invoke(cli, [*ARGS, "--address", "127.0.0.1:6379"])
    one_line_error(result, "--address names a Ray cluster: give it with --backend ray")


def test_an_address_without_ray_backend_in_every_command():
    for args in (["compare", "psalter-row", "--variant", "errand_draw=1"],
                 ["tournament", "psalter-row", "--agents", "random,heuristic"]):
        result = CliRunner().invoke(cli, [*args, "--games", "2", "--address", "127.0.0.1:6379"])
        one_line_error(result, "--address names a Ray cluster: give it with --backend ray")
