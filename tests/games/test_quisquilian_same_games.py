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
#: engine as it was before the third round of speed-ups (docs/benchmarks.md). Renewed since
#: when final positions gained ``earlier_pools`` (QU-9), and for the two-deck games when the
#: cleared cards' bookkeeping became exact (``pool_readings``, issue 18): each time the games
#: themselves were checked unchanged, the old digests coming out again with the keys of what is
#: known of the cleared cards left out of the final positions; and when `stats()` began to count
#: a won game's winning turn (the old digests come out again with the old count).
FINGERPRINTS = {
    (3, None): "c375573a611ce248",
    (4, None): "78ca4a1ae976c436",
    (5, None): "ef615e3f1ef20a33",
    (6, None): "4208b03afa715da9",
    (7, None): "8b99620f2e2829f8",
    (8, None): "5e8a5f714ff683cb",
    (4, 2): "a84c40e05e4646fc",
    (6, 1): "83ed4b4573005c51",
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
