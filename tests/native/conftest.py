"""The native tests need the compiled kernels. Where parlour plays in Python (PARLOUR_NATIVE=0,
or no C compiler), the tests that compare kernels with Python cannot run; the engine tests
(test_engine.py) still run, and on a machine with a compiler they fail unless the kernels are
built and fresh (so the differential tests never skip there)."""

from __future__ import annotations

import pytest

import parlour.native

#: Files that run whichever engine plays.
EITHER_ENGINE = ("test_engine.py", "test_sanitizers.py")


def pytest_collection_modifyitems(config, items):
    if parlour.native.engine() == "native":
        return
    skip = pytest.mark.skip(reason=f"no kernels to compare: {parlour.native.status()}")
    for item in items:
        if item.path.parent.name == "native" and item.path.name not in EITHER_ENGINE:
            item.add_marker(skip)
