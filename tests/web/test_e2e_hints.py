"""End to end in Chromium: the lobby's seat menu offers the game's levels by name with their
lines and makes a table with hints on or off; at the table the Hint button, for the seat to
move only, shows the strongest level's move under the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from browserkit import Player, Server, browser_fixture, context_fixture, open_seat  # noqa: F401 (fixtures)

from parlour.agents.levels import LEVELS


@pytest.fixture(name="quick")
def quick_server(tmp_path: Path) -> Iterator[Server]:
    """A server whose bots and hints think at most 1 s a decision (so it seats no expert)."""
    srv = Server(tmp_path / "parlour.db", args=("--think-limit", "1")).start()
    yield srv
    srv.stop()


def _options(page: Any, row: int) -> list[str]:
    return page.locator(f".seat-row:nth-child({row}) select.kind option").evaluate_all("os => os.map(o => o.value)")


def _line(page: Any, row: int) -> str:
    return page.inner_text(f".seat-row:nth-child({row}) .level-line")


def test_the_lobby_offers_the_levels_by_name_and_makes_a_table_with_hints_off(quick, context):
    page = context.new_page()
    player = Player(page)
    page.goto(quick.url("/"))
    page.select_option("#game", "decktet-golf")
    # the levels this server seats, weakest first: not the expert, who thinks up to 2 s
    assert _options(page, 2) == ["human", *(f"level:{level.name}" for level in LEVELS if level.seconds <= 1), "custom"]
    assert page.input_value(".seat-row:nth-child(2) select.kind") == "level:casual"
    casual = next(level for level in LEVELS if level.name == "casual")
    assert _line(page, 2) == f"casual: {casual.summary}"
    page.select_option(".seat-row:nth-child(2) select.kind", "level:strong")
    assert _line(page, 2).startswith("strong: ")
    assert page.locator(".seat-row:nth-child(1) .level-line").is_hidden()  # a person: no line
    assert page.is_checked("#hints")
    page.uncheck("#hints")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    table_id = page.input_value("#created .spectate input.link").rsplit("/", 1)[1]
    made = quick.get(f"/api/tables/{table_id}")
    assert made["hints"] is False and made["seats"][1]["spec"] == "level:strong"
    page.click("#created a.play-now")
    state = player.wait_my_turn_or_end()
    assert state["hints"] is False and page.locator("#hint-row").is_hidden()
    assert player.errors == []


def test_the_hint_button_shows_the_strongest_levels_move_under_the_table(quick, context, browser):
    table = quick.create("psalter-row", ["human"])
    player = open_seat(context, quick, table["seats"][0]["invite"])
    page = player.page
    page.wait_for_selector("#hint-row:not([hidden])")
    assert page.locator("#hint-answer").is_hidden()
    page.click("#hint")
    page.wait_for_selector("#hint-answer code[data-hint]")
    hinted = page.get_attribute("#hint-answer code[data-hint]", "data-hint")
    assert hinted in player.legal()
    said = page.inner_text("#hint-answer")
    # a random deal: one legal move or a search
    reason = "the only legal move" if len(player.legal()) == 1 else "after it a search of 30 samples a move scores "
    assert said.startswith(f"Hint: {hinted} · {reason}"), said
    assert not page.is_disabled("#hint")
    player.act(hinted)  # the next state: the old hint goes
    assert page.locator("#hint-answer").is_hidden() and not page.is_disabled("#hint")
    elsewhere = browser.new_context()  # another browser: this one's would rejoin its seat
    try:
        watcher = open_seat(elsewhere, quick, table["spectate"])
        assert watcher.state()["seat"] is None and watcher.page.locator("#hint-row").is_hidden()
        assert player.errors == [] and watcher.errors == []
    finally:
        elsewhere.close()


def test_only_the_seat_to_move_sees_the_hint_button(quick, context):
    table = quick.create("decktet-golf", ["human", "human"], rounds=1)
    players = [open_seat(context, quick, seat["invite"]) for seat in table["seats"]]
    state = players[0].wait_for_state()
    mover = state["current_player"]
    players[mover].page.wait_for_selector("#hint-row:not([hidden])")
    assert players[1 - mover].page.locator("#hint-row").is_hidden()
    players[mover].page.keyboard.press("h")  # the key asks too
    players[mover].page.wait_for_selector("#hint-answer code[data-hint]")
    assert players[mover].page.get_attribute("#hint-answer code[data-hint]", "data-hint") in players[mover].legal()
    assert players[1 - mover].page.locator("#hint-answer").is_hidden()
    assert all(p.errors == [] for p in players)
