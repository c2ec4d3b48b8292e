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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from parlour.analysis.figures import COUNT_PREFIX, figure_ci
from parlour.analysis.stats import Estimate, counts, proportion_ci
from parlour.core.scores import win_share


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


def design_metrics(rows: Sequence[dict[str, Any]]) -> DesignMetrics:
    """The design figures of ``rows`` (all of one game and variant); a figure that does not
    apply (one seat, or no seat ever leads alone) is None."""
    n = len(rows)
    seats = seat_count(rows[0])
    ends = [(str(end), proportion_ci(k, n)) for end, k in counts(str(row["end"]) for row in rows)]
    actions = [(key[len(COUNT_PREFIX):], figure_ci(key, [row[key] for row in rows])) for key in rows[0]
               if key.startswith(COUNT_PREFIX) and all(isinstance(row.get(key), int) for row in rows)]
    if seats == 1:
        return DesignMetrics(n, seats, ends=ends, actions=actions)
    first = [_share(row, row["first_player"]) for row in rows if row.get("first_player") is not None]
    led = [_share(row, row["midpoint_leader"]) for row in rows if row.get("midpoint_leader") is not None]
    changes = [row["lead_changes"] for row in rows if row.get("lead_changes") is not None]
    return DesignMetrics(
        n, seats,
        first_player=proportion_ci(sum(first), len(first)) if first else None,
        fair_share=1 / seats,
        decisiveness=proportion_ci(sum(led), len(led)) if led else None,
        lead_changes=figure_ci("lead_changes", changes) if changes else None,
        ends=ends, actions=actions)


def seat_count(row: dict[str, Any]) -> int:
    """How many seats a row's game had (``score`` alone: one).

    >>> seat_count({"score": 3}), seat_count({"score_0": 1, "score_1": 0, "score_2": 0})
    (1, 3)
    """
    return 1 if "score" in row else sum(1 for key in row if key.startswith("score_") and key[6:].isdigit())


def _share(row: dict[str, Any], seat: int) -> float:
    return win_share(seat, row["winners"])
