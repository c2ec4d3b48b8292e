"""Game-design figures from the rows of a run: first-player advantage, decisiveness, lead
changes, how each game ends, and (Psalter Row) how often each action kind is used.

>>> rows = [{"winners": [1], "first_player": 1, "midpoint_leader": 1, "lead_changes": 0, "end": "target",
...          "score_0": 60, "score_1": 40},
...         {"winners": [0], "first_player": 1, "midpoint_leader": 1, "lead_changes": 2, "end": "target",
...          "score_0": 45, "score_1": 55}]
>>> m = design_metrics(rows)
>>> m.first_player.mean, m.fair_share, m.decisiveness.mean, m.lead_changes.mean
(0.5, 0.5, 0.5, 1.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from parlour.analysis.figures import COUNT_PREFIX, figure_bounds, figure_estimate
from parlour.analysis.stats import Estimate, proportion_ci


@dataclass(frozen=True)
class DesignMetrics:
    games: int
    seats: int
    #: The share of the win taken by the seat that moved first, and the even share 1/seats.
    first_player: Estimate | None = None
    fair_share: float | None = None
    #: How often the seat leading alone at the midpoint won (games with such a leader only).
    decisiveness: Estimate | None = None
    lead_changes: Estimate | None = None
    #: End reason -> share of games.
    ends: list[tuple[str, Estimate]] = field(default_factory=list)
    #: Action kind -> mean uses per game (Psalter Row).
    actions: list[tuple[str, Estimate]] = field(default_factory=list)


def design_metrics(rows: Any) -> DesignMetrics:
    """The design figures of ``rows`` (all of one game and variant: dicts, or a pyarrow table
    as :func:`~parlour.analysis.columns.read_table` gives, the ``sim`` extra); a figure that
    does not apply (one seat, or no seat ever leads alone) is None."""
    import numpy as np

    from parlour.analysis import columns

    table = columns.as_table(rows)
    n, seats = table.num_rows, columns.seat_count(table)
    ends = [(end, proportion_ci(k, n)) for end, k in columns.text_counts(table["end"])]
    actions, (game, options) = [], columns.played(table)
    for key in table.column_names:
        column = table[key]
        if key.startswith(COUNT_PREFIX) and _integers(column) and column.null_count == 0:
            found = columns.tally(column)
            actions.append((key[len(COUNT_PREFIX):],
                            figure_estimate(key, columns.moments(column).sample(), set(found) <= {0, 1},
                                            figure_bounds(game, options, key))))
    if seats == 1:
        return DesignMetrics(n, seats, ends=ends, actions=actions)
    shares = np.array(columns.win_shares(table, seats))
    found = {}
    for key in ("first_player", "midpoint_leader"):
        if key in table.column_names:
            seat = columns.numbers(table[key])
            held = ~np.isnan(seat)
            won = shares[seat[held].astype(int), np.flatnonzero(held)]
            found[key] = proportion_ci(math.fsum(won), len(won)) if len(won) else None
    changes = table["lead_changes"].drop_null() if "lead_changes" in table.column_names else []
    return DesignMetrics(
        n, seats,
        first_player=found.get("first_player"),
        fair_share=1 / seats,
        decisiveness=found.get("midpoint_leader"),
        lead_changes=figure_estimate("lead_changes", columns.moments(changes).sample(),
                                     set(columns.tally(changes)) <= {0, 1}) if len(changes) else None,
        ends=ends, actions=actions)


def _integers(column: Any) -> bool:
    import pyarrow as pa

    return pa.types.is_integer(column.type)


def seat_count(row: dict[str, Any]) -> int:
    """How many seats a row's game had (``score`` alone: one).

    >>> seat_count({"score": 3}), seat_count({"score_0": 1, "score_1": 0, "score_2": 0})
    (1, 3)
    """
    return 1 if "score" in row else sum(1 for key in row if key.startswith("score_") and key[6:].isdigit())
