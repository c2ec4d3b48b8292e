"""End to end in Chromium: the server is killed in the middle of a game and started again
on the same database; the open page reconnects by itself and the game goes on (the bot
too). A tab reopened with the bare table link resumes its seat from localStorage."""

from __future__ import annotations

import random

from browserkit import browser_fixture, context_fixture, kept_seats, open_seat, play_out, server_fixture  # noqa: F401 (fixtures)


def test_the_page_reconnects_after_a_server_restart_and_the_game_goes_on(server, context):
    table = server.create("decktet-golf", ["human", "random"], rounds=1)
    player = open_seat(context, server, table["seats"][0]["invite"])
    rng = random.Random(2)
    play_out(player, rng, until=lambda s: s["state_id"] >= 8)
    before = player.wait_my_turn_or_end()
    server.stop()
    player.page.wait_for_function("() => document.getElementById('conn').dataset.status === 'reconnecting'")
    # an action while the server is down is not lost silently: the page says it was not sent
    player.type_notation(before["legal"][0])
    assert "Not connected" in player.error_text()
    server.start()
    player.page.wait_for_function("() => document.getElementById('conn').dataset.status === 'connected'")
    after = player.wait_my_turn_or_end()
    assert after["state_id"] == before["state_id"] and after["log"] == before["log"]
    assert after["observation"] == before["observation"], "the table was rebuilt from its stored actions"
    play_out(player, rng)
    end = player.state()
    assert end["end"] is not None and end["state_id"] > before["state_id"]
    assert any(e["seat"] == 1 and e["n"] > before["state_id"] for e in end["log"]), "the bot moved after the restart"
    assert not [e for e in player.errors if "WebSocket" not in e]


def test_a_reopened_tab_resumes_its_seat(server, context):
    table = server.create("psalter-row", ["human"])
    player = open_seat(context, server, table["seats"][0]["invite"])
    play_out(player, random.Random(4), until=lambda s: s["state_id"] >= 3)
    player.page.close()
    # the bare link, no token in it: the page finds the seat's secret kept under parlour-seat-{id}-0
    again = open_seat(context, server, f"/t/{table['id']}")
    state = again.wait_my_turn_or_end()
    assert state["seat"] == 0 and state["state_id"] == 3 and state["legal"]
    assert "you are seat 1" in again.page.inner_text("#you"), "the page numbers seats from 1"
    assert "Player 1" in again.page.inner_text("#players") and "seat 1" in again.page.inner_text("#players")
    assert "seat 0" not in again.page.inner_text("#players")
    again.act(state["legal"][0])
    # another browser profile with the bare link only watches
    other = context.browser.new_context()
    try:
        watcher = open_seat(other, server, f"/t/{table['id']}")
        assert watcher.state()["seat"] is None and watcher.state()["legal"] == []
        assert watcher.page.inner_text("#you") == "watching"
    finally:
        other.close()


def test_a_wrong_token_is_refused_and_said(server, context):
    table = server.create("psalter-row", ["human"])
    other = server.create("psalter-row", ["human"])
    stolen = other["seats"][0]["invite"].split("#")[1]
    page = context.new_page()
    page.goto(server.url(f"/t/{table['id']}#{stolen}"))
    page.wait_for_selector("#error:not([hidden])")
    assert "refused" in page.inner_text("#error")
    # the server's error message comes first, then it closes the socket with its final code
    page.wait_for_selector('#conn[data-status="closed"]', state="attached")
    # no seat here: no notation box, no Play button; the spectator's address is a link
    assert page.locator("#notation-form").is_hidden() and page.locator("button[type=submit]").is_hidden()
    assert page.get_attribute("#error a#spectate-link", "href") == f"/t/{table['id']}"
    page.click("#error a#spectate-link")
    page.wait_for_function("() => document.getElementById('you').textContent === 'watching'")


def test_a_mistyped_invite_link_keeps_the_seat_saved_before(server, context):
    """The trial's bug: the good link, then a mistyped one (refused), then the bare table
    link made a spectator of the seat's owner (the wrong token had replaced the good one)."""
    table = server.create("psalter-row", ["human"])
    invite = table["seats"][0]["invite"]
    good = invite.split("#token=")[1]
    player = open_seat(context, server, invite)
    kept = kept_seats(player.page, table["id"])
    assert list(kept) == [0] and kept[0]["invite"] == good and kept[0]["secret"] not in (None, good)
    # typed over the good link in the same tab: only the fragment changes
    page = player.page
    page.goto(server.url(f"/t/{table['id']}#token=WRONG"))
    page.wait_for_selector("#error:not([hidden])")
    assert "refused" in page.inner_text("#error")
    assert kept_seats(page, table["id"]) == kept, "the refused token changed what was kept"
    assert page.locator("#notation-form").is_hidden()
    # the page offers the seat this browser holds, as a link
    assert page.get_attribute("#error a#saved-seat", "href") == f"/t/{table['id']}"
    page.click("#error a#saved-seat")
    page.wait_for_function("() => document.getElementById('you').textContent === 'you are seat 1'")
    again = open_seat(context, server, f"/t/{table['id']}")
    assert again.state()["seat"] == 0 and again.state()["legal"]
    assert again.page.locator("#notation-form").is_visible()
