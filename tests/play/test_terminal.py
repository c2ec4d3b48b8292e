"""Terminal play driven by scripted answers: commands, mistakes, undo, agents, records."""

from __future__ import annotations

import io
import json
import random
from itertools import chain, repeat
from typing import Any, Iterable

import pytest
from rich.console import Console

from helpers import plain

import parlour
from parlour.agents import Agent
from parlour.core.action import Action
from parlour.core.errors import IllegalAction, NotationError
from parlour.core.game import Game, State
from parlour.core.view import View
from parlour.play.terminal import (
    action_order,
    default_record_path,
    play,
    player_names,
    result_text,
    save_record,
)


def console() -> Console:
    return Console(file=io.StringIO(), width=120, highlight=False, color_system=None)


def output(out: Console) -> str:
    return out.file.getvalue()  # type: ignore[attr-defined]


def script(*answers: str, then: str | None = "1", limit: int = 2000):
    """An ask function answering ``answers`` in order, then ``then`` forever (EOF if None)."""
    feed: Iterable[str] = chain(answers, repeat(then, limit) if then is not None else ())
    it = iter(feed)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    ask.asked = asked  # type: ignore[attr-defined]
    return ask


def new_psalter(seed: int = 3) -> State:
    return parlour.load("psalter-row").new_state(seed=seed)


def test_always_answering_1_plays_to_the_end_and_shows_the_breakdown():
    out = console()
    result = play(new_psalter(), script(), out)
    text = output(out)
    assert not result.quit
    assert result.state.is_terminal()
    assert "Game over" in text
    assert "Result:" in text and str(result.state.scores()[0]) in text
    assert "pages +" in text and "missing -" in text  # the score breakdown of the last table
    assert " 1 " in text and "place" in text  # numbered legal actions were listed


def test_mistakes_are_explained_and_change_nothing():
    state = new_psalter()
    hand_card = state.observation(0)["hand"][0]
    answers = ["help", "99", "0", "9" * 4301, "²", "plaec 5D", f"discard {hand_card}", "place QS", ""]
    out = console()
    ask = script(*answers, then=None)
    before = state.to_position()
    result = play(state, ask, out)
    text = output(out)
    assert result.quit  # the script ran out: end of input counts as quit
    assert result.state.to_position() == before and result.state.history() == []
    assert "Psalter Row" in text and "Supply Errand" in text  # help shows game.rules_summary
    assert "there is no action 99: choose 1 to" in text
    assert "there is no action 0" in text
    assert "there is no action 999999999999…" in text  # more digits than int() takes: no traceback
    assert "'²' does not parse" in text  # a digit to isdigit(), not to int(): read as notation
    assert "there is no action 00" not in text  # (leading zeros are read as int() reads them: below)
    assert "'plaec 5D' does not parse" in text
    assert "nothing is owed to the discard" in text  # IllegalAction says why
    assert "Not played:" in text
    assert len(ask.asked) == len(answers) + 1  # asked again after every mistake


def test_the_game_continues_after_mistakes():
    out = console()
    result = play(new_psalter(), script("99", "plaec", "help"), out)
    assert result.state.is_terminal() and not result.quit
    assert "Game over" in output(out)


def test_notation_is_accepted_and_shown_canonically():
    state = new_psalter()
    action = state.legal_actions()[-1]
    out = console()
    result = play(state, script(str(action).upper(), "quit", then=None), out)
    assert [str(a) for a in result.state.history()] == [str(action)]
    assert f"> {action}" in output(out)


def test_undo_takes_back_the_last_decision():
    state = new_psalter()
    start = state.to_position()
    out = console()
    result = play(state, script("undo", "2", "1", "undo", "undo", "quit", then=None), out)
    text = output(out)
    assert "Nothing to undo" in text
    assert text.count("Took back") == 2
    assert result.quit
    assert result.state.history() == [] and result.state.to_position() == start


def test_undo_then_a_different_choice_is_what_is_recorded():
    state = new_psalter()
    legal = [str(a) for a in state.legal_actions()]
    result = play(state, script("1", "undo", "2", "quit", then=None), console())
    assert [str(a) for a in result.state.history()] == [legal[1]]


def test_quit_stops_at_once():
    state = new_psalter()
    ask = script("1", "quit", "1", "1", then=None)
    result = play(state, ask, console())
    assert result.quit and len(result.state.history()) == 1
    assert len(ask.asked) == 2


def test_an_agent_plays_a_solitaire_seat():
    out = console()
    result = play(new_psalter(), script(then=None), out, agents=[parlour.agent("random")], rng=random.Random(1))
    assert result.state.is_terminal() and not result.quit
    assert "seat 0 (random): " in output(out)


def test_the_record_replays_and_names_the_players(tmp_path):
    result = play(new_psalter(5), script(), console())
    path = save_record(result.state, player_names([None]), tmp_path / "deep" / "game.json")
    record = json.loads(path.read_text())
    assert record["players"] == ["human"] and record["seed"] == 5
    replayed = parlour.replay(record)
    assert replayed.to_position() == result.state.to_position()
    assert record["result"]["end"] == result.state.end_reason


def test_an_unfinished_game_is_saved_and_replays(tmp_path):
    result = play(new_psalter(), script("1", "2", "quit", then=None), console())
    path = save_record(result.state, ["human"], tmp_path / "r.json")
    assert parlour.replay(path.read_text()).history() == result.state.history()


def test_default_record_path_never_overwrites(tmp_path):
    import datetime as dt

    when = dt.datetime(2025, 1, 2, 3, 4, 5)
    first = default_record_path("psalter-row", 9, when, tmp_path)
    assert first.name == "psalter-row-20250102-030405-seed9.json"
    first.write_text("{}")
    second = default_record_path("psalter-row", 9, when, tmp_path)
    assert second != first and second.name.endswith("-2.json")


# -- a two-seat game, to check the multiplayer paths against the core API only ---------------
class Take(Action):
    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n, self.text = n, f"take {n}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Take) and other.n == self.n

    def __hash__(self) -> int:
        return self.n


class Sticks(Game):
    """Seven sticks, two players take 1 or 2 in turn; who takes the last stick wins."""

    name = "sticks"
    title = "Sticks"
    rules_summary = "Take 1 or 2 sticks; the last stick wins."

    @property
    def num_players(self) -> int:
        return 2

    def _new_state(self, seed: int) -> "SticksState":
        state = SticksState()
        state.game, state._history, state._legal, state._origin = self, None, None, ("seed", seed)
        state.sticks, state.turn = 7, 0
        return state

    def parse_action(self, state: State, text: str) -> Action:
        found = [a for a in state.legal_actions() if str(a) == text.strip().lower()]
        if found:
            return found[0]
        if text.strip().lower() in ("take 1", "take 2"):
            raise IllegalAction(f"{text}: only {state.sticks} stick left")  # type: ignore[attr-defined]
        raise NotationError(f"{text!r} does not parse: expected take 1 or take 2")

    def render(self, observation: dict[str, Any], you: str = "you") -> str:
        return f"Sticks left: {observation['sticks']}"


class SticksState(State):
    sticks: int
    turn: int

    @property
    def current_player(self) -> int | None:
        return None if self.sticks == 0 else self.turn

    @property
    def end_reason(self) -> str | None:
        return "taken" if self.sticks == 0 else None

    def _legal_actions(self) -> list[Action]:
        return [Take(n) for n in (1, 2) if n <= self.sticks]

    def _apply(self, action: Action) -> None:
        self.sticks -= action.n  # type: ignore[attr-defined]
        if self.sticks:
            self.turn = 1 - self.turn

    def clone(self) -> "SticksState":
        new = SticksState()
        new.game, new._history, new._legal, new._origin = self.game, self._history, self._legal, self._origin
        new.sticks, new.turn = self.sticks, self.turn
        return new

    def scores(self) -> list[int]:
        return [int(self.sticks == 0 and self.turn == seat) for seat in (0, 1)]

    def winners(self) -> list[int]:
        return [self.turn] if self.sticks == 0 else []

    def observation(self, seat: int) -> dict[str, Any]:
        return {"sticks": self.sticks, "current_player": self.current_player}


def test_multiplayer_refuses_undo_and_lets_agents_play_their_seats():
    state = Sticks().new_state(0)
    out = console()
    result = play(state, script("undo", "take 3", "1"), out, agents=[None, parlour.agent("random")],
                  rng=random.Random(0))
    text = output(out)
    assert "Cannot undo: undo is only for solitaire games" in text
    assert "expected take 1 or take 2" in text
    assert "seat 1 (random): take" in text
    assert "seat 0 to play" in text
    assert result.state.is_terminal()
    assert "winners: seat" in text and "seat 1 (random)" in text


def test_hot_seat_two_people():
    out = console()
    ask = script("", "2", "", "2", "", "2", "", "1", then=None)  # "" answers each pass screen, the first too
    result = play(Sticks().new_state(0), ask, out)
    assert result.state.is_terminal()
    assert result.state.winners() == [1]
    text = output(out)
    assert "winners: seat 1 (human)" in text
    assert text.count("Pass the terminal to seat") == 4
    assert sum("press Enter" in prompt for prompt in ask.asked) == 4
    assert ask.asked[0].startswith("[bold]Pass to seat 0")  # nobody's view before the first pass screen
    assert "Since your last decision, seat 0:" in text and "The moves so far, seat 1:" in text


def test_result_text_of_an_unfinished_game():
    assert "unfinished" in result_text(new_psalter(), ["human"])


def test_wrong_number_of_seats_is_refused():
    with pytest.raises(ValueError):
        play(new_psalter(), script(), console(), agents=[None, None])


def test_the_reshuffle_is_told_when_it_happens():
    # One card left in the pile: placing the exact neighbour 6H draws it, so the pile runs
    # out and the discard pile becomes the new draw pile (PR-11).
    game = parlour.load("psalter-row")
    position = {"row": ["5H"], "hand": ["6H", "KC", "KD", "KS", "QC"], "draw_pile": ["2C"],
                "discard": ["3C", "4C", "7C", "8C"]}
    used = set(position["row"] + position["hand"] + position["draw_pile"] + position["discard"])
    position["removed"] = [c for c in (r + s for s in "CDHS" for r in
                           ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")) if c not in used]
    state = game.from_position(position)
    out = console()
    play(state, script("place 6H high", "quit", then=None), out)
    said = " ".join(output(out).split())
    assert "The draw pile ran out: the discard pile was shuffled into a new draw pile of 4 cards" in said
    assert "the one reshuffle of the game (PR-11)" in said


def test_the_payment_grid_follows_the_hand_and_its_numbers_read_left_to_right():
    from parlour.play.terminal import action_list, action_order

    hand = ["4S", "7S", "8D", "4H", "7C"]
    state = parlour.load("psalter-row").from_position({"row": ["2D"], "hand": hand})
    legal = state.legal_actions()
    out = console()
    out.print(action_list(legal))
    lines = output(out).splitlines()
    header = next(line for line in lines if "…" in line)
    assert header.split() == [f"…{card}" for card in hand]  # the columns: the hand, in its order
    rows = [line for line in lines if line.startswith("place ") and line.split()[2:4] == ["high", "pay"]]
    assert [row.split()[1] for row in rows] == hand  # the rows too
    ordered = [str(a) for a in action_order(legal)]
    for row in rows:
        numbers = [int(word) for word in row.split()[4:] if word.isdigit()]
        assert numbers == sorted(numbers)  # left to right, as the numbers go
        for number, cell in zip(row.split()[4:], hand):
            if number.isdigit():
                assert ordered[int(number) - 1] == f"{' '.join(row.split()[:4])} {cell}"
    assert lines[-1].strip() == "…N: how the action ends; type a cell's number"  # one line, not wrapped


def test_discards_shows_the_psalter_discard_pile_and_is_not_offered_without_one():
    state = new_psalter()
    while len(state.observation(0)["discard"]) < 3:
        state.apply(state.legal_actions()[-1])
    pile = state.observation(0)["discard"]
    out = console()
    ask = script("discards", then=None)
    play(state, ask, out)
    assert "discards" in ask.asked[0]
    from parlour.cards.standard import parse_card, show

    assert f"Discard pile, {len(pile)} cards, bottom to top: {' '.join(show(parse_card(c)) for c in pile)} (top)" \
        in output(out)
    quis = parlour.load("quisquilian", players=3).new_state(seed=5)
    out = console()
    ask = script("discards", then=None)
    result = play(quis, ask, out, agents=[None, parlour.agent("random"), parlour.agent("random")])
    assert result.state.history() == [] and "discards" not in ask.asked[0]
    assert "Quisquilian has no discard pile: the table shows every card that is not hidden" in output(out)


class Recording(Agent):
    """An advisor that notes what it was handed, and advises the last legal action."""

    name = "recording"

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[Any] = []

    def act(self, view: Any, rng: random.Random) -> Action:
        self.seen.append(view)
        return view.legal_actions[-1]


def test_hint_shows_the_advisors_numbered_move_and_reason_and_changes_nothing():
    state = new_psalter()
    out = console()
    ask = script("help", "hint", "quit")
    result = play(state, ask, out, advisor=parlour.agent("level:expert,iterations=40"))
    text = output(out)
    assert "hint" in ask.asked[0] and "hint (a suggested move for you, with its reason)" in text  # prompt, help
    line = next(line for line in text.splitlines() if line.startswith("Hint: "))
    number, notation = line.removeprefix("Hint: ").split(" · ")[0].split(" ", 1)
    assert str(action_order(result.state.legal_actions())[int(number) - 1]) == notation
    assert "· after it a search of 30 samples a move scores " in line
    assert "next best" in line or "fell behind in the race" in line  # the expert races its moves
    assert "Thinking about a hint (at most 2 s)" in text
    assert result.quit and result.state.history() == []  # the hint made no move


def test_a_hint_comes_from_the_seat_s_own_view_and_leaves_the_agents_moves_as_they_were():
    def game(answers: list[str], advisor: Any) -> State:
        state = parlour.load("decktet-golf", players=2, rounds=1).new_state(seed=4)
        play(state, script(*answers, then="1"), console(), agents=[None, parlour.agent("level:strong,iterations=3")],
             rng=random.Random(8), advisor=advisor)
        return state

    advisor = Recording()
    hinted = game(["hint", "1", "hint", "hint", "1"], advisor)
    assert len(advisor.seen) == 3
    for view in advisor.seen:
        assert isinstance(view, View) and view.seat == 0  # a view, never the state
    assert [str(a) for a in hinted.history()] == [str(a) for a in game([], None).history()]


def test_without_an_advisor_hint_is_not_a_command():
    out = console()
    ask = script("hint", "quit")
    play(new_psalter(), ask, out)
    assert "hint" not in ask.asked[0] and "Not played:" in output(out)
    with pytest.raises(parlour.OptionError, match="sees the hidden cards: it cannot give hints"):
        play(new_psalter(), ask, out, advisor=parlour.agent("clairvoyant"))


@pytest.mark.parametrize("name", parlour.game_names())
def test_the_rules_summary_fits_an_80_column_terminal(name: str) -> None:
    from rich.text import Text

    widths = [len(Text.from_markup(line).plain) for line in parlour.load(name).rules_summary.splitlines()]
    assert max(widths) <= 79, name  # `help` prints it: rich would break a longer line again at 80


def test_a_number_with_leading_zeros_is_that_number():
    state = new_psalter()
    first = str(state.legal_actions()[0])
    result = play(state, script("01", then=None), console())
    assert [str(a) for a in result.state.history()] == [first]


def test_a_psalter_row_table_owed_a_discard_says_whose_hand():
    game = parlour.load("psalter-row")
    obs = {**game.new_state(seed=3).observation(0), "pending": "errand_discard", "pending_discards": 1}
    assert "discard 1 card from your hand" in plain(game.render(obs))
    assert "discard 1 card from the hand" in plain(game.render(obs, you="viewed"))  # a replay's, a bot's
