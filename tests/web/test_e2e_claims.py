"""End to end in Chromium: a seat belongs to the browser that claimed it (issue 17, finding 7).
The browser that opened an invite link first keeps the seat when it reopens the link; another
browser profile with the same link is refused and told why; the creator (the browser that
made the table in the lobby) re-issues a seat's invite from the table page, the new link
seats the other browser and the first is told its seat was handed on; the creator closes
the table. Each step leaves a screenshot in the test's temporary folder."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from browserkit import (  # noqa: F401 (fixtures)
    Player,
    browser_fixture,
    context_fixture,
    kept_seats,
    open_seat,
    play_out,
    server_fixture,
)


def fresh_context(browser: Any) -> Any:
    """Another browser profile: its own localStorage, as another person's browser."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    ctx.set_default_timeout(20_000)
    return ctx


def refused_page(context: Any, server: Any, path: str) -> Any:
    page = context.new_page()
    page.goto(server.url(path))
    page.wait_for_selector("#error:not([hidden])")
    page.wait_for_function("() => document.getElementById('conn').dataset.status === 'closed'")
    return page


def act_once(player: Player, rng: random.Random) -> None:
    """One random legal action of ``player``'s seat, which is to move."""
    player.act(rng.choice(player.wait_my_turn_or_end()["legal"]))


def to_move(players: list[Player]) -> Player:
    """The one whose page says it is to move. (A page cannot say so wrongly: only the seat to
    move can change the table, so no later state can have reached the others first.)"""
    for _ in range(400):  # 20 s at most
        for player in players:
            if player.page.evaluate("() => document.body.dataset.toPlay === 'me'"):
                return player
        time.sleep(0.05)
    raise AssertionError("nobody's page says it is to move")


def test_a_claimed_seat_stays_with_the_browser_that_claimed_it(server, context, browser, tmp_path: Path):
    table = server.create("decktet-golf", ["human", "random"], names=["Ann", None])
    invite = table["seats"][0]["invite"]
    rng = random.Random(5)
    ann = open_seat(context, server, invite, "Ann")
    play_out(ann, rng, until=lambda s: s["state_id"] >= 4)
    kept = kept_seats(ann.page, table["id"])
    assert list(kept) == [0] and kept[0]["invite"] == invite.split("#token=")[1]
    ann.page.close()

    # the same browser reopens the link: its seat again, and it plays on
    ann = open_seat(context, server, invite, "Ann")
    state = ann.wait_my_turn_or_end()
    assert state["seat"] == 0 and state["state_id"] >= 4 and "you are seat 1" in ann.page.inner_text("#you")
    act_once(ann, rng)
    # a second tab of that browser holds the seat too: the players panel says "2 tabs"
    tab = open_seat(context, server, invite, "Ann's second tab")
    assert tab.state()["seat"] == 0
    ann.page.wait_for_function("() => document.querySelector('#players tr[data-seat=\"0\"]').textContent.includes('2 tabs')")
    ann.page.screenshot(path=str(tmp_path / "two-tabs.png"))
    tab.page.close()
    ann.page.wait_for_function("() => !document.querySelector('#players').textContent.includes('tabs')")

    # another browser with the same link is refused, and the page says why and what to do
    other = fresh_context(browser)
    try:
        page = refused_page(other, server, invite)
        said = page.inner_text("#error")
        assert "Seat 1 is taken" in said and "Another browser opened this invite link first" in said
        assert "ask the table's creator to re-issue the invite" in said
        assert page.evaluate("() => window.parlour.state") is None, "it was never seated"
        assert page.locator("#notation-form").is_hidden() and page.locator("#creator").is_hidden()
        assert kept_seats(page, table["id"]) == {}
        page.screenshot(path=str(tmp_path / "seat-taken.png"))
        page.click("#error a#spectate-link")
        page.wait_for_function("() => document.getElementById('you').textContent === 'watching'")
    finally:
        other.close()
    act_once(ann, rng)  # the seat's browser played on through all of this
    assert not [e for e in ann.errors if "WebSocket" not in e]


def make_table_in_the_lobby(page: Any, server: Any) -> tuple[str, list[str]]:
    """A two-person Decktet Golf table made with the lobby's form; its id and invite links."""
    page.goto(server.url("/"))
    page.select_option("#game", "decktet-golf")
    page.select_option("#seat-count", "2")
    page.select_option(".seat-row:nth-child(2) select.kind", "human")
    page.fill(".seat-row:nth-child(1) input.name", "Ann")
    page.fill(".seat-row:nth-child(2) input.name", "Bea")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden])")
    invites = page.locator("#created .invite input.link").evaluate_all("els => els.map(e => e.value)")
    table_id = page.input_value("#created .spectate input.link").rsplit("/", 1)[1]
    assert "re-issue it from the table page" in page.inner_text("#created")
    page.wait_for_selector(f"#open-tables tr[data-table='{table_id}'] .tag.mine")
    return table_id, [url.removeprefix(server.base) for url in invites]


def creator_plays(context: Any, server: Any) -> tuple[str, list[str], Player]:
    """A table made in the lobby, its creator (Ann) at her seat from the lobby's play link."""
    lobby = context.new_page()
    table_id, invites = make_table_in_the_lobby(lobby, server)
    lobby.click("#created a.play-now")
    ann = Player(lobby, "Ann")
    ann.wait_for_state()
    return table_id, invites, ann


def test_the_creator_reissues_an_invite_and_the_seat_is_handed_on(server, context, browser, tmp_path: Path):
    table_id, invites, ann = creator_plays(context, server)
    ann.page.wait_for_selector("#creator:not([hidden])")
    assert ann.page.locator("#creator .creator-seat").count() == 2

    first, second = fresh_context(browser), fresh_context(browser)
    try:
        bea = open_seat(first, server, invites[1], "Bea")
        assert bea.state()["seat"] == 1 and bea.page.locator("#creator").is_hidden(), "only the creator's browser"
        late = refused_page(second, server, invites[1])
        assert "Seat 2 is taken" in late.inner_text("#error")

        # the creator re-issues seat 2's invite from the table page: one click, then a confirmation
        row = ann.page.locator("#creator .creator-seat[data-seat='1']")
        row.locator("button.ask").click()
        assert "A new link for seat 2?" in row.inner_text()
        row.locator("button.yes").click()
        row.locator("input.link").wait_for()
        new_invite = row.locator("input.link").input_value().removeprefix(server.base)
        assert new_invite.startswith(f"/t/{table_id}#token=") and new_invite != invites[1]
        ann.page.screenshot(path=str(tmp_path / "reissued.png"))

        # the browser that held it is told its seat was handed on, and holds nothing now
        bea.page.wait_for_function("() => document.getElementById('error').textContent.includes('handed on')")
        said = bea.page.inner_text("#error")
        assert "Seat 2 was handed on" in said and "re-issued its invite" in said
        assert bea.page.get_attribute("#conn", "data-status") == "closed"
        assert bea.page.locator("#notation-form").is_hidden() and kept_seats(bea.page, table_id) == {}
        bea.page.screenshot(path=str(tmp_path / "handed-on.png"))
        # its old link is refused now
        old = refused_page(first, server, invites[1])
        assert "refused" in old.inner_text("#error")

        # the second browser opens the new link, takes the seat and plays
        late.goto(server.url(new_invite))
        newcomer = Player(late, "Bea, the second browser")
        newcomer.wait_for_state()
        assert newcomer.state()["seat"] == 1 and list(kept_seats(late, table_id)) == [1]
        rng = random.Random(9)
        for _ in range(10):  # the opening flips go round the table: play both seats until seat 2 moved
            mover = to_move([ann, newcomer])
            act_once(mover, rng)
            if mover is newcomer:
                break
        assert newcomer.state()["log"][-1]["seat"] == 1
        ann.page.wait_for_function("() => document.querySelector('#players tr[data-seat=\"1\"]').textContent.includes('online')")
        assert not [e for e in newcomer.errors if "WebSocket" not in e]
    finally:
        first.close()
        second.close()


def test_the_creator_closes_the_table_and_everyone_is_told(server, context, browser, tmp_path: Path):
    table_id, invites, ann = creator_plays(context, server)
    other = fresh_context(browser)
    try:
        bea = open_seat(other, server, invites[1], "Bea")
        ann.page.click("#creator .creator-close button.ask")
        assert "Close it for everyone?" in ann.page.inner_text("#creator")
        ann.page.click("#creator .creator-close button.no")  # thought better of it: nothing happens
        assert server.get(f"/api/tables/{table_id}")["id"] == table_id
        ann.page.click("#creator .creator-close button.ask")
        ann.page.click("#creator .creator-close button.yes")
        for player, who in ((ann, "You closed it"), (bea, "Its creator closed it")):
            player.page.wait_for_function("() => document.getElementById('error').textContent.includes('was closed')")
            assert who in player.page.inner_text("#error") and player.page.locator("#notation-form").is_hidden()
            assert player.page.get_attribute("#conn", "data-status") == "closed"
        assert ann.page.locator("#creator").is_hidden()
        bea.page.screenshot(path=str(tmp_path / "closed.png"))
        assert kept_seats(bea.page, table_id) == {} and kept_seats(ann.page, table_id) == {}
        ann.page.goto(server.url("/"))
        ann.page.wait_for_selector("#open-tables table, #open-tables div")
        assert ann.page.locator(f"#open-tables tr[data-table='{table_id}']").count() == 0
    finally:
        other.close()
