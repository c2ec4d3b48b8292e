"""The kernels under AddressSanitizer and UndefinedBehaviorSanitizer (slow: a debug build).

A debug build of the extension (``PARLOUR_NATIVE_DEBUG=1``) is made in a temporary folder and
loaded in a child process (``PARLOUR_NATIVE_LIB``) with the sanitizers' runtimes preloaded;
the child runs the differential tests of this folder. Any read out of bounds, leak-free
use after free or undefined behaviour aborts the child, failing this test.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def runtime(name: str) -> str:
    found = subprocess.run(["gcc", f"-print-file-name={name}"], capture_output=True, text=True).stdout.strip()
    return found if os.path.isabs(found) and os.path.exists(found) else ""


@pytest.mark.skipif(shutil.which("gcc") is None, reason="the sanitizer build needs gcc")
def test_the_differential_tests_pass_under_the_sanitizers(tmp_path):
    build = subprocess.run(
        [sys.executable, "setup.py", "--quiet", "build_ext", "--build-lib", str(tmp_path / "lib"),
         "--build-temp", str(tmp_path / "tmp")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, "PARLOUR_NATIVE_DEBUG": "1"})
    assert build.returncode == 0, build.stderr[-3000:]
    (library,) = (tmp_path / "lib").rglob("_kernels*.so")
    preload = ":".join(filter(None, (runtime("libasan.so"), runtime("libubsan.so"))))
    assert preload, "gcc has no sanitizer runtimes"
    env = {**os.environ, "PARLOUR_NATIVE_LIB": str(library), "LD_PRELOAD": preload,
           # CPython's own allocations are not the kernels' to answer for.
           "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1", "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1"}
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", "-x",
         "tests/native", "-m", "not slow", "-k", "not sanitizers"],
        cwd=ROOT, capture_output=True, text=True, timeout=3000, env=env)
    assert tests.returncode == 0, (tests.stdout[-4000:] + tests.stderr[-4000:])
    assert " passed" in tests.stdout
