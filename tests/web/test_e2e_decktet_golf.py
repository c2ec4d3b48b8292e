"""End to end in Chromium: a one-round Decktet Golf match against a heuristic bot, played
by clicking the piles, the drawn card and the cells of the own layout; a spectator watches."""

from __future__ import annotations

import random

from browserkit import browser_fixture, context_fixture, open_seat, play_out, server_fixture  # noqa: F401 (fixtures)


def test_a_decktet_golf_match_against_a_bot_by_clicking(server, context, browser):
    table = server.create("decktet-golf", ["human", "heuristic"], names=["Ada", None], rounds=1)
    player = open_seat(context, server, table["seats"][0]["invite"], "Ada")
    watcher_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        watcher = open_seat(watcher_context, server, table["spectate"], "watcher")
        first = player.wait_my_turn_or_end()
        assert first["observation"]["phase"] == "opening"
        # every opening flip is a face-down cell of the own layout, highlighted
        lit = player.page.locator("#board .clickable").evaluate_all("els => els.map(e => e.dataset.token)")
        assert sorted(lit) == sorted(a.split()[1] for a in first["legal"])
        assert player.page.locator(".golf-seat[data-seat='1'] .clickable").count() == 0, "no target on the bot's layout"
        made = play_out(player, random.Random(11), until=lambda s: s["observation"]["phase"] == "start")
        # at the start of a turn: take or draw; a cell does nothing yet, and says so
        player.page.locator(".golf-seat[data-seat='0'] [data-token='B2']").click(position={"x": 10, "y": 8})
        assert "Nothing you can do" in player.error_text()
        made += play_out(player, random.Random(11))
        end = player.state()
        assert end["end"] is not None and made >= 6
        assert len(end["observation"]["round_scores"]) == 1
        assert "Game over" in player.page.inner_text("#turn")
        assert player.page.locator("#breakdown .bd-seat").count() == 2
        own = [e["action"] for e in end["log"] if e["seat"] == 0]
        assert len(own) == made, "each of the seat's actions came from its clicks"
        # the spectator saw the same game to its end, never with a legal action
        watcher.page.wait_for_function(f"() => Number(document.body?.dataset.stateId) === {end['state_id']}")
        seen = watcher.state()
        # the same actions (their words differ: each page tells them as its seat may know them)
        notation = [(e["n"], e["seat"], e["action"]) for e in seen["log"]]
        assert notation == [(e["n"], e["seat"], e["action"]) for e in end["log"]]
        assert seen["seat"] is None and seen["legal"] == []
        assert watcher.page.locator("#choices").is_hidden()
        assert player.errors == [] and watcher.errors == []
    finally:
        watcher_context.close()
