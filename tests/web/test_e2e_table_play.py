"""End to end in Chromium: the player's table (issue 18, section 2). A click on a hand card
selects it and a second click (its place, or the Play button) plays it; undo at a solitaire
table, whose record holds only the line finally played; Decktet Golf's log told with the
public cards of every seat's moves (a bot's too), as the engine's own words name them, and
never a card the page's seat could not know; the discard pile looked through; the lobby's
option texts without ruling ids, and no swap offered in an error when the Excuse is off."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
from browserkit import Player, browser_fixture, context_fixture, open_seat, play_out, server_fixture  # noqa: F401 (fixtures)

import parlour
from parlour.cards.decktet import CODE, NAME
from parlour.games.decktet_golf.events import move_text, shed_text


def _selected(page: Any) -> list[str]:
    return page.locator("#board .selected").evaluate_all("els => els.map(e => e.dataset.token)")


def _not_played(player: Player, before: int) -> None:
    player.page.wait_for_timeout(300)  # what a played click would have sent has had time to come
    assert player.state_id() == before and not player.page.evaluate("() => window.parlour.waiting"), "the click played"


def _offered(page: Any) -> list[str]:
    return page.locator("#choices button[data-action]").evaluate_all("bs => bs.map(b => b.dataset.action)")


def _single_use(state: dict[str, Any], with_place: bool) -> tuple[str, str] | None:
    """A hand card that one legal action alone names, that action naming a Row end (or not)."""
    for card in state["observation"]["hand"]:
        naming = [a for a in state["legal"] if card in a.split()]
        if len(naming) == 1 and (("low" in naming[0].split() or "high" in naming[0].split()) == with_place):
            return card, naming[0]
    return None


def _first_page_table(server: Any, context: Any) -> Player:
    """A Psalter Row table whose first hand holds a Page (all but one deal in 600 do)."""
    for _ in range(5):
        table = server.create("psalter-row", ["human"])
        player = open_seat(context, server, table["seats"][0]["invite"])
        if any(a.startswith("place ") for a in player.state()["legal"]):
            return player
        player.page.close()
    raise AssertionError("five deals without a Page in hand")


def test_psalter_row_a_click_selects_and_a_second_plays(server, context):
    player = _first_page_table(server, context)
    page = player.page
    state = player.state()
    first = next(a for a in state["legal"] if a.startswith("place "))
    assert len(first.split()) == 2, "the first Page goes to the empty Row"
    card = first.split()[1]
    # one click on the card only chooses it: outlined in blue, its place on the Row lit, a Play button
    page.locator(f'#board [data-token="{card}"]').click()
    _not_played(player, 0)
    assert _selected(page) == [card]
    slot = page.locator(f'#board [data-token="row:{card[:-1]}"]')
    assert "clickable" in slot.get_attribute("class")
    assert _offered(page) == [first] and page.inner_text("#choices button.confirm").startswith("Play")
    # a click on the card again, or Escape, clears the choice
    page.locator(f'#board [data-token="{card}"]').click()
    assert _selected(page) == [] and _offered(page) == []
    page.locator(f'#board [data-token="{card}"]').click()
    page.keyboard.press("Escape")
    assert _selected(page) == []
    # the card, then its place in the empty Row: played
    page.locator(f'#board [data-token="{card}"]').click()
    slot.click()
    assert player.wait_for_state(0)["log"][-1]["action"] == first
    # along the game (a new one if it ends first): a card that fits one Row end waits for the
    # click on that end; a card whose one use names no place (an errand, a discard owed) for Play
    rng, todo = random.Random(4), {True, False}
    for _ in range(6):
        state = player.wait_my_turn_or_end()
        while not state["end"] and todo:
            found = next(((place, _single_use(state, place)) for place in todo if _single_use(state, place)), None)
            if found is None:
                player.act(rng.choice(state["legal"]))
                state = player.wait_my_turn_or_end()
                continue
            place, (card, action) = found
            before = player.state_id()
            page.locator(f'#board [data-token="{card}"]').click()
            _not_played(player, before)
            if place:
                page.locator(f'#board [data-token="{"low" if "low" in action.split() else "high"}"]').click()
            else:
                page.locator("#choices button.confirm").click()
            state = player.wait_for_state(before)
            assert state["log"][-1]["action"] == action
            todo.discard(place)
            state = player.wait_my_turn_or_end()
        if not todo:
            break
        assert player.errors == []
        player = _first_page_table(server, context)
        page = player.page
    assert not todo, "six games without both kinds of single use"
    assert player.errors == []


PICKER = """async () => {
  const { Picker } = await import("/static/js/picker.js");
  const quis = await import("/static/js/games/quisquilian.js");
  const golf = await import("/static/js/games/decktet-golf.js");
  const psalter = await import("/static/js/games/psalter-row.js");
  const played = [];
  const q = new Picker(quis.tokenize, (n) => played.push(n));
  q.setLegal(["add 8H to 2", "discard 7H 5"], ["8H", "7H"]);
  const add = [q.click(["8H"]), played.length, q.candidates().map((a) => a.notation), q.click(["run:2"]), played.slice()];
  const g = new Picker(golf.tokenize, (n) => played.push(n));
  g.setLegal(["take", "draw"], []);
  const take = [g.click(["take"]), played.slice(-1)];
  const p = new Picker(psalter.tokenize, (n) => played.push(n));
  p.setLegal(["place 7H", "place 9C", "errand AS"], ["7H", "9C", "AS"]);
  const first = [p.click(["row:9"]), p.click(["9C"]), played.slice(-1), psalter.tokenize("place 10H pay 4C")];
  return { add, take, first };
}"""


def test_one_click_on_a_hand_card_never_plays_in_any_game(server, context):
    """Quisquilian's addition had the same fault (one click on the card added it); Decktet
    Golf names no hand card, so its piles still play at once."""
    page = context.new_page()
    page.goto(server.url("/"))
    got = page.evaluate(PICKER)
    assert got["add"] == ["selected", 0, ["add 8H to 2"], "played", ["add 8H to 2"]]
    assert got["take"] == ["played", ["take"]]
    assert got["first"] == ["selected", "played", ["place 9C"], ["place", "10H", "4C", "row:10"]]


def test_undo_at_a_solitaire_table_keeps_the_line_finally_played(server, context):
    table = server.create("psalter-row", ["human"], names=["Ada"])
    player = open_seat(context, server, table["seats"][0]["invite"])
    page = player.page
    assert page.locator("#undo").is_hidden(), "nothing to take back before the first move"
    rng = random.Random(8)
    play_out(player, rng, until=lambda s: s["state_id"] >= 3)
    before = player.state()
    assert page.locator("#undo").is_visible()
    undone = before["log"][-1]["action"]
    page.click("#undo")
    page.wait_for_function(f"() => Number(document.body.dataset.stateId) === {before['state_id'] - 1}")
    back = player.state()
    assert [e["action"] for e in back["log"]] == [e["action"] for e in before["log"][:-1]]
    assert page.locator("#log li").count() == before["state_id"] - 1
    assert f"You took back {undone}." in page.inner_text("#notice")
    # Ctrl+Z does the same; then another line, with more undos on the way, to the end
    page.keyboard.press("Control+z")
    page.wait_for_function(f"() => Number(document.body.dataset.stateId) === {before['state_id'] - 2}")
    other = [a for a in player.state()["legal"] if a != before["log"][-2]["action"]]
    player.act(rng.choice(other or player.state()["legal"]))
    undos = 0
    while not player.state()["end"]:
        state = player.wait_my_turn_or_end()
        if state["end"]:
            break
        if rng.random() < 0.15 and state["state_id"] > 0:
            page.click("#undo")
            page.wait_for_function(f"() => Number(document.body.dataset.stateId) === {state['state_id'] - 1}")
            undos += 1
        else:
            player.act(rng.choice(state["legal"]))
    end = player.state()
    assert undos > 0 and page.locator("#undo").is_hidden(), "no undo once the game is over"
    record = httpx.get(server.url(f"/api/tables/{table['id']}/record"), timeout=10).json()
    final = [e["action"] for e in end["log"]]
    assert record["actions"] == final and len(final) == end["state_id"]
    replayed = parlour.replay(record)
    assert [str(a) for a in replayed.history()] == final and replayed.scores() == end["scores"]
    assert player.errors == []


def test_no_undo_where_the_others_have_seen_the_move(server, context, browser):
    table = server.create("decktet-golf", ["human", "heuristic"], rounds=1)
    player = open_seat(context, server, table["seats"][0]["invite"])
    play_out(player, random.Random(1), until=lambda s: s["state_id"] >= 4)
    assert player.page.locator("#undo").is_hidden()
    solo = server.create("psalter-row", ["human"])
    seat = open_seat(context, server, solo["seats"][0]["invite"])
    seat.act(seat.state()["legal"][0])
    watcher = browser.new_context()
    try:
        page = watcher.new_page()
        page.goto(server.url(f"/t/{solo['id']}"))
        page.wait_for_function("() => Number(document.body?.dataset.stateId) === 1")
        assert page.locator("#undo").is_hidden(), "a spectator takes nothing back"
    finally:
        watcher.close()


# -- Decktet Golf: the moves told with their cards ------------------------------------------------
NAMES_JS = """async () => {
  const golf = await import("/static/js/games/decktet-golf.js");
  const { DECKTET_NAMES } = await import("/static/js/cards.js");
  return Object.fromEntries(Object.keys(DECKTET_NAMES).map((code) => [code, golf.cardShort(code)]));
}"""
_PY_CARD = re.compile(r"\((-?\d+), ([^)]+)\)")  # card_long's "(value, name)"
_PY_CODE = dict(zip(NAME, CODE))


def _python_cards(before: dict[str, Any], after: dict[str, Any], action: str) -> list[str]:
    """The cards the engine's own words (events.py) name for this move, in order."""
    text = move_text(before, after, action) + (shed_text(before, after, action) or "")
    return [_PY_CODE[name] for _, name in _PY_CARD.findall(text)]


def _page_cards(text: str, short: dict[str, str]) -> list[str]:
    """The cards a page's line names, in order."""
    found = [(m.start(), code) for code, name in short.items() for m in re.finditer(re.escape(name) + r"\b", text)]
    return [code for _, code in sorted(found)]


def _check_told(log: list[dict[str, Any]], record: dict[str, Any], seat: int | None, short: dict[str, str]) -> int:
    """Every log line the page told in words names the cards the engine's words name for that
    seat, and only cards that seat's observations show; how many lines were checked."""
    game = parlour.load(record["game"], **record["options"])
    state = game.new_state(record["seed"])
    told = {e["n"]: e["text"] for e in log if e.get("text")}
    checked = 0
    for n, action in enumerate(record["actions"], 1):
        before = state.observation(seat)
        state.apply(action)
        if n not in told:
            continue
        after = state.observation(seat)
        named = _page_cards(told[n], short)
        assert named == _python_cards(before, after, action), (n, action, told[n])
        seen = json.dumps([before, after])
        assert all(f'"{code}"' in seen for code in named), (n, told[n])
        checked += 1
    return checked


def test_decktet_golf_log_lines_name_the_public_cards(server, context, browser):
    table = server.create("decktet-golf", ["human", "heuristic"], names=["Ada", None], rounds=1)
    watcher_context = browser.new_context()
    try:
        watcher = Player(watcher_context.new_page(), "watcher")
        watcher.page.goto(server.url(f"/t/{table['id']}"))
        watcher.wait_for_state()
        player = open_seat(context, server, table["seats"][0]["invite"], "Ada")
        short = player.page.evaluate(NAMES_JS)
        assert short["5YK"] == "5 Soldier" and short["9MS"] == "9 Pact" and short["AM"] == "Ace of Moons"
        play_out(player, random.Random(6))
        end = player.state()
        watcher.page.wait_for_function(f"() => Number(document.body?.dataset.stateId) === {end['state_id']}")
        record = httpx.get(server.url(f"/api/tables/{table['id']}/record"), timeout=10).json()
        seen = watcher.state()
        assert _check_told(end["log"], record, 0, short) >= len(end["log"]) - 4
        assert _check_told(seen["log"], record, None, short) >= len(seen["log"]) - 4
        # the bot's replaces name what went in and what came out; a card it drew from the pile
        # is named to nobody else until it is placed
        bots = [e for e in end["log"] if e["seat"] == 1 and e.get("text")]
        replaces = [e for e in bots if e["action"].startswith("replace")]
        # (each names one card at least, most both: a card that the observation after no longer
        # shows is left out, as the engine's words leave it out: a reshuffle right after the
        # replace takes the discard away, a round's end sheds a suited line at once)
        named = [len(_page_cards(e["text"], short)) for e in replaces]
        assert replaces and min(named) >= 1 and 2 * sum(k >= 2 for k in named) >= len(replaces), replaces
        assert all(e["text"] == "drew a card (only they see it)" for e in bots if e["action"] == "draw")
        assert all(e["text"] == "drew a card (only they see it)" for e in seen["log"] if e["action"] == "draw")
        mine = [e for e in end["log"] if e["seat"] == 0 and e["action"] == "draw"]
        assert all(len(_page_cards(e["text"], short)) == 1 for e in mine), mine
        # the log panel shows the words under the notation
        texts = player.page.locator("#log .log-text").all_inner_texts()
        assert len(texts) == sum(1 for e in end["log"] if e.get("text")) and any("to the discard" in t for t in texts)
        assert player.errors == [] and watcher.errors == []
    finally:
        watcher_context.close()


def test_since_your_last_move_names_the_bots_cards(server, context):
    table = server.create("decktet-golf", ["human", "heuristic"], rounds=1)
    player = open_seat(context, server, table["seats"][0]["invite"])
    rng = random.Random(3)

    def bot_replaced(state: dict[str, Any]) -> bool:
        mine = [e["n"] for e in state["log"] if e["seat"] == 0]
        since = [e for e in state["log"] if mine and e["n"] > mine[-1]]
        return any(e["action"].startswith("replace") for e in since)

    play_out(player, rng, until=bot_replaced)
    assert not player.state()["end"], "the bot never replaced a card"
    notice = player.page.inner_text("#notice")
    assert notice.startswith("Since your last move: heuristic") and "to the discard" in notice, notice


def test_the_discard_pile_can_be_looked_through(server, context):
    table = server.create("decktet-golf", ["human", "heuristic"], rounds=1)
    player = open_seat(context, server, table["seats"][0]["invite"])
    page = player.page
    play_out(player, random.Random(9), until=lambda s: len(s["observation"]["discard"]) >= 3)
    state = player.state()
    assert not state["end"], "the discard pile never held three cards"
    listed = "() => [...document.querySelectorAll('#discard-list li')].map((li) => li.dataset.code)"
    assert page.locator("#discard-list").is_hidden()
    before = player.state_id()
    page.click("#discard-look")
    assert page.locator("#discard-list").is_visible()
    assert page.evaluate(listed) == state["observation"]["discard"], "every card, bottom to top"
    assert page.locator("#discard-list li").last.locator("span").inner_text() == "top"
    _not_played(player, before)  # looking takes nothing
    # it stays open while the game goes on, and shows the pile as it is now
    player.act(player.state()["legal"][0])
    later = player.wait_my_turn_or_end()
    assert page.locator("#discard-list").is_visible()
    assert page.evaluate(listed) == later["observation"]["discard"]
    page.click("#discard-list button")
    assert page.locator("#discard-list").is_hidden()
    assert page.get_attribute("#discard-look", "aria-expanded") == "false"
    assert player.errors == []


# -- words ----------------------------------------------------------------------------------------
def test_no_ruling_ids_in_the_lobby_nor_swaps_without_the_excuse(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    for name in parlour.game_names():
        page.select_option("#game", name)
        docs = page.locator(".form-row .doc").all_inner_texts()
        assert docs, name
        assert not [d for d in docs if re.search(r"\b(PR|DG|QU)-\d+", d)], docs
    def said(player: Player, text: str) -> str:
        player.type_notation(text)
        player.page.wait_for_function(f"() => document.getElementById('error').innerText.includes({json.dumps(text)})")
        return player.error_text()

    table = server.create("decktet-golf", ["human", "random"])
    player = open_seat(context, server, table["seats"][0]["invite"])
    player.wait_my_turn_or_end()  # the bot may open the deal: what is typed before is "not your turn"
    for text in ("dance", "swap B1 B2", "swap", "flip"):
        assert "swap <cell>" not in said(player, text)
    assert "Excuse" in said(player, "swap B1 B2"), "a swap is refused as the Excuse's, which is off"
    # with the Excuse on, the forms include the swap
    table = server.create("decktet-golf", ["human", "random"], excuse=True)
    player = open_seat(context, server, table["seats"][0]["invite"])
    player.wait_my_turn_or_end()
    assert "swap <cell> <cell>" in said(player, "dance")
