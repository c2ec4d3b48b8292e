"""Digging the trash (QU-4): every legal run and addition, generated without duplicates.

A run is three or more cards of one suit in consecutive ranks, each from the
hand or from a spot. Cards taken from a spot must be its top cards (in any rank
order): taking one reveals the card beneath, available at once. So for each spot
only its *prefix* matters: its top cards while they are of the run's suit with no
rank twice.

Runs are built upward one rank at a time. At each rank the card comes from the
hand (one choice, however many copies the hand holds: identical cards make the
same action), or from a spot holding that card within its prefix; the spot's
cards above it must then be taken too, at their own (higher) ranks: they become
obligations that later ranks must honour. A partial run is emitted whenever it
is three or more long with no obligation open. Every branch either extends a
partial run or dies at once, so the work is proportional to the runs produced
(plus dead ends one rank deep), not to the combinations of spot depths.

Where no rank of the suit can be had in two ways (always with one deck, and most
digs with two), there is nothing to choose: a run is fixed by its ranks, and the
search reduces to the windows of each stretch of available ranks whose cards take
a top part of each spot's prefix, found in the same order without it.

>>> from parlour.cards.standard import CODE, parse_card as c
>>> spots = [(), (c("7H"), c("6H")), (), (), (), (), (), (), ()]   # spot 2: 6H on top of 7H
>>> [[(CODE[card], src) for card, src in run] for run in runs([c("5H")], [spot_info(s) for s in spots])]
[[('5H', 0), ('6H', 2), ('7H', 2)]]
>>> hearts = (c("5H"), c("6H"), c("7H"))
>>> [(CODE[card], *rest) for card, *rest in additions([c("8H")], spots, wanted_cards([hearts])[0])]
[('8H', 0, 0, False)]
"""

from __future__ import annotations

from typing import Sequence

N_SPOTS = 9
Run = tuple[tuple[int, int], ...]  # ((card, source), ...) in rank order; source 0 = hand, 1-9 = spot


#: Rank masks cover the four suits at once: suit s holds bits 16s+1 .. 16s+13 (Ace .. King).
#: Bits 0, 14 and 15 of each field stay clear, so the test for three consecutive ranks
#: (``m & m >> 1 & m >> 2``) never mixes two suits, and one test covers every suit.
FIELD = 16
FIELD_MASK = (1 << FIELD) - 1
CARD_BIT = tuple(1 << (card // 13 * FIELD + card % 13 + 1) for card in range(52))

SpotInfo = tuple[int, list[int], int]  # suit of the top card, its prefix ranks, their bits (as CARD_BIT)
NO_INFO: SpotInfo = (-1, [], 0)  # an empty spot: of no suit


def spot_info(stack: Sequence[int]) -> SpotInfo:
    """(suit of the top card, the ranks of its prefix, their bits): the prefix is the spot's
    top cards while they are of the top card's suit with no rank twice (only that suit can
    have one). The state keeps one per spot, updated as the spot changes.

    >>> from parlour.cards.standard import parse_card as c
    >>> spot_info((c("5H"), c("9C"), c("7H"), c("6H")))[:2]   # the 9C stops it
    (2, [6, 7])
    >>> spot_info((c("6H"), c("7H"), c("6H")))[:2]   # the second 6H stops it
    (2, [6, 7])
    """
    if not stack:
        return NO_INFO
    suit = stack[-1] // 13
    if len(stack) == 1 or stack[-2] // 13 != suit:  # the top card alone (most spots)
        return ALONE[stack[-1]]
    ranks: list[int] = []
    bits = 0
    for card in reversed(stack):
        bit = CARD_BIT[card]
        if card // 13 != suit or bits & bit:
            break
        bits |= bit
        ranks.append(card % 13 + 1)
    return suit, ranks, bits


#: The info of a spot whose top card is alone in its prefix (an empty spot, or a top card of
#: another suit beneath), per card: what most discards make of a spot.
ALONE: tuple[SpotInfo, ...] = tuple((card // 13, [card % 13 + 1], CARD_BIT[card]) for card in range(52))


def info_after_discard(info: SpotInfo, card: int) -> SpotInfo:
    """The info of a non-empty spot whose top card is of ``card``'s suit, once ``card`` is laid
    on top (without walking down the stack).

    >>> from parlour.cards.standard import parse_card as c
    >>> info_after_discard(spot_info((c("7H"), c("6H"))), c("5H")) == spot_info((c("7H"), c("6H"), c("5H")))
    True
    """
    suit, rank, bit = card // 13, card % 13 + 1, CARD_BIT[card]
    prefix, bits = info[1], info[2]
    if bits & bit:  # the prefix now stops above the card of the same rank
        prefix = prefix[: prefix.index(rank)]
        bits = sum(1 << r for r in prefix) << FIELD * suit
    return suit, [rank, *prefix], bits | bit


def runs(hand: Sequence[int], infos: Sequence[SpotInfo]) -> list[Run]:
    """Every distinct legal new run from the hand and the spots (QU-4).

    ``infos`` holds :func:`spot_info` of each of the nine spots.
    """
    hand_bits = spot_bits = 0  # the ranks to be had from the hand, from the spots
    for card in hand:
        hand_bits |= CARD_BIT[card]
    for info in infos:
        spot_bits |= info[2]
    avail = spot_bits | hand_bits
    starts = avail & (avail >> 1) & (avail >> 2)  # ranks that start three consecutive ones, all suits
    return runs_from(hand_bits, infos, avail, starts) if starts else []  # most digs stop here


def runs_from(hand_bits: int, infos: Sequence[SpotInfo], avail: int, starts: int) -> list[Run]:
    """:func:`runs`, once the masks are worked out: ``hand_bits`` and ``avail`` (the hand's
    ranks, and the hand's and the spots' prefixes') as :data:`CARD_BIT`, ``starts`` the ranks
    that start three consecutive available ones (not 0). Only suits with a start are searched."""
    found: list[Run] = []
    while starts:
        shift = (starts & -starts).bit_length() - 1 & ~(FIELD - 1)  # the lowest suit with a start
        _runs_in_suit(shift // FIELD, hand_bits >> shift & FIELD_MASK, infos, avail >> shift & FIELD_MASK, found)
        starts = starts >> (shift + FIELD) << (shift + FIELD)
    return found


#: HAND_PICKS[suit][rank]: the pick ``(card, 0)`` of that rank from the hand (``(-1, -1)``
#: outside Ace..King); SPOT_PICKS[card][number]: the pick ``(card, number)`` from spot
#: ``number``. Prebuilt, so that the commonest searches build no pairs.
HAND_PICKS = tuple(
    tuple((suit * 13 + rank - 1, 0) if 1 <= rank <= 13 else (-1, -1) for rank in range(FIELD)) for suit in range(4)
)
SPOT_PICKS = tuple(tuple((card, number) for number in range(N_SPOTS + 1)) for card in range(52))


def _runs_in_suit(suit: int, hand_mask: int, infos: Sequence[SpotInfo], avail: int, found: list[Run]) -> None:
    """The runs of one suit whose available ranks (``avail``) hold three consecutive ones.

    Where no rank of the suit can be had in two ways (always with one deck), a run is fixed by
    its ranks: a stretch of available ranks, each taken from the one place that has it, which
    for each spot takes a top part of its prefix (none, or its cards down to some depth: a
    card is taken with those above it). Runs come by lowest rank, then length, the order of
    the search below. Where a rank can be had in two ways, the search chooses
    (:func:`_runs_with_choices`)."""
    shift, base = suit * FIELD, suit * 13 - 1
    picks = list(HAND_PICKS[suit])  # rank -> its pick: the hand's, unless a spot has the rank
    seen = hand_mask  # the ranks with a place so far
    deep: list[tuple[int, list[int]]] = []  # spots offering more than their top card: (prefix mask, masks of its top parts)
    number = 0
    for info in infos:  # (a counter and subscripts: cheaper here than enumerate and unpacking)
        number += 1
        if info[0] == suit:
            mask = info[2] >> shift
            if seen & mask:  # a rank in two places (two decks)
                _runs_with_choices(suit, hand_mask, infos, avail, found)
                return
            seen |= mask
            prefix = info[1]
            if len(prefix) == 1:
                picks[prefix[0]] = SPOT_PICKS[base + prefix[0]][number]
                continue
            tops, top = [0], 0
            for rank in prefix:
                picks[rank] = SPOT_PICKS[base + rank][number]
                top |= 1 << rank
                tops.append(top)
            deep.append((mask, tops))
    starts = avail & (avail >> 1) & (avail >> 2)
    while starts:
        low = (starts & -starts).bit_length() - 1  # a stretch of three or more from ``low``
        shifted = avail >> low
        end = low + (~shifted & (shifted + 1)).bit_length() - 1  # one past its highest rank
        starts &= -1 << end  # on past the stretch
        for first in range(low, end - 2):
            for stop in range(first + 3, end + 1):
                span = (1 << stop) - (1 << first)
                for mask, tops in deep:
                    if mask & span not in tops:  # this spot's cards in the run are not a top part
                        break
                else:
                    found.append(tuple(picks[first:stop]))


def _runs_with_choices(suit: int, hand_mask: int, infos: Sequence[SpotInfo], avail: int, found: list[Run]) -> None:
    """:func:`_runs_in_suit` where some rank of the suit can be had in two ways (two decks):
    the spots offering only their top card make windows with every choice of source, the
    others need the search with obligations."""
    mine = []  # this suit's spots: (spot index, prefix)
    deep = False  # whether one of them offers more than its top card
    spot = -1
    for info in infos:  # (a counter and subscripts: cheaper here than enumerate and unpacking)
        spot += 1
        if info[0] == suit:
            prefix = info[1]
            mine.append((spot, prefix))
            if len(prefix) > 1:
                deep = True
    if not deep:
        _runs_from_tops(suit * 13 - 1, hand_mask, mine, avail, found)
        return
    usable: list[tuple[int, list[int]]] = []  # the prefixes cut to what a run could take
    ranks, deep = hand_mask, False  # the ranks they leave, with the hand's
    for spot, prefix in mine:
        if len(prefix) > 1:  # a top card alone is always usable
            prefix = _usable(prefix, avail)
            if len(prefix) > 1:
                deep = True
        usable.append((spot, prefix))
        for rank in prefix:
            ranks |= 1 << rank
    if ranks & (ranks >> 1) & (ranks >> 2):
        (_search if deep else _runs_from_tops)(suit * 13 - 1, hand_mask, usable, ranks, found)


def _usable(prefix: list[int], avail: int) -> list[int]:
    """The part of a spot's prefix a run could take: a run is one stretch of ranks, so taking
    the card at some depth (and so all above it) needs every rank between theirs available."""
    low = high = prefix[0]
    for depth in range(1, len(prefix)):
        rank = prefix[depth]
        if rank < low:
            low = rank
        elif rank > high:
            high = rank
        span = ((1 << (high - low + 1)) - 1) << low
        if avail & span != span:
            return prefix[:depth]
    return prefix


def _runs_from_tops(base: int, hand_mask: int, tops: list[tuple[int, list[int]]], avail: int, found: list[Run]) -> None:
    """The common case: each spot offers only its top card. Runs are then the windows of
    three or more available ranks, with every combination of the sources of each rank (the
    hand first, then the spots in order), by lowest rank, then length.

    ``base + rank`` is the card of that rank in the suit; ``tops`` holds (spot index, [rank]).
    """
    offered: dict[int, list[tuple[int, int]]] = {}  # rank -> its (card, source) choices, where a spot has it
    several = False  # whether some rank can be taken in two ways
    for spot, (rank,) in tops:
        picks = offered.get(rank)
        if picks is not None:
            picks.append((base + rank, spot + 1))
            several = True
        elif hand_mask >> rank & 1:
            offered[rank] = [(base + rank, 0), (base + rank, spot + 1)]
            several = True
        else:
            offered[rank] = [(base + rank, spot + 1)]
    starts = avail & (avail >> 1) & (avail >> 2)  # the ranks that start three available ones
    while starts:
        low = (starts & -starts).bit_length() - 1  # a stretch of three or more from ``low``
        shifted = avail >> low
        length = (~shifted & (shifted + 1)).bit_length() - 1
        starts &= -1 << (low + length)  # on past the stretch
        chain = [offered.get(rank) or [(base + rank, 0)] for rank in range(low, low + length)]  # no spot: the hand
        if not several:  # one way to take each rank (most digs): the windows of one chain
            single = [picks[0] for picks in chain]
            for first in range(length - 2):
                for end in range(first + 3, length + 1):
                    found.append(tuple(single[first:end]))
            continue
        for first in range(length - 2):
            partial: list[Run] = [()]
            for at in range(first, length):
                partial = [run + (pick,) for run in partial for pick in chain[at]]
                if at - first >= 2:
                    found += partial


def _search(base: int, hand_mask: int, prefixes: list[tuple[int, list[int]]], avail: int, found: list[Run]) -> None:
    """The general case (some spot offers several cards): the upward search with obligations.

    ``chosen`` holds the partial run, ``owed`` maps a rank to the spot whose skipped-over card
    must fill it, ``taken`` how deep each spot is used. ``offers`` lists, per rank, the spots
    holding it in their prefix (in spot order) and at what depth.
    """
    numbers: list[int] = []
    stacks: list[list[int]] = []
    offers: dict[int, list[tuple[int, int, tuple[int, int]]]] = {}  # rank -> (spot, depth, pick)
    for i, (spot, prefix) in enumerate(prefixes):
        numbers.append(spot + 1)
        stacks.append(prefix)
        for depth, rank in enumerate(prefix):
            offer = (i, depth, (base + rank, spot + 1))
            if rank in offers:
                offers[rank].append(offer)
            else:
                offers[rank] = [offer]
    chosen: list[tuple[int, int]] = []
    owed: dict[int, int] = {}
    taken = [0] * len(stacks)

    def extend(rank: int, low: int) -> None:
        card, emit, nxt = base + rank, rank - low >= 2, avail >> (rank + 1) & 1  # owed ranks are in avail
        if rank in owed:  # a card skipped over in a spot must be taken at its rank
            i = owed.pop(rank)
            chosen.append((card, numbers[i]))
            if emit and not owed:
                found.append(tuple(chosen))
            if nxt:
                extend(rank + 1, low)
            chosen.pop()
            owed[rank] = i
            return
        if hand_mask >> rank & 1:
            chosen.append((card, 0))
            if emit and not owed:
                found.append(tuple(chosen))
            if nxt:
                extend(rank + 1, low)
            chosen.pop()
        for i, depth, pick in offers.get(rank, ()):
            start = taken[i]
            if depth < start:
                continue
            if depth > start:  # cards above it, taken later at their own (higher) ranks
                skipped = stacks[i][start:depth]
                blocked = False
                for r in skipped:
                    if r < rank or r in owed:
                        blocked = True
                        break
                if blocked:
                    continue
                for r in skipped:
                    owed[r] = i
            taken[i] = depth + 1
            chosen.append(pick)
            if emit and not owed:
                found.append(tuple(chosen))
            if nxt:
                extend(rank + 1, low)
            chosen.pop()
            taken[i] = start
            if depth > start:
                for r in skipped:
                    del owed[r]

    starts = avail & (avail >> 1) & (avail >> 2)  # every start with two more ranks above it
    while starts:
        low = (starts & -starts).bit_length() - 1
        starts &= starts - 1
        extend(low, low)


#: What :func:`wanted_cards` gives: card -> indices of the runs it fits, and those cards as
#: :data:`CARD_BIT`, so that a dig sees in one test whether any is at hand. (A plain dict: a
#: subclass's ``in`` and ``[]`` go through its type's slots, several times slower.)
Wanted = tuple[dict[int, tuple[int, ...]], int]
NO_WANTS: Wanted = ({}, 0)  # a seat without runs


def wanted_cards(own_runs: Sequence[tuple[int, ...]]) -> Wanted:
    """The cards that would continue a player's runs: card -> indices of the runs it fits,
    with their bits.

    A run (cards in rank order) takes the card one rank below or above it, same suit.

    >>> from parlour.cards.standard import CODE, parse_card as c
    >>> wanted, bits = wanted_cards([(c("5H"), c("6H"), c("7H")), (c("8H"), c("9H"), c("10H"))])
    >>> {CODE[card]: runs for card, runs in wanted.items()}
    {'4H': (0,), '8H': (0,), '7H': (1,), 'JH': (1,)}
    >>> bits == sum(CARD_BIT[card] for card in wanted)
    True
    """
    wanted: dict[int, tuple[int, ...]] = {}
    bits = 0
    for index, run in enumerate(own_runs):
        bits |= _want_ends(wanted, run, index)
    return wanted, bits


def wanted_with(wanted: Wanted, run: tuple[int, ...], index: int) -> Wanted:
    """:func:`wanted_cards` once the player lays a new run as run ``index`` (the others'
    entries are kept rather than worked out again).

    >>> from parlour.cards.standard import parse_card as c
    >>> runs = [(c("5H"), c("6H"), c("7H")), (c("9H"), c("10H"), c("JH"))]
    >>> wanted_with(wanted_cards(runs[:1]), runs[1], 1) == wanted_cards(runs)
    True
    """
    cards = dict(wanted[0])
    return cards, wanted[1] | _want_ends(cards, run, index)


def wanted_grown(wanted: Wanted, card: int, index: int, below: bool) -> Wanted:
    """:func:`wanted_cards` once run ``index`` took ``card``, one of the cards it wanted,
    ``below`` its lowest card or above its highest: it now wants the next card on that side.

    >>> from parlour.cards.standard import parse_card as c
    >>> runs = [(c("5H"), c("6H"), c("7H")), (c("9H"), c("10H"), c("JH"))]   # both want 8H
    >>> grown = [(c("5H"), c("6H"), c("7H"), c("8H")), runs[1]]
    >>> wanted_grown(wanted_cards(runs), c("8H"), 0, below=False) == wanted_cards(grown)
    True
    """
    cards, bits = dict(wanted[0]), wanted[1]
    others = tuple([other for other in cards[card] if other != index])
    if others:  # another run wants it too
        cards[card] = others
    else:
        del cards[card]
        bits &= ~CARD_BIT[card]
    if below:
        if card % 13:  # not an Ace
            bits |= _want(cards, card - 1, index)
    elif card % 13 != 12:  # not a King
        bits |= _want(cards, card + 1, index)
    return cards, bits


def _want_ends(cards: dict[int, tuple[int, ...]], run: tuple[int, ...], index: int) -> int:
    """Note the cards run ``index`` wants, one rank below and above it (none below an Ace,
    none above a King); their bits."""
    bits = 0
    if run[0] % 13:  # not an Ace
        bits |= _want(cards, run[0] - 1, index)
    if run[-1] % 13 != 12:  # not a King
        bits |= _want(cards, run[-1] + 1, index)
    return bits


def _want(cards: dict[int, tuple[int, ...]], card: int, index: int) -> int:
    """Note that run ``index`` wants ``card`` (run indices in order, as :func:`wanted_cards`
    lists them); the card's bit."""
    others = cards.get(card)
    cards[card] = (index,) if others is None else tuple(sorted((*others, index)))
    return CARD_BIT[card]


def additions(
    hand: Sequence[int], spots: Sequence[Sequence[int]], wanted: dict[int, tuple[int, ...]],
    in_hand: int = 1, on_spots: int = 1,
) -> list[tuple[int, int, int, bool]]:
    """Every (card, source, run index, named) that extends one of the player's runs (QU-4).

    ``wanted`` is the dict of :func:`wanted_cards`; the card comes from the hand or a
    spot's top. ``named`` is set when the card could extend two of the runs, so the
    notation must name the run. A caller that knows no wanted card is in the hand, or on
    the spots, says so with ``in_hand=0`` or ``on_spots=0`` (that part is not looked at).
    """
    out = []
    if in_hand:
        previous = -1
        for card in hand:  # sorted: identical copies are one choice
            if card != previous and card in wanted:
                targets = wanted[card]
                if len(targets) == 1:
                    out.append((card, 0, targets[0], False))
                else:
                    out += [(card, 0, index, True) for index in targets]
            previous = card
    if on_spots:
        for spot, stack in enumerate(spots):
            if stack and stack[-1] in wanted:
                card = stack[-1]
                targets = wanted[card]
                if len(targets) == 1:
                    out.append((card, spot + 1, targets[0], False))
                else:
                    out += [(card, spot + 1, index, True) for index in targets]
    return out
