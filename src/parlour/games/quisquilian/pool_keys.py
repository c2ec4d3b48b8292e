"""The readings of the cleared cards (pools.py) as positions and observations write them.

One reading (always so with one deck): ``pile_contents`` (the last clearing's cards not yet
seen: in the pile or drawn into hands), ``pool_counts`` (per seat, how many of them the hand
holds) and, while hands hold unseen cards of earlier clearings, ``earlier_pools`` (oldest
first, each ``{"cards", "counts"}``). Several readings (a two-deck record read more than one
way, QU-9): ``pool_readings``, a list of ``{"weight", "pile_contents", "pool_counts"}``
(with ``earlier_pools`` where that reading has them), ``weight`` its probability (the
weights add up to 1); then ``pile_contents`` holds every card some reading has there and
``pool_counts`` the most any reading gives each seat.

>>> one = ((1.0, (((4, 30), (1, 0, 0)),)),)
>>> written = pool_keys(one, 3)
>>> written
{'pile_contents': ['5C', '5H'], 'pool_counts': [1, 0, 0]}
>>> read_readings(written, 3) == one
True
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from parlour.cards.standard import CODE, parse_card
from parlour.core.errors import PositionError
from parlour.core.position import is_int, read_cards
from parlour.core.words import shown
from parlour.games.quisquilian.pools import Pool, Readings

_READING_KEYS = {"weight", "pile_contents", "pool_counts", "earlier_pools"}


def pool_keys(readings: Readings, n: int) -> dict[str, Any]:
    """The keys a position or observation holds for the readings."""
    if readings is None:
        return {"pile_contents": None, "pool_counts": [0] * n}
    if len(readings) == 1:
        return _reading_keys(readings[0][1])
    envelope: Counter = Counter()
    for _, pools in readings:
        envelope |= Counter(pools[-1][0])
    most = [max(pools[-1][1][s] for _, pools in readings) for s in range(n)]
    return {
        "pile_contents": [CODE[c] for c in sorted(envelope.elements())],
        "pool_counts": most,
        "pool_readings": [
            {"weight": w, **_reading_keys(pools)} for w, pools in readings
        ],
    }


def _reading_keys(pools: tuple[Pool, ...]) -> dict[str, Any]:
    cards, counts = pools[-1]
    keys: dict[str, Any] = {"pile_contents": [CODE[c] for c in cards], "pool_counts": list(counts)}
    if len(pools) > 1:
        keys["earlier_pools"] = [{"cards": [CODE[c] for c in cards], "counts": list(counts)} for cards, counts in pools[:-1]]
    return keys


def read_readings(position: dict[str, Any], n: int) -> Readings:
    """The readings a position (or observation) holds; PositionError for a malformed one.
    Whether the hands fit them is checked by the caller, which knows the cards."""
    listed = position.get("pool_readings")
    if listed is None:
        return _one_reading(position, n)
    if not isinstance(listed, list) or len(listed) < 2:
        raise PositionError(f"pool_readings lists two or more readings (one is written without it), not {shown(listed)}")
    if "earlier_pools" in position:
        raise PositionError("with pool_readings, each reading holds its own earlier_pools")
    readings: dict[tuple[Pool, ...], float] = {}
    for item in listed:
        if not isinstance(item, dict) or not {"weight", "pile_contents"} <= set(item) <= _READING_KEYS:
            raise PositionError(
                'each of pool_readings is {"weight": p, "pile_contents": [codes], "pool_counts": [per seat]} '
                f'(and "earlier_pools" where it has them), not {shown(item)}')
        reading = _one_reading(item, n)
        if reading is None or reading[0][1] in readings:
            raise PositionError("each of pool_readings has pile_contents (a list) and is listed once")
        readings[reading[0][1]] = _weight(item["weight"])
    if abs(sum(readings.values()) - 1) > 1e-9:
        raise PositionError(f"the weights of pool_readings are probabilities: they add up to 1, not {sum(readings.values())}")
    found = tuple((w, pools) for pools, w in readings.items())
    written = pool_keys(found, n)
    for key in ("pile_contents", "pool_counts"):
        if key in position and position[key] != written[key]:
            raise PositionError(
                f"with pool_readings, {key} is what the readings give ({shown(written[key])}), not {shown(position[key])}")
    return found


def _weight(value: Any) -> float:
    if (is_int(value) or isinstance(value, float)) and 0 < value <= 1 and math.isfinite(value):
        return float(value)
    raise PositionError(f"a reading's weight is its probability, a number above 0 and at most 1, not {shown(value)}")


def _one_reading(position: dict[str, Any], n: int) -> Readings:
    """The reading written with ``pile_contents``, ``pool_counts`` and ``earlier_pools``."""
    contents = position.get("pile_contents")
    counts = _counts(position.get("pool_counts", [0] * n), "pool_counts", n)
    earlier = position.get("earlier_pools", [])
    if not isinstance(earlier, list):
        raise PositionError(f"earlier_pools must be a list, not {shown(earlier)}")
    if contents is None:
        if any(counts) or earlier:
            raise PositionError("pool_counts and earlier_pools count cards of a clearing: pile_contents must list them")
        return None
    pools = tuple(_earlier_pool(group, n) for group in earlier)
    last = (tuple(sorted(read_cards(contents, "pile_contents", parse_card))), tuple(counts))
    return ((1.0, pools + (last,)),)


def _earlier_pool(group: Any, n: int) -> Pool:
    """One of ``earlier_pools``: ``{"cards": [codes], "counts": [one per seat]}`` (QU-9): all
    of its cards in the hands that drew them (the pile holds the last clearing's only)."""
    if not isinstance(group, dict) or set(group) != {"cards", "counts"}:
        raise PositionError(f'each of earlier_pools is {{"cards": [codes], "counts": [one count per seat]}}, not {shown(group)}')
    counts = _counts(group["counts"], "earlier_pools counts", n)
    cards = tuple(sorted(read_cards(group["cards"], "earlier_pools cards", parse_card)))
    if sum(counts) != len(cards) or not cards:
        raise PositionError(
            f"an earlier pool's cards are all in hands: its counts add up to its {len(cards)} cards (and a pool "
            f"with none left is left out), not {shown(group['counts'])}")
    return cards, tuple(counts)


def _counts(value: Any, key: str, n: int) -> list[int]:
    if not isinstance(value, list) or len(value) != n:
        raise PositionError(f"{key} must be a list with one entry per seat ({n}), not {shown(value)}")
    if not all(is_int(c) and c >= 0 for c in value):
        raise PositionError(f"{key} must be counts (integers >= 0), not {shown(value)}")
    return value
