"""Fixtures of the web table's in-process tests: an app on a fresh SQLite file, and a
client for it. Makes ``tablekit`` (the tests' websocket helpers) importable, since pytest
runs with --import-mode=importlib."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

from tablekit import open_client  # noqa: E402


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "parlour.db"


@pytest.fixture
def client(db_path: Path) -> Iterator:
    """A TestClient of an app with bots that move at once (bot_delay 0)."""
    with open_client(db_path) as test_client:
        yield test_client
