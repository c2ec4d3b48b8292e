"""Issue 22, scale: runs in constant memory give what the lists of rows gave.

The golden files (tests/analysis/golden) were written by parlour before the summaries were
gathered a row at a time and before `parlour report` read a pyarrow table: the same runs must
print the same tables, and the same files give the same reports.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import statistics
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import parlour
from parlour.analysis.columns import groups, read_table
from parlour.analysis.compare import Comparer
from parlour.analysis.duplicate import DuplicateSummary, duplicate_deal, summary
from parlour.analysis.html import build_report
from parlour.analysis.results import ResultsError, RowWriter, read_rows
from parlour.analysis.simulate import Summarizer, summarize
from parlour.analysis.stats import Moments, Sample, count_ci, mean_ci, proportion_ci
from parlour.analysis.tournament import Tabulation
from parlour.cli import cli

GOLDEN = Path(__file__).parent / "golden"


def stdout(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--workers", "1", "--no-progress"])
    assert result.exit_code == 0, result.output
    return "".join(line for line in result.stdout.splitlines(keepends=True) if not line.startswith("Wrote "))


def golden(name: str) -> str:
    return "".join(line for line in (GOLDEN / name).read_text().splitlines(keepends=True)
                   if not line.startswith("Wrote "))


# -- the same tables as before -------------------------------------------------------------
@pytest.mark.parametrize(("name", "args"), [
    ("simulate-psalter.txt", "simulate psalter-row --agent heuristic -n 300 --seed 3"),
    ("simulate-golf3.txt", "simulate decktet-golf --players 3 -n 200 --seed 5"),
    ("simulate-quis4.txt", "simulate quisquilian --players 4 --agent heuristic -n 200 --seed 2"),
    ("compare-psalter.txt", "compare psalter-row --variant errand_draw=1 --variant errand_draw=2 --agent heuristic "
                            "-n 150 --seed 4"),
    ("compare-golf.txt", "compare decktet-golf --variant excuse=true -n 100 --seed 4"),
    ("tournament-psalter.txt", "tournament psalter-row --agents random,heuristic -n 60 --seed 1"),
])
def test_a_run_prints_what_it_printed_before(name, args):
    assert stdout(*args.split()) == golden(name)


def without_rating_intervals(text: str) -> str:
    return re.sub(r"\[[+-]\d+, [+-]\d+\]", "[rating interval]", text)


@pytest.mark.parametrize(("name", "args"), [
    ("tournament-golf.txt", "tournament decktet-golf --agents random,heuristic -n 100 --seed 1"),
    ("tournament-quis.txt", "tournament quisquilian --players 3 --agents random,heuristic,random -n 60 --seed 2"),
])
def test_a_tournament_prints_what_it_printed_before_but_the_rating_intervals(name, args):
    """The ratings' bootstrap is now Poisson (it streams): only its intervals move."""
    now, before = stdout(*args.split()), golden(name)
    assert now != before and without_rating_intervals(now) == without_rating_intervals(before)


def figure_data(figure) -> list:
    """What each plot draws: per axes its title, bar and step outlines, line points, tick labels."""
    found = []
    for axes in figure.axes:
        if not axes.get_visible():
            continue
        patches = []
        for patch in axes.patches:
            if hasattr(patch, "get_height"):
                patches.append([round(float(patch.get_x()), 9), round(float(patch.get_height()), 9)])
            else:
                patches.append([[round(float(v), 9) for v in xy] for xy in patch.get_xy()])
        lines = [[[round(float(v), 9) for v in line.get_xdata()], [round(float(v), 9) for v in line.get_ydata()]]
                 for line in axes.lines]
        ticks = [t.get_text() for t in axes.get_yticklabels()] + [t.get_text() for t in axes.get_xticklabels()]
        found.append({"title": axes.get_title(), "patches": patches, "lines": lines, "ticks": ticks})
    return found


@pytest.mark.parametrize("name", ["compare-psalter.csv", "quisquilian.parquet", "psalter.csv"])
def test_a_report_from_the_table_is_the_report_from_the_rows(name):
    path = GOLDEN / name
    page, figures = build_report(read_table(path), path.name)
    assert re.sub(r'src="data:image/png;base64,[^"]+"', 'src=""', page) == path.with_suffix(".report.html").read_text()
    drawn = json.loads(json.dumps({key: figure_data(figure) for key, figure in figures.items()}))
    assert drawn == json.loads(path.with_suffix(".figures.json").read_text())


def test_a_report_from_each_format_is_the_same(tmp_path):
    rows = read_rows(GOLDEN / "psalter.csv")
    pages = []
    for suffix in (".csv", ".jsonl", ".parquet"):
        with RowWriter(tmp_path / f"runs{suffix}", row_group=64) as out:
            for row in rows:
                out.write(row)
        pages.append(re.sub(r'src="[^"]+"', "", build_report(read_table(tmp_path / f"runs{suffix}"), "x")[0]))
    assert pages[0] == pages[1] == pages[2]


def test_the_duplicate_summary_is_what_it_was():
    game = parlour.load("decktet-golf", players=3, rounds=1)
    rows = [r for d in range(12) for r in duplicate_deal(game, parlour.agent("random"), parlour.agent("heuristic"), d, 7)]
    found = {key: [e.mean, e.low, e.high, e.n] for key, e in summary(rows).items()}
    assert found == json.loads((GOLDEN / "duplicate-golf3.json").read_text())


# -- online summaries equal the batch ones --------------------------------------------------
@given(st.lists(st.one_of(st.integers(-10**6, 10**6), st.floats(-1e6, 1e6, allow_nan=False)), min_size=1, max_size=60))
def test_moments_give_exactly_what_the_list_gives(values):
    moments = Moments()
    for value in values:
        moments.add(value)
    assert moments.sample() == Sample.of(values)


def rows_of(scores: list[int], turns: list[int]) -> list[dict]:
    return [{"game": "made-up", "index": i, "score": s, "winners": [0] if s > 0 else [], "turns": t,
             "end": "won" if s > 0 else "lost", "complete": s > 0} for i, (s, t) in enumerate(zip(scores, turns))]


def test_one_game_has_its_figures_and_no_interval():
    result = summarize(rows_of([3], [12]), 1)
    (seat,) = result.seats
    assert (seat.score.mean, seat.score.low, seat.score.high, seat.minimum, seat.maximum) == (3, None, None, 3, 3)
    assert result.spreads["turns"][:3] == (12, 12, 12)
    assert result.figures["complete"] == (True, proportion_ci(1, 1))


def test_two_games_have_the_t_interval_of_two_values():
    result = summarize(rows_of([3, -5], [12, 20]), 1)
    assert result.seats[0].score == mean_ci([3, -5])
    assert result.figures["turns"] == (False, count_ci([12, 20], 0))
    assert result.spreads["turns"] == (12, 16.0, 20, proportion_ci(2, 2))
    assert result.seats[0].distribution[0] == ("-5", 1) and result.seats[0].distribution[-1] == ("3", 1)
    assert result.tallies["end"] == [("won", 1), ("lost", 1)]


def test_identical_values_have_no_spread():
    # Nothing to judge a spread by, and nothing bounds a made-up game's score or the turns
    # from above: no interval, never the point alone.
    result = summarize(rows_of([4] * 5, [9] * 5), 1)
    assert (result.seats[0].score.low, result.seats[0].score.high) == (None, None)
    assert result.figures["turns"][1].low is None and result.figures["turns"][1].mean == 9


def test_a_figure_with_too_many_values_keeps_its_mean_but_no_median(monkeypatch):
    from parlour.analysis import simulate

    monkeypatch.setattr(simulate, "MOST_DISTINCT", 5)
    rows = [{"game": "made-up", "score": 1, "winners": [], "length": i / 7} for i in range(20)]
    result = summarize(rows, 1)
    assert result.figures["length"][1] == mean_ci([i / 7 for i in range(20)])
    assert "length" not in result.spreads


def test_interleaved_variants_pair_as_they_come_and_wait_little():
    comparer = Comparer(variants=2)
    waiting = 0
    for chunk in range(10):
        for variant in range(2):
            for index in range(chunk * 4, chunk * 4 + 4):
                comparer.add({"variant": f"v{variant}", "variant_index": variant, "index": index,
                              "score": index + variant, "winners": [], "end": "done"})
                waiting = max(waiting, len(comparer.waiting))
    result = comparer.comparison()
    assert result.games == 40 and waiting == 4  # a chunk of the first variant waits for the second
    assert result.effect("score").differences[1].estimate.mean == 1.0
    assert result.effect("score").differences[1].p == 2.0 ** -39  # every difference 1: the sign test's 2^(1-40)


# -- rows as they come ----------------------------------------------------------------------
def test_csv_rows_are_on_disk_as_they_come(tmp_path):
    path = tmp_path / "runs.csv"
    seen = []

    def rows():
        for number, row in enumerate(rows_of([1, 2, 3], [4, 5, 6])):
            if number:
                seen.append(len(path.read_text().splitlines()))  # the header and every row before
            yield row

    with RowWriter(path) as out:
        for row in rows():
            out.write(row)
    assert seen == [2, 3]


def test_parquet_is_written_a_row_group_at_a_time(tmp_path):
    import pyarrow.parquet as pq

    path = tmp_path / "runs.parquet"
    held = []
    with RowWriter(path, row_group=10) as out:
        for row in rows_of(list(range(25)), list(range(25))):
            out.write(row)
            held.append(len(out._rows))
    assert max(held) < 10 and pq.ParquetFile(path).metadata.num_row_groups == 3
    assert read_rows(path) == rows_of(list(range(25)), list(range(25)))


def test_a_parquet_column_empty_in_its_first_row_group_takes_integers_later(tmp_path):
    rows = [{"game": "g", "winners": [], "leader": None, "share": 1.0} for _ in range(4)]
    rows += [{"game": "g", "winners": [1], "leader": 2, "share": 1}]
    with RowWriter(tmp_path / "runs.parquet", row_group=4) as out:
        for row in rows:
            out.write(row)
    back = read_rows(tmp_path / "runs.parquet")
    assert [r["leader"] for r in back] == [None] * 4 + [2] and back[-1]["winners"] == [1]
    assert [r["share"] for r in back] == [1.0] * 5  # an integer in a float column


def test_a_parquet_column_that_changes_kind_is_a_clear_error(tmp_path):
    out = RowWriter(tmp_path / "runs.parquet", row_group=1)
    out.write({"game": "g", "winners": [], "turns": 3})
    with pytest.raises(ResultsError, match="column 'turns' held int64 in the first 1 rows, then double"):
        out.write({"game": "g", "winners": [], "turns": 3.5})


# -- memory that does not grow with the games -----------------------------------------------
def made_up_rows(games: int, seats: int = 2):
    rng = random.Random(games)
    for index in range(games):
        scores = [rng.randrange(-20, 80) for _ in range(seats)]
        best = max(scores)
        yield {"game": "made-up", "index": index, "block": index // 2, "seed": rng.getrandbits(60),
               **{f"score_{s}": v for s, v in enumerate(scores)},
               "winners": [s for s, v in enumerate(scores) if v == best], "turns": rng.randrange(20, 200),
               "end": rng.choice(["target", "exhausted"]), "ratio": rng.randrange(1, 60) / 4,
               "agents": ["a", "b"] if index % 2 == 0 else ["b", "a"], "first_player": index % seats,
               "midpoint_leader": rng.choice([None, 0, 1]), "lead_changes": rng.randrange(5)}


def peak(take, rows) -> int:
    tracemalloc.start()
    for row in rows:
        take(row)
    _, most = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return most


def simulated(rows):
    return ({key: value for key, value in row.items() if key != "block"} for row in rows)


@pytest.mark.parametrize(("make", "rows"), [
    (lambda: Summarizer(2).add, lambda games: simulated(made_up_rows(games))),
    (lambda: Tabulation(["a", "b"], 2, resamples=50).add, made_up_rows),
])
def test_gathering_ten_times_the_games_takes_no_more_memory(make, rows):
    small, large = peak(make(), rows(2_000)), peak(make(), rows(20_000))
    assert large < 1.2 * small + 20_000  # a list of the rows would take some 10 MB more


def variant_rows(games: int, chunk: int = 8):
    """Two variants' rows as run_games gives them: each chunk of games by each variant in turn."""
    rows = list(simulated(made_up_rows(chunk)))
    for start in range(0, games, chunk):
        for variant in range(2):
            for offset, row in enumerate(rows):
                yield {**row, "index": start + offset, "variant": f"v{variant}", "variant_index": variant}


def test_comparing_ten_times_the_games_takes_no_more_memory():
    small, large = peak(Comparer(2).add, variant_rows(2_000)), peak(Comparer(2).add, variant_rows(20_000))
    assert large < 1.2 * small + 20_000


def test_the_command_line_keeps_no_row_however_many_games(tmp_path, monkeypatch):
    """What simulate does with the rows (cli.collect): summarised and written, none kept."""
    from rich.console import Console

    from parlour.cli import collect

    def run(games):
        summarizer = Summarizer(2)
        err = Console(stderr=True)
        return peak(lambda rows: collect(rows, games, tmp_path / "runs.csv", err, False, summarizer.add),
                    [simulated(made_up_rows(games))])

    run(10)  # what the first call imports is not the rows'
    assert run(20_000) < 1.2 * run(2_000) + 20_000


def test_the_summarizer_holds_its_columns_and_their_distinct_values_only():
    summarizer = Summarizer(2)
    for row in simulated(made_up_rows(5_000)):
        summarizer.add(row)
    sizes = {name: len(column.tally or ()) for name, column in summarizer.columns.items()}
    assert sizes == {"turns": 180, "end": 2, "ratio": 59, "lead_changes": 5}
    assert all(len(tally or ()) <= 100 for tally in summarizer.score_tallies)


def test_a_duplicate_summary_holds_one_deal():
    gathered = DuplicateSummary()
    for deal, seat in itertools.product(range(300), range(3)):
        gathered.add({"deal": deal, "seat": seat, "diverged": None if seat else 2, "score_base": 1.0,
                      "score_trial": 1.0 + deal % 3, "ahead_base": 0.5, "ahead_trial": 0.5, "won_base": 0.0,
                      "won_trial": 0.0})
        assert len(gathered.seats) == seat + 1
    result = gathered.summary()
    assert result["score"].n == 300 and result["score"].mean == pytest.approx(1.0)
    assert result["diverged"].mean == pytest.approx(1 / 3)


def test_rows_of_a_deal_apart_are_refused():
    gathered = DuplicateSummary()
    row = {"seat": 0, "diverged": None, **{f"{m}_{w}": 0.0 for m in ("score", "ahead", "won") for w in ("base", "trial")}}
    for deal in (0, 1, 0):
        if deal == 0 and gathered.deal == 1:
            with pytest.raises(ValueError, match="deal 0 come after deal 1"):
                gathered.add({**row, "deal": deal})
        else:
            gathered.add({**row, "deal": deal})


def test_the_poisson_bootstrap_weights_average_one():
    from parlour.analysis.tournament import poisson_weights

    weights = poisson_weights(random.Random(3), 50_000)
    assert statistics.fmean(weights) == pytest.approx(1, abs=0.02)
    assert statistics.variance(weights) == pytest.approx(1, abs=0.03)
    assert weights.count(0) / len(weights) == pytest.approx(math.exp(-1), abs=0.01)


# -- a file's options bound its figures ----------------------------------------------------
@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_a_file_keeps_each_variants_options_and_so_its_bounds(tmp_path, suffix):
    # Three seats and the Excuse: a round scores -20..130, not the default deck's -8..111; two
    # games give Student's t an interval far wider than either (issue #20's review).
    path = tmp_path / f"golf{suffix}"
    stdout("compare", "decktet-golf", "--players", "3", "--option", "excuse=true", "--variant", "rounds=1",
           "--variant", "rounds=2", "-n", "2", "--seed", "1", "--out", str(path))
    table = read_table(path)
    comparer = Comparer.of_tables(groups(table))
    bounds = [parlour.load("decktet-golf", players=3, excuse=True, rounds=n).score_bounds() for n in (1, 2)]
    assert bounds[0] == (-20, 130) and parlour.load("decktet-golf", rounds=1).score_bounds() == (-8, 111)
    assert [json.loads(options)["rounds"] if isinstance(options, str) else options["rounds"]
            for _, options in comparer.played.values()] == [1, 2]
    effects = {effect.figure: effect for effect in comparer.comparison().effects}
    lows = []
    for key in ("score_0", "score_1", "score_2"):
        for estimate, (low, high) in zip(effects[key].means, bounds):
            assert low <= estimate.low <= estimate.high <= high, key
            lows.append(estimate.low)
        difference = effects[key].differences[1][0]
        assert bounds[1][0] - bounds[0][1] <= difference.low <= difference.high <= bounds[1][1] - bounds[0][0]
    assert -20 in lows and -40 in lows  # t(1) reaches past these ends; the default deck's is -8
    page, _ = build_report(table, path.name)
    assert "[-20.00, 130.00]" in page and "[-8.00," not in page  # the report's seat table too


def test_a_jsonl_file_whose_variants_options_differ_in_kind_is_read(tmp_path):
    # revision_discard is "hand" or 2: no one column type holds both, so pyarrow alone refused it.
    path = tmp_path / "psalter.jsonl"
    stdout("compare", "psalter-row", "--variant", "revision_discard=hand", "--variant", "revision_discard=2",
           "-n", "2", "--seed", "1", "--out", str(path))
    table = read_table(path)
    assert table.num_rows == 4 and sorted(groups(table)) == ["revision_discard=2", "revision_discard=hand"]
    page, _ = build_report(table, path.name)
    assert "Psalter Row" in page and "[-9.00, 14.00]" in page
