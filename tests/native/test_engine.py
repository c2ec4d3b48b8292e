"""Which engine plays: the kernels when built, fresh and wanted; else pure Python, saying why."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

import parlour
import parlour.native


@pytest.fixture
def fresh_choice():
    """Forget the engine chosen at import (and choose again after the test)."""
    parlour.native._load.cache_clear()
    parlour.native.kernel.cache_clear()
    yield
    parlour.native._load.cache_clear()
    parlour.native.kernel.cache_clear()


def run_parlour(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "parlour.cli", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **env})


def test_parlour_native_0_takes_the_python_engine():
    done = run_parlour("--version", PARLOUR_NATIVE="0")
    assert done.returncode == 0, done.stderr
    assert "engine: python (the native kernels are off: PARLOUR_NATIVE=0)" in done.stdout
    doctor = run_parlour("doctor", PARLOUR_NATIVE="0")
    assert "psalter-row: pure Python" in doctor.stdout


def test_the_fallback_plays_the_same_rows():
    """The same simulation with the kernels off and on (when built): the same output."""
    args = ("simulate", "decktet-golf", "--agent", "heuristic,random", "-n", "12", "--workers", "1", "--no-progress")
    off, on = run_parlour(*args, PARLOUR_NATIVE="0"), run_parlour(*args)
    assert off.returncode == on.returncode == 0, off.stderr + on.stderr
    assert off.stdout == on.stdout
    assert "engine: python (the native kernels are off" in off.stderr


def test_a_missing_build_says_so(fresh_choice, monkeypatch):
    monkeypatch.delenv(parlour.native.ENV, raising=False)
    monkeypatch.setenv(parlour.native.LIB_ENV, "/nonexistent/_kernels.so")
    assert parlour.native.engine() == "python"
    assert parlour.native.status().startswith("python (no compiled kernels")
    assert parlour.native.kernel("psalter-row") is None


@pytest.mark.skipif(parlour.native.engine() != "native", reason=f"needs the kernels: {parlour.native.status()}")
def test_a_stale_build_is_not_used(fresh_choice, monkeypatch):
    """Sources edited since the build: the build would play old rules, so it is set aside, loudly."""
    monkeypatch.setattr(parlour.native, "source_hash", lambda: "0" * 16)
    with pytest.warns(RuntimeWarning, match="stale"):
        assert parlour.native.engine() == "python"
    assert "stale" in parlour.native.status() and "make native" in parlour.native.status()
    assert parlour.native.kernel("decktet-golf") is None


def test_a_machine_with_a_compiler_plays_native():
    """``make test`` builds the kernels wherever there is a C compiler, from the tree's sources;
    without one, the engine is Python and says why."""
    if os.environ.get(parlour.native.ENV) == "0":
        assert parlour.native.engine() == "python"
    elif shutil.which("cc") or shutil.which("gcc"):
        assert parlour.native.engine() == "native", parlour.native.status()
    else:
        assert parlour.native.status().startswith("python (no compiled kernels")
