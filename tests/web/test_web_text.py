"""The ``text`` of a state message: the game's terminal drawing with the markup taken out,
exactly as rich would print it without styles (the server strips it without rich's parser)."""

from __future__ import annotations

import random

import pytest
from rich.text import Text

import parlour
from parlour.web.tables import plain_text

CONFIGS = [("psalter-row", {}), ("decktet-golf", {"players": 2}), ("decktet-golf", {"players": 4, "excuse": True}),
           ("quisquilian", {"players": 3}), ("quisquilian", {"players": 6})]


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_plain_text_is_richs_plain_text(name: str, options: dict) -> None:
    game = parlour.load(name, **options)
    state, rng = game.new_state(seed=3), random.Random(3)
    for step in range(400):
        if step % 7 == 0 or state.is_terminal():
            for seat in (None, *range(game.num_players)):
                markup = game.render(state.observation(seat))
                assert plain_text(markup) == Text.from_markup(markup).plain
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("markup", [r"a \[b] c", r"\\[bold]x[/bold]", "[1] and [A]", r"\[", "[#ff0000]r[/] [i]x[/i]"])
def test_escapes_and_non_tags(markup: str) -> None:
    assert plain_text(markup) == Text.from_markup(markup).plain
