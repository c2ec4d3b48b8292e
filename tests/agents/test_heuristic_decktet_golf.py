"""The Decktet Golf heuristic: legal play, its documented choices, its parameters, its value."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import pytest

import parlour
from parlour import OptionError
from parlour.agents.heuristic.decktet_golf import PARAMS, value

HEURISTIC = parlour.agent("heuristic")

#: The suit lines example of docs/rules/decktet-golf.md: seat 0 to move, the Forest on top.
#: Row 2 (A2 B2 C2 D2) shows the Ace of Moons, 3MW, 8MS and the Windfall (10 of Knots).
LAYOUT_0 = {"B1": "9WY", "C1": "4WL", "A2": "AM", "B2": "3MW", "C2": "8MS", "D2": "XK",
            "A3": "2SY", "B3": "6LK", "C3": "5SW", "D3": "7SK", "B4": "PMYK", "C4": "CSLK"}
LAYOUT_1 = {"B1": "2MK", "C1": "2WL", "A2": "3SK", "B2": "3LY", "C2": "4MS", "D2": "4YK",
            "A3": "5YK", "B3": "6MW", "C3": "6SY", "D3": "7ML", "B4": "7WY", "C4": "8WL"}
#: Seat 0 nearly done (one face-down card, C4) with a high layout; seat 1's layout is all face down.
HIGH = {"B1": "9WY", "C1": "9LK", "A2": "8MS", "B2": "8WL", "C2": "8YK", "D2": "7SK",
        "A3": "7ML", "B3": "7WY", "C3": "6MW", "D3": "6SY", "B4": "6LK", "C4": "5ML"}
#: The same shape with low cards: no line of either shares a suit.
LOW = {"B1": "AM", "C1": "AS", "A2": "AW", "B2": "AL", "C2": "AY", "D2": "AK",
       "A3": "2MK", "B3": "2SY", "C3": "2WL", "D3": "3MW", "B4": "3SK", "C4": "4MS"}
ALL_BUT_C4 = [cell for cell in LOW if cell != "C4"]


def golf(position: dict[str, Any], **options: Any):
    return parlour.load("decktet-golf", **options).from_position(position)


def choice(state, seed: int = 0) -> str:
    return str(HEURISTIC.act(state.view(state.current_player), random.Random(seed)))


def docs_example(**changes: Any) -> dict[str, Any]:
    position = {"turn": 0, "layouts": [LAYOUT_0, LAYOUT_1],
                "face_up": [["C1", "A2", "B2", "C2", "D2"], ["B1", "D3"]], "discard": ["XL", "5ML"]}
    return {**position, **changes}


def nearly_out(mine: dict[str, str], theirs: dict[str, str]) -> dict[str, Any]:
    """Seat 0 has drawn the Huntress (10) from the pile with one face-down card left."""
    return {"turn": 0, "layouts": [mine, theirs], "face_up": [ALL_BUT_C4, []], "discard": ["XL"],
            "phase": "drawn", "drawn": "XM", "drawn_from": "pile"}


# -- legal play ----------------------------------------------------------------------------------
OPTION_SETS = [
    {},
    {"players": 3, "excuse": True},
    {"players": 5, "opening_flips": 0, "rounds": 1},
    {"players": 4, "opening_flips": 8, "target": 20},
    {"excuse": True, "opening_flips": 0, "rounds": 2},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("spec", ["heuristic", "heuristic:dg_take=-10,dg_keep=20,dg_lines=0,dg_out_margin=-50",
                                  "heuristic:dg_take=20,dg_keep=-10,dg_lines=400,dg_out_margin=50"])
def test_whole_matches_with_legal_actions_and_values_in_range(options: dict[str, Any], spec: str) -> None:
    agent = parlour.agent(spec)
    game = parlour.load("decktet-golf", **options)
    for seed in range(2):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal():
            view = state.view(state.current_player)
            action = agent.act(view, rng)
            assert action in view.legal_actions
            chances = [value(view.observation, seat) for seat in range(game.num_players)]
            assert all(0.0 <= c <= 1.0 for c in chances) and math.isclose(sum(chances), 1.0)
            state.apply(action)
        assert state.winners()


def test_same_seed_same_choices() -> None:
    state = parlour.load("decktet-golf").new_state(seed=5)
    assert [choice(state, seed=3) for _ in range(5)] == [choice(state, seed=3)] * 5


# -- the documented choices -----------------------------------------------------------------------
def test_takes_a_card_that_sheds_a_line_and_places_it_there() -> None:
    state = golf(docs_example())
    assert choice(state) == "take"
    state.apply("take")
    # The Forest into D2 sends the Windfall (10) away and row 2 shares Moons: it sheds.
    assert choice(state) == "replace D2"


def test_leaves_the_next_player_the_card_they_gain_least_from() -> None:
    state = golf(docs_example())
    state.apply("take")
    state.apply("replace D2")
    # An Ace on top would be a gift to seat 1, whose layout is mostly face down; the 5 is not.
    assert choice(state) == "ontop D2"


def test_does_not_take_a_crown() -> None:
    state = golf(docs_example(discard=["5ML", "XL"]))
    assert choice(state) == "draw"


def test_keeps_a_low_drawn_card_in_place_of_the_highest() -> None:
    state = golf(docs_example(discard=["XL"], phase="drawn", drawn="AY", drawn_from="pile"))
    assert choice(state) == "replace D2"  # the Windfall (10) goes, not a face-down card


def test_a_crown_that_completes_a_line_is_kept_since_the_line_sheds_it() -> None:
    state = golf(docs_example(discard=["XL"], phase="drawn", drawn="XM", drawn_from="pile"))
    assert choice(state) == "replace D2"  # row 2 shares Moons: the Ace and the Huntress go


def test_discards_a_useless_card_and_flips_where_the_line_is_closest() -> None:
    # Row 2 shows the Ace and 3MW (both Moons); the other lines show one card or none.
    state = golf(docs_example(face_up=[["C1", "A2", "B2"], ["B1", "D3"]], discard=["XL"],
                              phase="drawn", drawn="XY", drawn_from="pile"))
    assert choice(state) == "discard"
    state.apply("discard")
    flips = {choice(state, seed) for seed in range(8)}
    assert flips == {"flip C2", "flip D2"}, "ties among the closest cells fall by chance"


def test_goes_out_when_ahead() -> None:
    state = golf(nearly_out(LOW, HIGH))
    assert choice(state) == "discard"  # the Huntress away, and the flip of C4 ends the round
    state.apply("discard")
    assert [str(a) for a in state.legal_actions()] == ["flip C4"]


def test_does_not_go_out_when_behind() -> None:
    state = golf(nearly_out(HIGH, LOW))
    # Discarding would force the flip of the last card and end a round seat 0 is losing;
    # a 9 for the 10 costs a point and keeps the round alive.
    assert choice(state) in {"replace B1", "replace C1"}


def test_on_the_last_turn_any_saving_is_kept() -> None:
    # Seat 0 has two face-down cards (B4, C4) and draws the Soldier (5YK). In place of the
    # Lunatic (6MW) in C3 it saves a point and makes column C share Knots but for C4: about
    # 5.7 points in all, short of dg_keep=6, so it is discarded; but on seat 0's last turn
    # every point counts.
    agent = parlour.agent("heuristic:dg_keep=6")
    position = {"turn": 0, "layouts": [HIGH, LOW], "face_up": [ALL_BUT_C4[:-1], list(LOW)],
                "discard": ["XL"], "phase": "drawn", "drawn": "5YK", "drawn_from": "pile"}
    assert str(agent.act(golf(position).view(0), random.Random(0))) == "discard"
    last_turn = golf({**position, "ender": 1})
    assert str(agent.act(last_turn.view(0), random.Random(0))) == "replace C3"


def test_swaps_to_line_up_suits_after_the_excuse() -> None:
    # Row 2 is A2 Ace of Moons, B2 3MW, C2 8MS, D2 the Calamity (Wyrms); the Huntress (Moons) is in B1.
    mine = {**LAYOUT_0, "B1": "XM", "D2": "XY"}
    state = golf({"turn": 0, "layouts": [mine, LAYOUT_1], "face_up": [["B1", "A2", "B2", "C2", "D2"], []],
                  "discard": ["EX", "5ML"], "phase": "swap", "swappers": [0, 1], "after_swaps": "lines"},
                 excuse=True)
    # Swapping B1 and D2 makes row 2 share Moons: the Ace and the Huntress will shed.
    assert choice(state) == "swap B1 D2"


# -- parameters ------------------------------------------------------------------------------------
def test_parameters_are_prefixed_documented_and_defaults_valid() -> None:
    for option in PARAMS:
        assert option.name.startswith("dg_") and option.doc
        assert option.validate(option.default, "agent heuristic") == option.default


@pytest.mark.parametrize("spec", ["heuristic:dg_take=bad", "heuristic:dg_keep=99", "heuristic:dg_lines=-1",
                                  "heuristic:dg_out_margin=1.5"])
def test_bad_parameters_are_refused(spec: str) -> None:
    with pytest.raises(OptionError) as err:
        parlour.agent(spec)
    assert spec.split(":")[1].split("=")[0] in str(err.value)


def test_parameters_change_the_play() -> None:
    state = golf(docs_example())
    assert str(parlour.agent("heuristic:dg_take=20").act(state.view(0), random.Random(0))) == "draw"


# -- value -----------------------------------------------------------------------------------------
def finished(totals: list[int]) -> dict[str, Any]:
    return docs_example(face_up=[list(LAYOUT_0), list(LAYOUT_1)], totals=totals, end="target",
                        round_scores=[totals])


def test_value_of_a_finished_match() -> None:
    state = golf(finished([30, 52]))
    assert value(state.observation(0), 0) == 1.0 and value(state.observation(1), 1) == 0.0
    tied = golf(finished([51, 51]))
    assert value(tied.observation(0), 0) == value(tied.observation(1), 1) == 0.5


def test_value_favours_the_lower_match_total() -> None:
    state = golf(docs_example(totals=[10, 40], round=3, round_scores=[[4, 20], [6, 20]]))
    assert value(state.observation(0), 0) > 0.8
    assert value(state.observation(1), 1) < 0.2


def test_value_favours_the_better_layout_and_grows_surer_as_the_match_nears_its_end() -> None:
    ahead = nearly_out(LOW, HIGH) | {"phase": "start", "drawn": None, "drawn_from": None,
                                     "face_up": [ALL_BUT_C4, ALL_BUT_C4]}
    early, late = golf(ahead | {"totals": [0, 0]}), golf(ahead | {"totals": [30, 30]})
    assert 0.5 < value(early.observation(0), 0) < value(late.observation(0), 0)
    assert value(early.observation(1), 1) < 0.5


# -- strength --------------------------------------------------------------------------------------
def test_beats_random_with_95_percent_confidence() -> None:
    game, wins, games = parlour.load("decktet-golf", rounds=1), 0.0, 60
    random_agent = parlour.agent("random")
    for index, seat in itertools.product(range(games // 2), (0, 1)):
        agents = [random_agent, random_agent]
        agents[seat] = HEURISTIC
        state, rng = game.new_state(seed=1000 + index), random.Random(index)
        while not state.is_terminal():
            state.apply(agents[state.current_player].move(state, state.current_player, rng))
        if seat in state.winners():
            wins += 1 / len(state.winners())
    rate = wins / games
    low = rate - 1.96 * math.sqrt(rate * (1 - rate) / games) if rate < 1 else 1 - 3 / games  # rule of three
    assert low > 0.5, f"heuristic won {rate:.0%} of {games} single rounds against random"
