"""In Chromium, against positions of the engine: what the table says and shows fits what
can be done. The "what to do now" sentence follows the legal actions, the notation box's
example is the game's, Psalter Row's Row has one "low" and one "high" place (and a chosen
card's outline leaves the values above it readable), Quisquilian's used spot is marked
apart from the things to click, Decktet Golf's value badge leaves the card's name whole."""

from __future__ import annotations

import random
from typing import Any, Callable

from browserkit import browser_fixture, context_fixture, open_seat, server_fixture  # noqa: F401 (fixtures)

import parlour


def _message(state: Any) -> dict[str, Any]:
    seat = state.current_player
    return {"seat": seat, "current_player": seat, "observation": state.observation(seat),
            "legal": [str(a) for a in state.legal_actions()], "players": [], "end": None}


def _find(name: str, pred: Callable[[dict[str, Any]], bool], **options: Any) -> dict[str, Any]:
    """The first state message along random games of ``name`` for which ``pred`` holds."""
    game = parlour.load(name, **options)
    for seed in range(200):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal():
            msg = _message(state)
            if pred(msg):
                return msg
            state.apply(rng.choice(state.legal_actions()))
    raise AssertionError(f"no {name} position found")


def _verbs(msg: dict[str, Any]) -> set[str]:
    return {a.split()[0] for a in msg["legal"]}


SITUATION = """async ([name, msg]) => (await import("/static/js/view.js")).gameModule(name).situation(msg)"""


def test_the_what_to_do_sentence_follows_the_legal_actions(server, context):
    page = context.new_page()
    page.goto(server.url("/"))

    def say(name: str, msg: dict[str, Any]) -> str:
        return page.evaluate(SITUATION, [name, msg])

    swaps = _find("psalter-row", lambda m: _verbs(m) == {"swap"})
    text = say("psalter-row", swaps)
    assert "Directive" in text and "place" not in text.lower() and "end of the Row" not in text, text
    top = _find("psalter-row", lambda m: _verbs(m) == {"place"} and m["observation"]["row"][-1:] == ["10" + m["observation"]["row"][-1][-1]]
                if m["observation"]["row"] else False)
    text = say("psalter-row", top)
    assert "the low end of the Row" in text and "high" not in text, text
    errand = _find("psalter-row", lambda m: m["observation"]["pending"] == "errand_discard")
    assert "Supply Errand owes a discard" in say("psalter-row", errand)
    revise = _find("psalter-row", lambda m: _verbs(m) == {"revise"})
    text = say("psalter-row", revise)
    assert "Revision" in text and "hand, then" not in text, text
    both = _find("psalter-row", lambda m: _verbs(m) == {"place", "errand"} and bool(m["observation"]["row"]))
    text = say("psalter-row", both)
    assert text.startswith("Place a Page: click it") and "Supply Errand" in text, text
    # Decktet Golf: an empty discard pile leaves only the draw; the opening says "you", not "You"
    start = _find("decktet-golf", lambda m: m["observation"]["phase"] == "start", players=2)
    assert "take its top card, or the draw pile" in say("decktet-golf", start)
    assert say("decktet-golf", {**start, "legal": ["draw"]}) == "The discard pile is empty: click the draw pile to draw."
    opening = _find("decktet-golf", lambda m: m["observation"]["phase"] == "opening", players=2)
    assert say("decktet-golf", opening).startswith("Opening: you turn up")
    # DG-11: why everyone swaps: an Excuse discarded, or one turned up to start the pile
    swap = _find("decktet-golf", lambda m: _verbs(m) == {"swap"}, players=2, excuse=True)
    discarded = say("decktet-golf", {**swap, "observation": {**swap["observation"], "after_swaps": "lines"}})
    assert discarded.startswith("The Excuse went under the discard pile: click two"), discarded
    turned = say("decktet-golf", {**swap, "observation": {**swap["observation"], "after_swaps": "cover"}})
    assert turned.startswith("The Excuse was turned up to start the discard pile"), turned
    # Quisquilian: a dig with nothing to make says so; with additions only, no runs are offered
    dig = _find("quisquilian", lambda m: m["observation"]["phase"] == "dig" and _verbs(m) == {"add", "stop"}, players=3)
    text = say("quisquilian", dig)
    assert "add to a run" in text and "run of 3+" not in text, text
    assert say("quisquilian", {**dig, "legal": ["stop"]}) == "Nothing to dig this turn: click Stop."


def test_the_notation_box_example_is_the_games(server, context):
    examples = {"psalter-row": "place 7H high pay 4C", "decktet-golf": "draw · replace C3 · flip B1",
                "quisquilian": "run 5H 6H@3 7H@3 · add 8H@2 · stop"}
    seats = {"psalter-row": ["human"], "decktet-golf": ["human", "random"], "quisquilian": ["human", "random", "random"]}
    for name, example in examples.items():
        table = server.create(name, seats[name])
        player = open_seat(context, server, table["seats"][0]["invite"])
        assert player.page.get_attribute("#notation", "placeholder") == f"type an action, e.g. {example}"
        player.page.close()


ROW = """async (msg) => {
  const psalter = await import("/static/js/games/psalter-row.js");
  const host = document.createElement("div");
  host.id = "board";
  document.body.replaceChildren(host);
  host.append(psalter.board(msg));
  const cells = [...host.querySelectorAll(".row-cell")].map((c) => {
    const slot = c.querySelector("svg.slot");
    return [c.dataset.place, slot ? slot.dataset.token || "" : "card", slot ? slot.querySelector("text").textContent.trim() : ""];
  });
  return cells;
}"""


def test_the_row_has_one_low_and_one_high_place(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    msg = _find("psalter-row", lambda m: len(m["observation"]["row"]) == 2 and m["observation"]["row"][0][:-1] in "456"
                and m["observation"]["row"][-1][:-1] in "5678")
    low, high = (int(code[:-1]) for code in (msg["observation"]["row"][0], msg["observation"]["row"][-1]))
    cells = {place: (token, label) for place, token, label in page.evaluate(ROW, msg)}
    tokens = {place: token for place, (token, _) in cells.items() if token not in ("", "card")}
    assert tokens == {f"row:{low - 1}": "low", f"row:{high + 1}": "high"}, cells
    for place, (token, label) in cells.items():
        if token == "":
            assert label == "", f"{place}: an empty place beyond the ends is labelled {label!r}"


def test_a_row_end_alone_never_plays_a_card_not_chosen(server, context):
    """The trial's bug: one click on an empty Row place played `place 4H low` at once."""
    table = server.create("psalter-row", ["human"])
    player = open_seat(context, server, table["seats"][0]["invite"])
    page = player.page
    # play until a Row end is a target of exactly one legal action
    rng = random.Random(11)
    for _ in range(200):
        state = player.wait_my_turn_or_end()
        assert not state["end"], "no position with a single place at one end"
        ends = [e for e in ("low", "high") if sum(e in a.split() for a in state["legal"]) == 1]
        if ends and page.locator(f'#board [data-token="{ends[0]}"]').count():
            break
        player.act(rng.choice(state["legal"]))
    end = ends[0]
    action = next(a for a in state["legal"] if end in a.split())
    before = player.state_id()
    page.locator(f'#board [data-token="{end}"]').click()
    page.wait_for_timeout(300)
    assert player.state_id() == before and not page.evaluate("() => window.parlour.waiting"), "the click played"
    offered = page.locator("#choices button[data-action]").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert offered == [action]
    # the chosen end's outline stays below the value written over it
    gap = page.evaluate("""(end) => {
      const slot = document.querySelector(`#board [data-token="${end}"]`);
      const label = slot.parentElement.querySelector(".row-value").getBoundingClientRect();
      return slot.getBoundingClientRect().top - 4 - label.bottom;  // the outline: 3px + 1px offset
    }""", end)
    assert gap >= 0, f"the outline covers the value label by {-gap}px"
    # the hand card of the action completes it
    card = action.split()[1]
    page.locator(f'#board [data-token="{card}"]').click()
    assert player.wait_for_state(before)["log"][-1]["action"] == action
    assert player.errors == []


QUIS = """async (msg) => {
  const quis = await import("/static/js/games/quisquilian.js");
  const { Picker } = await import("/static/js/picker.js");
  const host = document.createElement("div");
  document.body.replaceChildren(host);
  host.append(quis.board(msg));
  const picker = new Picker(quis.tokenize, () => {});
  picker.setLegal(msg.legal, msg.observation.hand);
  picker.decorate(host);
  const style = (el) => { const s = getComputedStyle(el); return [s.borderTopStyle, s.outlineStyle, s.borderTopColor]; };
  const used = host.querySelector(`.spot[data-spot="${msg.observation.used_spots[0]}"]`);
  const free = host.querySelector(".spot.clickable");
  return { used: [...style(used), used.classList.contains("clickable"), used.querySelector(".spot-used")?.textContent],
           free: style(free) };
}"""


def test_a_used_spot_is_marked_apart_from_the_clickable_ones(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    msg = _find("quisquilian", lambda m: m["observation"]["phase"] == "discard" and m["observation"]["used_spots"], players=3)
    got = page.evaluate(QUIS, msg)
    border, outline, colour, clickable, tag = got["used"]
    assert (border, outline, clickable, tag) == ("dashed", "none", False, "used this turn")
    assert got["free"][1] == "solid" and got["free"][0] != "dashed", "a spot to click: the gold outline"


GOLF = """async (msg) => {
  const golf = await import("/static/js/games/decktet-golf.js");
  document.body.replaceChildren(golf.board(msg));
  const out = [];
  for (const cell of document.querySelectorAll(".gl-cell")) {
    const badge = cell.querySelector(".gl-value");
    if (!badge) continue;
    const texts = cell.querySelectorAll("svg.card text");
    const name = texts[texts.length - 1].getBoundingClientRect(), b = badge.getBoundingClientRect();
    const overlap = b.left < name.right && name.left < b.right && b.top < name.bottom && name.top < b.bottom;
    out.push([cell.dataset.place, overlap]);
  }
  return out;
}"""


def test_the_golf_value_badge_leaves_the_card_name_whole(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    msg = _find("decktet-golf", lambda m: sum(c not in ("?", None) for c in m["observation"]["layouts"][0].values()) >= 6,
                players=2)
    got = page.evaluate(GOLF, msg)
    assert len(got) >= 6
    assert [place for place, overlap in got if overlap] == []
