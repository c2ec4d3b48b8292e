"""Decktet Golf's moves told in words: every public card named, no card the receiver cannot know."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from helpers import plain
from rich.text import Text

import parlour
from parlour.cards.decktet import CODE, NAME, parse_card

#: A card as the events name it: ``5⚕∞ (5, the Soldier)``; the name finds the card.
NAMED = re.compile(r"\((-?\d+), ([^)]+)\)")
BY_NAME = {NAME[card]: CODE[card] for card in range(len(NAME))}

#: The suit lines example of docs/rules/decktet-golf.md: seat 0 to move, the Forest on top;
#: row 2 shows the Ace of Moons, 3MW, 8MS and the Windfall, face up.
LAYOUT_0 = {"B1": "9WY", "C1": "4WL", "A2": "AM", "B2": "3MW", "C2": "8MS", "D2": "XK",
            "A3": "2SY", "B3": "6LK", "C3": "5SW", "D3": "7SK", "B4": "PMYK", "C4": "CSLK"}
LAYOUT_1 = {"B1": "2MK", "C1": "2WL", "A2": "3SK", "B2": "3LY", "C2": "4MS", "D2": "4YK",
            "A3": "5YK", "B3": "6MW", "C3": "6SY", "D3": "7ML", "B4": "7WY", "C4": "8WL"}
DOCS_EXAMPLE = {"turn": 0, "layouts": [LAYOUT_0, LAYOUT_1],
                "face_up": [["C1", "A2", "B2", "C2", "D2"], ["B1", "D3"]], "discard": ["XL", "5ML"]}


def named(lines: list[str]) -> list[str]:
    """The codes of the cards that lines of markup name."""
    return [BY_NAME[name] for line in lines for _, name in NAMED.findall(Text.from_markup(line).plain)]


def visible(observation: dict[str, Any]) -> Counter:
    """Every card an observation shows its seat."""
    seen: Counter = Counter(observation["discard"])
    for layouts in (observation["layouts"], observation["last_round_layouts"] or []):
        seen.update(code for layout in layouts for code in layout.values() if code != "?")
    seen.update(observation["pile_contents"] or [])
    if observation["drawn"]:
        seen[observation["drawn"]] += 1
    return seen


def tell(state, action: str, seat: int | None) -> list[str]:
    """Play ``action`` on a copy of ``state``; what ``seat`` is told of it."""
    after = state.clone().apply(action)
    return state.game.events(state.observation(seat), after.observation(seat), action)


@pytest.mark.parametrize("options, seed", [({"rounds": 2}, 1), ({"players": 3, "excuse": True, "rounds": 2}, 5),
                                           ({"players": 5, "opening_flips": 0, "rounds": 1}, 2),
                                           ({"excuse": True, "rounds": 2}, 7)])
def test_no_event_names_a_card_its_receiver_cannot_know(options, seed):
    """Random matches to their end: at every action, for every seat and a spectator, each card the
    events name is one the receiver's observation before or after the action shows."""
    game = parlour.load("decktet-golf", **options)
    state, rng = game.new_state(seed=seed), random.Random(seed)
    receivers = [None, *range(game.num_players)]
    moves = replaces = 0
    while not state.is_terminal():
        action = str(rng.choice(state.legal_actions()))
        before = {seat: state.observation(seat) for seat in receivers}
        state.apply(action)
        for seat in receivers:
            after = state.observation(seat)
            lines = game.events(before[seat], after, action)
            assert lines, action  # every move is told
            known = visible(before[seat]) | visible(after)
            for code in named(lines):
                assert code in known, (seat, action, code, lines)
        moves += 1
        replaces += action.startswith("replace")
    assert moves > 40 and replaces > 10


def test_a_replace_names_the_card_put_in_and_the_card_thrown_away():
    state = parlour.load("decktet-golf").new_state(seed=4)
    for action in ("flip B1", "flip B4", "flip B1", "flip C1"):
        state.apply(action)
    assert [plain(line).strip() for line in tell(state, "take", 0)] == \
        ["Seat 1 took A⚕ (1, Ace of Wyrms) from the discard pile."]
    state.apply("take")
    # B1 held the Market face up: it goes onto the discard pile, face up
    assert [plain(line).strip() for line in tell(state, "replace B1", None)] == \
        ["Seat 1 replaced B1 with A⚕ (1, Ace of Wyrms): 6♣∞ (6, the Market) to the discard pile."]
    state.apply("replace B1")
    # a face-down card thrown away is named too: everyone sees it land on the discard pile
    state.apply("draw")
    drawn, hidden = state.to_position()["drawn"], state.to_position()["layouts"][0]["B2"]
    for seat in (None, 0, 1):
        line = plain(tell(state, "replace B2", seat)[0]).strip()
        assert line.startswith("Seat 0 replaced B2 (face down) with ")
        assert named([line]) == [drawn, hidden] and line.endswith(" to the discard pile.")


def test_a_card_drawn_from_the_pile_is_named_to_its_drawer_alone():
    state = parlour.load("decktet-golf", players=3).new_state(seed=2)
    while state.phase_name == "opening":
        state.apply(state.legal_actions()[0])
    drawer = state.current_player
    card = state.clone().apply("draw").to_position()["drawn"]
    mine = tell(state, "draw", drawer)
    assert named(mine) == [card] and f"Seat {drawer} drew " in plain(mine[0])
    for seat in (None, *(s for s in range(3) if s != drawer)):
        theirs = tell(state, "draw", seat)
        assert named(theirs) == [] and "drew a card from the draw pile (only they see it)" in plain(theirs[0])
    state.apply("draw")
    # once discarded it is public: everyone is told which card it was
    for seat in (None, 0, 1, 2):
        assert named(tell(state, "discard", seat)) == [card]


def test_a_suited_line_and_its_choice_of_top_card_are_told_with_their_cards():
    state = parlour.load("decktet-golf").from_position(DOCS_EXAMPLE)
    state.apply("take")
    told = [plain(line).strip() for line in tell(state, "replace D2", 1)]
    assert told == ["Seat 0 replaced D2 with 5☾♣ (5, the Forest): X∞ (10, the Windfall) to the discard pile."]
    state.apply("replace D2")  # row 2 now shares Moons: seat 0 picks the top card
    told = [plain(line).strip() for line in tell(state, "ontop A2", 1)]
    assert told == ["Seat 0 chose A2, A☾ (1, Ace of Moons), to end on top.",
                    "Seat 0's suited row 2 shed A2 and D2: 5☾♣ (5, the Forest), then A☾ (1, Ace of Moons) on top "
                    "(DG-6)."]


def test_the_card_that_covers_a_turned_up_excuse_is_named():
    """DG-11: an Excuse turned up by a reshuffle is swapped for by everyone, then a card from the
    pile covers it; that card is public, and told."""
    game = parlour.load("decktet-golf", excuse=True, rounds=3)
    for seed in range(40):  # random matches until one turns the Excuse up and covers it
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            action = str(rng.choice(state.legal_actions()))
            before = state.observation(None)
            state.apply(action)
            after = state.observation(None)
            if before["after_swaps"] == "cover" and after["phase"] != "swap":
                told = [plain(line).strip() for line in game.events(before, after, action)]
                cover = told[-1]
                assert cover.endswith("from the draw pile covers the Excuse (DG-11)")
                assert named([cover]) == [after["discard"][-1]] and after["discard"][0] == "EX"
                return
    raise AssertionError("no match of seeds 0-39 turned an Excuse up")
