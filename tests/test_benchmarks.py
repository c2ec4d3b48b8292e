"""The benchmark scripts still run: they are not part of the test run, so an import that
moved elsewhere would otherwise break them unnoticed."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], check=False, cwd=BENCHMARKS, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_every_benchmark_script_starts(script):
    done = run(script, "--help")
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout


def test_a_small_strength_run_gives_a_verdict_and_its_rows(tmp_path):
    out = tmp_path / "rows.csv"
    done = run("bench_agents.py", "strength", "psalter-row", "--agents", "random,heuristic",
               "--games", "4", "--workers", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "random vs heuristic: scored, on the same deals," in done.stdout  # Psalter Row: paired scores
    assert "over 2 deals" in done.stdout  # four games: each deal played by both agents
    assert len(out.read_text().splitlines()) == 1 + 4  # a header and a row a game


def test_two_psalter_row_runs_made_apart_pair_up_on_the_deals_both_played(tmp_path):
    first, second, both = tmp_path / "random.jsonl", tmp_path / "heuristic.jsonl", tmp_path / "both.jsonl"
    for agent, games, out in (("random", "3", first), ("heuristic", "2", second), ("random,heuristic", "2", both)):
        done = run("bench_agents.py", "strength", "psalter-row", "--agents", agent, "--games", games,
                   "--seed", "5", "--workers", "1", "--out", str(out))
        assert done.returncode == 0, done.stderr
    assert len(first.read_text().splitlines()) == 3  # written as the games end
    done = run("bench_agents.py", "compare", str(first), str(second))
    assert done.returncode == 0, done.stderr
    assert f"random ({first}): 3 deals, score" in done.stdout
    assert f"heuristic ({second}): 2 deals, score" in done.stdout
    rows = {agent: [json.loads(line) for line in path.read_text().splitlines()]
            for agent, path in (("random", first), ("heuristic", second))}
    paired = [b["score"] - a["score"] for a, b in zip(rows["random"], rows["heuristic"])]
    assert rows["random"][1]["seed"] == rows["heuristic"][1]["seed"]  # the same seed deals the same cards
    assert f"second less first on the 2 deals both played: {sum(paired) / 2:+.2f}" in done.stdout
    refused = run("bench_agents.py", "compare", str(first), str(both))  # two agents in one file
    assert refused.returncode != 0 and "expected the rows of one agent's strength --out run" in refused.stderr


def test_a_strength_run_on_one_deal_says_it_cannot_separate_them():
    # One deal gives the pairwise share no interval (the deal is the unit), and no verdict.
    done = run("bench_agents.py", "strength", "decktet-golf", "--agents", "random,heuristic",
               "--games", "2", "--workers", "1")
    assert done.returncode == 0, done.stderr
    assert "0.0% (no interval: one deal) of 2 games: not separated at 95%" in done.stdout


def small_duplicate(tmp_path, players: int, tried: str):
    """A two-deal one-round Decktet Golf duplicate run of ``tried``: the finished process and its rows' file."""
    out = tmp_path / "rows.csv"
    done = run("bench_agents.py", "duplicate", "decktet-golf", "--players", str(players), "--option", "rounds=1",
               "--tried", tried, "--deals", "2", "--workers", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return done, out


def test_a_small_duplicate_run_gives_a_verdict_and_its_rows(tmp_path):
    done, out = small_duplicate(tmp_path, 3, "random")
    assert "6 trials on 2 whole deals" in done.stdout
    assert "random in place of heuristic: finished ahead of" in done.stdout and "over 2 deals" in done.stdout
    assert len(out.read_text().splitlines()) == 1 + 6  # a header and a row a trial


def test_pooled_duplicate_files_keep_their_deals_apart_and_drop_unfinished_ones(tmp_path):
    done, out = small_duplicate(tmp_path, 2, "ismcts:iterations=5")
    assert "tried, one seat against the base: ahead of" in done.stdout
    assert "think time of the tried seat: median" in done.stdout
    lines = out.read_text().splitlines()
    header = lines[0].split(",")
    # Every trial keeps its seat's think times, one for each of its decisions with a choice.
    assert header[-1] == "think" and all(len(line.split(",")[-1].split()) > 5 for line in lines[1:])
    partial = tmp_path / "partial.csv"
    partial.write_text("\n".join(lines[:-1]) + "\n")  # the second deal lost its last trial
    done = run("bench_agents.py", "pooled", str(out), str(partial), "--title", "five iterations")
    assert done.returncode == 0, done.stderr
    assert "6 trials on 3 whole deals from 2 files" in done.stdout  # the same deal 0 twice, as two deals
    assert "five iterations: finished ahead of" in done.stdout and "over 3 deals" in done.stdout


def test_a_think_run_says_how_often_the_clock_stopped_the_search():
    done = run("bench_agents.py", "think", "psalter-row", "--agent", "pimc:samples=50,time=0.001", "--games", "1")
    assert done.returncode == 0, done.stderr
    assert "decisions over 1 deals; seconds a decision: median" in done.stdout
    assert "stopped by its clock of 0.001 s (took 95% of it or more):" in done.stdout
    untimed = run("bench_agents.py", "think", "psalter-row", "--agent", "pimc:samples=2", "--games", "1")
    assert untimed.returncode == 0, untimed.stderr
    assert "stopped by its clock" not in untimed.stdout  # no clock, nothing to stop it


def test_a_small_playout_run_compares_the_engines():
    done = run("bench_playouts.py", "--runs", "1", "--seconds", "0.05", "--game", "quisquilian", "--search")
    assert done.returncode == 0, done.stderr
    import parlour.native

    engines = ("python", "native") if parlour.native.engine() == "native" else ("python",)
    for engine in engines:
        assert f"| random | {engine} |" in done.stdout and f"| heuristic | {engine} |" in done.stdout
    assert ("x |" in done.stdout) == (len(engines) == 2)  # the ratio, where both engines ran


def test_a_ladder_run_plays_every_level_of_the_game_with_its_clock_if_asked():
    done = run("bench_agents.py", "ladder", "psalter-row", "--games", "1", "--workers", "1", "--clock")
    assert done.returncode == 0, done.stderr
    from parlour.agents.levels import LEVELS

    said = " ".join(done.stdout.split())  # the console wraps long lines
    assert f"{len(LEVELS)} games of random, heuristic, " in said
    assert LEVELS[-1].spec_for("psalter-row") in said  # the expert as players meet it, clock and all
    assert "(no interval: one deal) points over 1 deals: not separated at 95%" in said


def test_a_ladder_plays_the_levels_without_their_clocks_by_default(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_agents

    from parlour.agents.levels import LEVELS

    played = []
    monkeypatch.setattr(bench_agents, "strength", lambda args: played.append(args.agents))
    for clock in (False, True):
        bench_agents.ladder(argparse.Namespace(game="decktet-golf", clock=clock))
    specs = [level.spec_for("decktet-golf") for level in LEVELS]
    assert played == [",".join(map(bench_agents.unclocked, specs)), ",".join(specs)]
    assert "time=" not in played[0] and "time=" in played[1]  # the iteration bounds alone, or the clocks too


def test_a_levels_run_times_every_level():
    done = run("bench_agents.py", "levels", "--decisions", "1")
    assert done.returncode == 0, done.stderr
    from parlour.agents.levels import LEVELS

    rows = [line for line in done.stdout.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == 4 * len(LEVELS)  # four games and player counts, every level


def test_the_psalter_row_search_variants_play_the_same_deals_and_pair_them(tmp_path):
    import parlour.native

    base, tried = tmp_path / "base.jsonl", tmp_path / "tried.jsonl"
    done = run("pr_search.py", "play", "pimc", "--samples", "3", "--deals", "2", "--out", str(base))
    if parlour.native.engine() != "native":  # the playouts run in the kernel: it says so and stops
        assert done.returncode != 0 and "make native" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    done = run("pr_search.py", "play", "parallel", "--samples", "3", "--deals", "2", "--out", str(tried),
               "--settings", "{}", '{"pr_hole_cost": 10}')
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in tried.read_text().splitlines()]
    assert [r["block"] for r in rows] == [0, 1] and all(-9 <= r["score"] <= 14 for r in rows)
    assert [r["seed"] for r in rows] == [json.loads(line)["seed"] for line in base.read_text().splitlines()]
    done = run("pr_search.py", "pair", str(base), str(tried))
    assert done.returncode == 0, done.stderr
    assert f"{tried}: " in done.stdout and " on 2 deals, " in done.stdout and "Psalters" in done.stdout


def test_the_psalter_row_handover_rows_plot_as_a_curve(tmp_path):
    import parlour.native

    rows = tmp_path / "handover.jsonl"
    for decisions in ("0", "200"):  # the clairvoyant from the deal; fair play to the end
        done = run("pr_search.py", "handover", "--decisions", decisions, "--agent", "pimc:samples=3", "--deals", "1",
                   "--out", str(rows))
        if parlour.native.engine() != "native":  # the playouts run in the kernel: it says so and stops
            assert done.returncode != 0 and "make native" in done.stderr
            return
        assert done.returncode == 0, done.stderr
    assert [json.loads(line)["decisions"] for line in rows.read_text().splitlines()] == [0, 200]
    png = tmp_path / "curve.png"
    done = run("pr_search.py", "plot", str(rows), "--out", str(png))
    assert done.returncode == 0, done.stderr
    assert "T=0 " in done.stdout and "T=200 " in done.stdout and png.stat().st_size > 1000
