"""Every figure's interval stays inside what the figure can be: shares in [0, 1], counts above
their floor, differences of shares in [-1, 1]."""

from __future__ import annotations

import pytest

import parlour
from parlour.analysis.compare import comparison, parse_variants, variant_runs
from parlour.analysis.duplicate import summary as duplicate_summary
from parlour.analysis.figures import FLOORS, figure_ci, figure_difference, figure_estimate, floor, is_rate
from parlour.analysis.metrics import design_metrics
from parlour.analysis.parallel import play_chunk
from parlour.analysis.simulate import simulate, summarize
from parlour.analysis.stats import Sample, count_ci, mean_ci, proportion_ci
from parlour.analysis.tournament import standings


@pytest.fixture(scope="module")
def golf5_rows():
    # The run of issue 18: Decktet Golf, 5 players, random, 200 games, where Student's t alone
    # gave rounds 1.015 [0.998, 1.032] and lead_changes 0.005 [-0.005, 0.015].
    game = parlour.load("decktet-golf", players=5)
    return list(simulate(game, [parlour.agent("random")] * 5, games=200, seed=0))


def inside(estimate, low, high=None):
    return low <= estimate.low <= estimate.mean <= estimate.high and (high is None or estimate.high <= high)


def test_the_rounds_and_lead_changes_of_the_issue_stay_in_range(golf5_rows):
    figures = summarize(golf5_rows, 5).figures
    rounds, changes = figures["rounds"][1], figures["lead_changes"][1]
    assert [r["rounds"] for r in golf5_rows].count(2) == 3 and rounds.mean == 1.015
    assert mean_ci([r["rounds"] for r in golf5_rows]).low < 1  # what was shown before
    assert inside(rounds, 1) and rounds.low > 1  # 3 games of 200 went to a second round: the mean is above 1
    assert inside(changes, 0) and changes.low > 0
    assert design_metrics(golf5_rows).lead_changes == changes


def test_every_figure_of_every_game_stays_in_range():
    for name, options in (("psalter-row", {}), ("decktet-golf", {"players": 3}), ("quisquilian", {"players": 3})):
        game = parlour.load(name, **options)
        rows = list(simulate(game, [parlour.agent("random")] * game.num_players, games=12, seed=3))
        for figure, (rate, estimate) in summarize(rows, game.num_players).figures.items():
            values = [row[figure] for row in rows]
            if rate:
                assert inside(estimate, 0, 1), figure
            elif floor(figure) is not None:
                ceiling = game.figure_bounds(figure)[1]
                assert inside(estimate, floor(figure), ceiling), figure
                if ceiling is None:
                    assert estimate == count_ci(values, floor(figure))
            else:
                assert estimate == mean_ci(values), figure
        for kind, estimate in design_metrics(rows).actions:
            assert inside(estimate, 0, game.figure_bounds(f"n_{kind}")[1]), kind


def test_the_kind_of_each_figure():
    assert floor("rounds") == 1 and floor("lead_changes") == 0 and floor("n_errand") == 0
    assert floor("score_2") is None and floor("round_score_0") is None
    assert set(FLOORS) >= {"turns", "decisions", "clearings", "line_discards"}
    assert is_rate("end: target", [1, 1]) and is_rate("first player wins", [0.5, 0])
    assert not is_rate("rounds", [1, 1]) and not is_rate("lead_changes", [0, 1])
    assert figure_ci("reshuffled", [1, 0, 0, 0]) == proportion_ci(1, 4)
    assert figure_ci("turns", [30, 31, 40]) == count_ci([30, 31, 40], 0)
    every_king = figure_estimate("n_swap", Sample.of([4, 4]), False, within=(0, 4))  # both games at the most
    assert 0 < every_king.low < 4 == every_king.high and figure_estimate("turns", Sample.of([9, 9]), False).low is None


def test_a_paired_difference_of_shares_stays_within_plus_and_minus_one():
    first, second = [0.0] * 9 + [1.0], [1.0] * 10
    estimate, _ = figure_difference("win_1", first, second)
    assert mean_ci([b - a for a, b in zip(first, second)]).high > 1 and estimate.high == 1
    unbounded, _ = figure_difference("turns", [10] * 9 + [30], [30] * 10)
    assert unbounded.high > 20  # a count's difference has no such bound


def test_compare_keeps_every_mean_and_difference_in_range():
    variants = parse_variants(["target=20", "target=60"], parlour.load("decktet-golf"))
    runs = variant_runs("decktet-golf", {}, variants, ("random", "random"), seed=2)
    result = comparison([row for run in runs for row in play_chunk(run, range(15))])
    for effect in result.effects:
        for estimate in effect.means:
            if effect.figure.startswith(("win_", "end: ")):
                assert inside(estimate, 0, 1), effect.figure
            if floor(effect.figure) is not None:
                assert inside(estimate, floor(effect.figure)), effect.figure
        difference = effect.differences[1][0]
        if effect.figure.startswith(("win_", "end: ")):
            assert -1 <= difference.low <= difference.high <= 1, effect.figure


def test_duplicate_changes_of_shares_stay_within_plus_and_minus_one():
    rows = [{"deal": d, "seat": 0, "diverged": 3, "score_base": 10, "score_trial": 12,
             "ahead_base": 0.0, "ahead_trial": 0.0 if d == 0 else 1.0, "won_base": 0, "won_trial": 0 if d == 0 else 1}
            for d in range(6)]
    result = duplicate_summary(rows)
    assert mean_ci([0] + [1] * 5).high > 1
    assert result["ahead"].high == 1 and result["won"].high == 1 and result["diverged"] == mean_ci([1] * 6, within=(0, 1))


def test_solitaire_completion_differences_stay_within_plus_and_minus_one():
    rows = []
    for block in range(6):
        for name, complete in (("x", block > 0), ("y", False)):
            rows.append({"game": "made-up", "block": block, "agents": [name], "score": 3, "winners": [0] if complete else []})
    (pair,) = standings(rows, ["x", "y"], players=1).pairs
    assert mean_ci([0] + [1] * 5).high > 1 and pair.completion_difference.high == 1


def test_psalter_row_score_intervals_stay_within_its_score_range():
    # Two games: t(1)'s interval reaches far past -9..14; a score's mean can only lie inside it.
    from parlour.analysis.simulate import summarize

    rows = [{"game": "psalter-row", "score": score, "winners": []} for score in (-5, 10)]
    score = summarize(rows, 1).seats[0].score
    assert mean_ci([-5, 10]).low < -9 and (score.low, score.high) == (-9, 14)
    made_up = summarize([{**row, "game": "made-up"} for row in rows], 1).seats[0].score
    assert made_up == mean_ci([-5, 10])  # a game with no score range: Student's t as it is


def test_a_psalter_row_row_size_stays_within_nine_and_a_winner_seat_is_no_figure():
    game = parlour.load("psalter-row")
    rows = list(simulate(game, [parlour.agent("random")], games=2, seed=1))
    _, row_size = summarize(rows, 1).figures["row_size"]
    assert row_size.high == 9 < count_ci([r["row_size"] for r in rows], 0).high  # the count alone passes 9
    quis = parlour.load("quisquilian", players=3)
    rows = list(simulate(quis, [parlour.agent("random")] * 3, games=2, seed=1))
    assert "winner" in rows[0] and "winner" not in summarize(rows, 3).figures  # a seat number, not a measure


def test_decktet_golf_score_intervals_stay_within_what_its_rounds_can_score():
    from parlour.analysis.figures import score_bounds

    game = parlour.load("decktet-golf", rounds=1)
    low, high = score_bounds("decktet-golf", {"rounds": 1})
    assert (low, high) == game.score_bounds() and low < 0 < high <= 12 * 15  # 12 cells, no card above 15
    assert score_bounds("decktet-golf", '{"rounds": 2}') == (2 * low, 2 * high)  # a row's options as JSON text
    assert score_bounds("decktet-golf") == (None, 49 + high)  # to the target: the last round starts below 50
    rows = list(simulate(game, [parlour.agent("random")] * 2, games=2, seed=0))
    for seat, _ in enumerate(rows[0]["agents"]):
        estimate = summarize(rows, 2).seats[seat].score
        assert low <= estimate.low <= estimate.high <= high


def compared(game: str, options: list[str], agents: tuple[str, ...], games: int, seed: int) -> dict:
    variants = parse_variants(options, parlour.load(game))
    runs = variant_runs(game, {}, variants, agents, seed=seed)
    rows = [row for run in runs for row in play_chunk(run, range(games))]
    return rows, {effect.figure: effect for effect in comparison(rows).effects}


def test_compare_keeps_scores_within_the_game_and_its_differences_within_their_span():
    # Two Psalter Row games: t(1) alone gave the score -3.0 [-28.4, 22.4] (issue #20's review).
    rows, effects = compared("psalter-row", ["revision_discard=hand", "revision_discard=2"], ("random",), 2, 113)
    first, second = ([row for row in rows if row["variant_index"] == v] for v in (0, 1))
    for kind, most in (("score", 14), ("n_swap", 4), ("n_errand", 4)):  # Student's t alone passes the bounds
        apart = mean_ci([b[kind] - a[kind] for a, b in zip(first, second)])
        assert apart.low is not None and max(apart.high, -apart.low) > (23 if kind == "score" else 4), kind
        alone = [mean_ci([row[kind] for row in side]) for side in (first, second)]
        assert any(e.high > most or e.low < (-9 if kind == "score" else 0) for e in alone), kind
    for estimate in effects["score"].means:
        assert inside(estimate, -9, 14)
    difference = effects["score"].differences[1][0]
    assert -23 <= difference.low <= difference.high <= 23
    for kind in ("n_swap", "n_errand"):  # 4 Kings, 4 Aces, each used once at most (PR-5, PR-6)
        for estimate in effects[kind].means:
            assert inside(estimate, 0, 4), kind
        assert -4 <= effects[kind].differences[1][0].low <= effects[kind].differences[1][0].high <= 4, kind
    assert -9 <= effects["row_size"].differences[1][0].low  # at most 9 Quires, at least none


def test_compare_of_variants_with_other_bounds_keeps_each_within_its_own():
    # One round scores -8..111 with the two-player deck; two rounds twice that.
    _, effects = compared("decktet-golf", ["rounds=1", "rounds=2"], ("random", "random"), 2, 3)
    (low1, high1), (low2, high2) = (parlour.load("decktet-golf", rounds=n).score_bounds() for n in (1, 2))
    for key in ("score_0", "score_1"):
        one, two = effects[key].means
        assert inside(one, low1, high1) and inside(two, low2, high2) and two.high > high1, key
        difference = effects[key].differences[1][0]
        assert difference.mean != 0 and low2 - high1 <= difference.low <= difference.high <= high2 - low1, key


def test_decktet_golf_mean_round_scores_stay_within_one_rounds_bounds():
    from parlour.analysis.figures import figure_bounds

    game = parlour.load("decktet-golf", players=3, rounds=2)
    one_round = parlour.load("decktet-golf", players=3, rounds=1).score_bounds()
    assert figure_bounds("decktet-golf", game.options, "round_score_1") == one_round == game.figure_bounds("round_score_turn_order3")
    assert game.figure_bounds("score_2") == game.score_bounds() and game.figure_bounds("turns") == (None, None)
    assert game.figure_bounds("round_score_spread") == (None, None)  # a mean round score by seat or turn order only
    rows = list(simulate(game, [parlour.agent("random")] * 3, games=2, seed=0))
    summary = summarize(rows, 3)
    for estimate in summary.seat_figures["round_score"]:
        assert inside(estimate, *one_round)
    for place in (1, 2, 3):
        _, estimate = summary.figures[f"round_score_turn_order{place}"]
        assert inside(estimate, *one_round)
    wide = mean_ci([row["round_score_2"] for row in rows])
    assert wide.low < one_round[0] and wide.high > one_round[1]  # what Student's t alone gives two games
