"""The kernels' C sources and their hash: a build carries the hash of the sources it was made
from, so a stale build is noticed instead of shadowing edited sources (standard library only:
``setup.py`` imports this file before parlour is installed).

>>> len(source_hash()) == 16 and all(path.endswith((".c", ".h")) for path in source_files())
True
"""

from __future__ import annotations

import hashlib
import os

SOURCE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "csrc")


def source_files() -> list[str]:
    """The C files, in a fixed order (empty in an install that ships no sources)."""
    if not os.path.isdir(SOURCE_DIR):
        return []
    return sorted(os.path.join(SOURCE_DIR, name) for name in os.listdir(SOURCE_DIR) if name.endswith((".c", ".h")))


def source_hash() -> str:
    """The first 16 hex digits of the SHA-256 of the sources' names and contents."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(os.path.basename(path).encode() + b"\0")
        with open(path, "rb") as file:
            digest.update(file.read() + b"\0")
    return digest.hexdigest()[:16]
