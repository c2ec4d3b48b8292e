"""The game registry and parlour.load: names, options as typed values and as text."""

from __future__ import annotations

import pytest

import parlour
from parlour import OptionError, ParlourError


def test_game_names_lists_registered_games_sorted() -> None:
    names = parlour.game_names()
    assert "psalter-row" in names
    assert names == sorted(names)
    assert all(isinstance(n, str) for n in names)
    names.append("scribbled")  # the caller's copy
    assert "scribbled" not in parlour.game_names()


@pytest.mark.parametrize("name", parlour.game_names())
def test_every_registered_game_loads_under_its_name(name: str) -> None:
    game = parlour.load(name)
    assert game.name == name
    assert isinstance(game.title, str) and game.title
    assert set(game.options) == {spec.name for spec in game.option_specs}
    assert game.options == {spec.name: spec.default for spec in game.option_specs}
    assert isinstance(game.num_players, int) and game.num_players >= 1
    assert all(spec.doc for spec in game.option_specs), "every option is documented"


def test_unknown_game_lists_the_games() -> None:
    with pytest.raises(OptionError) as err:
        parlour.load("psalter")
    message = str(err.value)
    assert "'psalter'" in message
    for name in parlour.game_names():
        assert name in message
    assert isinstance(err.value, ParlourError) and isinstance(err.value, ValueError)


def test_unknown_option_names_the_valid_ones() -> None:
    with pytest.raises(OptionError) as err:
        parlour.load("psalter-row", players=2)
    message = str(err.value)
    assert "'players'" in message
    for option in ("first_page_cost", "errand_draw", "errand_when_stuck", "revision_discard",
                   "revision_target", "end_on"):
        assert option in message


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("errand_draw", 3, ["1", "2"]),
        ("errand_draw", True, ["1", "2"]),  # True == 1 in Python, but it is not a card count
        ("errand_draw", 2.0, ["1", "2"]),
        ("errand_draw", "two", ["1", "2"]),
        ("first_page_cost", 9, ["0..8"]),
        ("first_page_cost", -1, ["0..8"]),
        ("first_page_cost", "many", ["0..8"]),
        ("errand_when_stuck", "maybe", ["true or false"]),
        ("errand_when_stuck", 1, ["true or false"]),
        ("revision_discard", 3, ["'hand'", "2"]),
        ("revision_target", "middle", ["'largest'", "'smallest'"]),
        ("end_on", None, ["'empty'", "'failed_draw'"]),
    ],
)
def test_bad_values_name_the_allowed_ones(option: str, value: object, allowed: list[str]) -> None:
    with pytest.raises(OptionError) as err:
        parlour.load("psalter-row", **{option: value})
    message = str(err.value)
    assert option in message
    for text in allowed:
        assert text in message, (text, message)


def test_values_from_a_command_line_are_parsed() -> None:
    game = parlour.load(
        "psalter-row",
        errand_draw="1",
        errand_when_stuck="true",
        first_page_cost=" 3 ",
        revision_discard="2",
        revision_target="SMALLEST",
        end_on="failed_draw",
    )
    assert game.options == {
        "first_page_cost": 3,
        "errand_draw": 1,
        "errand_when_stuck": True,
        "revision_discard": 2,
        "revision_target": "smallest",
        "end_on": "failed_draw",
    }
    assert type(game.options["errand_draw"]) is int and type(game.options["revision_discard"]) is int
    for text, value in (("yes", True), ("on", True), ("1", True), ("false", False), ("no", False),
                        ("off", False), ("0", False), ("FALSE", False)):
        assert parlour.load("psalter-row", errand_when_stuck=text).options["errand_when_stuck"] is value
    assert parlour.load("psalter-row", revision_discard="hand").options["revision_discard"] == "hand"


def test_typed_and_text_options_give_equal_games() -> None:
    typed = parlour.load("psalter-row", errand_draw=1, errand_when_stuck=True)
    text = parlour.load("psalter-row", errand_draw="1", errand_when_stuck="yes")
    assert typed == text and hash(typed) == hash(text)
    assert typed != parlour.load("psalter-row")
    assert eval(repr(typed), {"parlour": parlour}) == typed
    assert repr(parlour.load("psalter-row")) == "parlour.load('psalter-row')"


def test_options_of_a_game_do_not_leak_between_loads() -> None:
    game = parlour.load("psalter-row", errand_draw=1)
    assert parlour.load("psalter-row").options["errand_draw"] == 2
    assert game.options["errand_draw"] == 1


@pytest.mark.parametrize("seed", [7.0, "7", None, True, False, [7], 7.5])
def test_new_state_needs_an_integer_seed(seed: object) -> None:
    game = parlour.load("psalter-row")
    with pytest.raises(OptionError) as err:
        game.new_state(seed)  # type: ignore[arg-type]
    assert "seed" in str(err.value) and "integer" in str(err.value)


@pytest.mark.parametrize("seed", [0, 1, -5, 2**62, 2**80])
def test_any_integer_seed_gives_a_reproducible_game(seed: int) -> None:
    game = parlour.load("psalter-row")
    assert game.new_state(seed).to_position() == game.new_state(seed).to_position()
    assert game.new_state(seed).to_position()["chance"] == seed


def test_the_seed_decides_the_deal() -> None:
    game = parlour.load("psalter-row")
    deals = {tuple(game.new_state(seed).to_position()["hand"]) for seed in range(30)}
    assert len(deals) == 30
