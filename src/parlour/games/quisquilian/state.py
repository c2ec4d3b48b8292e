"""The Quisquilian state: nine trash spots, hands, runs, and the flow of a turn.

Spots are tuples replaced on change, so a clone copies only their outer list; hands are
short sorted lists changed in place (a discard deletes one card), copied by a clone. Both
copies of a card in a two-deck game are the same int.

>>> import parlour
>>> state = parlour.load("quisquilian").new_state(seed=2)
>>> state.phase_name, len(state.hands[state.current_player]), len(state.spots)
('discard', 6, 9)
"""

from __future__ import annotations

from hashlib import shake_256
from typing import Any

from parlour.core.chance import randbelow, shuffle
from parlour.core.game import State
from parlour.games.quisquilian import digging, pools
from parlour.games.quisquilian.actions import (
    ADD,
    DISCARD,
    RUN,
    STOP_ACTION,
    QuisAction,
    additions_found,
    discard,
    runs_found,
)
from parlour.games.quisquilian.digging import CARD_BIT

HAND_SIZE = 6
N_SPOTS = 9
ALL_RANKS = sum(1 << r for r in range(1, 14))  # Ace (1) through King (13)
DISCARD_PHASE, DIG_PHASE = 0, 1
PHASE_NAMES = ("discard", "dig")
COMPLETE, STALEMATE, MAX_TURNS = "complete", "stalemate", "max_turns"

#: DISCARDS[used][card]: the discards of a card onto each spot not yet used this turn
#: (``used`` has bit s set for spot s); a row of all 52 cards is built on first use of its
#: ``used`` and shared by every state, so a discard step's list is one look-up per card.
DISCARDS: list[tuple[tuple[QuisAction, ...], ...] | None] = [None] * (1 << (N_SPOTS + 1))


def discards_row(used: int) -> tuple[tuple[QuisAction, ...], ...]:
    row = DISCARDS[used]
    if row is None:
        free = [spot for spot in range(1, N_SPOTS + 1) if not used >> spot & 1]
        row = DISCARDS[used] = tuple(tuple(discard(card, spot) for spot in free) for card in range(52))
    return row


def roll_die(seed: int, turn: int) -> int:
    """The die of a turn (QU-3): ``1 + randbelow(6, seed, "roll", turn)``, its key written out
    because building it part by part cost a third of every turn's roll.

    >>> all(roll_die(seed, turn) == 1 + randbelow(6, seed, "roll", turn) for seed in (0, 7, 2**62) for turn in range(50))
    True
    """
    return 1 + int.from_bytes(shake_256(b"%d/roll/%d" % (seed, turn)).digest(8), "little") % 6


RANK_BIT = tuple(1 << (card % 13 + 1) for card in range(52))  # a card's rank as a bit of a coverage mask


def rank_of(card: int) -> int:
    return card % 13 + 1


class QuisState(State):
    """A game of Quisquilian in progress."""

    __slots__ = (
        "n", "seed", "hands", "spots", "infos", "spot_bits", "runs", "wants", "cover", "pile", "top", "player", "phase", "_roll", "owed",
        "used", "began_empty", "played", "quiet", "barren", "turns", "clearings", "readings", "winner",
    )

    n: int
    seed: int
    hands: list[list[int]]  # sorted
    spots: list[tuple[int, ...]]  # bottom .. top
    infos: list[digging.SpotInfo]  # digging.spot_info of each spot, kept up to date
    # The infos' bits together, or -1 when a spot changed since they were last worked out:
    # many digs follow one with the same spots (empty hands, runs from the hand alone).
    spot_bits: int
    runs: list[tuple[tuple[int, ...], ...]]  # per seat, each run's cards in rank order
    cover: list[int]  # per seat, the ranks its runs cover, as a bitmask
    wants: list[digging.Wanted]  # per seat, digging.wanted_cards of its runs
    pile: list[int]  # the draw pile, pile[top] on top; never mutated
    top: int
    player: int
    phase: int
    _roll: int  # this turn's die roll (QU-3), or ``~turn`` while not yet rolled (see ``roll``)
    owed: int  # discards still owed this turn
    used: int  # spots discarded on this turn (bit 1..9)
    began_empty: bool  # the turn began with the draw pile empty (QU-7)
    played: bool  # a run or an addition was played this turn
    quiet: int  # consecutive turns that began with an empty pile and played nothing
    barren: bool  # a clearing found nothing beneath the tops, and nothing was played since (QU-8)
    turns: int  # turns completed
    clearings: int
    # What the table knows of the clearings' cards not yet seen (QU-9): the readings of the
    # record (pools.py), None before the first clearing; immutable, so clones share it.
    readings: pools.Readings
    winner: int

    # -- the contract -------------------------------------------------------------------
    @property
    def roll(self) -> int:
        """This turn's die roll (QU-3). A player with no cards, or one, discards their whole
        hand whatever the die says, so their turn's die is rolled only when something asks for
        it (the same number: it depends on the seed and the turn alone); such a turn then costs
        no roll."""
        roll = self._roll
        if roll < 0:
            roll = self._roll = roll_die(self.seed, ~roll)
        return roll

    @roll.setter
    def roll(self, value: int) -> None:
        self._roll = value

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def is_terminal(self) -> bool:
        # ``end`` itself: this state keeps it (``end_reason`` is the base class's ``end``), and
        # the playout loop asks at every decision.
        return self.end is not None

    def scores(self) -> list[int]:
        return [int(seat == self.winner) for seat in range(self.n)]

    def winners(self) -> list[int]:
        return [self.winner] if self.winner >= 0 else []

    def clone(self) -> "QuisState":
        new = QuisState.__new__(QuisState)
        new.game, new._history, new._origin, new._legal = self.game, self._history, self._origin, self._legal
        new.n, new.seed, new.hands, new.spots = self.n, self.seed, list(map(list.copy, self.hands)), self.spots[:]
        new.infos, new.spot_bits = self.infos[:], self.spot_bits
        new.runs, new.cover, new.pile, new.top = self.runs[:], self.cover[:], self.pile, self.top
        new.wants = self.wants[:]
        new.player, new.phase, new._roll, new.owed, new.used = self.player, self.phase, self._roll, self.owed, self.used
        new.began_empty, new.played, new.quiet, new.barren = self.began_empty, self.played, self.quiet, self.barren
        new.turns, new.clearings, new.readings = self.turns, self.clearings, self.readings
        new.winner, new.end = self.winner, self.end
        return new

    def own_runs(self, seat: int) -> list[tuple[int, int, int]]:
        """A seat's runs as (suit, low rank, high rank)."""
        return [(r[0] // 13, rank_of(r[0]), rank_of(r[-1])) for r in self.runs[seat]]

    def stats(self) -> dict[str, Any]:
        kinds = [a.kind_name for a in self.history()]  # type: ignore[attr-defined]
        return {
            "turns": self.turns + (self.end == COMPLETE),  # the winning turn ends the game unfinished: it counts
            "decisions": len(kinds),
            "runs": kinds.count("run"),
            "additions": kinds.count("add"),
            "clearings": self.clearings,
            "end": self.end,
            "winner": self.winner if self.winner >= 0 else None,
        }

    # -- what is legal ------------------------------------------------------------------
    def _legal_actions(self) -> list[QuisAction]:  # type: ignore[override]
        if self.end is not None:
            return []
        if self.phase == DIG_PHASE:
            return self._legal if self._can_dig() else [STOP_ACTION]  # type: ignore[return-value]
        # QU-3: each card of the hand (identical copies once) onto each spot not used this
        # turn; a row of the DISCARDS table per card (written here: the commonest decision).
        out: list[QuisAction] = []
        row = DISCARDS[self.used] or discards_row(self.used)
        # One deck: no two cards alike, no copies to skip (the faster loop).
        if self.game.decks == 1:  # type: ignore[attr-defined]
            for card in self.hands[self.player]:
                out += row[card]
            return out
        previous = -1
        for card in self.hands[self.player]:  # sorted: identical copies are neighbours
            if card != previous:
                out += row[card]
                previous = card
        return out

    def _why_illegal(self, action: Any) -> str:
        from parlour.games.quisquilian.explain import why_illegal

        return why_illegal(self, action)

    # -- what actions do ----------------------------------------------------------------
    def _apply(self, action: QuisAction) -> None:  # type: ignore[override]
        """A discard (QU-3) is played here rather than in a helper, one call fewer for most of
        a playout's actions; runs, additions and ``stop`` in :meth:`_dig`."""
        if action.kind != DISCARD:
            self._dig(action)
            return
        card = action.card  # one card onto a spot; one card per spot this turn
        p = self.player
        self.hands[p].remove(card)
        readings = self.readings
        if readings is not None:  # the card may be a cleared one: what is known of them follows (QU-9)
            self.readings = pools.left(readings, p, card, self.hands, self._unseen, self.game.decks)  # type: ignore[attr-defined]
        index = action.index
        stack = self.spots[index]
        self.spots[index] = stack + action.laid
        info = self.infos[index]
        if stack and info[0] == card // 13:  # the card may extend the spot's prefix
            self.infos[index] = digging.info_after_discard(info, card)
        else:
            self.infos[index] = action.alone
        self.spot_bits = -1
        self.used |= action.spot_bit
        self.owed -= 1
        if not self.owed and not self._can_dig():
            self._end_turn()

    def _dig(self, action: QuisAction) -> None:
        """QU-4: a run, an addition, or ``stop``, which ends the turn."""
        kind = action.kind
        if kind == RUN:
            self._run(action.cards)
        elif kind == ADD:
            self._add(action.cards[0], action.target)
        else:
            self._end_turn()

    def _take(self, cards: tuple[tuple[int, int], ...]) -> int:
        """Take a run's or an addition's cards: from the hand, or a spot's top cards (QU-4).
        Returns the ranks they cover, as bits."""
        p, ranks = self.player, 0
        from_spot: dict[int, int] = {}
        for card, source in cards:
            ranks |= RANK_BIT[card]
            if source:
                from_spot[source] = from_spot.get(source, 0) + 1
            else:  # a hand card becomes public: what the table knows of the cleared cards follows
                self.hands[p].remove(card)
                readings = self.readings
                if readings is not None:
                    self.readings = pools.left(readings, p, card, self.hands, self._unseen, self.game.decks)  # type: ignore[attr-defined]
        for source, count in from_spot.items():  # the top ``count`` cards, whatever their order
            stack = self.spots[source - 1][:-count]
            self.spots[source - 1] = stack
            self.infos[source - 1] = digging.spot_info(stack)
        self.spot_bits = -1
        return ranks

    def _run(self, cards: tuple[tuple[int, int], ...]) -> None:
        """QU-4: lay a new run of three or more in front of the player."""
        ranks = self._take(cards)
        p = self.player
        run = tuple([card for card, _ in cards])
        self.runs[p] += (run,)
        self.wants[p] = digging.wanted_with(self.wants[p], run, len(self.runs[p]) - 1)
        self._played(ranks)

    def _add(self, card_source: tuple[int, int], target: int) -> None:
        """QU-4: one card continues one of the player's runs at either end."""
        card = card_source[0]
        ranks = self._take((card_source,))
        p = self.player
        runs = self.runs[p]
        old = runs[target]
        below = card < old[0]  # one suit: card order is rank order
        grown = (card,) + old if below else old + (card,)
        self.runs[p] = runs[:target] + (grown,) + runs[target + 1 :]
        self.wants[p] = digging.wanted_grown(self.wants[p], card, target, below)
        self._played(ranks)

    def _played(self, ranks: int) -> None:
        p = self.player
        self.played, self.barren = True, False
        self.cover[p] |= ranks
        if self.cover[p] == ALL_RANKS:  # QU-5: the complete set wins at once
            self.winner, self.end = p, COMPLETE
        elif not self._can_dig():
            self._end_turn()

    def _can_dig(self) -> bool:
        """Enter or go on digging: whether there is a run or an addition to play (QU-4), and
        if so the legal actions are every new run and every addition to the player's own runs,
        then ``stop``; with none the dig ends by itself and the caller ends the turn.

        The hand's and the spots' cards at hand are worked out once as bit masks: three
        consecutive ranks of a suit, or a card that one of the player's runs wants, must be
        among them for a run or an addition to exist (most digs stop at these tests)."""
        self.phase = DIG_PHASE
        p = self.player
        hand = self.hands[p]
        hand_bits = 0
        for card in hand:
            hand_bits |= CARD_BIT[card]
        spot_bits = self.spot_bits
        if spot_bits < 0:
            spot_bits = 0
            for info in self.infos:
                spot_bits |= info[2]
            self.spot_bits = spot_bits
        avail = hand_bits | spot_bits
        starts = avail & (avail >> 1) & (avail >> 2)
        found = runs_found(digging.runs_from(hand_bits, self.infos, avail, starts)) if starts else []
        wanted, hits = self.wants[p]
        if hits & avail:
            added = digging.additions(hand, self.spots, wanted, hits & hand_bits, hits & spot_bits)
            if added:
                found += additions_found(added)
        if found:
            found.append(STOP_ACTION)
            self._legal = found  # type: ignore[assignment]
            return True
        return False

    def _set_spots(self, stacks: list[tuple[int, ...]]) -> None:
        self.spots = stacks
        self.infos = [digging.spot_info(stack) for stack in stacks]
        self.spot_bits = -1

    def _unseen(self, card: int) -> int:
        """Copies of ``card`` in no spot and no run (a card just leaving a hand counts as unseen)."""
        public = sum([stack.count(card) for stack in self.spots]) + sum(
            [run.count(card) for runs in self.runs for run in runs])
        return self.game.decks - public  # type: ignore[attr-defined]

    # -- the end of a turn: refill (QU-6), clearing (QU-7), stalemate (QU-8) --------------
    def _end_turn(self) -> None:
        """End turns until a player has a decision to make (a turn may ask none)."""
        max_turns = self.game.max_turns  # type: ignore[attr-defined]
        while True:
            p = self.player
            if len(self.hands[p]) < HAND_SIZE and self.top < len(self.pile):
                self._refill(p)
            self.turns += 1
            if self.began_empty and not self.played:  # QU-7: a quiet turn
                self.quiet += 1
                if self.quiet >= self.n:
                    self.quiet = 0
                    self._clear_the_yard()
                    if self.end is not None:  # QU-8: the stalemate
                        return
            else:
                self.quiet = 0
            if self.turns >= max_turns:  # QU-8: the safety net
                self.end = MAX_TURNS
                return
            self.player = (p + 1) % self.n
            if self._begin_turn():
                return

    def _refill(self, seat: int) -> None:
        """QU-6: draw up to six, while the pile lasts (called when the hand is short and the
        pile is not empty)."""
        need = HAND_SIZE - len(self.hands[seat])
        drawn = self.pile[self.top : self.top + need]
        self.top += len(drawn)
        hand = self.hands[seat]
        hand += drawn
        hand.sort()
        if self.readings is not None:
            self.readings = pools.drew(self.readings, seat, len(drawn))

    def _clear_the_yard(self) -> None:
        """QU-7: each spot keeps its top card; everything beneath becomes a new draw pile."""
        beneath = sorted(card for stack in self.spots for card in stack[:-1])
        if not beneath:  # QU-8: a second clearing with nothing found and nothing played ends it
            if self.barren:
                self.end = STALEMATE
            self.barren = True
            return
        self._set_spots([stack[-1:] for stack in self.spots])
        self.readings = pools.cleared(self.readings, beneath, self.n)  # QU-9: its contents are public
        pile = list(beneath)
        shuffle(pile, self.seed, "clear", self.clearings)
        self.pile, self.top = pile, 0
        self.clearings += 1
        self.barren = False

    def _begin_turn(self) -> bool:
        """QU-3: roll the die, owe that many discards (all, if the hand is shorter), then dig.

        Returns whether the player has a decision to make; if not, the turn is over.
        """
        held = len(self.hands[self.player])
        if held > 1:
            self._roll = roll = roll_die(self.seed, self.turns)
            self.owed = roll if roll < held else held
        else:  # the whole hand, none or one card, whatever the die says: rolled when asked for (``roll``)
            self._roll, self.owed = ~self.turns, held
        self.used = 0
        self.began_empty = self.top == len(self.pile)
        self.played = False
        self.phase = DISCARD_PHASE
        return bool(self.owed) or self._can_dig()

