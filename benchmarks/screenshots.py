"""Screenshots of the web table for docs/web-client.md: the lobby, each game mid-game, an
end-of-game breakdown and a replay, taken in the system Chromium against a real
``parlour serve`` (its own temporary database, bots without delay).

    .venv/bin/python benchmarks/screenshots.py [--out docs/screenshots]

The deals are the server's (secret, random), so each run shows other cards; the seats
played by the script choose at random, preferring to place cards, so the tables fill up.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))

from browserkit import CHROMIUM, CHROMIUM_ARGS, Player, Server, require_chromium

VIEWPORT = {"width": 1400, "height": 900}


def choose(rng: random.Random, legal: list[str], prefer: tuple[str, ...]) -> str:
    liked = [a for a in legal if a.split()[0] in prefer]
    return rng.choice(liked or legal)


def play_until(player: Player, rng: random.Random, done: Callable[[dict[str, Any]], bool],
               prefer: tuple[str, ...] = ()) -> dict[str, Any]:
    """Click actions for the seat until ``done(state)`` holds on its turn (or the game ends)."""
    for _ in range(2000):
        state = player.wait_my_turn_or_end()
        if state["end"] or done(state):
            return state
        player.act(choose(rng, state["legal"], prefer))
    raise RuntimeError("the game went on too long for a screenshot")


def shared_card(legal: list[str]) -> str | None:
    """A card (``7H`` or ``7H@3``) that two or more of the legal runs use, if any."""
    uses: dict[str, int] = {}
    for action in legal:
        if action.startswith("run"):
            for card in action.split()[1:]:
                uses[card] = uses.get(card, 0) + 1
    return next((card for card, n in uses.items() if n >= 2), None)


def shot(player: Player, out: Path, name: str) -> None:
    player.page.mouse.move(0, 0)  # no hover lift on a card
    player.page.wait_for_timeout(2400)  # the glow of the places just changed fades
    player.page.screenshot(path=str(out / name), full_page=True)
    print("wrote", out / name)


def open_page(browser: Any, server: Server, path: str) -> Player:
    page = browser.new_context(viewport=VIEWPORT).new_page()
    player = Player(page)
    page.goto(server.url(path))
    return player


def take_all(browser: Any, server: Server, out: Path, rng: random.Random) -> None:
    # Psalter Row, mid-game: a Row of five or more Pages and a Page to place
    for attempt in range(10):
        table = server.create("psalter-row", ["human"], names=["Ada"])
        ada = open_page(browser, server, table["seats"][0]["invite"])
        state = play_until(ada, rng, lambda s: len(s["observation"]["row"]) >= 5
                           and any(a.startswith("place") for a in s["legal"]), ("place", "errand", "swap"))
        if not state["end"] or attempt == 9:  # (the last try is shown even if it ended)
            break
        ada.page.context.close()
    shot(ada, out, "psalter-row.png")
    # the replay of that game, a few steps before its end
    play_until(ada, rng, lambda s: False, ("place",))
    ada.page.click("#replay-link")
    ada.page.wait_for_function("() => document.body.dataset.step !== undefined")
    for _ in range(4):
        ada.page.click("#prev")
    shot(ada, out, "replay.png")

    # Decktet Golf, three seats, mid-round: the own turn with a card drawn
    table = server.create("decktet-golf", ["human", "heuristic", "ismcts:iterations=100"], names=["Ada", None, None],
                          rounds=2)
    golfer = open_page(browser, server, table["seats"][0]["invite"])
    play_until(golfer, rng, lambda s: s["observation"]["turns"] >= 12 and s["observation"]["phase"] == "start")
    golfer.act("draw")
    shot(golfer, out, "decktet-golf.png")
    # ... and the match's end, with every seat's score explained
    play_until(golfer, rng, lambda s: False)
    golfer.page.wait_for_selector("#breakdown:not([hidden])")
    shot(golfer, out, "end-breakdown.png")

    # Quisquilian, four seats, in the dig with a card chosen: the candidates offered
    for attempt in range(10):  # a table where two runs share a card before the game ends
        table = server.create("quisquilian", ["human", "heuristic", "heuristic", "random"],
                              names=["Ada", None, None, None])
        quis = open_page(browser, server, table["seats"][0]["invite"])
        state = play_until(quis, rng, lambda s: s["observation"]["phase"] == "dig" and s["observation"]["turns"] >= 12
                           and shared_card(s["legal"]) is not None,
                           ("add",))
        if not state["end"] or attempt == 9:
            break
        quis.page.context.close()
    card = shared_card(state["legal"]) if not state["end"] else None
    if card:
        quis.page.locator(f'#board [data-token="{card}"]').first.click(position={"x": 10, "y": 8})
    shot(quis, out, "quisquilian.png")

    # the lobby, with the tables above open and finished, and a table just made
    lobby = open_page(browser, server, "/")
    lobby.page.wait_for_selector("#open-tables table")
    lobby.page.select_option("#game", "quisquilian")
    lobby.page.select_option(".seat-row:nth-child(2) select.kind", "human")
    lobby.page.fill(".seat-row:nth-child(1) input.name", "Ada")
    lobby.page.fill(".seat-row:nth-child(2) input.name", "Bea")
    lobby.page.click("#create")
    lobby.page.wait_for_selector("#created:not([hidden])")
    lobby.page.wait_for_timeout(600)
    lobby.page.evaluate("() => window.scrollTo(0, 0)")
    shot(lobby, out, "lobby.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "screenshots")
    parser.add_argument("--seed", type=int, default=1, help="seed of the script's own choices")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    require_chromium()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        server = Server(Path(tmp) / "screenshots.db").start()
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            take_all(browser, server, args.out, random.Random(args.seed))
        finally:
            browser.close()
            server.stop()


if __name__ == "__main__":
    main()
