"""A results table's columns as arrays, for ``parlour report`` on a million rows (the ``sim``
extra: pyarrow and numpy): the file read as a pyarrow table, its groups by variant, and the
figures the report needs from them, as the summaries of :mod:`~parlour.analysis.stats` take
them. A column's :class:`~parlour.analysis.stats.Moments` are made from its distinct values
and their counts, so they are exact, and equal to those a run gathers a row at a time.

>>> table = as_table([{"game": "g", "score_0": 3, "score_1": 1, "winners": [0]},
...                   {"game": "g", "score_0": 2, "score_1": 2, "winners": [0, 1]}])
>>> [shares.tolist() for shares in win_shares(table, 2)]
[[1.0, 0.5], [0.0, 0.5]]
>>> moments(table["score_0"]).sample().mean
2.5
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from parlour.analysis.results import (
    JSON_COLUMNS,
    LIST_COLUMNS,
    ResultsError,
    _pyarrow,
    _renamed,
    file_format,
    jsonl_rows,
)
from parlour.analysis.stats import Moments
from parlour.core.errors import OptionError


def read_table(path: Path) -> Any:
    """The rows of a results file (any format :class:`~parlour.analysis.results.RowWriter`
    writes) as a pyarrow table, old column names under their new ones; ResultsError if it
    cannot be read, holds no games, or is not of simulate, compare or tournament."""
    pa = _pyarrow()
    path = Path(path)
    kind = file_format(path)
    try:
        table = {"csv": _read_csv, "jsonl": _read_jsonl, "parquet": _read_parquet}[kind](path, pa)
    except (pa.ArrowException, OSError, UnicodeDecodeError, ValueError) as err:
        raise ResultsError(f"{path}: not a readable {kind} results file ({err})") from None
    if table.num_rows == 0:
        raise ResultsError(f"{path}: holds no games")
    if "game" not in table.column_names or "winners" not in table.column_names:
        raise ResultsError(f"{path}: row 1 is not a game row of parlour simulate or compare "
                           "(it needs at least 'game' and 'winners')")
    return table.rename_columns(list(_renamed(dict.fromkeys(table.column_names))))


def played(table: Any) -> tuple[str | None, Any]:
    """The game and options of a table's first row (a group's: one variant), as
    :func:`~parlour.analysis.figures.figure_bounds` takes them; None for a column not there.

    >>> played(as_table([{"game": "decktet-golf", "options": {"players": 3}, "winners": []}]))
    ('decktet-golf', '{"players": 3}')
    """
    return tuple(table[key][0].as_py() if key in table.column_names else None  # type: ignore[return-value]
                 for key in ("game", "options"))


def _read_parquet(path: Path, pa: Any) -> Any:
    names = pa.parquet.read_schema(path).names  # the options' JSON text is one per variant: a dictionary
    return pa.parquet.read_table(path, read_dictionary=[name for name in JSON_COLUMNS if name in names])


def _read_jsonl(path: Path, pa: Any) -> Any:
    import pyarrow.json

    try:
        table = pyarrow.json.read_json(path)
    except pa.ArrowInvalid:
        # A line that is not JSON (said by number below), or options whose values differ in kind
        # between variants (revision_discard=hand, =2): no struct column holds them; as text they
        # are one column (a row at a time: 8 times slower, and one copy of the file in memory).
        text = pyarrow.json.ParseOptions(explicit_schema=pa.schema([(name, pa.string()) for name in JSON_COLUMNS]))
        table = pyarrow.json.read_json(_as_text(path), parse_options=text)
        for name in JSON_COLUMNS:
            if name in table.column_names:
                table = table.set_column(table.column_names.index(name), name, table[name].dictionary_encode())
    return _with_lists(table, pa)


def _as_text(path: Path) -> io.BytesIO:
    """The JSON lines of ``path`` with their dict columns (the options) as JSON text;
    ResultsError naming the first line that is not JSON."""
    out = io.BytesIO()
    for row in jsonl_rows(path):
        for name in JSON_COLUMNS:
            if isinstance(row, dict) and isinstance(row.get(name), dict):
                row[name] = json.dumps(row[name], sort_keys=True)
        out.write(json.dumps(row).encode() + b"\n")
    out.seek(0)
    return out


def _read_csv(path: Path, pa: Any) -> Any:
    import pyarrow.csv

    with path.open(encoding="utf-8") as file:
        header = file.readline().rstrip("\r\n").split(",")
    options = pyarrow.csv.ConvertOptions(strings_can_be_null=True, column_types={
        **{name: pa.string() for name in LIST_COLUMNS},
        **{name: pa.dictionary(pa.int32(), pa.string()) for name in JSON_COLUMNS if name in header}})
    table = pyarrow.csv.read_csv(path, convert_options=options)
    for name, kind in LIST_COLUMNS.items():  # "0 2" -> [0, 2]: the lists CSV joins by spaces
        if name in table.column_names:
            table = table.set_column(table.column_names.index(name), name, _split(table[name], kind, pa))
    return table


def _split(column: Any, kind: type, pa: Any) -> Any:
    """A CSV list column, its values joined by spaces (an empty text an empty list), as lists."""
    import pyarrow.compute as pc

    texts = pc.if_else(pc.equal(pc.fill_null(column, ""), ""), pa.scalar(None, pa.string()), column)
    lists = pc.fill_null(pc.utf8_split_whitespace(texts), pa.scalar([], pa.list_(pa.string())))
    return lists.cast(pa.list_(pa.int64())) if kind is int else lists


def _with_lists(table: Any, pa: Any) -> Any:
    """The list columns with their element type even where every list was empty."""
    for name, kind in LIST_COLUMNS.items():
        if name in table.column_names:
            wanted = pa.list_(pa.int64() if kind is int else pa.string())
            if table[name].type != wanted:
                table = table.set_column(table.column_names.index(name), name, table[name].cast(wanted))
    return table


def as_table(rows: Any) -> Any:
    """A pyarrow table as :func:`read_table` gives it, from rows (dicts) or a table already."""
    pa = _pyarrow()
    if isinstance(rows, pa.Table):
        return rows
    if not rows:
        raise OptionError("no games to report")
    table = pa.Table.from_pylist([{key: json.dumps(value, sort_keys=True) if key in JSON_COLUMNS else value
                                   for key, value in _renamed(row).items()} for row in rows])
    return _with_lists(table, pa)


def groups(table: Any) -> dict[str, Any]:
    """The table's rows by variant label, in variant order (all rows under ``all games`` for a
    plain run); OptionError for rows of several games."""
    import pyarrow.compute as pc

    if table.num_rows == 0:
        raise OptionError("no games to report")
    if len(pc.unique(table["game"])) != 1:
        raise OptionError("the rows come from several games: report one game at a time")
    if "variant_index" not in table.column_names:
        return {"all games": table}
    found = {}
    for number in sorted(pc.unique(table["variant_index"]).to_pylist(), key=lambda v: (v is None, v)):
        part = table.filter(pc.equal(table["variant_index"], number)) if number is not None else \
            table.filter(pc.is_null(table["variant_index"]))
        label = part["variant"][0].as_py() if "variant" in part.column_names else None
        found[str(label if number is not None else "all games")] = part
    return found


def seat_count(table: Any) -> int:
    """How many seats the table's game had (a ``score`` column alone: one)."""
    names = table.column_names
    return 1 if "score" in names else sum(1 for name in names if name.startswith("score_") and name[6:].isdigit())


def score_names(table: Any) -> list[str]:
    from parlour.analysis.simulate import score_keys

    return score_keys(seat_count(table))


def win_shares(table: Any, seats: int) -> list[Any]:
    """Each seat's share of the win, game by game (tied winners share it): numpy arrays."""
    import numpy as np
    import pyarrow.compute as pc

    winners = table["winners"].combine_chunks()
    shares = np.zeros((seats, len(winners)))
    flat = pc.list_flatten(winners).to_numpy(zero_copy_only=False)
    if len(flat):
        parents = pc.list_parent_indices(winners).to_numpy(zero_copy_only=False)
        sizes = pc.list_value_length(winners).to_numpy(zero_copy_only=False)
        np.add.at(shares, (flat, parents), 1 / sizes[parents])
    return list(shares)


def numbers(column: Any) -> Any:
    """A column as a numpy array of floats (yes/no as 1 and 0); nulls as nan."""
    import numpy as np
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_boolean(column.type):
        column = column.cast(pa.int8())
    return column.to_numpy(zero_copy_only=False).astype(np.float64)


def moments(values: Any) -> Moments:
    """The exact :class:`~parlour.analysis.stats.Moments` of an array or column (no nulls),
    from its distinct values and how often each occurs."""
    found = Moments()
    for value, times in tally(values).items():
        found.add(value, times)
    return found


def tally(values: Any) -> dict[Any, int]:
    """Each distinct value of an array or column (no nulls) and how often it occurs: integers
    as Python ints, other numbers as floats."""
    import numpy as np
    import pyarrow as pa

    if isinstance(values, (pa.ChunkedArray, pa.Array)):
        if isinstance(values, pa.ChunkedArray):
            values = values.combine_chunks()
        if pa.types.is_boolean(values.type):
            values = values.cast(pa.int8())
        values = values.to_numpy(zero_copy_only=False)
    distinct, times = np.unique(np.asarray(values), return_counts=True)
    cast = int if np.issubdtype(distinct.dtype, np.integer) else float
    return {cast(value): int(n) for value, n in zip(distinct, times)}


def text_counts(column: Any) -> list[tuple[str, int]]:
    """How often each value of a column occurs, as ``str`` (a missing one as ``None``), most
    common first, ties in order of first appearance (as :func:`~parlour.analysis.stats.counts`)."""
    import numpy as np

    values = np.array(["None" if v is None else str(v) for v in column.to_pylist()], dtype=object)
    distinct, first, times = np.unique(values, return_index=True, return_counts=True)
    order = sorted(range(len(distinct)), key=lambda i: (-times[i], first[i]))
    return [(str(distinct[i]), int(times[i])) for i in order]
