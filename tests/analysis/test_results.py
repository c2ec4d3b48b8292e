"""Results files: every format reads back to the rows that were written; bad files are clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import parlour
from parlour.analysis.results import ResultsError, RowWriter, output_format, read_rows
from parlour.analysis.simulate import simulate
from parlour.core.errors import OptionError


@pytest.fixture(scope="module")
def rows():
    game = parlour.load("decktet-golf", players=3, rounds=1)
    return list(simulate(game, [parlour.agent("random")] * 3, games=8, seed=4))


@pytest.mark.parametrize("name", ["runs.csv", "runs.jsonl", "runs.json", "runs.parquet"])
def test_every_format_reads_back_the_rows(rows, tmp_path, name):
    with RowWriter(tmp_path / name) as out:
        for row in rows:
            out.write(row)
    assert read_rows(tmp_path / name) == rows


def test_psalter_row_rows_read_back_from_csv(tmp_path):
    rows = list(simulate(parlour.load("psalter-row"), [parlour.agent("random")], games=5, seed=1))
    with RowWriter(tmp_path / "pr.csv") as out:
        for row in rows:
            out.write(row)
    assert read_rows(tmp_path / "pr.csv") == rows


def test_unknown_suffix():
    with pytest.raises(OptionError, match=r"\.csv, \.jsonl or \.json \(JSON lines\), or \.parquet"):
        output_format(Path("runs.xlsx"))


@pytest.mark.parametrize("name, text, message", [
    ("missing.csv", None, "no such file"),
    ("runs.txt", "x", "ends in .csv"),
    ("empty.csv", "", "holds no games"),
    ("bad.jsonl", '{"game": "psalter-row", "winners": []}\nnot json\n', "line 2 is not JSON"),
    ("other.csv", "name,age\nann,3\n", "row 1 is not a game row"),
    ("long.csv", "game,winners\npsalter-row,,7,8\n", "line 2 has more values than the header has columns"),
    ("short.csv", "game,winners,score\npsalter-row,\n", "line 2 has fewer values than the header has columns"),
    ("words.csv", "game,winners\npsalter-row,one two\n", "not a readable csv results file"),
    ("broken.parquet", "this is not parquet", "not a readable Parquet file"),
])
def test_unreadable_files_are_clear_errors(tmp_path, name, text, message):
    path = tmp_path / name
    if text is not None:
        path.write_text(text)
    with pytest.raises(ResultsError, match=message):
        read_rows(path)


def test_old_files_read_the_turn_order_figures_under_their_new_name(tmp_path):
    # Files written before the rename hold round_score_place<k> (turn order, not finishing place).
    old = tmp_path / "old.csv"
    old.write_text("game,index,winners,round_score_0,round_score_place1,round_score_place2\n"
                   "decktet-golf,0,1,40.0,38.0,40.0\n", encoding="utf-8")
    (row,) = read_rows(old)
    assert list(row) == ["game", "index", "winners", "round_score_0", "round_score_turn_order1",
                         "round_score_turn_order2"]
    assert row["round_score_turn_order1"] == 38.0
