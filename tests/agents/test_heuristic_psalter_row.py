"""The Psalter Row heuristic: legal always, its rules of thumb in hand-built positions,
its parameters checked, its value sensible, and clearly stronger than random play."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.agents.heuristic.psalter_row import value
from parlour.analysis.simulate import simulate
from parlour.analysis.stats import mean_ci
from parlour.cards.standard import CODE

GAME = parlour.load("psalter-row")
HEURISTIC = parlour.agent("heuristic")


def choice(position: dict, spec: str = "heuristic", **options) -> str:
    """The heuristic's action, as notation, in a hand-built position."""
    state = parlour.load("psalter-row", **options).from_position(position)
    return str(parlour.agent(spec).act(state.view(0), random.Random(0)))


def late(row: list[str], hand: list[str], pile: int) -> dict:
    """A position after the reshuffle with only ``pile`` cards left to draw."""
    rest = [c for c in CODE if c not in row and c not in hand]
    return {"row": row, "hand": hand, "discard": rest[pile:], "reshuffled": True}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"first_page_cost": 4, "errand_draw": 1},
        {"errand_when_stuck": True, "revision_discard": 2},
        {"revision_target": "smallest", "end_on": "failed_draw"},
    ],
)
def test_it_plays_whole_games_legally(options):
    game = parlour.load("psalter-row", **options)
    rng = random.Random(4)
    for seed in range(8):
        state = game.new_state(seed)
        while not state.is_terminal():
            action = HEURISTIC.act(state.view(0), rng)
            assert action in state.legal_actions()
            state.apply(action)
        assert state.end_reason in ("complete", "exhausted")


def test_it_places_an_exact_neighbour_of_the_rows_suit():
    # 4S and 7C are free too; 7H keeps the Row one suit.
    assert choice({"row": ["5H", "6H"], "hand": ["7C", "4S", "7H", "9C", "JS"]}) == "place 7H high"


def test_it_starts_the_row_in_the_middle_of_a_run():
    assert choice({"row": [], "hand": ["2C", "5H", "6H", "7H", "KD"]}) == "place 6H"
    assert choice({"row": [], "hand": ["2C", "10D", "6S", "JH", "KD"]}) == "place 6S"


def test_early_it_waits_with_an_errand_rather_than_skip_a_value():
    # 8C, 9C and 2D all fit only with a gap: each would lose values for good.
    assert choice({"row": ["5H"], "hand": ["8C", "9C", "2D", "AS", "QH"]}) == "errand AS"


def test_early_it_waits_with_a_directive_rather_than_skip_a_value():
    assert choice({"row": ["4H", "5H", "6H"], "hand": ["6S", "KC", "9C", "2D", "10D"]}) == "swap 6S KC"


def test_late_it_pays_a_gap_for_the_points_instead_of_waiting():
    action = choice(late(["5H", "6H"], ["9C", "10D", "2S", "JS", "AS"], pile=1))
    assert action.startswith("place") and " pay " in action


def test_it_spends_a_king_on_style():
    # No neighbour (3 or 7): the Directive makes the Quire one suit.
    assert choice({"row": ["4H", "5H", "6S"], "hand": ["6H", "KC", "9C", "10D", "2S"]}) == "swap 6H KC"


def test_a_king_that_brings_no_style_waits_only_when_allowed():
    position = late(["4H", "5H", "6H"], ["6S", "KC", "9C", "2D", "10D"], pile=5)
    assert choice(position) == "swap 6S KC"
    assert choice(position, "heuristic:pr_king_waits=false").startswith("place")


def test_it_pays_with_a_dead_page_not_a_needed_one_or_a_patron():
    # Forced to pay: 5S is inside the Row, useless; 9C and the Patrons may still serve.
    assert choice({"row": ["4H", "5H", "6H"], "hand": ["9C", "5S", "8D", "JS", "QS"]}) == "place 8D high pay 5S"


def test_a_revision_takes_an_off_suit_end_page():
    # Stuck: every Page in hand is inside the Row. An inner Page would open a hole.
    assert choice({"row": ["4H", "5H", "6H", "7S"], "hand": ["5C", "6D", "JS", "QS", "AD"]}) == "revise 7S"


def test_a_stuck_player_runs_an_errand_when_the_variant_allows_it():
    position = {"row": ["4H", "5H", "6H", "7S"], "hand": ["5C", "6D", "JS", "QS", "AD"]}
    assert choice(position, errand_when_stuck=True) == "errand AD"


def test_an_errand_discards_a_dead_page_and_keeps_the_neighbours():
    position = {"row": ["5H", "6H"], "hand": ["7H", "4D", "8H", "6C", "QS", "KD"], "pending": "errand_discard"}
    assert choice(position) == "discard 6C"


@pytest.mark.parametrize(
    "spec",
    ["heuristic:pr_hole_cost=11", "heuristic:pr_endgame=-1", "heuristic:pr_start=1",
     "heuristic:pr_king_waits=maybe", "heuristic:pr_patron_gap=1"],
)
def test_bad_parameters_are_refused(spec):
    with pytest.raises(parlour.OptionError):
        parlour.agent(spec)


def test_the_value_stays_in_range_and_ends_at_the_score():
    state, rng = GAME.new_state(9), random.Random(9)
    while not state.is_terminal():
        assert 0.0 <= value(state.observation(0), 0) <= 1.0
        state.apply(HEURISTIC.act(state.view(0), rng))
    assert value(state.observation(0), 0) == pytest.approx((state.scores()[0] + 9) / 23)


def test_the_value_orders_clear_cases():
    psalter = GAME.from_position({"row": [f"{v}S" for v in range(2, 11)], "hand": [], "end": "complete"})
    assert value(psalter.observation(0), 0) == 1.0
    nothing = late([], [], pile=0) | {"end": "exhausted"}
    assert value(GAME.from_position(nothing).observation(0), 0) == 0.0
    long_row = late(["3H", "4H", "5H", "6H", "7H"], ["2C"], pile=10)
    short_row = late(["4H", "5H"], ["2C"], pile=10)
    holed_row = late(["3H", "4H", "6H", "7H", "8H"], ["2C"], pile=10)
    long_value, holed_value, short_value = (
        value(GAME.from_position(p).observation(0), 0) for p in (long_row, holed_row, short_row)
    )
    assert long_value > holed_value > short_value


def test_it_beats_random_play():
    """Paired on the same deals, the heuristic scores more than random play (95% interval above 0)."""
    heuristic = [row["score"] for row in simulate(GAME, [HEURISTIC], games=200, seed=5)]
    rand = [row["score"] for row in simulate(GAME, [parlour.agent("random")], games=200, seed=5)]
    gain = mean_ci([h - r for h, r in zip(heuristic, rand)])
    assert gain.low is not None and gain.low > 0
