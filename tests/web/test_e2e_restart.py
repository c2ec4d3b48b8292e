"""End to end in Chromium: the server is killed in the middle of a game and started again
on the same database; the open page reconnects by itself and the game goes on (the bot
too). A tab reopened with the bare table link resumes its seat from localStorage."""

from __future__ import annotations

import random

from browserkit import browser_fixture, context_fixture, open_seat, play_out, server_fixture  # noqa: F401 (fixtures)


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
    # the bare link, no token in it: the page finds the token kept under parlour-token-{id}
    again = open_seat(context, server, f"/t/{table['id']}")
    state = again.wait_my_turn_or_end()
    assert state["seat"] == 0 and state["state_id"] == 3 and state["legal"]
    assert "you are seat 0" in again.page.inner_text("#you")
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
    assert page.get_attribute("#conn", "data-status") == "closed"
