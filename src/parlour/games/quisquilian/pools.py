"""What the table knows of the cleared cards (QU-9): the readings of the public record.

A clearing makes the cards beneath the tops a new draw pile whose contents are public; each
card drawn after it came from them. A *pool* is a clearing's cards not yet seen, with how
many of them each hand holds; the draw pile holds the rest of the last clearing's pool. The
cards of a hand drawn from no pool are its *own* cards (held from before, or drawn before
any clearing).

With one deck every card is one of a kind, so the table always knows where a card that
leaves a hand came from. With two decks it may not: a seat that held a 5D from before the
clearing, and may have drawn the other 5D, plays a 5D; either copy may have left, and the
pile still holds the other 5D in one case and not in the other. So the table keeps every
*reading* of the record that is still possible, each with its probability under uniform
dealing (counted over the ways the deal and the shuffles could have gone, each card a
player held equally likely to be the one played): a card leaving a hand splits a reading
into one per place it may have come from, weighed by how likely that place held it. The
true state always fits one of the readings.

>>> readings = cleared(None, [4, 30], 3)  # 5C and 5H beneath the tops: the new pile
>>> readings = drew(readings, 0, 1)  # seat 0 draws one of them
>>> readings
((1.0, (((4, 30), (1, 0, 0)),)),)
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from math import comb
from typing import Callable, Iterable, Iterator, Optional

from parlour.core.errors import PositionError

#: A pool: its cards not yet seen (sorted) and, per seat, how many of them the hand holds.
Pool = tuple[tuple[int, ...], tuple[int, ...]]
#: A reading: its probability and its pools, oldest first; the last is the last clearing's.
Reading = tuple[float, tuple[Pool, ...]]
Readings = Optional[tuple[Reading, ...]]  # None before the first clearing

ONE = 1.0
#: The least weight a reading keeps: readings are never dropped for being unlikely (the true
#: state may be the unlikely one), however many events make them less so.
LEAST = 1e-300


def cleared(readings: Readings, beneath: list[int], n: int) -> tuple[Reading, ...]:
    """After a clearing (the pile was empty): each reading keeps the pools some hand still
    holds cards of, and gains the new one, ``beneath`` (sorted), none of it drawn yet."""
    new = (tuple(beneath), (0,) * n)
    if readings is None:
        return ((ONE, (new,)),)
    return _merged((tuple(p for p in pools if any(p[1])) + (new,), w) for w, pools in readings)


def drew(readings: tuple[Reading, ...], seat: int, k: int) -> tuple[Reading, ...]:
    """After ``seat`` drew ``k`` cards from the pile: ``k`` more of the last pool in its hand."""
    out = []
    for weight, pools in readings:
        cards, counts = pools[-1]
        out.append((weight, pools[:-1] + ((cards, counts[:seat] + (counts[seat] + k,) + counts[seat + 1 :]),)))
    return tuple(out)


def left(
    readings: tuple[Reading, ...], seat: int, card: int, hands: list[list[int]], copies: Callable[[int], int],
    decks: int,
) -> tuple[Reading, ...]:
    """After ``card`` left ``seat``'s hand (a discard, a run, an addition): every reading
    split by where the card may have come from (one of the pools the hand holds cards of,
    or the hand's own cards), each part weighed by the chance that place held it.

    ``hands`` are the hands once it left; ``copies(card)`` says how many copies of the card
    were unseen (on no spot and in no run) as it left, asked only when needed.
    """
    if len(readings) == 1:  # the usual case: one reading, the card from one place (written out:
        pools = readings[0][1]  # this runs at most plays after a clearing)
        found = at = -1
        for i, (cards, counts) in enumerate(pools):
            if counts[seat]:
                j = bisect_left(cards, card)
                if j < len(cards) and cards[j] == card:
                    if found >= 0:
                        break  # in two pools: the general case
                    found, at = i, j
        else:
            if found < 0:
                return readings  # one of the hand's own cards: nothing known changes
            if decks == 1 or not _could_be_own(pools, seat, card, len(hands[seat]) + 1, copies, decks):
                if len(pools) == 1:  # (the pool rebuilt here: a third of the time of the call)
                    return ((ONE, ((cards[:at] + cards[at + 1 :], counts[:seat] + (counts[seat] - 1,)
                                    + counts[seat + 1 :]),)),)
                return ((ONE, _without(pools, found, seat, at)),)
    sizes = _sizes(hands, seat)
    merged: dict[tuple[Pool, ...], float] = {}
    for weight, pools in readings:
        for after, chance in _sources(pools, seat, card, sizes, copies, decks):
            merged[after] = merged.get(after, 0.0) + weight * chance
    return _merged(merged.items())


def _sizes(hands: list[list[int]], seat: int) -> list[int]:
    """The hand sizes before the card left ``seat``'s hand."""
    sizes = [len(hand) for hand in hands]
    sizes[seat] += 1
    return sizes


def _sources(
    pools: tuple[Pool, ...], seat: int, card: int, sizes: list[int], copies: Callable[[int], int], decks: int
) -> Iterator[tuple[tuple[Pool, ...], float]]:
    """Each place the card may have left from, as (the pools after, the chance that place held
    a copy): a pool the hand holds ``k`` of, with ``m`` copies among its ``N`` cards, ``m*k/N``;
    the hand's own cards likewise, among every hand's own cards."""
    for i, (cards, counts) in enumerate(pools):
        m = _count(cards, card)
        if counts[seat] and m:
            yield _without(pools, i, seat, bisect_left(cards, card)), m * counts[seat] / len(cards)
    own = _own_slots(pools, seat, sizes[seat])
    m = _own_copies(pools, card, copies, decks) if own else 0
    if m:
        every_own = sum(sizes) - sum(sum(counts) for _, counts in pools)
        yield pools, m * own / every_own


def _own_slots(pools: tuple[Pool, ...], seat: int, size: int) -> int:
    """How many of the seat's ``size`` cards are its own (drawn from no pool)."""
    return size - sum(counts[seat] for _, counts in pools)


def _own_copies(pools: tuple[Pool, ...], card: int, copies: Callable[[int], int], decks: int) -> int:
    """How many unseen copies of ``card`` are no pool's, so among the hands' own cards."""
    in_pools = sum(_count(cards, card) for cards, _ in pools)
    return 0 if in_pools >= decks else copies(card) - in_pools


def _could_be_own(
    pools: tuple[Pool, ...], seat: int, card: int, size: int, copies: Callable[[int], int], decks: int
) -> bool:
    """Whether the card may be one of the seat's own cards too: the seat (holding ``size``
    cards) has own cards and a copy of it is no pool's (the copies counted last: it costs more)."""
    in_pools = 0
    for cards, counts in pools:
        size -= counts[seat]
        in_pools += _count(cards, card)
    return size > 0 and in_pools < decks and copies(card) > in_pools


def _without(pools: tuple[Pool, ...], i: int, seat: int, at: int) -> tuple[Pool, ...]:
    """The pools with pool ``i``'s card at ``at`` seen, from its share of ``seat``'s hand; an
    earlier pool with no card left unseen is dropped (the last clearing's stays)."""
    cards, counts = pools[i]
    pool = (cards[:at] + cards[at + 1 :], counts[:seat] + (counts[seat] - 1,) + counts[seat + 1 :])
    if i < len(pools) - 1 and not pool[0]:
        return pools[:i] + pools[i + 1 :]
    return pools[:i] + (pool,) + pools[i + 1 :]


def _count(cards: tuple[int, ...], card: int) -> int:
    """Copies of ``card`` in a sorted tuple: 0, 1 or 2 (there are at most two decks). A bisect:
    a pool may be a deck long, and this is asked at most plays after a clearing."""
    at = bisect_left(cards, card)
    if at == len(cards) or cards[at] != card:
        return 0
    return 2 if at + 1 < len(cards) and cards[at + 1] == card else 1


def _merged(items: Iterable[tuple[tuple[Pool, ...], float]]) -> tuple[Reading, ...]:
    """Readings (given as pools and weight) with equal pools merged, in the order first met
    (which the record alone fixes), their weights scaled to sum to 1 (and never below LEAST)."""
    merged: dict[tuple[Pool, ...], float] = {}
    for pools, weight in items:
        merged[pools] = merged.get(pools, 0.0) + weight
    if len(merged) == 1:
        return ((ONE, next(iter(merged))),)
    total = sum(merged.values())
    return tuple((max(weight / total, LEAST), pools) for pools, weight in merged.items())


# ---------------------------------------------------------------------------------------
# what a reading says of where the hidden cards are
# ---------------------------------------------------------------------------------------

class Groups:
    """A reading as groups of hidden cards, each dealt uniformly among its places: every
    pool (the last one's places include the draw pile), and the hands' own cards (and the
    pile's, before any clearing: ``pools`` empty).

    ``cards[g]`` counts group ``g``'s unseen cards by card; ``slots[g][s]`` is how many of them
    seat ``s``'s hand holds, ``slots[g][n]`` how many the pile holds. Group 0 is the own cards.
    """

    __slots__ = ("cards", "slots", "pile")

    def __init__(self, pools: tuple[Pool, ...], unseen: Counter, sizes: list[int], pile: int) -> None:
        n, self.pile = len(sizes), pile
        own = unseen.copy()
        own.subtract(c for cards, _ in pools for c in cards)
        own_slots = [sizes[s] - sum(counts[s] for _, counts in pools) for s in range(n)] + [0 if pools else pile]
        self.cards = [own] + [Counter(cards) for cards, _ in pools]
        last = len(pools) - 1
        self.slots = [own_slots] + [
            list(counts) + [len(cards) - sum(counts) if i == last else 0] for i, (cards, counts) in enumerate(pools)
        ]

    def problem(self) -> str | None:
        """Why this reading cannot be (a count below zero, a pile of another size), or None."""
        if any(v < 0 for group in self.cards for v in group.values()):
            return "a pool holds a card that is not unseen (on a spot, in a run, or counted twice)"
        if any(v < 0 for slots in self.slots for v in slots):
            return "a hand holds fewer cards than the pools say it drew"
        if self.slots[-1][-1] != self.pile:
            return "the last clearing's unseen cards not in hands are not as many as the draw pile"
        return None


def fits(groups: Groups, places: list[Counter]) -> bool:
    """Whether the hidden cards as they lie (``places``: each seat's hand, then the pile, by
    card) can be this reading's: each group's cards exactly fill its places' slots."""
    caps = {(g, at): v for g, slots in enumerate(groups.slots) for at, v in enumerate(slots)}
    open_cards = []
    for card in sorted(set().union(*places)):
        holders = [(at, place[card]) for at, place in enumerate(places) if place[card]]
        owners = [(g, group[card]) for g, group in enumerate(groups.cards) if group[card] > 0]
        if sum(k for _, k in holders) != sum(k for _, k in owners):
            return False
        if len(owners) == 1 or len(holders) == 1:  # only one way to place its copies
            for (g, m) in owners:
                for (at, k) in holders:
                    caps[g, at] -= k if len(owners) == 1 else m
        else:
            open_cards.append((holders, owners))
    if any(v < 0 for v in caps.values()):
        return False
    return _place(open_cards, caps)


def _place(open_cards: list, caps: dict) -> bool:  # type: ignore[type-arg]
    """Depth-first: give each remaining card's copies to groups so that no slot count goes below
    zero (the totals agree, so none left over)."""
    if not open_cards:
        return all(v == 0 for v in caps.values())
    (holders, owners), rest = open_cards[0], open_cards[1:]
    for way in _ways(holders, owners):
        if all(caps[key] >= k for key, k in way.items()):
            for key, k in way.items():
                caps[key] -= k
            ok = _place(rest, caps)
            for key, k in way.items():
                caps[key] += k
            if ok:
                return True
    return False


def _ways(holders: list[tuple[int, int]], owners: list[tuple[int, int]]) -> Iterator[dict[tuple[int, int], int]]:
    """Every way to say which group each held copy belongs to: counts per (group, place)."""
    if not holders:
        yield {}
        return
    (at, k), rest = holders[0], holders[1:]
    for split in _splits_of(k, owners):
        left_over = [(g, m - used) for (g, m), used in zip(owners, split)]
        for way in _ways(rest, [(g, m) for g, m in left_over if m]):
            combined = dict(way)
            for (g, _), used in zip(owners, split):
                if used:
                    combined[g, at] = combined.get((g, at), 0) + used
            yield combined


def _splits_of(k: int, owners: list[tuple[int, int]]) -> Iterator[tuple[int, ...]]:
    """Each way to take ``k`` copies from the owners (at most their counts each)."""
    if not owners:
        if k == 0:
            yield ()
        return
    (_, m), rest = owners[0], owners[1:]
    for used in range(min(k, m), -1, -1):
        for tail in _splits_of(k - used, rest):
            yield (used,) + tail


#: A deal's plan (``Dealer._plan``): for each group, its cards to deal and their places in turn.
Plan = tuple[tuple[list[int], tuple[tuple[int, int], ...]], ...]


class Dealer:
    """Deals the hidden cards anew as one seat (or a spectator, ``seat`` None) may see them:
    a reading and a split of the seat's hand among that reading's groups, drawn with their
    probability given that hand, then each group's other cards shuffled into its other
    places. Each call deals afresh (a sampler may reject deals, QU-10).

    ``unseen`` counts the cards on no spot and in no run (the seat's hand among them),
    ``sizes`` the hand sizes, ``pile`` the draw pile's size.
    """

    def __init__(self, readings: Readings, unseen: Counter, sizes: list[int], pile: int, seat: int | None,
                 hand: list[int]) -> None:
        self.sizes, self.seat, self.hand = sizes, seat, hand
        #: (weight, groups, the seat's hand split among them, the deal's plan): see ``_plan``.
        self.options: list[tuple[float, Groups, list[Counter], Plan]] = []
        for weight, pools in readings or ((ONE, ()),):
            groups = Groups(pools, unseen, sizes, pile)
            if seat is None:
                parts = [Counter() for _ in groups.cards]
                self.options.append((weight, groups, parts, self._plan(groups, parts)))
                continue
            for parts, chance in _hand_splits(groups, seat, Counter(hand)):
                self.options.append((weight * chance, groups, parts, self._plan(groups, parts)))
        if not self.options:
            raise PositionError("the hand fits none of the readings of the cleared cards (QU-9)")

    def _plan(self, groups: Groups, parts: list[Counter]) -> Plan:
        """What a deal of this reading and split does, worked out once: for each group, its cards
        not in the seat's hand, sorted (so where they really are never shows), and the places
        (seats, then ``n`` for the pile) that take them in turn, with how many each."""
        return tuple(
            (sorted((group - parts[g]).elements()),
             tuple((at, k) for at, k in enumerate(groups.slots[g]) if at != self.seat))
            for g, group in enumerate(groups.cards)
        )

    def __call__(self, rng: random.Random) -> tuple[list[list[int]], list[int]]:
        """Every hand (the seat's as given) and the pile, top first: each group's cards shuffled,
        then dealt to its places in turn."""
        plan = _pick(self.options, rng)[3]
        n, seat = len(self.sizes), self.seat
        hands: list[list[int]] = [[] if s != seat else list(self.hand) for s in range(n)]
        pile: list[int] = []
        for group_cards, places in plan:
            cards = group_cards[:]
            rng.shuffle(cards)
            start = 0
            for at, k in places:
                (pile if at == n else hands[at]).extend(cards[start : start + k])
                start += k
        return hands, pile


def _hand_splits(groups: Groups, seat: int, hand: Counter) -> Iterator[tuple[list[Counter], float]]:
    """Each way the seat's hand can split among the groups (its own cards, each pool's), with
    the chance of that split given the reading: for each group, choosing its cards for the
    seat's slots out of the group's (hypergeometric)."""
    wanted = [slots[seat] for slots in groups.slots]
    for parts in _hand_parts(sorted(set(hand)), 0, hand, groups, wanted, [Counter() for _ in groups.cards]):
        chance = ONE
        for g, part in enumerate(parts):
            group = groups.cards[g]
            ways = 1
            for card, k in part.items():
                ways *= comb(group[card], k)
            chance *= ways / comb(sum(group.values()), wanted[g])
        if chance:
            yield [Counter(part) for part in parts], chance


def _hand_parts(
    distinct: list[int], i: int, hand: Counter, groups: Groups, wanted: list[int], parts: list[Counter]
) -> Iterator[list[Counter]]:
    """Depth-first over the hand's distinct cards (from the ``i``-th): how many copies of each
    go to each group, no group getting more than the seat's slots in it."""
    if i == len(distinct):
        if all(sum(part.values()) == w for part, w in zip(parts, wanted)):
            yield [part.copy() for part in parts]
        return
    card = distinct[i]
    owners = [(g, group[card]) for g, group in enumerate(groups.cards) if group[card] > 0]
    for split in _splits_of(hand[card], owners):
        if all(sum(parts[g].values()) + used <= wanted[g] for (g, _), used in zip(owners, split)):
            for (g, _), used in zip(owners, split):
                parts[g][card] += used
            yield from _hand_parts(distinct, i + 1, hand, groups, wanted, parts)
            for (g, _), used in zip(owners, split):
                parts[g][card] -= used


def _pick(options: list, rng: random.Random):  # type: ignore[no-untyped-def,type-arg]
    """One of the (weight, ...) options, drawn with probability proportional to its weight."""
    if len(options) == 1:
        return options[0]
    total = sum(option[0] for option in options)
    x = rng.random() * float(total)
    for option in options:
        x -= float(option[0])
        if x < 0:
            return option
    return options[-1]
