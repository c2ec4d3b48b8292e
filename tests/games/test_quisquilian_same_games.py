"""The same seeds give the same Quisquilian games: a fingerprint of seeded random playouts
(every legal-action list in order, the action chosen, the final position and figures),
recorded before the speed-ups of the playout loop, so that a faster engine is checked to
play exactly the old games."""

from __future__ import annotations

import hashlib
import random

import pytest

import parlour

#: sha256 (first 16 hex digits) of 40 games per player count, recorded on 2026-11-30 with the
#: engine as it was before the third round of speed-ups (docs/benchmarks.md).
FINGERPRINTS = {
    (3, None): "9c926a2ddd4423e9",
    (4, None): "b1b70567aa3fbd15",
    (5, None): "173b8076c3a41eed",
    (6, None): "c9446eed19053173",
    (7, None): "3abd0f271705e42f",
    (8, None): "bf71fa21330b37af",
    (4, 2): "4366266d09a8f393",
    (6, 1): "c32ef06132887e72",
}


def fingerprint(players: int, decks: int | None, games: int = 40) -> str:
    options = {"players": players} if decks is None else {"players": players, "decks": decks}
    game = parlour.load("quisquilian", **options)
    rng = random.Random(players * 10 + (decks or 0))
    digest = hashlib.sha256()
    for _ in range(games):
        state = game.new_state(rng.getrandbits(32))
        while not state.is_terminal():
            legal = state.legal_actions()
            digest.update(" ".join(map(str, legal)).encode() + b"|")
            state.apply(legal[rng.randrange(len(legal))])
        digest.update(repr((state.to_position(), state.stats(), state.scores())).encode())
    return digest.hexdigest()[:16]


@pytest.mark.parametrize("players, decks", list(FINGERPRINTS))
def test_seeded_random_playouts_are_the_games_recorded(players: int, decks: int | None) -> None:
    assert fingerprint(players, decks) == FINGERPRINTS[(players, decks)]
