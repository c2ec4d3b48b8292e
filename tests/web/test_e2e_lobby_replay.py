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
    page.select_option(".seat-row:nth-child(2) select.kind", "level:novice")
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
    assert made["seats"][1]["spec"] == "level:novice" and made["hints"] is True
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
    said = page.inner_text("#form-error")
    assert "nosuchagent" in said and not said.rstrip().endswith('(or "human")'), said
    assert server.get("/api/tables")["tables"] == []


def test_the_lobby_form_errors_are_plain_and_cleared(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    page.select_option("#game", "decktet-golf")
    # seats are numbered from 1, as the default names ("Player 1") are
    assert page.locator(".seat-row .seat-no").all_inner_texts()[:2] == ["Seat 1", "Seat 2"]
    # a blank agent spec: said in words (no API example in JSON), nothing sent
    page.select_option(".seat-row:nth-child(2) select.kind", "custom")
    page.click("#create")
    page.wait_for_selector("#form-error:not([hidden])")
    said = page.inner_text("#form-error")
    assert "Seat 2: type an agent spec" in said and "{" not in said, said
    assert server.get("/api/tables")["tables"] == []
    # a new attempt that the browser itself blocks (2.5 rounds) clears the old error
    page.fill(".seat-row:nth-child(2) input.spec", "heuristic")
    page.fill("#opt-rounds", "2.5")
    page.click("#create")
    assert page.locator("#form-error").is_hidden()
    assert server.get("/api/tables")["tables"] == []
    # the placeholder of a name field and the rounds hint fit where they are
    fits = page.evaluate("""() => {
      const name = document.querySelector(".seat-row:nth-child(2) input.name");
      const probe = document.createElement("span");
      probe.style.font = getComputedStyle(name).font;
      probe.textContent = name.placeholder;
      document.body.append(probe);
      const room = name.clientWidth - parseFloat(getComputedStyle(name).paddingLeft) * 2;
      const label = document.querySelector('label[for="opt-rounds"]').getBoundingClientRect();
      const hint = document.querySelector("#opt-rounds").parentElement.querySelector(".small").getBoundingClientRect();
      return [probe.getBoundingClientRect().width <= room, Math.abs(hint.top - label.top) < 8];
    }""")
    assert fits == [True, True], "the name placeholder is cut off, or the rounds hint wraps under its label"


def test_a_phone_wide_page_does_not_scroll_sideways(server, browser):
    table = server.create("quisquilian", ["human", "random", "random"])
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = ctx.new_page()
        for path in ("/", table["seats"][0]["invite"]):
            page.goto(server.url(path))
            page.wait_for_function("() => document.querySelector('#seats .seat-row, #board .board')")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 390, f"{path}: the page is {width}px wide in a 390px window"
    finally:
        ctx.close()


def test_a_finished_game_replays_step_by_step(server, context):
    table = server.create("psalter-row", ["human"], names=["Ada"])
    player = open_seat(context, server, table["seats"][0]["invite"])
    play_out(player, random.Random(1))
    end = player.state()
    page = player.page
    page.click("#replay-link")
    page.wait_for_function(f"() => document.body?.dataset.step === '{end['state_id']}'")
    assert "Game over" in page.inner_text("#turn")
    assert f"score {end['scores'][0]}" in page.inner_text("#turn")  # the replay's final score (not "undefined")
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
