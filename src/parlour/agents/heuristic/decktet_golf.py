"""Decktet Golf strategy: keep low cards, chase lines of shared suits, flip where lines are closest.

The bot reckons every layout as the **points it is expected to score**: the face-up
cards at their value, each face-down card at the mean value of the cards nobody has
seen, less what the layout's suit lines are expected to shed (each line's chance of
sharing a suit, times the value of its two outer cards). Every choice is the one that
lowers that reckoning most, with a few thresholds a player would use:

- take the discard top only when it saves ``dg_take`` points or more, else draw;
- keep a drawn card when it saves ``dg_keep`` points or more, else discard it and flip;
- flip a card in the line closest to sharing a suit;
- leave on top of the discard pile the outer card that helps the next player least;
- end the round (turn the last face-down card) only when ``dg_out_margin`` points ahead.

``value(observation, seat)`` turns the same reckoning into a chance of winning the match.
See ``docs/agents/heuristic-decktet-golf.md``.

>>> import parlour, random
>>> view = parlour.load("decktet-golf").new_state(seed=1).view(1)
>>> parlour.agent("heuristic").act(view, random.Random(0)) in view.legal_actions
True
>>> 0.0 <= value(view.observation, 1) <= 1.0
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from operator import mul
from typing import Any

from parlour.cards.decktet import BY_CODE, DECK_SIZE, SUITS
from parlour.core.action import Action
from parlour.core.options import Option
from parlour.core.view import View
from parlour.games.decktet_golf.actions import (
    DISCARD,
    DRAW,
    FLIP,
    ONTOP,
    REPLACE,
    SWAP,
    TAKE,
)
from parlour.games.decktet_golf.game import DecktetGolf
from parlour.games.decktet_golf.layout import CELLS, LINE_CELLS, N_CELLS
from parlour.games.decktet_golf.position import HIDDEN as FACE_DOWN
from parlour.games.decktet_golf.scoring import VALUE

PARAMS = (
    Option("dg_take", 4, "take the discard top when placing it saves at least this many points, else draw",
           minimum=-10, maximum=20),
    Option("dg_keep", 0, "keep a drawn card when placing it saves at least this many points, else discard "
           "it and flip", minimum=-10, maximum=20),
    Option("dg_lines", 100, "how much (percent) a suit line's chance of shedding its outer cards counts",
           minimum=0, maximum=400),
    Option("dg_out_margin", 0, "turn the last face-down card (ending the round) only when this many points "
           "ahead of the best opponent's reckoning; negative: even when behind", minimum=-50, maximum=50),
)

#: A face-down cell and an empty cell, beside the card ints 0..44. Tables indexed by a
#: cell's entry end with the entries for HIDDEN (index -2) and EMPTY (index -1).
HIDDEN, EMPTY = -2, -1
_ALL_SUITS = 63
#: The suits a cell's entry may share: a face-down card might carry any, an empty cell none.
_SHAREABLE = (*SUITS, _ALL_SUITS, 0)
_CARD = {**BY_CODE, FACE_DOWN: DECK_SIZE}  # a face-down card in an observation: counted in a spare slot
#: The lines through each cell: one for a cell outside the core, two for a core cell.
_CELL_LINES = tuple(tuple(line for line in range(4) if cell in LINE_CELLS[line]) for cell in range(N_CELLS))
_SUIT_INDICES = tuple(tuple(i for i in range(6) if mask >> i & 1) for mask in range(64))
#: Per mask of suits, 1 for each card carrying one of them.
_CARRIES = tuple(tuple(int(bool(SUITS[c] & mask)) for c in range(DECK_SIZE)) for mask in range(64))
#: Each card's count (bits 0-7), value (bits 8-19, offset to be positive) and suits (8 bits
#: each from bit 20) packed in one int, so that one sum over a pool adds up all three.
_VALUE_OFFSET = 2
_PACKED = tuple(
    1 | (VALUE[c] + _VALUE_OFFSET) << 8 | sum(1 << (20 + 8 * i) for i in _SUIT_INDICES[SUITS[c]])
    for c in range(DECK_SIZE)
)
#: Reshuffles in a round, or turns a round in the match so far, after which the bot hurries to
#: end the round, so that a match always ends (a round takes about 27 turns in self-play).
_DRAGGING, _TURNS_A_ROUND = 2, 60
#: What a round's reckoning says of its final score, fitted on heuristic self-play: a layout
#: with h face-down cards (h >= 1) ends near _ROUND_MEAN + trust * (reckoning - typical),
#: typical = _FACE_UP_MEAN + h * pool mean, trust = _TRUST - _TRUST_FADE * h (not below 0),
#: give or take _SPREAD + _SPREAD_GROWTH * h points; a whole round, _ROUND_SD points.
_ROUND_MEAN, _ROUND_SD, _FACE_UP_MEAN = 8.0, 11.0, 4.7
_TRUST, _TRUST_FADE = 0.7, 0.065
_SPREAD, _SPREAD_GROWTH = 3.5, 0.5


class Pool:
    """The cards a seat has not seen that may lie face down: their mean value and suits.

    >>> from parlour.cards.decktet import MOONS
    >>> pool = Pool(_deck_counts(2, False))  # nothing seen yet: the whole 44-card deck
    >>> round(pool.mean, 2), round(pool.fits(MOONS), 2)  # 14 cards carry Moons
    (4.23, 0.32)
    """

    __slots__ = ("_chances", "counts", "mean", "size", "suit_share", "worth")

    def __init__(self, counts: Sequence[int]) -> None:
        self.counts = counts
        packed = sum(map(mul, counts, _PACKED))
        self.size = size = (packed & 0xFF) or 1
        self.mean = ((packed >> 8 & 0xFFF) - _VALUE_OFFSET * size) / size
        self.suit_share = [(packed >> (20 + 8 * i) & 0xFF) / size for i in range(6)]
        #: A cell's points by its entry: a card's value, a face-down card the mean, an empty cell 0.
        self.worth = (*VALUE, self.mean, 0)
        self._chances: dict[int, float] = {}

    def fits(self, suits: int) -> float:
        """The chance that one unseen card carries one of ``suits``."""
        return sum(map(mul, self.counts, _CARRIES[suits])) / self.size

    def chance(self, suits: int, hidden: int) -> float:
        """The chance that ``hidden`` unseen cards all share one of ``suits`` (for two or
        more cards, a union bound over the suits)."""
        key = suits << 4 | hidden
        found = self._chances.get(key)
        if found is None:
            if hidden == 1:
                found = self.fits(suits)
            else:
                found = min(1.0, sum(self.suit_share[i] ** hidden for i in _SUIT_INDICES[suits]))
            self._chances[key] = found
        return found


# -- reading the observation once ------------------------------------------------------------
@cache
def _deck_counts(players: int, excuse: bool) -> tuple[int, ...]:
    counts = [0] * (DECK_SIZE + 1)
    for card in DecktetGolf(players=players, excuse=excuse).deck:
        counts[card] += 1
    return tuple(counts)


def read_cells(layout: dict[str, str]) -> list[int]:
    """A layout from an observation as 12 cells: card ints, HIDDEN or EMPTY.

    >>> read_cells({"B1": "AM", "C1": "?"})[:3]
    [0, -2, -1]
    """
    return [EMPTY if code is None else HIDDEN if code == FACE_DOWN else _CARD[code] for code in map(layout.get, CELLS)]


def read_pool(obs: dict[str, Any]) -> Pool:
    """The unseen cards that may lie face down: the deck less every card ever in view, less
    the draw pile's contents once a reshuffle made them public (DG-12)."""
    options = obs["options"]
    counts = list(_deck_counts(options["players"], options["excuse"]))
    seen = [code for layout in obs["layouts"] for code in layout.values()]
    seen += obs["discard"]
    seen += obs["pile_contents"] or ()
    if obs["drawn"]:
        seen.append(obs["drawn"])
    for code in seen:
        counts[_CARD[code]] -= 1
    return Pool(counts)


# -- reckoning a layout -----------------------------------------------------------------------
def _relief(shared: int, hidden: int, outer: float, pool: Pool, weight: float) -> float:
    """The points a line sheds: its outer cards at once when its four face-up cards share a
    suit, else their worth times the (weighted) chance that the face-down ones fit."""
    if not shared:
        return 0.0
    return outer if not hidden else weight * pool.chance(shared, hidden) * outer


def line_relief(cells: list[int], line: int, pool: Pool, weight: float) -> float:
    """The points a line is expected to shed. A line with an empty cell has shed already,
    and one whose face-up cards share no suit never will."""
    a, b, c, d = (cells[cell] for cell in LINE_CELLS[line])
    shared = _SHAREABLE[a] & _SHAREABLE[b] & _SHAREABLE[c] & _SHAREABLE[d]
    hidden = (a == HIDDEN) + (b == HIDDEN) + (c == HIDDEN) + (d == HIDDEN)
    return _relief(shared, hidden, pool.worth[a] + pool.worth[d], pool, weight)


def reckon(cells: list[int], pool: Pool, weight: float) -> float:
    """The points a layout is expected to score (lower is better).

    >>> pool = Pool(_deck_counts(2, False))
    >>> row_2_of_moons = read_cells({"A2": "AM", "B2": "3MW", "C2": "8MS", "D2": "XM"})
    >>> reckon(row_2_of_moons, pool, 1.0)  # the row shares Moons: A2 and D2 go
    11.0
    """
    worth = pool.worth
    return sum(worth[card] for card in cells) - sum(line_relief(cells, line, pool, weight) for line in range(4))


def placing_gains(cells: list[int], card: int, pool: Pool, weight: float) -> list[float]:
    """Points saved by putting ``card`` into each cell: the card it sends away less the card,
    plus what the cell's lines are now expected to shed more (meaningless for an empty cell).

    >>> pool = Pool(_deck_counts(2, False))
    >>> cells = read_cells({"A2": "AM", "B2": "3MW", "C2": "8MS", "D2": "XS"})
    >>> gains = placing_gains(cells, _CARD["5ML"], pool, 1.0)
    >>> gains[CELLS.index("D2")]  # the Sun's 10 goes and Moons sheds the Ace and the 5
    11.0
    """
    worth = pool.worth
    value, suits = VALUE[card], SUITS[card]
    gains = [worth[entry] - value for entry in cells]
    for line in LINE_CELLS:
        entries = [cells[cell] for cell in line]
        if EMPTY in entries:  # shed already: nothing more to gain here
            continue
        m0, m1, m2, m3 = (_SHAREABLE[entry] for entry in entries)
        hidden = entries.count(HIDDEN)
        first, last = worth[entries[0]], worth[entries[3]]
        before = _relief(m0 & m1 & m2 & m3, hidden, first + last, pool, weight)
        others = (m1 & m2 & m3, m0 & m2 & m3, m0 & m1 & m3, m0 & m1 & m2)
        outers = (value + last, first + last, first + last, first + value)
        for i, cell in enumerate(line):
            after = _relief(others[i] & suits, hidden - (entries[i] == HIDDEN), outers[i], pool, weight)
            gains[cell] += after - before
    return gains


# -- the decision -----------------------------------------------------------------------------
class Table:
    """One decision's reading of the observation: my cells, the unseen pool, the settings."""

    __slots__ = ("cells", "dragging", "last_turn", "obs", "pool", "seat", "settings", "weight")

    def __init__(self, view: View, settings: dict[str, Any]) -> None:
        self.obs = view.observation
        self.seat = view.seat
        self.cells = read_cells(self.obs["layouts"][self.seat])
        self.pool = read_pool(self.obs)
        self.weight = settings["dg_lines"] / 100
        self.settings = settings
        # Once someone has turned their last card this is my last turn: every point counts now.
        self.last_turn = self.obs["ender"] is not None
        # A round whose pile has been reshuffled twice drags on (most rounds see one at most),
        # as does a match past _TURNS_A_ROUND turns a round (ones that take but never draw):
        # stop being choosy and bring the round to an end, one face-down card a turn.
        self.dragging = (self.obs["reshuffles"] >= _DRAGGING
                         or self.obs["turns"] >= _TURNS_A_ROUND * self.obs["round"])

    def threshold(self, name: str) -> float:
        return 0.0 if self.last_turn else self.settings[name]

    def placings(self, card: int, anywhere: bool = False) -> list[tuple[float, int]]:
        """Keep low cards: (points saved, cell) for each cell ``card`` could go into, with
        the cost of going out taken off where it would turn my last face-down card. In a
        round that drags on only face-down cells count, unless the card must go ``anywhere``."""
        gains = placing_gains(self.cells, card, self.pool, self.weight)
        hidden = self.cells.count(HIDDEN)
        out = []
        for cell, entry in enumerate(self.cells):
            if entry == HIDDEN or (entry != EMPTY and (anywhere or not self.dragging)):
                gain = gains[cell]
                if hidden == 1 and entry == HIDDEN:
                    gain -= self.going_out_cost(gain)
                out.append((gain, cell))
        return out

    def going_out_cost(self, gain: float) -> float:
        """Go out only when ahead: ending the round behind the best opponent's reckoning
        (plus the margin) costs the shortfall, since they would have gone on improving."""
        if self.last_turn or self.dragging:
            return 0.0
        mine = reckon(self.cells, self.pool, self.weight) - gain
        others = [reckon(read_cells(layout), self.pool, self.weight)
                  for seat, layout in enumerate(self.obs["layouts"]) if seat != self.seat]
        return max(0.0, mine - min(others) + self.settings["dg_out_margin"])


def take_or_draw(table: Table, actions: Sequence[Action]) -> Action:
    """Take the discard top only when it is clearly good where it goes; else try the pile."""
    top = _CARD[table.obs["discard"][-1]]
    best = max(table.placings(top), default=(-math.inf,))[0]
    wanted = TAKE if best >= table.threshold("dg_take") and not table.dragging else DRAW
    return next(action for action in actions if action.kind == wanted)  # type: ignore[attr-defined]


def place_card(table: Table, actions: Sequence[Action]) -> Action:
    """Put the card in hand where it saves most. A card drawn from the pile is discarded
    instead (and a card flipped) unless it saves ``dg_keep`` points: a flip is worth that."""
    by_cell = {a.cell: a for a in actions if a.kind == REPLACE}  # type: ignore[attr-defined]
    must_place = len(by_cell) == len(actions)  # a card taken from the discard pile
    placings = table.placings(_CARD[table.obs["drawn"]], anywhere=must_place)
    gain, cell = max(placings, default=(-math.inf, None))
    if must_place:
        return by_cell[cell]
    flip = table.threshold("dg_keep")
    if table.cells.count(HIDDEN) == 1:
        flip -= table.going_out_cost(0.0)
    return by_cell[cell] if gain >= flip else next(a for a in actions if a.kind == DISCARD)  # type: ignore[attr-defined]


def line_closeness(cells: list[int], line: int) -> int:
    """How many face-up cards a line has that share a suit; -1 when it can no longer shed."""
    entries = [cells[cell] for cell in LINE_CELLS[line]]
    shared = _ALL_SUITS
    for entry in entries:
        shared &= _SHAREABLE[entry]
    return 4 - entries.count(HIDDEN) if shared else -1


def flip_choice(table: Table, actions: Sequence[Action]) -> Action:
    """Flip where lines are closest: the face-down card in the line with the most face-up
    cards that still share a suit, since that flip is the likeliest to shed a line."""
    closeness = [line_closeness(table.cells, line) for line in range(4)]
    return max(actions, key=lambda a: max(closeness[line] for line in _CELL_LINES[a.cell]))  # type: ignore[attr-defined]


def spoil_the_top(table: Table, actions: Sequence[Action]) -> Action:
    """Of a suited line's two outer cards, leave on top the one the next player saves least with."""
    obs = table.obs
    following = read_cells(obs["layouts"][(obs["turn"] + 1) % len(obs["layouts"])])

    def their_gain(action: Action) -> float:
        gains = placing_gains(following, table.cells[action.cell], table.pool, table.weight)  # type: ignore[attr-defined]
        return max(gain for gain, entry in zip(gains, following) if entry != EMPTY)

    return min(actions, key=their_gain)


def swap_choice(table: Table, actions: Sequence[Action]) -> Action:
    """After the Excuse, make the swap that leaves my layout reckoned lowest: line up suits
    so that a line sheds, or move high cards to the ends of a line likely to shed."""
    cells = table.cells

    def after(action: Action) -> float:
        a, b = action.cell, action.other  # type: ignore[attr-defined]
        cells[a], cells[b] = cells[b], cells[a]
        worth = reckon(cells, table.pool, table.weight)
        cells[a], cells[b] = cells[b], cells[a]
        return worth

    return min(actions, key=after)


def choose(view: View, rng: random.Random, settings: dict[str, Any]) -> Action:
    """The strategy's action for a view with two or more legal actions."""
    actions = view.legal_actions
    table = Table(view, settings)
    kind = actions[0].kind  # type: ignore[attr-defined]
    if kind == TAKE:
        return take_or_draw(table, actions)
    if kind == REPLACE:
        return place_card(table, actions)
    if kind == FLIP:  # ties fall by chance, not by reading order
        return flip_choice(table, rng.sample(actions, len(actions)))
    if kind == ONTOP:
        return spoil_the_top(table, actions)
    assert kind == SWAP, f"no Decktet Golf decision starts with {actions[0]}"
    return swap_choice(table, actions)


# -- the value of a position ------------------------------------------------------------------
def value(observation: dict[str, Any], seat: int) -> float:
    """``seat``'s chance of winning the match, estimated from its observation.

    Each seat is projected to finish at its match total plus its round outlook (what its
    layout's reckoning says of its round score); the spread of that projection grows with
    its face-down cards and with the rounds still to play. The chance that ``seat`` ends lower than each opponent (a normal approximation) is
    multiplied over the opponents, and the seats' chances are scaled to add up to 1. A
    finished match gives 1 to a sole winner and a share to tied ones.

    >>> import parlour
    >>> obs = parlour.load("decktet-golf").new_state(seed=1).observation(0)
    >>> round(value(obs, 0) + value(obs, 1), 6)
    1.0
    """
    totals = observation["totals"]
    if observation["end"] is not None:
        best = min(totals)
        return 1.0 / totals.count(best) if totals[seat] == best else 0.0
    pool = read_pool(observation)
    layouts = [read_cells(layout) for layout in observation["layouts"]]
    rounds_left = _rounds_left(observation)
    projected, spreads = [], []
    for total, cells in zip(totals, layouts):
        score, spread = round_outlook(cells, pool)
        projected.append(total + score)
        spreads.append(spread**2 + rounds_left * _ROUND_SD**2)
    chances = [_lowest_chance(s, projected, spreads) for s in range(len(totals))]
    return chances[seat] / sum(chances)


def round_outlook(cells: list[int], pool: Pool) -> tuple[float, float]:
    """The points a layout is likely to end the round with, and give or take how many.

    The reckoning prices a face-down card at the pool's mean, but a player replaces the
    worst cards before the round ends, so with many face-down cards the reckoning says
    little: the outlook leans on the typical round score, more so the more cards are down.

    >>> pool = Pool(_deck_counts(2, False))
    >>> ace, crown = read_cells({"A2": "AM", "D2": "?"}), read_cells({"A2": "XM", "D2": "?"})
    >>> [round(round_outlook(cells, pool)[0], 1) for cells in (ace, crown)]  # give or take 4
    [5.7, 11.4]
    """
    hidden = cells.count(HIDDEN)
    reckoning = reckon(cells, pool, 1.0)
    if not hidden:
        return reckoning, 0.0
    trust = max(0.0, _TRUST - _TRUST_FADE * hidden)
    typical = _FACE_UP_MEAN + hidden * pool.mean
    return _ROUND_MEAN + trust * (reckoning - typical), _SPREAD + _SPREAD_GROWTH * hidden


def _rounds_left(observation: dict[str, Any]) -> float:
    """Rounds still to play after this one: fixed by ``rounds``, or guessed from how far the
    highest match total is from the target, at a typical round score a round."""
    options = observation["options"]
    if options["rounds"] is not None:
        return max(0, options["rounds"] - observation["round"])
    return max(0.0, (options["target"] - max(observation["totals"])) / _ROUND_MEAN - 1)


def _lowest_chance(seat: int, projected: list[float], spreads: list[float]) -> float:
    """The chance that ``seat`` finishes below every other seat, taken as independent."""
    chance = 1.0
    for other in range(len(projected)):
        if other != seat:
            spread = math.sqrt(2 * (spreads[seat] + spreads[other])) or 1e-9
            chance *= 0.5 * (1.0 + math.erf((projected[other] - projected[seat]) / spread))
    return max(chance, 1e-12)
