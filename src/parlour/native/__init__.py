"""The optional native playout kernels, and which engine plays.

parlour's rules are the pure-Python ones in :mod:`parlour.games`; the kernels here are a
compiled accelerator that plays the very same games (same legal actions in the same order,
same chance, same agents' choices) with the uniform random and heuristic policies, for
simulation and search. They are built by the package's install when a C compiler is at
hand, and used when all of these hold:

- ``PARLOUR_NATIVE`` is not ``0`` in the environment;
- the compiled module imports, and was built from the C sources now in the package
  (an edited source makes the build stale: it is not used, and :func:`status` says so);
- the game has a kernel.

>>> engine() in ("native", "python")
True
>>> status().startswith(engine())
True
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import os
import warnings
from types import ModuleType
from typing import TYPE_CHECKING

from parlour.native.sources import source_files, source_hash

if TYPE_CHECKING:
    from parlour.native.runner import Kernel

#: ``PARLOUR_NATIVE=0`` turns the kernels off (and skips building them at install).
ENV = "PARLOUR_NATIVE"
#: A path to a compiled ``_kernels`` module to load instead of the installed one (the
#: sanitizer build of the tests).
LIB_ENV = "PARLOUR_NATIVE_LIB"
REBUILD = "make native (or pip install -e .)"


@functools.cache
def _load() -> tuple[ModuleType | None, str]:
    """The compiled module and a line on the engine; (None, why) when it is not used."""
    if os.environ.get(ENV, "1") == "0":
        return None, f"python (the native kernels are off: {ENV}=0)"
    try:
        module = _import()
    except ImportError as err:
        return None, f"python (no compiled kernels: {err}; build them with {REBUILD})"
    sources = source_files()
    if sources and module.SOURCE_HASH != source_hash():
        why = (f"python (the compiled kernels are stale: the C sources changed since they were built; "
               f"rebuild with {REBUILD})")
        warnings.warn(why, RuntimeWarning, stacklevel=3)
        return None, why
    return module, f"native (C kernels, build {module.SOURCE_HASH})"


def _import() -> ModuleType:
    path = os.environ.get(LIB_ENV)
    if not path:
        return importlib.import_module("parlour.native._kernels")
    loader = importlib.machinery.ExtensionFileLoader("parlour.native._kernels", path)
    spec = importlib.util.spec_from_file_location("parlour.native._kernels", path, loader=loader)
    if spec is None:
        raise ImportError(f"{path} is not an extension module")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def engine() -> str:
    """``"native"`` when the compiled kernels are used, else ``"python"``."""
    return "native" if _load()[0] is not None else "python"


def status() -> str:
    """One line: which engine plays, and why (for ``parlour --version`` and ``parlour doctor``)."""
    return _load()[1]


@functools.cache
def kernel(game_name: str) -> Kernel | None:
    """The kernel of a game, or None (no kernels, or none for this game).

    >>> import parlour
    >>> kernel("no-such-game") is None
    True
    """
    module = _load()[0]
    if module is None:
        return None
    try:
        codec = importlib.import_module(f"parlour.native.{game_name.replace('-', '_')}")
    except ImportError:
        return None
    from parlour.native.runner import Kernel

    return Kernel(module, codec)


__all__ = ["ENV", "engine", "kernel", "status"]
