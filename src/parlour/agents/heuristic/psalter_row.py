"""The Psalter Row strategy: keep the Row contiguous, take exact neighbours, pay gaps late.

How a careful Scribe plays (``docs/agents/heuristic-psalter-row.md`` has the reasons and
the tuning). Every legal action gets a worth in points of final score, built from the
rules of thumb below, and the best one is played:

- **Start in the middle** (``pr_start``), on a run the hand already holds, so that the
  Row can grow at both ends.
- **Take an exact neighbour** whenever one is in hand: it is free and worth +2; of two,
  the one of the Row's suit.
- **Keep the Row contiguous.** A paid placement skips values for good (PR-1), so early
  on it is made only when nothing else can be done; the skipped values stop mattering
  as the cards run out (``pr_endgame``), and then paying a gap is a cheap +2.
- **Pay with what you will not need:** a Page already in the Row or inside it, the
  farthest of the rest; a Patron only for a gap of ``pr_patron_gap`` or more.
- **Keep Kings for style:** a Directive is made when it brings the Row closer to one
  suit (or as a waiting move, with ``pr_king_waits``).
- **Send an Errand to wait:** with no neighbour in hand an Ace draws two fresh cards.
- **Revise from an end** of the Row, so that no hole opens inside it.

>>> import parlour, random
>>> game = parlour.load("psalter-row")
>>> state = game.from_position({"row": ["5H", "6H"], "hand": ["7H", "9C", "2D", "JS", "KD"]})
>>> str(parlour.agent("heuristic").act(state.view(0), random.Random(0)))
'place 7H high'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from parlour.cards.standard import BY_CODE as CARD
from parlour.cards.standard import COLOUR, RANK, SUIT
from parlour.core.options import Option
from parlour.core.view import View
from parlour.games.psalter_row.actions import (
    DISCARD,
    ERRAND,
    PLACE,
    SWAP,
    PsalterAction,
)
from parlour.games.psalter_row.game import PsalterRow
from parlour.games.psalter_row.roles import (
    AID,
    HIGHEST_PAGE,
    IS_ACE,
    LOWEST_PAGE,
    PAGE_VALUE,
)

PARAMS: tuple[Option, ...] = (
    Option(
        "pr_endgame", 10,
        "Psalter Row: cards left to draw (pile, plus the discard before the reshuffle) below "
        "which values skipped by a paid gap start to count for less, reaching nothing at 0",
        minimum=0, maximum=100,
    ),
    Option(
        "pr_hole_cost", 8,
        "Psalter Row: points a skipped value costs while plenty of cards are left "
        "(a paid gap N skips N-1 values; a placement is worth 2)",
        minimum=0, maximum=10,
    ),
    Option(
        "pr_patron_gap", 4,
        "Psalter Row: the smallest gap a Patron (Jack +2, Queen +3) is spent on, unless "
        "nothing better can be done",
        minimum=2, maximum=9,
    ),
    Option(
        "pr_king_waits", True,
        "Psalter Row: spend a King on a Directive that brings no style, as a waiting move "
        "when no exact neighbour is in hand",
    ),
    Option(
        "pr_start", 6,
        "Psalter Row: the first Page the Scribe aims for, so that the Row can grow at both ends",
        minimum=LOWEST_PAGE, maximum=HIGHEST_PAGE,
    ),
)

#: Worths in points; a placed Page is +2 (one more Page, one fewer missing, PR-13).
PLACED = 2.0
SUITED, INKED = 0.6, 0.3  # a Page that keeps the Row one suit / one colour (style, PR-13)
#: What holding a card is worth, for choosing what to pay and discard with.
NEIGHBOUR_KEEP = (0.0, 3.0, 1.5, 0.8)  # a Page 1, 2 or 3 values beyond an end
FAR_KEEP, ACE_KEEP, KING_KEEP, PATRON_KEEP = 0.4, 1.0, 0.5, 0.6
WAITING = 0.5  # an Errand: two fresh cards and a choice, without touching the Row
WORST_SCORE, BEST_SCORE = PsalterRow.score_range
#: ``value``: a game draws about 94 cards after the deal; the drift of the score over the
#: rest of a game, fitted by least squares to 1,500 games of this strategy.
MOST_DRAWS = 94
DRIFT, DRIFT_PER_POINT, DRIFT_PER_PAGE, DRIFT_CONTIGUOUS = -7.2, -2.6, 1.1, 2.1


class Scribe:
    """What the strategy reads from an observation: the Row, the hand, the cards left."""

    __slots__ = ("colour", "draws_left", "first_page_cost", "hand", "high", "holes", "low", "row", "suit")

    def __init__(self, observation: dict[str, Any]) -> None:
        self.row = [CARD[c] for c in observation["row"]]
        self.hand = [CARD[c] for c in observation["hand"]]
        self.low = RANK[self.row[0]] if self.row else 0
        self.high = RANK[self.row[-1]] if self.row else 0
        self.suit, self.colour = style_suit(self.row)
        self.holes = self.high - self.low + 1 - len(self.row) if self.row else 0
        # PR-11: the game ends when the pile empties after the one reshuffle.
        pile = observation["draw_pile_size"]
        self.draws_left = pile if observation["reshuffled"] else pile + len(observation["discard"])
        self.first_page_cost = observation["options"]["first_page_cost"]


def style_suit(row: Sequence[int]) -> tuple[int | None, int | None]:
    """The suit most of the Row shares, and its colour: the style the Scribe keeps to.

    >>> from parlour.cards.standard import parse_card as c
    >>> style_suit([c("4H"), c("5S"), c("6H")])
    (2, 1)
    """
    if not row:
        return None, None
    counts = [0, 0, 0, 0]
    for card in row:
        counts[SUIT[card]] += 1
    suit = counts.index(max(counts))
    return suit, COLOUR[suit * 13]


def choose(view: View, rng: random.Random, settings: dict[str, Any]) -> PsalterAction:
    """The legal action with the best worth; ties go to the first in legal order.

    >>> import parlour
    >>> game = parlour.load("psalter-row")
    >>> state = game.from_position({"row": ["5H"], "hand": ["8C", "9C", "2D", "AS", "QH"]})
    >>> str(choose(state.view(0), random.Random(0), parlour.agent("heuristic").settings))
    'errand AS'
    """
    scribe = Scribe(view.observation)
    actions: list[PsalterAction] = view.legal_actions  # type: ignore[assignment]
    return max(actions, key=lambda action: worth(action, scribe, settings))


def worth(action: PsalterAction, scribe: Scribe, settings: dict[str, Any]) -> float:
    """What an action is worth, in points of final score, by the rules of thumb."""
    kind = action.kind
    if kind == PLACE:
        return placement_worth(action, scribe, settings)
    if kind == SWAP:
        return directive_worth(action, scribe, settings)
    if kind == ERRAND:
        return WAITING * time_left(scribe, settings)  # fresh cards are worth little at the end
    if kind == DISCARD:
        return -keep(action.card, scribe, settings)  # type: ignore[arg-type]
    return revision_worth(action.card, scribe)


def placement_worth(action: PsalterAction, scribe: Scribe, settings: dict[str, Any]) -> float:
    """+2 and its style, less the values a gap skips and the cards that pay for it."""
    card = action.card
    value = PAGE_VALUE[card]  # type: ignore[index]
    if not scribe.row:
        # PR-3: the first Page is free, unless the variant first_page_cost makes it pay.
        cost = payment_cost(action, scribe.first_page_cost, scribe, settings)
        return first_page_worth(card, scribe, settings) - cost  # type: ignore[arg-type]
    gap = scribe.low - value if value < scribe.low else value - scribe.high
    return (
        PLACED
        + style(card, scribe)  # type: ignore[arg-type]
        - skipped_cost(gap - 1, scribe, settings)
        - payment_cost(action, gap, scribe, settings)
    )


def first_page_worth(card: int, scribe: Scribe, settings: dict[str, Any]) -> float:
    """Start the Row where the hand already holds a run, near ``pr_start`` so both ends stay open."""
    value = PAGE_VALUE[card]
    values = {PAGE_VALUE[c] for c in scribe.hand}
    run = 1
    for step in (-1, 1):
        v = value + step
        while v in values:
            run, v = run + 1, v + step
    suited = sum(1 for c in scribe.hand if PAGE_VALUE[c] and SUIT[c] == SUIT[card])
    return PLACED + run + 0.1 * suited - 0.25 * abs(value - settings["pr_start"])


def style(card: int, scribe: Scribe) -> float:
    """A Page that keeps the Row's suit (or at least its colour) helps the style bonus."""
    if SUIT[card] == scribe.suit:
        return SUITED
    return INKED if COLOUR[card] == scribe.colour else 0.0


def skipped_cost(skipped: int, scribe: Scribe, settings: dict[str, Any]) -> float:
    """Skipped values are lost for good (PR-1): dear while many cards are left, free at the end.

    A Row that already has a hole cannot be completed, so its skips cost a little less.
    """
    if skipped <= 0:
        return 0.0
    per_value = settings["pr_hole_cost"] * time_left(scribe, settings) * (0.75 if scribe.holes else 1.0)
    return skipped * per_value


def time_left(scribe: Scribe, settings: dict[str, Any]) -> float:
    """1 while plenty of cards are left to draw, falling to 0 over the last ``pr_endgame``.

    This turn's draw takes at least one card, so with one left there is no later turn.
    """
    endgame = settings["pr_endgame"]
    return min(1.0, max(0, scribe.draws_left - 1) / endgame) if endgame else 0.0


def payment_cost(action: PsalterAction, gap: int, scribe: Scribe, settings: dict[str, Any]) -> float:
    """What the paying cards were worth in hand; a Patron only for large gaps."""
    if action.pay is None:
        return 0.0
    cost = keep(action.pay, scribe, settings)
    if action.patron is not None:
        small_gap = gap < settings["pr_patron_gap"]
        cost += keep(action.patron, scribe, settings) + (PLACED * 2 if small_gap else 0.0)
    return cost


def keep(card: int, scribe: Scribe, settings: dict[str, Any]) -> float:
    """What holding a card is worth: most for the next Page an end needs, least for dead Pages.

    >>> import parlour
    >>> obs = parlour.load("psalter-row").from_position({"row": ["5H", "6H"], "hand": ["7C"]}).observation(0)
    >>> settings = parlour.agent("heuristic").settings
    >>> keep(CARD["7C"], Scribe(obs), settings) > keep(CARD["9C"], Scribe(obs), settings)
    True
    """
    value = PAGE_VALUE[card]
    if not value:
        if AID[card]:
            return PATRON_KEEP
        return ACE_KEEP if IS_ACE[card] else KING_KEEP
    if not scribe.row:
        return NEIGHBOUR_KEEP[1] - 0.25 * abs(value - settings["pr_start"])
    distance = scribe.low - value if value < scribe.low else value - scribe.high
    if distance <= 0:  # inside the Row: good only to pay with, or for a Directive
        return 0.01 * value + (0.3 if SUIT[card] == scribe.suit else 0.0)
    near = NEIGHBOUR_KEEP[distance] if distance < len(NEIGHBOUR_KEEP) else FAR_KEEP
    return near + 0.5 * style(card, scribe)


def directive_worth(action: PsalterAction, scribe: Scribe, settings: dict[str, Any]) -> float:
    """A Directive for style: worth the suit it brings to the Row, less the King it spends."""
    page = action.card
    replaced = next(c for c in scribe.row if RANK[c] == RANK[page])  # type: ignore[index]
    gain = style(page, scribe) - style(replaced, scribe)  # type: ignore[arg-type]
    if gain > 0:
        return WAITING + 2 * gain
    return WAITING - KING_KEEP if settings["pr_king_waits"] else -PLACED * 2


def revision_worth(page: int | None, scribe: Scribe) -> float:
    """Revise from an end of the Row, so no hole opens inside; drop an off-suit Page first."""
    if page is None:
        return 0.0
    at_end = page in (scribe.row[0], scribe.row[-1])
    return (0.0 if at_end else -PLACED) - style(page, scribe)


def value(observation: dict[str, Any], seat: int = 0) -> float:
    """The expected final score (PR-13) as a fraction of its range -9 .. 14, from the observation.

    0 is an empty Row at the end, 1 a one-suit Psalter; a finished game gives its score.
    During play the current score is moved towards where games like it end, the more so
    the more cards are left to draw: long Rows tend to lose Pages to Revisions, short
    ones to gain, and a Row with no hole inside still has a Psalter in view. The weights
    were fitted to 1,500 games of this strategy (``docs/agents/heuristic-psalter-row.md``).
    The game is a solitaire: ``seat`` is always 0.

    >>> import parlour
    >>> game = parlour.load("psalter-row")
    >>> value(game.from_position({"row": ["4H", "5H", "6H"], "hand": []}).observation(0)) > value(
    ...     game.from_position({"row": ["4H", "6H"], "hand": []}).observation(0))
    True
    """
    score = observation["score"]
    if observation["end"] is None:
        scribe = Scribe(observation)
        left = min(1.0, scribe.draws_left / MOST_DRAWS)
        drift = DRIFT + DRIFT_PER_POINT * score + DRIFT_PER_PAGE * len(scribe.row)
        score += left * (drift + (0.0 if scribe.holes else DRIFT_CONTIGUOUS))
    return min(1.0, max(0.0, (score - WORST_SCORE) / (BEST_SCORE - WORST_SCORE)))
