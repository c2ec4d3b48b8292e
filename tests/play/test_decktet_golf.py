"""Decktet Golf at the terminal: a scripted match, several people at one terminal, the table."""

from __future__ import annotations

import random
import re

from helpers import PASS, Watcher, console, hot_seat, plain

import parlour
from parlour.play.terminal import play


def test_a_full_two_player_match_with_an_agent():
    state = parlour.load("decktet-golf").new_state(seed=11)
    out = console()
    ask = Watcher(state, out, answers=["99", "flip Z9", "help", "show"])
    result = play(state, ask, out, agents=[None, parlour.agent("random")], rng=random.Random(2))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert not result.quit and result.state.is_terminal()
    assert "there is no action 99" in text and "Not played:" in text and "'Z9' is not a cell" in text
    assert "keep the lowest total in your plus-shaped layout" in text  # help: game.rules_summary
    assert "Suits: ☾ Moons, ☀ Suns, ≈ Waves, ♣ Leaves, ⚕ Wyrms, ∞ Knots." in text  # the table's symbols
    assert re.search(r"seat 1 \(random\): (draw|take|flip \w\d)", text)
    assert "Game over" in text and "Result:" in text
    assert PASS not in text  # one person: never a pass screen
    assert "Seat 0 (you)" in text.split("Game over")[-1]  # one person: their own table at the end
    assert "match " in text and "showing " in text and "Discard:" in text and "Draw pile:" in text


def test_two_people_and_an_agent_get_pass_screens_and_their_own_views():
    game = parlour.load("decktet-golf", players=3, excuse=True, rounds=1)
    state = game.new_state(seed=5)
    ask, passes, moves = hot_seat(state)
    # every change of person at the terminal had its pass screen first
    previous = None
    for prompt, _, seat, _ in ask.prompts:
        if PASS in prompt:
            assert f"seat {seat}" in prompt and seat != previous
            previous = seat
            continue
        if previous is not None and seat != previous:
            raise AssertionError(f"seat {seat} decided after seat {previous} without a pass screen")
        previous = seat
    # a person's view is their own, and never shows a pile card another seat holds
    held_by_other = 0
    for prompt, shown, seat, position in moves:
        assert f"Seat {seat} (you)" in shown
        assert shown.count("(you)") == 1
        if position["drawn"] and position["drawn_from"] == "pile" and position["turn"] != seat:
            held_by_other += 1
            assert "In your hand" not in shown and "(hidden)" in shown
        if "In your hand" in shown:
            assert position["turn"] == seat
    text = ask.out.file.getvalue()  # type: ignore[attr-defined]
    assert "Pass the terminal to seat 1" in text and "Pass the terminal to seat 0" in text
    assert "Since your last decision" in text
    end = text.split("Game over")[-1]  # everyone at the terminal reads it: nobody is "you"
    assert "Seat 0 (viewed)" in end and "(you)" not in end


def test_a_match_of_bots_alone_ends_on_a_table_that_calls_nobody_you():
    state = parlour.load("decktet-golf", rounds=1).new_state(seed=11)
    out = console()
    bots = [parlour.agent("random"), parlour.agent("random")]
    result = play(state, Watcher(state, out, answers=[]), out, agents=bots, rng=random.Random(2))
    end = out.file.getvalue().split("Game over")[-1]  # type: ignore[attr-defined]
    assert result.state.is_terminal() and "Seat 0 (viewed)" in end and "(you)" not in end


def test_the_view_of_a_seat_while_another_holds_a_pile_card():
    state = parlour.load("decktet-golf", players=3).new_state(seed=2)
    while state.legal_actions()[0].__str__().startswith("flip"):
        state.apply(state.legal_actions()[0])
    state.apply("draw")
    drawer = state.current_player
    card = state.to_position()["drawn"]
    game = state.game
    mine = plain(game.render(state.observation(drawer)))
    assert "In your hand:" in mine
    from parlour.cards.decktet import NAME, parse_card

    name = NAME[parse_card(card)]
    assert name in mine
    for seat in range(3):
        if seat != drawer:
            theirs = plain(game.render(state.observation(seat)))
            assert "In your hand" not in theirs and f"Seat {drawer} holds a card drawn from the pile" in theirs
            assert name not in theirs.split("Discard:")[1]
    # the drawer's own table seen by someone else (a replay, a bot's seat): tagged, in the third person
    viewed = plain(game.render(state.observation(drawer), you="viewed"))
    assert f"Seat {drawer} (viewed)" in viewed and "(you)" not in viewed and "In your hand" not in viewed
    assert re.search(rf"Seat {drawer} holds \S+ \(\w+, {re.escape(name)}\) from the draw pile\.", viewed), viewed


def test_the_table_fits_100_columns_for_every_number_of_seats():
    for players in range(2, 6):
        game = parlour.load("decktet-golf", players=players)
        state = game.new_state(seed=players)
        rng, agent = random.Random(0), parlour.agent("random")
        for _ in range(40):
            state.apply(agent.act(state.view(state.current_player), rng))
        text = plain(game.render(state.observation(0)), width=200)
        lines = text.splitlines()
        widest = max(len(line.rstrip()) for line in lines if "Discard" not in line and "In your" not in line)
        assert widest <= 100, (players, widest)
        assert sum("Seat " in line for line in lines) >= 1
        assert sum(line.count("Seat ") for line in lines) == players
        assert "A      B      C      D" in text and "▒▒▒▒▒▒" in text


def test_empty_cells_and_near_lines_are_marked():
    game = parlour.load("decktet-golf")
    obs = game.new_state(seed=1).observation(0)  # render works from the observation alone
    layout = obs["layouts"][0]
    layout.update({"A2": "7WY", "B2": "3MW", "C2": "AW", "D2": "9LK", "A3": "5SW", "B3": "9WY", "C3": "CMWK"})
    del layout["B1"]
    text = plain(game.render(obs))
    assert "◆ row 2 needs ≈ at D2" in text  # face up, but a replacement would do it
    assert "◆ row 3 needs ≈ at D3" in text  # face down: a flip or a replacement
    assert "··" in text
    assert "7≈⚕  7" in text and "9♣∞  9" in text and "☾≈∞ -2" in text


def test_every_card_keeps_a_space_between_its_suits_and_its_value():
    from parlour.cards.decktet import CODE, SUIT_SYMBOLS
    from parlour.games.decktet_golf.scoring import VALUE
    from parlour.games.decktet_golf.text import CELL, card_markup

    game = parlour.load("decktet-golf", excuse=True)
    for card in sorted(set(game.deck)):
        shown = plain(card_markup(CODE[card])).rstrip("\n")
        assert len(shown) == CELL, shown
        label, value = shown.rsplit(" ", 1)
        assert value == str(VALUE[card]) and label.strip(), shown
        assert all(symbol in label for symbol, letter in zip(SUIT_SYMBOLS, "MSWLYK")
                   if letter in CODE[card][1:]), shown  # every suit shown
    assert plain(card_markup("PSWK")).strip() == "☀≈∞ -1" and plain(card_markup("CMWK")).strip() == "☾≈∞ -2"


def test_a_new_round_first_shows_the_layouts_of_the_round_just_scored():
    game = parlour.load("decktet-golf", players=2, target=300)
    state, rng = game.new_state(seed=3), random.Random(0)
    while state.observation(0)["round"] == 1:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    obs = state.observation(0)
    text = plain(game.render(obs), width=120)
    scores = obs["round_scores"][0]
    assert f"Round 1 ended: the layouts as scored ({scores[0]} / {scores[1]})" in text
    before_round_2 = text.split("Round 2")[0]
    assert "▒" not in before_round_2  # the scored layouts are all face up
    for code in obs["last_round_layouts"][0].values():
        assert code in state.to_position()["last_round_layouts"][0].values()
    state.apply(state.legal_actions()[0])
    later = state
    while len(later.observation(0)["face_up"][later.current_player]) <= 2 and not later.is_terminal():
        legal = later.legal_actions()
        later.apply(legal[rng.randrange(len(legal))])
    assert "Round 1 ended" not in plain(game.render(later.observation(0)), width=120)


def test_the_end_of_a_round_and_the_last_turns_are_told():
    game = parlour.load("decktet-golf", players=2, target=300)
    state, rng = game.new_state(seed=3), random.Random(0)
    told = []
    while state.observation(0)["round"] == 1:
        before = state.observation(0)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
        told += game.events(before, state.observation(0))
    assert any("no face-down card left: everyone else has one last turn (DG-8)" in line for line in told)
    scores = state.observation(0)["round_scores"][0]
    assert f"Round 1 is over: all cards turned up and lines checked; it scored {scores[0]} / {scores[1]}" in " ".join(told)


def test_every_move_is_told_with_the_cards_the_player_may_know():
    """A person against a bot: the bot's moves and the person's own are told with their cards; a
    card the bot drew from the pile is not named while it holds it, the person's own is."""
    state = parlour.load("decktet-golf", rounds=1).new_state(seed=4)
    out = console(width=200)  # a told move on one line

    def ask(prompt: str) -> str:
        return "draw" if "draw" in {str(a) for a in state.legal_actions()} else "1"

    play(state, ask, out, agents=[None, parlour.agent("heuristic")], rng=random.Random(2))
    text = out.file.getvalue()  # type: ignore[attr-defined]
    told = [line.strip() for line in text.splitlines() if line.startswith("  Seat ")]
    assert any(re.fullmatch(r"Seat 0 drew .+ \(-?\d+, [^)]+\) from the draw pile\.", line) for line in told)
    assert any(re.fullmatch(r"Seat 1 took .+ \(-?\d+, [^)]+\) from the discard pile\.", line) for line in told)
    thrown = [line for line in told if re.match(r"Seat [01] replaced \w\d", line)]
    card = r".+ \(-?\d+, [^)]+\)"
    assert thrown and all(re.fullmatch(rf"Seat [01] replaced \w\d( \(face down\))? with {card}: {card} to the "
                                       r"discard pile\.", line) for line in thrown), thrown
    for line in told:
        if line.startswith("Seat 1 drew"):
            assert line == "Seat 1 drew a card from the draw pile (only they see it)."


def test_the_next_person_at_a_shared_terminal_reads_what_the_moves_did():
    game = parlour.load("decktet-golf", players=3, rounds=1)
    ask, passes, moves = hot_seat(game.new_state(seed=5))
    summaries = [shown.split("Since your last decision")[1] for _, shown, _, _ in ask.prompts
                 if "Since your last decision" in shown]
    assert summaries
    told = [line.strip() for summary in summaries for line in summary.splitlines() if line.startswith("    Seat ")]
    assert any(" replaced " in line and "to the discard pile" in line for line in told)
    # told as everyone may know it: a card drawn from the pile is never named there
    assert all(line.endswith("(only they see it).") for line in told if " drew " in line)


def test_discards_lists_the_whole_discard_pile_and_changes_nothing():
    from parlour.cards.decktet import NAME, parse_card

    game = parlour.load("decktet-golf", players=2)
    state, rng = game.new_state(seed=3), random.Random(0)
    while len(state.observation(0)["discard"]) < 5 or state.current_player != 0:
        state.apply(rng.choice(state.legal_actions()))
    before, pile = state.to_position(), state.observation(0)["discard"]
    out = console(width=200)
    ask = Watcher(state, out, answers=["help", "discards", "quit"])
    result = play(state, ask, out, agents=[None, parlour.agent("random")])
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert result.quit and result.state.to_position() == before
    assert "discards" in ask.prompts[0][0] and "discards (every card of the discard pile" in text
    listed = text.split(f"Discard pile, {len(pile)} cards, bottom to top")[1].split("Your move")[0]
    assert [name for _, name in re.findall(r"\((-?\d+), ([^)]+)\)", listed)] == \
        [NAME[parse_card(code)] for code in pile]  # every card, bottom first
    assert [int(n) for n in re.findall(r"(?:^|  )\s*(\d+) \S", listed, re.M)] == list(range(1, len(pile) + 1))


def test_discards_shows_a_reshuffled_draw_pile_too():
    game = parlour.load("decktet-golf")
    state, rng = game.new_state(seed=1), random.Random(4)
    while not state.observation(0)["pile_known"]:
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(0)
    text = plain(game.discard_pile(obs), width=2000)
    assert f"Draw pile, {len(obs['pile_contents'])} cards, reshuffled" in text
    assert text.count("(") == len(obs["discard"]) + len(obs["pile_contents"]) + 1  # one per card, one in the head
