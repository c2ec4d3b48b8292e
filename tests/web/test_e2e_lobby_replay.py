"""End to end in Chromium: a table made with the lobby's form (game, option, seats), its
invite and spectator links, the open and finished lists, and the replay of a finished game
stepped through and downloaded."""

from __future__ import annotations

import json
import random
from pathlib import Path

from browserkit import Player, browser_fixture, context_fixture, open_seat, play_out, server_fixture  # noqa: F401 (fixtures)

import parlour


def test_the_lobby_makes_a_table_with_options_and_seats(server, context):
    page = context.new_page()
    player = Player(page)
    page.goto(server.url("/"))
    page.select_option("#game", "decktet-golf")
    page.select_option("#seat-count", "3")
    page.select_option(".seat-row:nth-child(2) select.kind", "random")
    page.select_option(".seat-row:nth-child(3) select.kind", "human")
    page.fill(".seat-row:nth-child(1) input.name", "Ada")
    page.fill("#opt-rounds", "2")
    page.check("#opt-excuse")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    invites = page.locator("#created .invite input.link").evaluate_all("els => els.map(e => e.value)")
    assert len(invites) == 2 and all("#token=" in url for url in invites)
    spectate = page.input_value("#created .spectate input.link")
    table_id = spectate.rsplit("/", 1)[1]
    made = server.get(f"/api/tables/{table_id}")
    assert made["game"] == "decktet-golf" and made["options"]["rounds"] == 2 and made["options"]["excuse"] is True
    assert made["options"]["players"] == 3
    assert [s["kind"] for s in made["seats"]] == ["human", "agent", "human"] and made["seats"][0]["name"] == "Ada"
    # the open tables list shows it; the first invite opens seat 0
    page.wait_for_selector(f"#open-tables tr[data-table='{table_id}']")
    page.click("#created a.play-now")
    player.wait_for_state()
    assert player.state()["seat"] == 0
    assert player.errors == []


def test_the_lobby_says_why_a_table_is_refused(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    page.select_option("#game", "psalter-row")
    page.select_option(".seat-row:nth-child(1) select.kind", "custom")
    page.fill(".seat-row:nth-child(1) input.spec", "nosuchagent")
    page.click("#create")
    page.wait_for_selector("#form-error:not([hidden])")
    assert "nosuchagent" in page.inner_text("#form-error")
    assert server.get("/api/tables")["tables"] == []


def test_a_finished_game_replays_step_by_step(server, context):
    table = server.create("psalter-row", ["human"], names=["Ada"])
    player = open_seat(context, server, table["seats"][0]["invite"])
    play_out(player, random.Random(1))
    end = player.state()
    page = player.page
    page.click("#replay-link")
    page.wait_for_function(f"() => document.body?.dataset.step === '{end['state_id']}'")
    assert "Game over" in page.inner_text("#turn")
    assert page.locator("#breakdown .bd-seat").count() == 1
    page.click("#first")
    page.wait_for_function("() => document.body?.dataset.step === '0'")
    assert page.inner_text("#step-action") == "the deal"
    assert page.locator(".psalter-row svg.card:not(.slot)").count() == 0, "the deal: an empty Row"
    page.click("#next")
    page.click("#next")
    page.wait_for_function("() => document.body?.dataset.step === '2'")
    assert end["log"][1]["action"] in page.inner_text("#step-action")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.body?.dataset.step === '1'")
    assert page.locator("#log li").count() == 1
    # the record downloads as the engine's JSON, and replays
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["actions"] == [e["action"] for e in end["log"]]
    assert parlour.replay(record).is_terminal()
    # the lobby lists it among the finished games, with the replay link
    page.goto(server.url("/"))
    page.wait_for_selector(f"#finished-tables tr[data-table='{table['id']}'] a[href$='/replay']")
