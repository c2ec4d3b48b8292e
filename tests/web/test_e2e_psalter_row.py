"""End to end in Chromium: a whole Psalter Row game played by clicking the table, its end
shown with the score breakdown, and the replay of it stepped through."""

from __future__ import annotations

import random

from browserkit import browser_fixture, context_fixture, open_seat, play_out, server_fixture  # noqa: F401 (fixtures)


def test_a_whole_psalter_row_game_by_clicking(server, context):
    table = server.create("psalter-row", ["human"], names=["Ada"])
    player = open_seat(context, server, table["seats"][0]["invite"], "Ada")
    assert player.status() == "connected"
    first = player.state()
    assert first["seat"] == 0 and first["legal"], "the only seat is to play at once"
    made = play_out(player, random.Random(7))
    end = player.state()
    assert end["end"] in ("complete", "exhausted")
    assert made == len(end["log"]) == end["state_id"], "every action was made by the clicks"
    # the end: the turn line, the breakdown panel with the engine's parts, no more choices
    assert player.page.inner_text("#turn").startswith("Game over")
    breakdown = player.page.locator("#breakdown")
    assert breakdown.is_visible()
    assert "pages" in breakdown.inner_text() and str(end["breakdown"][0]["score"]) in breakdown.inner_text()
    assert player.page.locator("#choices").is_hidden()
    assert server.get(f"/api/tables/{table['id']}")["status"] == "finished"
    assert player.errors == []


def _named_twice(state):
    """A hand card that two or more legal actions name, with those actions."""
    for card in state["observation"]["hand"]:
        naming = [a for a in state["legal"] if card in a.split()]
        if len(naming) >= 2:
            return card, naming
    return None


def test_clicks_narrow_the_legal_actions_and_bad_input_is_shown(server, context):
    table = server.create("psalter-row", ["human"])
    player = open_seat(context, server, table["seats"][0]["invite"])
    page = player.page
    rng = random.Random(3)
    play_out(player, rng, until=_named_twice)
    state = player.state()
    assert state["end"] is None, "the game ended before a card had two uses"
    card, naming = _named_twice(state)
    # a hand card: the candidates offered are exactly the legal actions naming it
    page.locator(f'#board [data-token="{card}"]').click()
    offered = page.locator("#choices button[data-action]").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert sorted(offered) == sorted(naming)
    assert "selected" in page.locator(f'#board [data-token="{card}"]').get_attribute("class")
    # the highlighted targets are the tokens of those candidates only
    lit = page.locator("#board .clickable").evaluate_all("els => els.map(e => e.dataset.token)")
    assert lit and all(any(tok in a.split() for a in naming) for tok in lit)
    page.keyboard.press("Escape")
    assert page.locator("#board .selected").count() == 0
    # the keyboard does the same: a highlighted card takes the focus, Enter chooses it
    page.locator(f'#board [data-token="{card}"]').focus()
    page.keyboard.press("Enter")
    assert "selected" in page.locator(f'#board [data-token="{card}"]').get_attribute("class")
    page.keyboard.press("Escape")
    # a notation that does not parse, and one that is not legal: the server's words, nothing changes
    before = player.state_id()
    player.type_notation("fly away")
    assert "Not understood" in player.error_text()
    hand = state["observation"]["hand"]
    illegal = next(f"place {c} high pay {c}" for c in hand if c[0] in "23456789")
    player.type_notation(illegal)
    page.wait_for_function("() => /Not legal|Not understood/.test(document.getElementById('error').innerText) && "
                           "!/fly away/.test(document.getElementById('error').innerText)")
    assert player.state_id() == before
    # an empty notation is a new attempt too: the last error goes
    player.type_notation("")
    page.wait_for_selector("#error", state="hidden")
    assert player.errors == []
