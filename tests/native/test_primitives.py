"""The kernels' chance and generator are core/chance.py's and random.Random's, bit for bit."""

from __future__ import annotations

import random

import pytest

import parlour.native
from parlour.core.chance import _key, derive_seed, randbelow, shuffle

kernels = parlour.native._load()[0]
pytestmark = pytest.mark.skipif(kernels is None, reason=f"needs the compiled kernels: {parlour.native.status()}")


@pytest.mark.parametrize("seed", [0, 7, -7, 2**63 - 1, -(2**128) + 1, derive_seed(3, 5)])
@pytest.mark.parametrize("event", [("deal",), ("clear", 3), ("reshuffle", 12, "x")])
def test_shuffles_are_the_engines(seed, event):
    key = _key(seed, event).decode()
    for n in (0, 1, 2, 36, 45, 52, 104, 200):
        cards = list(range(n))
        shuffle(cards, seed, *event)
        assert kernels.shuffled(key, n) == cards


def test_key_text_past_one_sponge_block():
    """A key longer than SHAKE-256's 136-byte block absorbs in two."""
    key = "9" * 150
    cards = list(range(52))
    shuffle(cards, int(key[:40]), key[40:])  # the key text is "<40 digits>/<110 nines>"
    assert kernels.shuffled(key[:40] + "/" + key[40:], 52) == cards


@pytest.mark.parametrize("n", [1, 2, 6, 13, 2**40 + 3])
def test_draws_are_the_engines(n):
    for roll in range(50):
        assert kernels.randbelow(_key(11, ("roll", roll)).decode(), n) == randbelow(n, 11, "roll", roll)


@pytest.mark.parametrize("seed", [0, 1, 5, 2**32 - 1, 2**32, 2**63 - 1, derive_seed(9, 4, "agents")])
def test_the_generator_is_random_random(seed):
    bounds = [1, 2, 3, 7, 8, 9, 100, 1000, 4096] * 80  # past 624 words: the state is regenerated
    python = random.Random(seed)
    assert kernels.rng_draws(seed, 0, bounds) == [python.randrange(b) for b in bounds]
    python = random.Random(seed)
    assert kernels.rng_draws(seed, 1, [1] * 700) == [python.random() for _ in range(700)]
    python, sizes = random.Random(seed), [1, 2, 5, 6, 30, 200]
    items = [list(range(n)) for n in sizes]
    assert kernels.rng_draws(seed, 2, sizes) == [x for pool in items for x in python.sample(pool, len(pool))]


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        kernels.shuffled("", 3)
    with pytest.raises(ValueError):
        kernels.shuffled("k", 513)
    with pytest.raises(ValueError):
        kernels.rng_draws(1, 0, [0])
    with pytest.raises(ValueError):
        kernels.run("no-such-game", 0, b"", "1", 1, b"\0", b"", 0, 10)
