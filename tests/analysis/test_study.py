"""parlour study: the plan it checks, the games it plays, the measures of its rows, its report."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from test_cli import one_line_error, run

import parlour
from parlour.analysis.parallel import play_chunk
from parlour.analysis.simulate import play_game
from parlour.analysis.study import (
    DEFAULT,
    analyse,
    default_variants,
    jobs,
    measured_game,
    part,
    plan_study,
    play,
    skill_ladder,
)
from parlour.core.chance import derive_seed
from parlour.core.errors import OptionError

STUDY_FIGURES = {"margin", "deficit", "legal", "forced"}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


# -- one measured game -----------------------------------------------------------------------
@pytest.mark.parametrize("game,players", [("decktet-golf", 3), ("quisquilian", 4), ("psalter-row", None)])
def test_a_measured_game_is_the_simulated_game_with_the_study_figures(game, players):
    the_game = parlour.load(game) if players is None else parlour.load(game, players=players)
    agents = [parlour.agent("heuristic")] * the_game.num_players
    names = ["heuristic"] * the_game.num_players
    plain = play_game(the_game, agents, names, 3, derive_seed(5, 3), 5)
    native = measured_game(the_game, agents, names, 3, derive_seed(5, 3), 5, trace=True)
    python = measured_game(the_game, agents, names, 3, derive_seed(5, 3), 5, engine="python", trace=True)
    assert native == python  # the kernel's game and Python's: the same figures, the same trace
    assert {k: v for k, v in native.items() if k not in STUDY_FIGURES} == plain
    assert native["decisions"] <= native["legal"] and 0 <= native["forced"] <= native["decisions"]
    if players is None:
        assert "margin" not in native  # a solitaire has no opponent to win by
    else:
        assert native["margin"] >= 0 and native["deficit"] >= 0


# -- the plan --------------------------------------------------------------------------------
def test_default_variants_try_each_options_other_values():
    labels = [v.label for v in default_variants(parlour.load("psalter-row"))]
    assert labels == ["first_page_cost=4", "first_page_cost=8", "errand_draw=1", "errand_when_stuck=true",
                      "revision_discard=2", "revision_target=smallest", "end_on=failed_draw"]
    quisquilian = [v.label for v in default_variants(parlour.load("quisquilian"))]
    assert "players=3" not in quisquilian and quisquilian[:2] == ["decks=1", "decks=2"]


def test_the_plan_plays_every_part_on_the_same_seed():
    plan = plan_study("decktet-golf", games=6, players=[2, 3], player_games=4, ladder_games=4, branching_games=2,
                      variants=["excuse=true"], players_variants=["opening_flips=0"], seed=9)
    planned = jobs(plan)
    assert [(j.stage, j.label, len(j.indices)) for j in planned] == [
        ("base", DEFAULT, 2), ("base", DEFAULT, 4), ("variants", "excuse=true", 6),
        ("players", f"2 players, {DEFAULT}", 4), ("players", "2 players, opening_flips=0", 4),
        ("players", f"3 players, {DEFAULT}", 4), ("players", "3 players, opening_flips=0", 4),
        ("ladder", "casual v novice, seat 0", 2), ("ladder", "casual v novice, seat 1", 2)]
    assert {job.run.seed for job in planned} == {9}
    assert [job.run.trace for job in planned[:2]] == [True, False]  # only the first games are traced
    assert planned[-1].run.agents == ("level:novice", "level:casual")


def test_a_variant_a_player_count_does_not_allow_is_skipped_and_said():
    plan = plan_study("quisquilian", games=2, players=[7, 8], player_games=2, players_variants=["decks=1"],
                      ladder_games=3, branching_games=0, variants=["decks=2"])
    assert plan.skipped == [(8, "decks=1")]
    labels = [job.label for job in jobs(plan) if job.stage == "players"]
    assert labels == [f"7 players, {DEFAULT}", "7 players, decks=1", f"8 players, {DEFAULT}"]


@pytest.mark.parametrize("kwargs,fragment", [
    ({"levels": ["casual"]}, "two or more different levels"),
    ({"levels": ["novice", "grandmaster"]}, "two or more different levels of novice, casual, strong, expert"),
    ({"players": [1, 2]}, "plays 2-5 players, not 1"),
    ({"games": 0}, "--games must be 1 or more"),
    ({"ladder_games": 0}, "--ladder-games must be 1 or more"),
    ({"branching_games": -1}, "--branching-games must be 0 or more"),
    ({"bound": "clairvoyant", "bound_games": 2}, "a solitaire's"),
    ({"variants": ["excuse=maybe"]}, "variant 'excuse=maybe'"),
    ({"agent": "nobody"}, "there is no agent 'nobody'"),
])
def test_bad_plans_are_refused_before_any_game(kwargs, fragment):
    with pytest.raises(OptionError, match=None) as info:
        plan_study("decktet-golf", **kwargs)
    assert fragment in str(info.value)


def test_a_solitaires_plan_refuses_player_counts_and_a_cheating_study_agent():
    with pytest.raises(OptionError, match="no 'players' option"):
        plan_study("psalter-row", players=[2])
    with pytest.raises(OptionError, match="only be a --bound"):
        plan_study("psalter-row", agent="clairvoyant:level=1")
    with pytest.raises(OptionError, match="--bound-games 1 or more"):
        plan_study("psalter-row", bound="clairvoyant:level=1")


# -- the measures of rows --------------------------------------------------------------------
def _row(winners, first=0, end="target", margin=2, deficit=0, turns=10, **extra):
    return {"game": "g", "score_0": 0, "score_1": 0, "score_2": 0, "winners": winners, "end": end, "turns": turns,
            "first_player": first, "margin": margin, "deficit": deficit, "lead_changes": 0,
            "midpoint_leader": None, **extra}


def test_part_with_a_seat_that_never_wins_and_a_game_nobody_won():
    rows = [_row([0]), _row([1], first=1, deficit=3), _row([0], first=2, deficit=1),
            _row([], end="stalemate", margin=None, deficit=None)]
    p = part("x", rows)
    assert p.balance.decided == 3 and [s.mean for s in p.balance.shares] == pytest.approx([2 / 3, 1 / 3, 0])
    assert p.first_player.mean == pytest.approx(2 / 3) and p.first_player.n == 3  # decided games only
    assert p.deficit.mean == pytest.approx(4 / 3) and p.trailed.mean == pytest.approx(2 / 3)
    assert dict(p.ends)["stalemate"].mean == 0.25 and p.margin.n == 3


def test_part_where_every_game_is_a_tie():
    rows = [_row([0, 1, 2], margin=None, deficit=0) for _ in range(4)]
    p = part("ties", rows)
    assert p.balance.gap.mean == pytest.approx(0) and p.balance.p == pytest.approx(1)
    assert p.margin is None and p.trailed.mean == 0 and p.first_player.mean == pytest.approx(1 / 3)


def test_a_one_game_part_has_no_intervals_but_all_its_figures():
    p = part("one", [_row([2], first=2, turns=31)])
    assert p.games == 1 and p.durations["turns"].sd is None and p.durations["turns"].quantiles[0.95] == 31
    assert p.first_player.mean == 1 and p.balance.seat == 2


def test_the_ladder_of_constructed_head_to_heads():
    # two seats; casual over novice: casual (the stronger) wins 3 of 4 games, one in each seat
    rows = [{"weaker": "novice", "stronger": "casual", "stronger_seat": s, "winners": w}
            for s, w in ((0, [0]), (1, [1]), (0, [0]), (1, [0]))]
    found = skill_ladder(rows, ["novice", "casual"], seats=2)
    rung = found.rungs[0]
    assert rung.p.mean == 0.75 and rung.upset.mean == 0.25 and rung.share == 1.0
    assert found.skill.mean == pytest.approx(0.5) and found.extremes.p == rung.p  # two levels: one pair


def test_the_ladder_of_a_solitaire_pairs_the_levels_on_each_deal():
    scores = {"novice": [-3, -1, 0, 2], "casual": [1, -1, 4, 1]}  # casual: ahead, tie, ahead, behind
    rows = [{"level": level, "index": i, "score": s, "complete": False}
            for level, values in scores.items() for i, s in enumerate(values)]
    found = skill_ladder(rows, ["novice", "casual"], seats=1)
    rung = found.rungs[0]
    assert rung.p.mean == pytest.approx((2 + 0.5) / 4) and rung.upset.mean == 0.25
    assert rung.gap.mean == pytest.approx((4 + 0 + 4 - 1) / 4)
    assert found.scores["casual"].mean == pytest.approx(1.25) and found.completion["novice"].mean == 0


# -- a tiny study, end to end ----------------------------------------------------------------
def test_a_tiny_study_plays_every_part_and_analyses_it():
    plan = plan_study("quisquilian", games=8, players=[3, 4], player_games=4, ladder_games=3, branching_games=4,
                      variants=["decks=2"])
    rows = play(plan, workers=1)
    assert {stage: len(found) for stage, found in rows.items()} == {"base": 8, "variants": 8, "players": 8,
                                                                     "ladder": 3}
    findings = analyse(plan, rows)
    assert findings.base.branching.decisions == sum(r["decisions"] for r in rows["base"][:4])
    assert findings.comparison.labels == [DEFAULT, "decks=2"] and sorted(findings.players) == [3, 4]
    assert findings.ladder.seats == 3 and findings.ladder.rungs[0].p.n == 3
    assert "first player wins" in findings.headline
    assert [a.figure for a in findings.advice][-1] == "first player wins (one run, against the fair share)"


def test_the_same_study_gives_the_same_rows_on_any_workers():
    plan = plan_study("decktet-golf", games=4, players=[2], player_games=2, ladder_games=2, branching_games=2,
                      variants=["target=20"])
    assert play(plan, workers=1) == play(plan, workers=2)
    base = play_chunk(jobs(plan)[0].run, range(2))
    assert base == play(plan, workers=1)["base"][:2]


def test_a_study_folder_that_cannot_be_made_is_refused_before_any_game(runner, tmp_path):
    (tmp_path / "file.json").write_text("")
    result = run(runner, "study", "psalter-row", "--games", "2", "--out", str(tmp_path / "file.json" / "sub"))
    assert result.exit_code == 1 and "is not a folder" in result.output and "study ·" not in result.output


def test_study_command_writes_the_markdown_html_and_plots(runner, tmp_path):
    out = tmp_path / "golf"
    result = run(runner, "study", "decktet-golf", "--games", "12", "--players", "2,3", "--player-games", "6",
                 "--ladder-games", "4", "--branching-games", "4", "--variant", "excuse=true",
                 "--variant", "opening_flips=0", "--workers", "1", "--out", str(out))
    assert result.exit_code == 0, result.output
    text = (out / "study.md").read_text()
    for heading in ("# Decktet Golf: the designer's study", "## Flags", "## The game as given (12 games)",
                    "## Variants against the game as given", "## Player counts (6 games each)",
                    "## Skill ladder", "## Sample sizes", "## Plots"):
        assert heading in text, heading
    for figure in ("Branching factor", "Forced decisions", "Seat balance", "Margin of victory",
                   "Drama: the winner's largest deficit", "Skill index", "rounds", "excuse=true"):
        assert figure in text, figure
    assert "parlour study decktet-golf" in text
    for plot in ("ladder", "players", "effects", "wins", "drama"):
        assert (out / f"{plot}.png").stat().st_size > 1000 and f"]({plot}.png)" in text
    page = (out / "study.html").read_text()
    assert "<h2>Skill ladder" in page and page.count("data:image/png;base64,") >= 5


def test_study_command_with_a_bound_on_a_solitaire(runner, tmp_path):
    result = run(runner, "study", "psalter-row", "--games", "6", "--ladder-games", "2", "--branching-games", "2",
                 "--variant", "errand_draw=1", "--bound", "clairvoyant:level=1", "--bound-games", "1",
                 "--workers", "1", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    text = (tmp_path / "study.md").read_text()
    assert "Bound: `clairvoyant:level=1`" in text and "| casual | " in text and "## Player counts" not in text


@pytest.mark.parametrize("args,fragment", [
    (["--levels", "casual"], "two or more different levels"),
    (["--players", "two"], "--players takes a comma list of whole numbers"),
    (["--players", "9"], "plays 2-5 players, not 9"),
    (["--variant", "colour=red"], "variant 'colour=red'"),
    (["--games", "0"], "--games must be 1 or more"),
])
def test_study_command_refuses_bad_options_in_one_line_and_writes_nothing(runner, tmp_path, args, fragment):
    out = tmp_path / "never"
    one_line_error(run(runner, "study", "decktet-golf", "--out", str(out), *args), fragment)
    assert not out.exists()


def test_pairs_with_a_searching_level_get_their_own_size():
    plan = plan_study("decktet-golf", games=2, players=[2], player_games=0, levels=["novice", "casual", "strong"],
                      ladder_games=6, search_games=2, branching_games=0, variants=["excuse=true"])
    ladder = [(job.label, len(job.indices)) for job in jobs(plan) if job.stage == "ladder"]
    assert ladder == [("casual v novice, seat 0", 3), ("casual v novice, seat 1", 3),
                      ("strong v casual, seat 0", 1), ("strong v casual, seat 1", 1),
                      ("strong v novice, seat 0", 1), ("strong v novice, seat 1", 1)]
    solo = plan_study("psalter-row", games=2, levels=["casual", "strong"], ladder_games=5, search_games=2,
                      variants=["errand_draw=1"])
    assert [(job.label, len(job.indices)) for job in jobs(solo) if job.stage == "ladder"] == [("casual", 5),
                                                                                            ("strong", 2)]


# -- the flags ---------------------------------------------------------------------------------
def test_a_first_player_advantage_and_frequent_stalemates_are_flagged():
    from parlour.analysis.study_report import _part_flags

    rows = [_row([0], first=0) for _ in range(60)] + [_row([1], first=1) for _ in range(20)]
    rows += [_row([], end="stalemate", margin=None, deficit=None) for _ in range(20)]
    found = _part_flags(part("x", rows), "")
    assert any(line.startswith("Seat 0 takes 75.0%") for line in found), found
    assert any("First-player advantage" in line for line in found), found
    assert any("of games end by 'stalemate' with nobody winning" in line for line in found), found


def test_an_even_game_raises_no_flag():
    from parlour.analysis.study_report import _part_flags

    rows = [_row([seat], first=first) for seat in (0, 1, 2) for first in (0, 1, 2) for _ in range(10)]
    assert _part_flags(part("even", rows), "with 3 players: ") == []
