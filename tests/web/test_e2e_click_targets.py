"""In Chromium, without playing: the client's pieces checked against the engine. For
hundreds of positions of every game, every word of every legal action that names a thing
on the table (a card, a cell, a spot, a run, a Row end, a pile) is a click target on the
drawn board, so every legal action can be made by clicking; and the picker narrows and
plays as documented."""

from __future__ import annotations

import random
from typing import Any

from browserkit import browser_fixture, context_fixture, server_fixture  # noqa: F401 (fixtures)

import parlour

#: Words of the notation that name no thing on the table (the verbs).
VERBS = {
    "psalter-row": {"place", "swap", "errand", "discard", "revise"},
    "decktet-golf": {"flip", "replace", "swap", "ontop"},
    "quisquilian": {"discard", "run", "add", "stop"},
}
#: (game, options, games played, every how many actions a position is taken)
GAMES = [("psalter-row", {}, 12, 1), ("psalter-row", {"first_page_cost": 3, "revision_discard": 2}, 6, 1),
         ("decktet-golf", {"players": 3, "excuse": True, "rounds": 1}, 3, 2),
         ("quisquilian", {"players": 4}, 3, 3), ("quisquilian", {"players": 5, "decks": 2}, 1, 3)]


def _messages(name: str, options: dict[str, Any], games: int, every: int) -> list[dict[str, Any]]:
    """State messages as the server sends them to the seat to play, along random games."""
    game = parlour.load(name, **options)
    out = []
    for seed in range(games):
        state, rng, n = game.new_state(seed), random.Random(seed), 0
        while not state.is_terminal():
            if n % every == 0:
                seat = state.current_player
                out.append({"seat": seat, "current_player": seat, "observation": state.observation(seat),
                            "legal": [str(a) for a in state.legal_actions()], "players": [], "end": None})
            state.apply(rng.choice(state.legal_actions()))
            n += 1
    return out


MISSING = """async ([name, messages, verbs]) => {
  const game = (await import("/static/js/view.js")).gameModule(name);
  const missing = [];
  for (const msg of messages) {
    const board = game.board(msg);
    const tokens = new Set([...board.querySelectorAll("[data-token]")].map((e) => e.dataset.token));
    for (const action of msg.legal) {
      const lacking = game.tokenize(action).filter((t) => !verbs.includes(t) && !tokens.has(t));
      if (lacking.length) missing.push(`${action}: no target for ${lacking.join(" ")}`);
    }
  }
  return [messages.length, missing.slice(0, 10)];
}"""


def test_every_legal_action_can_be_clicked(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    for name, options, games, every in GAMES:
        messages = _messages(name, options, games, every)
        count, missing = page.evaluate(MISSING, [name, messages, sorted(VERBS[name])])
        assert count == len(messages) > 60, (name, options)
        assert missing == [], f"{name}: {missing}"


PICKER = """async () => {
  const { Picker, containsAll } = await import("/static/js/picker.js");
  const quis = await import("/static/js/games/quisquilian.js");
  const psalter = await import("/static/js/games/psalter-row.js");
  const played = [];
  const p = new Picker(psalter.tokenize, (n) => played.push(n));
  p.setLegal(["place 9C high pay 4D", "place 9C low pay 4D", "place 4D low", "errand AS"]);
  const steps = [p.click(["KH"]), p.click(["9C"]), p.candidates().length, p.useful("AS"), p.click(["9C"]),
                 p.click(["4D"]), p.candidates().length, p.click(["high"]), played.slice(), p.selected.length];
  return {
    steps,
    quis: ["discard 7H 5", "add 8H to 2", "add 8H@2", "run 5H 6H@3 7H@3", "stop"].map(quis.tokenize),
    psalter: psalter.tokenize("place 9C high pay 2H JS"),
    repeats: [containsAll(["a", "b"], ["a", "a"]), containsAll(["a", "a", "b"], ["a", "a"])],
  };
}"""


def test_the_picker_narrows_unselects_and_plays(server, context):
    page = context.new_page()
    page.goto(server.url("/"))
    got = page.evaluate(PICKER)
    assert got["steps"] == ["useless", "selected", 2, False, "unselected", "selected", 3, "played",
                            ["place 9C high pay 4D"], 0]
    assert got["quis"] == [["discard", "7H", "spot:5"], ["add", "8H", "run:2"], ["add", "8H@2"],
                           ["run", "5H", "6H@3", "7H@3"], ["stop"]]
    assert got["psalter"] == ["place", "9C", "high", "2H", "JS"]
    assert got["repeats"] == [False, True]


HAND_FIRST = """async () => {
  const { Picker } = await import("/static/js/picker.js");
  const psalter = await import("/static/js/games/psalter-row.js");
  const quis = await import("/static/js/games/quisquilian.js");
  const played = [];
  const p = new Picker(psalter.tokenize, (n) => played.push(n));
  p.setLegal(["place 4H low", "revise 9C", "errand AS"], ["4H", "AS"]);
  const row = [p.click(["low"]), played.length, p.candidates().map((a) => a.notation), p.click(["4H"]), played.slice()];
  p.setLegal(["place 4H low", "revise 9C"], ["4H"]);
  const revise = [p.click(["9C"]), played.slice(-1)];  // no hand card in it: the Row card plays it
  const q = new Picker(quis.tokenize, (n) => played.push(n));
  q.setLegal(["discard 7H 5", "discard 8S 4"], ["7H", "8S"]);
  const spot = [q.click(["spot:5"]), played.length, q.click(["7H"]), played.slice(-1)];
  return { row, revise, spot };
}"""


def test_a_click_that_names_no_hand_card_never_plays_one(server, context):
    """A Row end or a spot alone narrows to the one action left, but plays it only once a
    hand card of it is chosen (the trial: one click on an empty slot played `place 4H low`)."""
    page = context.new_page()
    page.goto(server.url("/"))
    got = page.evaluate(HAND_FIRST)
    assert got["row"] == ["selected", 0, ["place 4H low"], "played", ["place 4H low"]]
    assert got["revise"] == ["played", ["revise 9C"]]
    assert got["spot"] == ["selected", 2, "played", ["discard 7H 5"]]
