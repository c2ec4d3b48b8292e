"""Quisquilian at the terminal: a scripted game to its end, two people at one terminal, the table."""

from __future__ import annotations

import random
import re

import pytest

from helpers import PASS, Watcher, console, hot_seat, plain

import parlour
from parlour.games.quisquilian.text import coverage_strip, hand_text, render
from parlour.play.terminal import action_list, action_order, play


def dig_state(seed: int = 5):
    """Seed 5, three players: seat 0 rolls 1, discards 4C on spot 1 and may dig two runs."""
    state = parlour.load("quisquilian", players=3).new_state(seed=seed)
    state.apply("discard 4C 1")
    return state


def test_a_scripted_three_player_game_to_its_end():
    state = parlour.load("quisquilian", players=3).new_state(seed=5)
    out = console()
    # a bad number, text that does not parse, a run in the discard step, then discard by notation;
    # in the dig: a run that is not legal, then a run by notation (cards in any order)
    ask = Watcher(state, out, answers=["99", "dig it", "run 9D 10D JD@7", "help", "discard 4c 1",
                                       "run 6C 7C 8C", "run jd@7 10d 9D"])
    result = play(state, ask, out, agents=[None, parlour.agent("random"), parlour.agent("random")],
                  rng=random.Random(3), seed=5)
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert not result.quit and result.state.is_terminal()
    assert "there is no action 99: choose 1 to 54" in text
    assert "'dig it' does not parse" in text
    assert "first discard 1 more card" in text  # a run before the discard is done
    assert "run 6C 7C 8C:" in text and "Not played:" in text  # an illegal run says why
    assert "> run 9D 10D JD@7" in text  # notation in any order, shown canonically
    assert "dig runs out of the trash" in text  # help: the rules summary
    assert re.search(r"seat [12] \(random\): discard \w+ \d", text)
    assert re.search(r"Turn \d+ · seat [12] \(random\) rolled [1-6]", text)  # the die roll opens each turn
    assert "Turn 1 · seat 0 (human) rolled 1" in text
    assert "Game over" in text and "Result:" in text
    assert PASS not in text  # one person: never a pass screen
    # the discard step is a table: one row per card, one column per spot
    first = ask.prompts[0][1]
    assert "discard (54)" in first and re.search(r"discard 4C +1 +2 +3 +4 +5 +6 +7 +8 +9\n", first)
    assert re.search(r"discard 10D +46 +47 +48 +49 +50 +51 +52 +53 +54", first)
    record = result.state.record(players=["human", "random", "random"])
    assert parlour.replay(record).history() == result.state.history()


def test_numbers_follow_the_listed_order():
    state = dig_state()
    legal = state.legal_actions()
    assert [str(a) for a in legal] == ["run 9D 10D JD@7", "run 7S@8 8S@6 9S@3", "stop"]
    assert action_order(legal) == legal  # a short list as it comes
    shown = plain(action_list(legal))
    assert " 1 run 9D 10D JD@7" in shown and " 3 stop" in shown
    # a long list: grouped by first word, numbered in that order, each group with an example
    state = parlour.load("quisquilian", players=3).new_state(seed=5)
    discards = state.legal_actions()
    mixed = discards[:10] + [legal[0]] + discards[10:20] + [legal[2]]
    ordered = action_order(mixed)
    assert [str(a).split()[0] for a in ordered] == ["discard"] * 20 + ["run", "stop"]
    shown = plain(action_list(mixed))
    assert "discard (20)" in shown and "21 run 9D 10D JD@7" in shown and "22 stop" in shown


def test_two_people_get_pass_screens_and_never_see_each_other_s_hand():
    state = parlour.load("quisquilian", players=3).new_state(seed=8)
    ask, passes, moves = hot_seat(state)
    assert PASS in ask.prompts[0][0]  # nobody's hand before the first pass screen
    previous = None
    for prompt, shown, seat, position in ask.prompts:
        if PASS in prompt:
            assert f"seat {seat}" in prompt and seat != previous
            previous = seat
            continue
        if seat != previous:
            raise AssertionError(f"seat {seat} decided after seat {previous} without a pass screen")
        previous = seat
    # each view shows its own hand (the codes of that seat's hand, sorted by suit) and no other
    for prompt, shown, seat, position in moves:
        if "Your hand" not in shown:
            continue
        hands = re.findall(r"Your hand \(seat (\d)", shown)
        assert hands and set(hands) == {str(seat)}, (seat, hands)
        line = shown[shown.rindex("Your hand"):].splitlines()[0]
        other = position["hands"][1 - seat]
        mine = position["hands"][seat]
        assert sorted(re.findall(r"\b(?:10|[2-9AJQK])[CDHS]\b", line)) == sorted(mine)
        if sorted(other) != sorted(mine):
            assert sorted(re.findall(r"\b(?:10|[2-9AJQK])[CDHS]\b", line)) != sorted(other)
    text = ask.out.file.getvalue()  # type: ignore[attr-defined]
    assert "Pass the terminal to seat 0" in text and "Pass the terminal to seat 1" in text
    assert "Since your last decision" in text


def test_the_table_fits_100_columns_for_every_number_of_seats():
    for players in range(3, 9):
        game = parlour.load("quisquilian", players=players)
        state = game.new_state(seed=players)
        rng, agent = random.Random(0), parlour.agent("random")
        for _ in range(40 * players):
            if state.is_terminal():
                break
            state.apply(agent.act(state.view(state.current_player), rng))
        text = plain(render(state.observation(0)), width=200)
        lines = text.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= 100, players
        assert sum(line.lstrip("▶ ").startswith("Seat ") for line in lines) == players
        for spot in range(1, 10):
            assert f"Spot {spot}" in text
        assert text.count("╭") == 9 and text.count("╯") == 9
        assert "Your hand (seat 0" in text and "Draw pile" in text


def test_the_table_shows_tops_heights_beneath_used_spots_runs_and_coverage():
    state = dig_state()
    state.apply("run 9D 10D JD@7")
    obs = state.observation(0)
    text = plain(render(obs))
    assert "Turn 1 · ▶ seat 0 to play (you) · die 1 · dig" in text
    assert "Spot 1 ── 2 cards" in text and "top 4C" in text and "under KH" in text
    assert "used this turn" in text and text.count("used this turn") == 1  # spot 1 took the discard
    assert "Spot 7 ──── empty" in text and "(empty)" in text  # JD left spot 7
    assert re.search(r"▶ Seat 0 \(you\) +3 cards +········9TJ·· +3/13 +1:9D-JD", text)
    assert re.search(r"  Seat 1 +6 cards +············· +0/13 +no runs", text)
    assert "Your hand (seat 0, 3 cards): ♣ 6C 8C   ♦ 3D" in text
    other = plain(render(state.observation(1)))
    assert "6C 8C" not in other and "▶ Seat 0 " in other and "Seat 1 (you)" in other
    viewed = plain(render(obs, "viewed"))  # a replay's or a bot's seat: tagged, in the third person
    assert "Turn 1 · ▶ seat 0 to play (viewed) · die 1 · dig" in viewed and "(you)" not in viewed
    assert re.search(r"▶ Seat 0 \(viewed\) +3 cards +········9TJ·· +3/13 +1:9D-JD", viewed)
    columns = {line.index("cards") for line in viewed.splitlines() if line.lstrip("▶ ").startswith("Seat ")}
    assert len(columns) == 1  # the untagged seats' lines are padded to the tag's width
    assert "Hand of seat 0 (viewed, 3 cards): ♣ 6C 8C   ♦ 3D" in viewed and "Your hand" not in viewed


def test_helpers():
    assert coverage_strip(range(1, 14)) == "A23456789TJQK"
    assert coverage_strip([]) == "·" * 13
    assert plain(hand_text(["KS", "2C", "10H", "AS", "3D", "9C"])).strip() == "♣ 2C 9C   ♦ 3D   ♥ 10H   ♠ AS KS"
    obs = parlour.load("quisquilian").new_state(seed=1).observation(0)
    obs["spots"][0] = ["10H", "10S", "10C", "10D", "QS", "KS", "AS", "2S"]
    text = plain(render(obs))
    assert "Spot 1 ── 8 cards" in text and "top 2S" in text
    # every card beneath, newest first (all are public), wrapped inside spot 1's box
    box = [line[1:21] for line in text.splitlines() if line.startswith("│")]
    assert " ".join(" ".join(box).split()).count("under AS KS QS 10D 10C 10S 10H") == 1


def test_every_card_of_a_tall_stack_is_shown_and_the_row_of_boxes_stays_aligned():
    obs = parlour.load("quisquilian", players=5).new_state(seed=1).observation(0)
    codes = ["10H", "10S", "10C", "10D", "QS", "KS", "AS", "2S", "JH", "9D", "8C", "7S", "6H", "5D", "4C"]
    obs["spots"][4] = codes  # spot 5, the middle of the second row
    lines = plain(render(obs)).splitlines()
    grid = [line for line in lines if line[:1] in "│╭╰"]
    assert len({len(line.rstrip()) for line in grid}) == 1  # every line of the grid as wide: boxes aligned
    second_row = grid[grid.index(next(line for line in grid if "Spot 4" in line)):]
    second_row = second_row[1:second_row.index(next(line for line in second_row if line.startswith("╰")))]
    inside = [line[24:44] for line in second_row]  # spot 5: the second box of the row, 22 wide
    assert all(line[23] == "│" and line[44] == "│" for line in second_row)
    shown = " ".join(" ".join(inside).split())
    assert shown == f"top 4C under {' '.join(reversed(codes[:-1]))}"
    assert max(len(line.rstrip()) for line in lines) <= 100


def test_a_clearing_of_the_yard_is_told():
    game = parlour.load("quisquilian", players=3)
    state, rng = game.new_state(seed=5), random.Random(1)
    while not state.is_terminal() and state.observation(0)["clearings"] == 0:
        before = state.observation(0)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    after = state.observation(0)
    assert after["clearings"] == 1, "the game should reach a clearing"
    told = game.events(before, after)
    assert any(line.startswith("The yard was cleared") and "(QU-7)" in line for line in told)
    assert game.events(after, after) == []


@pytest.mark.parametrize("options, end", [({}, "complete"), ({"max_turns": 4}, "max_turns")])
def test_the_last_turn_has_one_number_in_its_header_and_at_the_end(options, end):
    """The header of the winning turn and the end screen name the same turn, and the heading of
    a game cut short by max_turns names the last turn it played."""
    game = parlour.load("quisquilian", players=3, **options)
    state, out = game.new_state(seed=5), console()
    play(state, lambda _: "1", out, agents=[parlour.agent("heuristic")] * 3, rng=random.Random(1))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert state.end_reason == end
    headers = [int(n) for n in re.findall(r"Turn (\d+) · seat \d", text)]
    assert headers == list(range(1, headers[-1] + 1))
    assert f"Game over in turn {headers[-1]} · " in text
    assert state.stats()["turns"] == headers[-1], "the stats count the turns the headers named"
    if end == "max_turns":
        assert headers[-1] == 4
