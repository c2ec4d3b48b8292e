"""The web table's SQLite store (stdlib ``sqlite3``): every table and every action.

An action is committed before anyone is told of it, so a restarted server rebuilds
each unfinished table by replaying its actions. Secrets (seat invites, the claims of the
browsers that took the seats, the creator's) are kept only as SHA-256 hashes. A database
made before a column existed gets it when it is opened (:data:`ADDED_COLUMNS`).

>>> store = Storage(":memory:")
>>> store.create_table(StoredTable("t1", "psalter-row", {}, 7, [{"kind": "human"}], ["ab"], "2026-01-01T00:00:00Z"))
>>> store.add_action("t1", 1, 0, "place 7H", status="playing", end_reason=None)
>>> [(a.n, a.seat, a.notation) for a in store.actions("t1")], store.table("t1").status
([(1, 0, 'place 7H')], 'playing')
>>> store.close()
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options_json TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats_json TEXT NOT NULL,
    token_hashes_json TEXT NOT NULL,
    created TEXT NOT NULL,
    status TEXT NOT NULL,
    end_reason TEXT,
    claim_hashes_json TEXT,
    admin_hash TEXT,
    hints INTEGER
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id),
    n INTEGER NOT NULL,
    seat INTEGER,
    notation TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (table_id, n)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status);
"""
#: Columns of ``tables`` added since the first schema: added to an older database when it is
#: opened (NULL there: its seats count as unclaimed, its tables have no creator secret, hints on).
ADDED_COLUMNS = {"claim_hashes_json": "TEXT", "admin_hash": "TEXT", "hints": "INTEGER", "ended": "INTEGER"}
#: A table's status once its game is over (``ended`` then holds the row of the action that ended
#: it: rows are numbered as they are stored, so the latest ended last).
OVER = ("finished", "stopped")
TABLE_COLUMNS = ("id, game, options_json, seed, seats_json, token_hashes_json, created, status, end_reason, "
                 "claim_hashes_json, admin_hash, hints")


#: How times are stored: ISO 8601, UTC, to the second.
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def now() -> str:
    """The current UTC time as stored (:data:`TIME_FORMAT`)."""
    return datetime.now(timezone.utc).strftime(TIME_FORMAT)


def moment(stored: str) -> datetime:
    """A stored time (:func:`now`'s text) as a UTC datetime; one that does not read counts as now.

    >>> moment("2026-12-02T03:00:00Z").hour, moment("garbled") > moment("2026-12-02T03:00:00Z")
    (3, True)
    """
    try:
        return datetime.strptime(stored, TIME_FORMAT).replace(tzinfo=timezone.utc)
    except (TypeError, ValueError):
        return datetime.now(timezone.utc)


@dataclass
class StoredTable:
    """One row of ``tables``. ``seats`` holds each seat's kind, name and agent spec;
    ``token_hashes`` the SHA-256 hex of each seat's invite (None for agent seats),
    ``claim_hashes`` that of the secret of the browser holding it (None: unclaimed);
    ``admin_hash`` that of the creator's secret (None: a table made before there were any);
    ``hints`` whether its seats may ask for hints."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    token_hashes: list[str | None]
    created: str
    status: str = "waiting"
    end_reason: str | None = None
    claim_hashes: list[str | None] = field(default_factory=list)
    admin_hash: str | None = None
    hints: bool = True

    def __post_init__(self) -> None:
        if not self.claim_hashes:
            self.claim_hashes = [None] * len(self.seats)


@dataclass(frozen=True)
class StoredAction:
    """One row of ``actions``: the n-th action (1-based) of a table, by ``seat``."""

    n: int
    seat: int | None
    notation: str
    at: str = field(default="")


class Storage:
    """The store behind every table. One connection, used under a lock (the server
    calls it from its event loop; the lock keeps it safe from any other thread)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        if self.path != ":memory:":
            # WAL: readers never block the writer; NORMAL sync is durable across a crash of
            # the server process (only a power cut may lose the last commits).
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Add the columns an older database lacks (in one transaction)."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            have = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
            for name, kind in ADDED_COLUMNS.items():
                if name not in have:
                    self._db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
                    if name == "ended":  # tables over before the column came
                        self._db.execute("UPDATE tables SET ended = COALESCE((SELECT MAX(rowid) FROM actions "
                                         "WHERE table_id = tables.id), 0) WHERE status IN (?, ?)", OVER)
            self._db.execute("CREATE INDEX IF NOT EXISTS tables_ended ON tables(ended)")

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_table(self, table: StoredTable) -> None:
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute(
                f"INSERT INTO tables ({TABLE_COLUMNS}, ended) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table.id, table.game, json.dumps(table.options), table.seed, json.dumps(table.seats),
                 json.dumps(table.token_hashes), table.created, table.status, table.end_reason,
                 json.dumps(table.claim_hashes), table.admin_hash, int(table.hints),
                 0 if table.status in OVER else None),  # over from the start (a test's table): ended first
            )

    def set_seat_hashes(self, table_id: str, token_hashes: list[str | None], claim_hashes: list[str | None]) -> None:
        """Store every seat's invite and claim hash (a claim made, an invite re-issued)."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("UPDATE tables SET token_hashes_json = ?, claim_hashes_json = ? WHERE id = ?",
                             (json.dumps(token_hashes), json.dumps(claim_hashes), table_id))

    def delete_table(self, table_id: str) -> None:
        """Remove a table and its actions, in one transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            self._db.execute("DELETE FROM actions WHERE table_id = ?", (table_id,))
            self._db.execute("DELETE FROM tables WHERE id = ?", (table_id,))

    def add_action(self, table_id: str, n: int, seat: int | None, notation: str, *, status: str,
                   end_reason: str | None) -> None:
        """Store action ``n`` and the table's status after it, in one transaction."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            row = self._db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                                   (table_id, n, seat, notation, now())).lastrowid
            self._db.execute("UPDATE tables SET status = ?, end_reason = ?, ended = ? WHERE id = ?",
                             (status, end_reason, row if status in OVER else None, table_id))

    def remove_action(self, table_id: str, n: int, *, status: str) -> None:
        """Take back action ``n``, the table's last (an undo at a solitaire table): its row goes
        and the table's status becomes ``status``, in one transaction, so that the record, the
        replay and a restart know only the line finally played. A LookupError (and nothing
        changed) when ``n`` is not the table's last action.

        >>> store = Storage(":memory:")
        >>> store.create_table(StoredTable("t1", "psalter-row", {}, 7, [{"kind": "human"}], ["ab"], "2026-01-01T00:00:00Z"))
        >>> store.add_action("t1", 1, 0, "place 7H", status="playing", end_reason=None)
        >>> store.remove_action("t1", 1, status="waiting")
        >>> store.actions("t1"), store.table("t1").status
        ([], 'waiting')
        """
        with self._lock, self._db:
            self._db.execute("BEGIN")
            last = self._db.execute("SELECT MAX(n) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0]
            if last != n:
                raise LookupError(f"table {table_id}: action {n} is not its last (that is {last})")
            self._db.execute("DELETE FROM actions WHERE table_id = ? AND n = ?", (table_id, n))
            self._db.execute("UPDATE tables SET status = ?, end_reason = NULL, ended = NULL WHERE id = ?",
                             (status, table_id))

    def over_beyond(self, keep: int) -> list[str]:
        """The tables over (finished or stopped) beyond the ``keep`` that ended last, those that
        ended first first (one stored over from the start, as tests write them, as if it ended
        before any other). Both queries read the ``ended`` index alone.

        >>> store = Storage(":memory:")
        >>> for name in ("t1", "t2", "t3"):
        ...     store.create_table(StoredTable(name, "psalter-row", {}, 7, [{"kind": "human"}], ["ab"], now()))
        >>> for name in ("t2", "t1"):
        ...     store.add_action(name, 1, 0, "place 7H", status="finished", end_reason="complete")
        >>> store.over_beyond(1), store.over_beyond(2)
        (['t2'], [])
        """
        with self._lock:
            over = self._db.execute("SELECT COUNT(*) FROM tables WHERE ended IS NOT NULL").fetchone()[0]
            if over <= keep:  # what nearly every game's end finds: no sort
                return []
            rows = self._db.execute("SELECT id FROM tables WHERE ended IS NOT NULL ORDER BY ended DESC, rowid DESC "
                                    "LIMIT -1 OFFSET ?", (max(0, int(keep)),)).fetchall()
        return [row[0] for row in reversed(rows)]

    def table(self, table_id: str) -> StoredTable | None:
        with self._lock:
            row = self._db.execute(f"SELECT {TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else _table(row)

    def tables(self, finished: bool | None = None, newest: int | None = None) -> list[StoredTable]:
        """Every table, oldest first; only the finished (or stopped) or only the unfinished ones
        if asked; only the ``newest`` so many if asked."""
        query = f"SELECT {TABLE_COLUMNS} FROM tables"
        if finished is not None:  # a stopped table (at its action limit) is over too
            query += " WHERE status " + ("IN" if finished else "NOT IN") + " (?, ?)"
        query += " ORDER BY created DESC, rowid DESC" + (f" LIMIT {int(newest)}" if newest is not None else "")
        with self._lock:
            rows = self._db.execute(query, OVER if finished is not None else ()).fetchall()
        return [_table(row) for row in reversed(rows)]

    def action_counts(self, table_ids: list[str]) -> dict[str, int]:
        """How many actions each of these tables has (tables with none are left out)."""
        marks = ", ".join("?" * len(table_ids))
        with self._lock:
            rows = self._db.execute(f"SELECT table_id, COUNT(*) FROM actions WHERE table_id IN ({marks}) "
                                    "GROUP BY table_id", table_ids).fetchall()
        return dict(rows)

    def actions(self, table_id: str) -> list[StoredAction]:
        with self._lock:
            rows = self._db.execute(
                "SELECT n, seat, notation, at FROM actions WHERE table_id = ? ORDER BY n", (table_id,)
            ).fetchall()
        return [StoredAction(*row) for row in rows]


def _table(row: tuple[Any, ...]) -> StoredTable:
    id_, game, options, seed, seats, hashes, created, status, end_reason, claims, admin, hints = row
    return StoredTable(id_, game, json.loads(options), seed, json.loads(seats), json.loads(hashes), created,
                       status, end_reason, json.loads(claims) if claims else [], admin, hints != 0)
