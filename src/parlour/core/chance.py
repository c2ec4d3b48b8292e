"""Chance: every shuffle and die roll derives from a compact integer seed.

The state keeps only an int; each chance event builds its own ``random.Random``
from the seed and the event's name, so clones stay cheap and a game depends only
on its seed and its actions, on every machine and Python version (string seeds
are hashed with SHA-512 by ``random.Random``, which is stable across versions).

>>> chance_rng(7, "deal").random() == chance_rng(7, "deal").random()
True
>>> derive_seed(7, 0) != derive_seed(7, 1)
True

Shuffles, the commonest chance event, skip ``random.Random`` (whose seeding costs
more than the shuffle): :func:`shuffle` hashes the seed and the event with SHA-512
and reads the permutation off the hash as a factorial-base number (a Lehmer code),
with 64 bits to spare so that every order is equally likely to within 2**-64.

>>> a, b = list(range(10)), list(range(10))
>>> shuffle(a, 7, "deal"); shuffle(b, 7, "deal")
>>> a == b, sorted(a) == list(range(10)), a != list(range(10))
(True, True, True)
"""

from __future__ import annotations

import hashlib
import math
import random
from functools import lru_cache

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


@lru_cache(maxsize=None)
def _factorial(n: int) -> tuple[int, int]:
    """n! and the number of random bits to draw for a uniform permutation of n."""
    f = math.factorial(n)
    return f, f.bit_length() + 64


def _random_bits(nbits: int, seed: int, event: tuple) -> int:
    key = "/".join(str(part) for part in (seed, *event))
    value = 0
    for block in range((nbits + 511) // 512):
        digest = hashlib.sha512(f"{key}#{block}".encode()).digest()
        value = (value << 512) | int.from_bytes(digest, "big")
    return value


def shuffle(cards: list, seed: int, *event: object) -> None:
    """Shuffle ``cards`` in place, fixed by the seed and the event's name."""
    n = len(cards)
    if n < 2:
        return
    factorial, nbits = _factorial(n)
    code = _random_bits(nbits, seed, event) % factorial
    for i in range(n - 1, 0, -1):
        code, j = divmod(code, i + 1)
        cards[i], cards[j] = cards[j], cards[i]

