"""End to end in Chromium: two people, each in their own browser profile, play two
Quisquilian seats against each other and a bot, by clicking hand cards, spots, stack cards
and runs; each sees only its own hand."""

from __future__ import annotations

import random
import time

from browserkit import Player, browser_fixture, open_seat, server_fixture  # noqa: F401 (fixtures)

TURNS = 9  # three rounds of the three seats: each person plays three turns


def _to_play(player: Player) -> bool:
    return player.page.evaluate("() => document.body?.dataset.toPlay === 'me'")


def test_two_browsers_play_quisquilian_seats_with_a_bot(server, browser):
    table = server.create("quisquilian", ["human", "human", "heuristic"], names=["Ada", "Bea", None])
    contexts = [browser.new_context(viewport={"width": 1400, "height": 1000}) for _ in range(2)]
    try:
        players = [open_seat(ctx, server, table["seats"][seat]["invite"], name)
                   for seat, (ctx, name) in enumerate(zip(contexts, ["Ada", "Bea"]))]
        rng = random.Random(5)
        made = [0, 0]
        kinds: set[str] = set()
        deadline = time.monotonic() + 120
        told_off = False
        while players[0].state()["observation"]["turns"] < TURNS and not players[0].state()["end"]:
            assert time.monotonic() < deadline, "the game did not move on"
            acted = False
            for seat, player in enumerate(players):
                if _to_play(player) and not told_off:
                    # while this seat is to play nobody else can be: the other one who acts is told
                    # so, and nothing changes
                    other = players[1 - seat]
                    before = other.state_id()
                    other.type_notation("stop")
                    assert other.error_text().startswith("Not your turn")
                    assert other.state_id() == before == player.state_id()
                    told_off = True
                if _to_play(player):
                    legal = player.legal()
                    # runs and additions when there are any: clicks on stack cards and runs
                    digs = [a for a in legal if a.split()[0] in ("run", "add")]
                    notation = rng.choice(digs or legal)
                    player.act(notation)
                    kinds.add(notation.split()[0])
                    made[seat] += 1
                    acted = True
            if not acted:
                time.sleep(0.05)
        assert made[0] >= 3 and made[1] >= 3 and told_off
        assert "discard" in kinds
        # both pages reach the same state; the log holds each person's actions as clicked
        final = players[0].state()["state_id"]
        for player in players:
            player.page.wait_for_function(f"() => Number(document.body?.dataset.stateId) >= {final}")
        states = [p.state() for p in players]
        assert states[0]["log"][:final] == states[1]["log"][:final]
        for seat in (0, 1):
            assert sum(1 for e in states[seat]["log"] if e["seat"] == seat) == made[seat]
        # each page shows its own hand, and never the other's cards
        for seat, (player, state) in enumerate(zip(players, states)):
            hand = state["observation"]["hand"]
            shown = player.page.locator(".hand [data-code]").evaluate_all("els => els.map(e => e.dataset.code)")
            assert sorted(shown) == sorted(hand)
            other = states[1 - seat]["observation"]["hand"]
            everywhere = player.page.locator("[data-code]").evaluate_all("els => els.map(e => e.dataset.code)")
            assert not set(other) & set(everywhere), f"seat {seat}'s page shows a card of the other hand"
            assert player.page.locator(f".quis-seat[data-seat='{seat}'] .tag.you").count() == 1
        # the yard: nine spots, each stack drawn whole with its height
        spots = states[0]["observation"]["spots"]
        for spot, stack in enumerate(spots, 1):
            cards = players[0].page.locator(f".spot[data-spot='{spot}'] [data-code]")
            assert cards.evaluate_all("els => els.map(e => e.dataset.code)") == stack
        assert players[0].errors == [] and players[1].errors == []
    finally:
        for ctx in contexts:
            ctx.close()
