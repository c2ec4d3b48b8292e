"""Chance: every shuffle and die roll derives from a compact integer seed.

The state keeps only an int; each chance event builds its own ``random.Random``
from the seed and the event's name, so clones stay cheap and a game depends only
on its seed and its actions, on every machine and Python version (string seeds
are hashed with SHA-512 by ``random.Random``, which is stable across versions).

>>> chance_rng(7, "deal").random() == chance_rng(7, "deal").random()
True
>>> derive_seed(7, 0) != derive_seed(7, 1)
True
"""

from __future__ import annotations

import hashlib
import random

SEED_BITS = 63


def chance_rng(seed: int, *event: object) -> random.Random:
    """A fresh generator for one chance event of the game with this seed."""
    return random.Random("/".join(str(part) for part in (seed, *event)))


def derive_seed(seed: int, *parts: object) -> int:
    """A new seed derived from ``seed`` and ``parts`` (e.g. a game index in a run)."""
    text = "/".join(str(part) for part in (seed, *parts)).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> (64 - SEED_BITS)


def fresh_seed(rng: random.Random) -> int:
    """A seed drawn from an agent's or a caller's generator."""
    return rng.getrandbits(SEED_BITS)
