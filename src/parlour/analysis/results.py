"""Results files: one row per game, written as CSV, JSON lines or Parquet, and read back.

CSV joins lists with spaces and writes options as JSON; JSON lines keep every value as it
is; Parquet (the ``sim`` extra, pyarrow) keeps lists as lists and options as JSON text.
:func:`read_rows` gives back the rows as :func:`~parlour.analysis.simulate.game_row` made
them, whichever format was written.

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "runs.csv"
>>> with RowWriter(path) as out:
...     out.write({"game": "psalter-row", "index": 0, "score": -2, "winners": [], "end": "exhausted",
...                "complete": False, "options": {"errand_draw": 2}, "agents": ["random"]})
>>> read_rows(path)
[{'game': 'psalter-row', 'index': 0, 'score': -2, 'winners': [], 'end': 'exhausted', 'complete': False, 'options': {'errand_draw': 2}, 'agents': ['random']}]
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Self

from parlour.core.errors import OptionError, ParlourError
from parlour.extras import install_hint

#: Rows per Parquet row group: about 25 MB of rows held at once (Parquet's own default is a million).
ROW_GROUP = 8192
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".json": "jsonl", ".parquet": "parquet"}
#: Columns that hold lists (written joined by spaces in CSV).
LIST_COLUMNS = {"winners": int, "agents": str}
#: Columns that hold a dict (written as JSON text in CSV and Parquet).
JSON_COLUMNS = ("options",)
#: Columns renamed since older files were written, old prefix -> new (a number follows):
#: Decktet Golf's mean round score by turn order was once ``round_score_place<k>``, which
#: read as a finishing place.
RENAMED = {"round_score_place": "round_score_turn_order"}


class ResultsError(ParlourError):
    """A results file that cannot be read: says which file, where, and why."""


def output_format(path: Path) -> str:
    """``csv``, ``jsonl`` or ``parquet`` by the file's suffix; OptionError for anything else.

    >>> output_format(Path("runs.parquet"))
    'parquet'
    """
    found = FORMATS.get(path.suffix.lower())
    if found is None:
        raise OptionError(f"{path}: the file name must end in .csv, .jsonl or .json (JSON lines), or .parquet")
    if found == "parquet":
        _pyarrow()
    return found


class RowWriter:
    """Writes rows as they come: CSV (lists joined by spaces, options as JSON), JSON lines,
    or Parquet, a row group of :data:`ROW_GROUP` rows at a time (the last, shorter, on close,
    also after an interruption). Memory holds one row group at most, whatever the games.

    The first row fixes the columns (CSV's header, Parquet's schema); the first row group fixes
    a Parquet column's type, a later value converted to it (an integer into a float column;
    a column missing so far, as in ``midpoint_leader`` while nobody led, is taken for integers).
    """

    def __init__(self, path: Path, row_group: int | None = None) -> None:
        self.format = output_format(path)
        self.path = path
        self.rows = 0
        self.row_group = row_group or ROW_GROUP
        self._rows: list[dict[str, Any]] = []
        self._file = None if self.format == "parquet" else path.open("w", encoding="utf-8", newline="")
        self._csv: csv.DictWriter | None = None
        self._parquet: Any = None

    def write(self, row: dict[str, Any]) -> None:
        self.rows += 1
        if self._file is None:
            self._rows.append(row)
            if len(self._rows) >= self.row_group:
                self._flush()
        elif self.format == "jsonl":
            self._file.write(json.dumps(row, separators=(",", ":")) + "\n")
            self._file.flush()
        else:
            flat = {key: _csv_value(value) for key, value in row.items()}
            if self._csv is None:
                self._csv = csv.DictWriter(self._file, fieldnames=list(flat), restval="", extrasaction="ignore")
                self._csv.writeheader()
            self._csv.writerow(flat)
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            return
        if self._rows or self._parquet is None:
            self._flush()
        self._parquet.close()

    def _flush(self) -> None:
        """The rows held, written as one row group of the Parquet file."""
        pa = _pyarrow()
        table = pa.Table.from_pylist([_parquet_row(row) for row in self._rows])
        if self._parquet is None:
            self._parquet = pa.parquet.ParquetWriter(self.path, _settled(table.schema, pa))
        self._parquet.write_table(_conformed(table, self._parquet.schema, f"{self.path}: column {{}} held {{}} in the first {self.row_group} rows", pa))
        self._rows = []

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()



def file_format(path: Path) -> str:
    """The format of a results file at ``path`` (``csv``, ``jsonl`` or ``parquet``); ResultsError
    for another ending or a path that is not a file."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise ResultsError(f"{path}: a results file ends in .csv, .jsonl, .json or .parquet")
    if not path.is_file():
        raise ResultsError(f"{path}: no such file")
    return kind


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The rows of a results file written by :class:`RowWriter`, old column names under their
    new ones (:data:`RENAMED`); ResultsError if it cannot be read."""
    path = Path(path)
    kind = file_format(path)
    try:
        rows = {"csv": _read_csv, "jsonl": _read_jsonl, "parquet": _read_parquet}[kind](path)
    except ResultsError:
        raise
    except (OSError, UnicodeDecodeError, ValueError, KeyError) as err:
        raise ResultsError(f"{path}: not a readable {kind} results file ({err})") from None
    if not rows:
        raise ResultsError(f"{path}: holds no games")
    for number, row in enumerate(rows, 1):
        if not isinstance(row, dict) or "game" not in row or "winners" not in row:
            raise ResultsError(f"{path}: row {number} is not a game row of parlour simulate or compare "
                               "(it needs at least 'game' and 'winners')")
    return [_renamed(row) for row in rows]


def _renamed(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with every old column name (:data:`RENAMED`) replaced, in place in the order.

    >>> _renamed({"game": "decktet-golf", "round_score_place1": 40.0, "round_score_0": 38.0})
    {'game': 'decktet-golf', 'round_score_turn_order1': 40.0, 'round_score_0': 38.0}
    """
    if not any(key.startswith(old) for key in row for old in RENAMED):
        return row
    found = {}
    for key, value in row.items():
        for old, new in RENAMED.items():
            if key.startswith(old) and key[len(old):].isdigit():
                key = new + key[len(old):]
        found[key] = value
    return found


def _csv_value(value: Any) -> Any:
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"), sort_keys=True)
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    if value is None:
        return ""
    return value


def _read_csv(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8", newline="") as file:
        reader = csv.DictReader(file)
        rows = []
        for row in reader:
            if None in row or None in row.values():
                what = "more" if None in row else "fewer"
                raise ResultsError(f"{path}: line {reader.line_num} has {what} values than the header has "
                                   f"columns ({len(reader.fieldnames or [])}): rows of different runs mixed in one file?")
            rows.append({key: _from_csv(key, text) for key, text in row.items()})
        return rows


def _from_csv(key: str, text: str) -> Any:
    if key in LIST_COLUMNS:
        return [LIST_COLUMNS[key](part) for part in text.split()]
    if key in JSON_COLUMNS:
        return json.loads(text) if text else {}
    if text == "":
        return None
    if text in ("True", "False"):
        return text == "True"
    for number in (int, float):
        try:
            return number(text)
        except ValueError:
            pass
    return text


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    return list(jsonl_rows(path))


def jsonl_rows(path: Path) -> Iterator[Any]:
    """Each line of a JSON-lines file, decoded, a line at a time (blank lines skipped);
    ResultsError naming the first line that is not JSON."""
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as err:
                    raise ResultsError(f"{path}: line {number} is not JSON ({err.msg})") from None


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise OptionError(f"Parquet files need pyarrow: {install_hint('sim')}") from None
    return pyarrow


def _parquet_row(row: dict[str, Any]) -> dict[str, Any]:
    return {key: json.dumps(value, sort_keys=True) if key in JSON_COLUMNS else value for key, value in row.items()}


def _settled(schema: Any, pa: Any) -> Any:
    """The file's schema from its first row group's: a column with no value yet (null) is
    taken for integers, a list column for its :data:`LIST_COLUMNS` type."""
    types = {int: pa.int64(), str: pa.string()}
    fields = []
    for field in schema:
        if field.name in LIST_COLUMNS:
            field = field.with_type(pa.list_(types[LIST_COLUMNS[field.name]]))
        elif pa.types.is_null(field.type):
            field = field.with_type(pa.int64())
        fields.append(field)
    return pa.schema(fields)


def _conformed(table: Any, schema: Any, what: str, pa: Any) -> Any:
    """``table`` in the file's ``schema``: columns it lacks are empty, columns the file lacks
    are left out (as in CSV), a value of another type converted where that loses nothing."""
    columns = []
    for field in schema:
        if field.name not in table.column_names:
            columns.append(pa.nulls(len(table), field.type))
            continue
        column = table.column(field.name)
        try:
            columns.append(column if column.type == field.type else column.cast(field.type))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as err:
            raise ResultsError(what.format(repr(field.name), field.type) + f", then {column.type} ({err}): "
                               "write such a run as .csv or .jsonl") from None
    return pa.Table.from_arrays(columns, schema=schema)


def _read_parquet(path: Path) -> list[dict[str, Any]]:
    pa = _pyarrow()
    try:
        rows = pa.parquet.read_table(path).to_pylist()
    except pa.ArrowException as err:
        raise ResultsError(f"{path}: not a readable Parquet file ({err})") from None
    for row in rows:
        for key in JSON_COLUMNS:
            if isinstance(row.get(key), str):
                row[key] = json.loads(row[key])
    return rows
