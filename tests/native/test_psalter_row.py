"""The Psalter Row kernel plays exactly the Python game, decision by decision (issue 19).

Every check goes through ``tests/native/harness.py``: the kernel's trace (seat, legal
actions in order, the choice) against the Python engine and agents drawing from the same
generator, then the outcome, the generator's state and the replayed record. The games
cover every combination of the options below, the random and the heuristic policy (half of
the heuristic games with drawn, non-default settings), and start from deals (``deal``),
the conformance suite's hand-written positions, hand-written edge positions, mid-game
states and samples of what the player sees (``load``).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from conformance.adapters import ADAPTERS
from native.harness import check_outcome, check_same_game, kernel_of, mid_game

import parlour
from parlour.agents.heuristic.psalter_row import PARAMS as HEURISTIC_PARAMS
from parlour.cards.standard import CODE
from parlour.core.errors import ParlourError
from parlour.native import psalter_row as codec

OPTION_VALUES: dict[str, tuple[Any, ...]] = {
    "first_page_cost": (0, 1, 3, 8),
    "errand_draw": (2, 1),
    "errand_when_stuck": (False, True),
    "revision_discard": ("hand", 2),
    "revision_target": ("largest", "smallest"),
    "end_on": ("empty", "failed_draw"),
}
COMBOS = [dict(zip(OPTION_VALUES, values)) for values in itertools.product(*OPTION_VALUES.values())]
GAMES = [parlour.load("psalter-row", **options) for options in COMBOS]
POLICIES = ("random", "heuristic")
#: Dealt games per option combination and policy: 128 combinations x 2 policies x 8 = 2,048
#: in the fast suite; 100,352 under -m slow.
FAST_DEALS, SLOW_DEALS = 8, 392


def drawn_heuristic(rng: random.Random) -> Any:
    """The heuristic with every setting drawn from its allowed range."""
    values = {}
    for option in HEURISTIC_PARAMS:
        if isinstance(option.default, bool):
            values[option.name] = rng.choice(("true", "false"))
        else:
            values[option.name] = rng.randint(int(option.minimum), min(int(option.maximum), 30))
    return parlour.agent("heuristic:" + ",".join(f"{k}={v}" for k, v in values.items()))


def agent_for(policy: str, number: int) -> Any:
    """The agent of a game: random; the default heuristic; or, every other game, a drawn one."""
    if policy == "random":
        return parlour.agent("random")
    return drawn_heuristic(random.Random(number)) if number % 2 else parlour.agent("heuristic")


def check_dealt(game: parlour.core.game.Game, policy: str, deals: list[int]) -> None:
    """Deals played in one batch by the kernel's deal(), each the same game as Python's
    ``game.new_state(deal)`` loaded and checked decision by decision."""
    kernel = kernel_of("psalter-row")
    for deal in deals:
        agent = agent_for(policy, deal)
        dealt = kernel.play_dealt(game, [deal], [deal + 1], [agent], record=True)[0]
        loaded = check_same_game(game.new_state(deal), [agent], deal + 1)
        assert dealt.actions == loaded.actions and dealt.outcome == loaded.outcome


@pytest.mark.parametrize("index", range(len(COMBOS)), ids=lambda i: "-".join(map(str, COMBOS[i].values())))
@pytest.mark.parametrize("policy", POLICIES)
def test_dealt_games_are_the_python_games(index: int, policy: str) -> None:
    check_dealt(GAMES[index], policy, [index * 1000 + n for n in range(FAST_DEALS)])


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(COMBOS)), ids=lambda i: "-".join(map(str, COMBOS[i].values())))
@pytest.mark.parametrize("policy", POLICIES)
def test_many_dealt_games_are_the_python_games(index: int, policy: str) -> None:
    check_dealt(GAMES[index], policy, [10**6 + index * 1000 + n for n in range(SLOW_DEALS)])


def test_batches_of_deals_are_the_games_played_one_by_one() -> None:
    """run_many's deals, several to a call, with the agents' seeds as simulate hands them."""
    kernel, game = kernel_of("psalter-row"), GAMES[0]
    deals = list(range(40))
    batch = kernel.play_dealt(game, deals, [d * 7 for d in deals], [parlour.agent("heuristic")], record=True)
    for deal, played in zip(deals, batch):
        assert played.actions == kernel.play_dealt(game, [deal], [deal * 7], [parlour.agent("heuristic")],
                                                   record=True)[0].actions
        replayed = parlour.replay(played.record(game.new_state(deal)))
        check_outcome(replayed, played)


def _rest(*places: list[str]) -> list[str]:
    """The cards of the deck in none of the places, in card order."""
    used = {code for place in places for code in place}
    return [code for code in CODE if code not in used]


#: Edge positions the conformance suite's do not reach: a big hand (its payments many),
#: owed discards (Revision, Errand), an empty pile with the reshuffle spent (end_on
#: failed_draw goes on), an empty Row and hand, a last card before a reshuffle of one card.
EDGE_POSITIONS: list[dict[str, Any]] = [
    {"row": ["5H"], "hand": ["2C", "3C", "4C", "6D", "7D", "8D", "9S", "10S", "JS", "QH", "KD", "AC", "JC"]},
    {"row": ["5H", "6H"], "hand": ["2C", "QS"], "pending": "revision_discard", "pending_discards": 2},
    {"row": ["5H", "6H"], "hand": ["2C", "QS", "4H"], "pending": "revision_discard", "pending_discards": 1},
    {"row": ["3D", "5H", "6H", "8S", "9S"], "hand": ["2C", "QS", "JD"], "pending": "errand_discard"},
    {"row": ["2S", "3S", "5D", "6D", "8C", "9C"], "hand": ["7H", "AS", "KD"]},
]
_ENDGAMES: list[dict[str, Any]] = [
    {"row": ["3D", "4D", "6H", "7H", "9C", "10S"], "hand": ["2C", "8S"], "draw_pile": [], "reshuffled": True,
     "discard": ["AS"], "end": None},
    {"row": [], "hand": [], "draw_pile": [], "discard": ["QS"], "reshuffled": False},
    {"row": ["4H"], "hand": ["5H", "KH"], "draw_pile": ["6H"], "discard": ["4C"], "reshuffled": False},
]
EDGE_POSITIONS += [{**p, "removed": _rest(*(p[k] for k in ("row", "hand", "draw_pile", "discard")))}
                   for p in _ENDGAMES]
START_POSITIONS = list(ADAPTERS["psalter-row"].start_positions) + EDGE_POSITIONS


@pytest.mark.parametrize("number", range(len(START_POSITIONS)))
def test_hand_written_positions_play_as_python(number: int) -> None:
    """Each position under every option combination that accepts it, both policies."""
    played = 0
    for index, game in enumerate(GAMES):
        try:
            state = game.from_position(START_POSITIONS[number])
        except ParlourError:  # e.g. an empty pile that ends a game which is then owed a discard
            continue
        for policy in POLICIES:
            check_same_game(state, [agent_for(policy, index)], index * 31 + number)
            played += 1
    assert played >= len(GAMES)  # most combinations take every position


@pytest.mark.parametrize("policy", POLICIES)
def test_mid_game_states_and_samples_play_as_python(policy: str) -> None:
    """States after some random moves, then what the player's view samples of them (and a
    spectator's, whose sample deals the hand too), carrying the moves made before in stats()."""
    rng = random.Random(19)
    checked = 0
    for number in range(200):
        game = GAMES[number % len(GAMES)]
        state = mid_game(game.new_state(number), rng.randrange(1, 80), rng)
        agent = agent_for(policy, number)
        check_same_game(state, [agent], number)
        if state.is_terminal():
            continue
        check_same_game(state.view(0).sample(rng), [agent], number)
        check_same_game(game.sample(state.observation(None), rng), [agent], number)
        checked += 1
    assert checked >= 100


def test_a_finished_game_has_no_decision_left() -> None:
    state = mid_game(GAMES[0].new_state(5), 10_000, random.Random(5))
    assert state.is_terminal()
    assert check_same_game(state, [parlour.agent("random")], 0).decisions == 0


def test_drawn_settings_change_the_heuristics_choices() -> None:
    """The kernel reads its parameters: drawn settings play some deals differently."""
    kernel, game = kernel_of("psalter-row"), GAMES[0]
    deals = list(range(30))
    default = kernel.play_dealt(game, deals, deals, [parlour.agent("heuristic")], record=True)
    drawn = [kernel.play_dealt(game, [d], [d], [drawn_heuristic(random.Random(d))], record=True)[0] for d in deals]
    assert sum(a.actions != b.actions for a, b in zip(default, drawn)) >= 10


def test_every_state_of_a_game_loads() -> None:
    """pack_state refuses nothing valid: each state a game passes through plays out."""
    kernel = kernel_of("psalter-row")
    rng = random.Random(3)
    for number in range(40):
        state = GAMES[(number * 37) % len(GAMES)].new_state(number)
        while True:
            outcome = kernel.playout(state, heuristic=bool(number % 2), settings=None, rng=rng)
            assert outcome.end in ("complete", "exhausted")
            assert outcome.stats["decisions"] >= len(state.history())
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))


def _corrupt(words: list[int]) -> dict[str, list[int]]:
    """Damaged copies of a packed state (its layout: psalter_row.py pack_state)."""
    head = 15
    row_at, hand_at = head, head + 1 + words[head]
    pile_at = hand_at + 1 + words[hand_at]
    first_pile_card = pile_at + 1
    bad: dict[str, list[int]] = {
        "too short": words[:10],
        "one word short": words[:-1],
        "one word more": words + [0],
        "first_page_cost 9": [9] + words[1:],
        "errand_draw 3": words[:1] + [3] + words[2:],
        "errand_when_stuck 2": words[:2] + [2] + words[3:],
        "pending 3": words[:7] + [3] + words[8:],
        "end 3": words[:9] + [3] + words[10:],
        "a negative count": words[:10] + [-1] + words[11:],
        "a card 52": words[:first_pile_card] + [52] + words[first_pile_card + 1:],
        "a card -1": words[:first_pile_card] + [-1] + words[first_pile_card + 1:],
        "a card twice": words[:first_pile_card] + [words[first_pile_card + 1]] + words[first_pile_card + 1:],
        "a pile longer than the words": words[:pile_at] + [10**6] + words[pile_at + 1:],
        "the Row not ascending": words[:row_at] + [2, words[row_at + 2], words[row_at + 1]] + words[row_at + 3:],
        "owed without a Revision": words[:8] + [1] + words[9:],
        "complete with a short Row": words[:9] + [1] + words[10:],
        "exhausted with a draw pile": words[:9] + [2] + words[10:],
    }
    return bad


def test_the_kernel_refuses_corrupted_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """load() refuses damaged words (PN_ERR_INPUT): a ParlourError, nothing played, no crash."""
    state = GAMES[0].from_position({"row": ["4H", "5H"], "hand": ["6H", "9C", "KS", "2D", "QC"]})
    words, seed = codec.pack_state(state)
    kernel = kernel_of("psalter-row")
    before = state.to_position()
    for why, damaged in _corrupt(words).items():
        monkeypatch.setattr(codec, "pack_state", lambda _state, damaged=damaged: (damaged, seed))
        with pytest.raises(ParlourError, match="refused this state"):
            kernel.play_from(state, [parlour.agent("random")], random.Random(0))
        assert state.to_position() == before, why
    monkeypatch.setattr(codec, "pack_state", lambda _state: (words, seed))
    assert kernel.play_from(state, [parlour.agent("random")], random.Random(0)).decisions > 0


def test_a_pending_discard_with_no_hand_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Revision owing discards of an empty hand would leave no action: refused, not played."""
    state = GAMES[0].from_position({"row": ["4H"], "hand": ["6H"], "pending": "errand_discard"})
    words, seed = codec.pack_state(state)
    at = 15 + 1 + words[15]  # the hand's length; its card moves to the discard pile
    card = words[at + 1]
    damaged = words[:at] + [0] + words[at + 2:]
    discard_at = at + 1 + damaged[at + 1] + 1
    damaged = damaged[:discard_at] + [damaged[discard_at] + 1] + damaged[discard_at + 1:]
    damaged.insert(discard_at + 1, card)
    monkeypatch.setattr(codec, "pack_state", lambda _state: (damaged, seed))
    with pytest.raises(ParlourError, match="refused this state"):
        kernel_of("psalter-row").play_from(state, [parlour.agent("random")], random.Random(0))
