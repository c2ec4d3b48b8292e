"""QU-9 with two decks (its second paragraph; issue 18): a card that leaves a hand may be a
copy drawn from the cleared pile or the other copy, held from before; the public record keeps
both possibilities, never guesses one, and samples come out with their probability under
uniform dealing.

The test of that is an enumerable case: a three-player two-deck game just after a clearing,
with few hidden cards and every other card on the spots, laid so that no run or addition
can ever be made (no two cards that can meet are of one suit and neighbouring ranks). Every
way the hidden cards may lie is enumerated with the number of ways the deal and the
shuffle give it (each copy a distinct card), the public actions are replayed on each (each
copy of the card played, in the hand that plays it, one way: a player is as likely to play
any card they hold), and what remains, given what a seat or a spectator saw, is compared
with the samples: the same support, the same frequencies. The reference is written here
from the rules alone; it does not use the engine's readings.

And the game that found the bug (6 players, seed 26, random play): at action 104 seat 5
discards a 5D it held from before or had drawn, and the old engine dropped the pile's 5D.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest

import parlour

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"
DECK = [r + s for s in SUITS for r in RANKS]
GAME = parlour.load("quisquilian", players=3, decks=2)

#: The last clearing's cards not yet seen: seat 0 drew one of them, the pile holds the rest.
POOL = ["9C", "5D", "JD", "KH", "3S"]
#: What each seat holds from before (its own cards) and what seat 0 drew, as they truly are.
OWN = [["2C", "6C", "5D", "7H"], ["KC"], ["9H", "KH"]]
DRAWN = ["5D"]
PILE = ["KH", "3S", "JD", "9C"]


def rank(code: str) -> int:
    return RANKS.index(code[:-1]) + 1


def neighbours(a: str, b: str) -> bool:
    return a[-1] == b[-1] and abs(rank(a) - rank(b)) == 1


def start_position() -> dict[str, Any]:
    """Seat 0 to discard 1 (and refill), after a clearing whose unseen cards are POOL; every
    card not hidden lies on the spots, the top of each and the card under it chosen so that
    no hidden card, top or card beneath a top neighbours another of one suit."""
    hidden = POOL + [c for own in OWN for c in own]
    rest = Counter(DECK * 2) - Counter(hidden)
    tops: list[str] = []
    for code in DECK:
        if len(tops) < 9 and rest[code] and not any(neighbours(code, c) for c in hidden + tops):
            tops.append(code)
    rest -= Counter(tops)
    left = sorted(rest.elements(), key=DECK.index)
    random.Random(0).shuffle(left)
    spots = []
    for top in tops:
        under = next(c for c in left if not neighbours(c, top) and not any(neighbours(c, h) for h in hidden))
        left.remove(under)
        spots.append([under, top])
    for i, code in enumerate(left):
        spots[i % 9].insert(0, code)
    return {
        "options": GAME.options, "spots": spots, "runs": [[], [], []],
        "hands": [OWN[0] + DRAWN, OWN[1], OWN[2]], "draw_pile": PILE,
        "player": 0, "phase": "discard", "roll": 1, "to_discard": 1, "turns": 6, "clearings": 1,
        "pile_contents": POOL, "pool_counts": [len(DRAWN), 0, 0], "chance": 3,
    }


def policy(state: Any) -> str:
    """The true game's player: a 5D or a KH when it holds one (the cards with a twin), else
    the first legal discard."""
    legal = [str(a) for a in state.legal_actions()]
    return next((a for a in legal if a.startswith(("discard 5D", "discard KH"))), legal[0])


def true_game(decisions: int) -> list[tuple[Any, list[tuple[str, Any]]]]:
    """The states of the true game at each decision, each with the public events that led
    there since the start: ("discard", seat, code) and ("draw", seat, how many)."""
    state = GAME.from_position(start_position())
    events: list[tuple[str, Any]] = []
    out = [(state.clone(), list(events))]
    for _ in range(decisions):
        before = state.observation(None)
        seat, action = before["current_player"], policy(state)
        state.apply(action)
        after = state.observation(None)
        assert after["phase"] == "discard" and not any(after["runs"]), "this case never digs"
        events.append(("discard", (seat, action.split()[1])))
        for s, (was, now) in enumerate(zip(before["hand_sizes"], after["hand_sizes"])):
            grown = now - was + (s == seat)
            if grown:
                assert s == seat, "only the player refills here"
                events.append(("draw", (s, grown)))
        out.append((state.clone(), list(events)))
    return out


@functools.lru_cache(maxsize=None)
def enumerate_hidden(events: tuple[tuple[str, Any], ...]) -> Counter:
    """Every way the hidden cards may lie after ``events``, as (hands, pile) with each hand's
    codes sorted and the pile top first, counted by the ways it comes about: each copy a card
    of its own, the start's own cards dealt uniformly among the own places, the pool's among
    seat 0's drawn places and the pile in every order, and each copy of a played card in the
    player's hand one way of playing it."""
    own = [(code, i) for i, code in enumerate(c for o in OWN for c in o)]
    pool = [(code, 100 + i) for i, code in enumerate(POOL)]
    found: Counter = Counter()
    for first in itertools.combinations(own, len(OWN[0])):
        rest = [c for c in own if c not in first]
        for second in itertools.combinations(rest, len(OWN[1])):
            third = [c for c in rest if c not in second]
            for drawn in itertools.combinations(pool, len(DRAWN)):
                for pile in itertools.permutations([c for c in pool if c not in drawn]):
                    hands = [list(first) + list(drawn), list(second), list(third)]
                    _play(hands, list(pile), events, found)
    return found


def _play(hands: list[list[tuple[str, int]]], pile: list[tuple[str, int]], events: list, found: Counter) -> None:
    if not events:
        key = (tuple(tuple(sorted(c for c, _ in h)) for h in hands), tuple(c for c, _ in pile))
        found[key] += 1
        return
    (kind, (seat, what)), rest = events[0], events[1:]
    if kind == "draw":
        hands = [list(h) for h in hands]
        hands[seat] += pile[:what]
        _play(hands, pile[what:], rest, found)
        return
    for card in [c for c in hands[seat] if c[0] == what]:  # each copy held: one way each
        changed = [list(h) for h in hands]
        changed[seat].remove(card)
        _play(changed, pile, rest, found)


def hidden_of(position: dict[str, Any]) -> tuple:
    return tuple(tuple(sorted(h, key=DECK.index)) for h in position["hands"]), tuple(position["draw_pile"])


def _sorted_key(key: tuple) -> tuple:
    hands, pile = key
    return tuple(tuple(sorted(h, key=DECK.index)) for h in hands), pile


def seen_by(found: Counter, seat: int | None, hand: list[str]) -> dict[tuple, float]:
    """The enumerated distribution given what ``seat`` sees (its hand; a spectator sees none)."""
    kept = Counter({_sorted_key(k): v for k, v in found.items()
                    if seat is None or list(_sorted_key(k)[0][seat]) == sorted(hand, key=DECK.index)})
    total = sum(kept.values())
    return {k: v / total for k, v in kept.items()}


def chi_square_limit(df: int, z: float = 4.75) -> float:
    """The chi-square value a fit exceeds with probability about 1e-6 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


STEPS = true_game(3)


def test_qu9_a_twin_card_played_keeps_both_readings_with_their_chances():
    """Seat 0 held a 5D from before and drew one of the five cleared cards, which include the
    other 5D; it plays a 5D. Either copy may have left: the record keeps both readings. That it
    was its own is 4/7 (its four own cards of the seven) against 1/5 (its one drawn card of
    the five), so 20/27 against 7/27; the pile may still hold the other 5D in the first."""
    state, _ = STEPS[1]
    position = state.to_position()
    own, drawn = sorted(position["pool_readings"], key=lambda r: -r["weight"])
    assert own["weight"] == pytest.approx(20 / 27) and drawn["weight"] == pytest.approx(7 / 27)
    assert "5D" in own["pile_contents"] and "5D" not in drawn["pile_contents"]
    assert own["pool_counts"] == [3, 0, 0] and drawn["pool_counts"] == [2, 0, 0]
    assert position["pile_contents"] == ["9C", "5D", "JD", "KH", "3S"]  # every card some reading has there
    assert position["pool_counts"] == [3, 0, 0]  # the most any reading counts
    assert GAME.from_position(position).to_position() == position
    assert state.observation(1)["pool_readings"] == position["pool_readings"]  # public: every seat sees them
    # The true state fits; so does one where the pile holds the other 5D (the first reading's).
    other = {**position, "hands": [["2C", "6C", "7H", "KH", "3S", "JD"], *position["hands"][1:]],
             "draw_pile": ["5D", "9C"]}
    assert GAME.from_position(other).observation(1) == state.observation(1)


@pytest.mark.parametrize("step", range(len(STEPS)))
@pytest.mark.parametrize("seat", [None, 1, 2])
def test_qu9_samples_have_the_enumerated_support_and_frequencies(step, seat):
    """QU-9: given what a seat (or a spectator) saw, every way the hidden cards may lie is a
    possible sample and nothing else is, each as often as uniform dealing gives it."""
    state, events = STEPS[step]
    obs = state.observation(seat)
    expected = seen_by(enumerate_hidden(tuple(events)), seat, obs["hand"] or [])
    truth = hidden_of(state.to_position())
    assert truth in expected  # the enumeration itself: the true state is one of its ways
    ways = sorted(expected)
    for key in ways if len(ways) <= 300 else random.Random(step).sample(ways, 300):
        hands, pile = key  # an enumerated way loads as a state showing the seat what it saw
        candidate = {**state.to_position(), "hands": [list(h) for h in hands], "draw_pile": list(pile)}
        assert GAME.from_position(candidate).observation(seat) == obs, key
    n = 1200
    counts: Counter = Counter()
    for k in range(n):
        sample = GAME.sample(obs, random.Random(f"{step}/{seat}/{k}"))
        key = hidden_of(sample.to_position())
        assert key in expected, f"a sample no deal can give: {key}"
        assert sample.observation(seat) == obs
        counts[key] += 1
    assert all(counts[key] for key in expected if expected[key] * n >= 20)  # the likely ways all come up
    # The frequencies, by where the cards with a twin (5D, KH) lie: few classes, each likely
    # enough for a sharp test.
    by_twins: dict[tuple, float] = {}
    for key, p in expected.items():
        by_twins[twins(key)] = by_twins.get(twins(key), 0) + p
    sampled = Counter()
    for key, k in counts.items():
        sampled[twins(key)] += k
    chi2 = sum((sampled[c] - p * n) ** 2 / (p * n) for c, p in by_twins.items())
    assert chi2 < chi_square_limit(max(1, len(by_twins) - 1)), (chi2, by_twins, sampled)


def twins(key: tuple) -> tuple:
    """Where the copies of 5D and KH lie: how many in each hand and in the pile."""
    hands, pile = key
    return tuple(tuple(list(h).count(code) for h in hands) + (list(pile).count(code),) for code in ("5D", "KH"))


def test_qu9_the_game_that_found_it_keeps_the_true_state_among_the_samples():
    """Six players, seed 26, random play with random.Random(26): at action 104 seat 5 discards
    a 5D that it held from before or drew after the clearing, while the pile holds the other.
    The old engine took it for the drawn one and dropped the 5D from pile_contents, so no
    sample could be the true state. At every decision the true hidden cards must fit a reading
    of the record (a sample deals every way that fits one), no reading counts more pool cards
    in a hand than it holds, and samples show each seat what it saw."""
    game = parlour.load("quisquilian", players=6)
    state, rng = game.new_state(26), random.Random(26)
    actions = 0
    while not state.is_terminal():
        position = state.to_position()
        assert game.from_position(position).to_position() == position, f"action {actions + 1}"
        for reading in position.get("pool_readings") or [position]:
            held = [sum(g["counts"][s] for g in reading.get("earlier_pools", [])) + reading["pool_counts"][s]
                    for s in range(6)]
            assert all(h <= len(hand) for h, hand in zip(held, position["hands"])), (actions, reading)
        if actions % 4 == 0:
            for seat in (None, state.current_player):
                obs = state.observation(seat)
                assert game.sample(obs, random.Random(actions)).observation(seat) == obs
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        if actions == 103:  # action 104
            assert (state.current_player, str(action)) == (5, "discard 5D 2")
            assert "5D" in position["draw_pile"]
        state.apply(action)
        actions += 1
        if actions == 104:
            after = state.to_position()
            assert "5D" in after["draw_pile"] and len(after["pool_readings"]) >= 2
            assert any("5D" in r["pile_contents"] for r in after["pool_readings"])  # kept, not guessed away
            assert any("5D" not in r["pile_contents"] for r in after["pool_readings"])
    assert actions > 104


def _with_readings(change) -> dict[str, Any]:
    position = STEPS[1][0].to_position()
    change(position)
    return position


@pytest.mark.parametrize(("change", "words"), [
    (lambda p: p["pool_readings"].pop(), "two or more readings"),
    (lambda p: p["pool_readings"].append(dict(p["pool_readings"][0])), "listed once"),
    (lambda p: p["pool_readings"][0].update(weight=0.9), "add up to 1"),
    (lambda p: p["pool_readings"][0].update(weight="20/27"), "probability"),
    (lambda p: p["pool_readings"][0].update(weight=True), "probability"),
    (lambda p: p["pool_readings"][0].update(extra=1), "each of pool_readings"),
    (lambda p: p.update(pool_counts=[2, 0, 0]), "what the readings give"),
    (lambda p: p.update(earlier_pools=[]), "its own earlier_pools"),
    (lambda p: p["pool_readings"][1].update(pool_counts=[9, 0, 0]), "pool_counts"),
])
def test_qu9_malformed_readings_are_a_position_error(change, words):
    """QU-9: pool_readings is two or more distinct readings whose weights are probabilities
    adding up to 1, the top-level keys what they give; the hidden cards must fit one."""
    position = _with_readings(change)
    with pytest.raises(parlour.PositionError, match=words):
        GAME.from_position(position)


def test_qu9_readings_written_in_another_order_load_as_written():
    position = _with_readings(lambda p: p["pool_readings"].reverse())
    assert GAME.from_position(position).to_position() == position


def test_qu9_hidden_cards_that_fit_no_reading_are_refused():
    """The pile holding a card of no reading's pile_contents: not a state the record allows."""
    position = STEPS[1][0].to_position()
    hands = [list(h) for h in position["hands"]]
    hands[2] = ["9H", "JD"]  # seat 2 holds a cleared card it never drew ...
    position.update(hands=hands, draw_pile=["KH", "9C"])  # ... and the pile its own KH
    with pytest.raises(parlour.PositionError, match="do not fit"):
        GAME.from_position(position)
