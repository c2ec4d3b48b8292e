"""The codecs for learning (core/codec.py, games/*/codec.py, docs/codecs.md): known encodings,
the id spaces by options, masks in hand-written states (a Quisquilian dig of thousands of
runs walked in full), the tensors' layouts, refusals, and the trie kept per legal list.

The conformance suite (tests/conformance/codec_checks.py) checks every game on random playouts.
"""

from __future__ import annotations

import math
import pickle
import random
import re
from pathlib import Path

import pytest

import parlour
from parlour import CodecError, ParlourError
from parlour.cards.standard import parse_card as c
from parlour.core.codec import Branch, Segments
from parlour.games.decktet_golf.actions import DISCARD_ACTION, REPLACE_CELL, TAKE_ACTION, swap as golf_swap
from parlour.games.decktet_golf.layout import CELL_INDEX
from parlour.games.psalter_row.actions import HIGH, LOW, discard, errand, place, revise, swap
from parlour.games.quisquilian.actions import STOP_ACTION, add, run

#: benchmarks/bench_playouts.py's LARGEST_DIG: 5,442 runs in one dig.
LARGEST_DIG = {
    "options": {"players": 5, "decks": 2},
    "spots": [["6H", "4H"], ["4H", "6H"], ["KH", "9H", "8H"], ["8H", "9H"], ["QH", "10H"],
              ["AH", "2H", "3H"], ["7H", "5H"], ["KH", "JH"], ["5H", "7H"]],
    "hands": [["3H", "AH", "2H", "10H", "JH", "QH"], [], [], [], []],
    "player": 0,
}


def names(game, ids) -> list[str]:
    return [game.codec.id_name(i) for i in ids]


def every_sequence(state) -> dict[tuple[int, ...], object]:
    """Every complete id sequence reached by walking the masks from (), with its action."""
    found, stack = {}, [()]
    while stack:
        prefix = stack.pop()
        for i in state.legal_ids(prefix):
            ids = (*prefix, i)
            action = state.action_from_ids(ids)
            if action is None:
                stack.append(ids)
            else:
                found[ids] = action
    return found


def by_ids(state) -> dict[tuple[int, ...], object]:
    return {state.game.action_ids(a): a for a in state.legal_actions()}


# -- the id spaces ---------------------------------------------------------------------------

def test_id_space_sizes_by_options():
    for options in ({}, {"first_page_cost": 8}, {"errand_draw": 1, "revision_discard": 2, "end_on": "failed_draw"}):
        assert parlour.load("psalter-row", **options).num_distinct_actions == 425
    for players in range(2, 6):
        assert parlour.load("decktet-golf", players=players).num_distinct_actions == 35
        assert parlour.load("decktet-golf", players=players, excuse=True).num_distinct_actions == 101
    for players in range(3, 9):
        expected = 1544 if players > 4 else 1527
        assert parlour.load("quisquilian", players=players).num_distinct_actions == expected
        assert parlour.load("quisquilian", players=players, decks=2).num_distinct_actions == 1544
    assert parlour.load("quisquilian", players=4, decks=1).num_distinct_actions == 1527


def test_action_layouts_name_every_id():
    game = parlour.load("quisquilian")
    assert [name for name, _, _ in game.codec.actions.layout] == ["discard", "run", "run_end", "add", "add_to", "stop"]
    assert names(game, [0, 1, 9, 468, 469, 988, 989, 1509, 1525, 1526]) == [
        "discard AC 1", "discard AC 2", "discard 2C 1", "run AC", "run AC@1", "run_end", "add AC",
        "add to 1", "add to 17", "stop"]
    with pytest.raises(CodecError, match="expected an integer 0..1526"):
        game.codec.id_name(1527)


# -- Psalter Row -------------------------------------------------------------------------------

def test_psalter_row_known_encodings():
    game = parlour.load("psalter-row")
    assert game.action_ids(place(c("9C"), HIGH)) == (23,)  # 9C is the 8th Page; high is end 2
    assert game.action_ids(place(c("9C"), HIGH, c("4D"))) == (23, 119)
    assert game.action_ids(place(c("9C"), HIGH, c("2D"), c("JS"))) == (23, 153, 186)
    assert names(game, (23, 153, 186)) == ["place 9C high", "pay 2D with a Patron", "patron JS"]
    assert game.action_ids(place(c("2C"), LOW)) == (1,)
    assert game.action_ids(swap(c("6S"), c("KH"))) == (314,)
    assert game.action_ids(errand(c("AS"))) == (335,)
    assert game.action_ids(discard(c("KS"))) == (387,)
    assert game.action_ids(revise(None)) == (388,) and game.action_ids(revise(c("2C"))) == (389,)
    assert game.action_id(discard(c("KS"))) == 387


def test_psalter_row_payments_as_sub_decisions():
    """Row 5H, hand 9C 2D JS 3C KD: 9C has gap 4, paid by 2D with JS or 3C with JS (neither alone)."""
    game = parlour.load("psalter-row")
    state = game.from_position({"row": ["5H"], "hand": ["9C", "2D", "JS", "3C", "KD"]})
    first = game.action_ids(place(c("9C"), HIGH))[0]
    assert first in state.legal_ids()
    assert names(game, state.legal_ids((first,))) == ["pay 3C with a Patron", "pay 2D with a Patron"]
    assert state.action_from_ids((first,)) is None
    assert names(game, state.legal_ids((first, 153))) == ["patron JS"]
    assert str(state.action_from_ids((first, 153, 186))) == "place 9C high pay 2D JS"
    assert every_sequence(state) == by_ids(state)
    # Row 5H, hand 9C 6D QS 3C: 6D alone pays the gap of 4, and 6D with QS too (overpaying).
    state = game.from_position({"row": ["5H"], "hand": ["9C", "6D", "QS", "3C", "KD"]})
    assert names(game, state.legal_ids((first,))) == ["pay 6D", "pay 3C with a Patron", "pay 6D with a Patron"]
    assert str(state.action_from_ids(game.action_ids(place(c("9C"), HIGH, c("6D"))))) == "place 9C high pay 6D"
    assert every_sequence(state) == by_ids(state)


def test_psalter_row_tensor():
    game = parlour.load("psalter-row")
    state = game.from_position({"row": ["5H"], "hand": ["9C", "2D", "JS", "3C", "KD"], "removed": ["AS"]})
    layout = {name: (start, stop) for name, start, stop in game.observation_layout}
    assert list(layout) == ["row", "hand", "discard", "removed", "unseen", "hand_size", "draw_pile_size",
                            "reshuffled", "pending", "pending_discards", "end", "prefix"]
    assert game.observation_shape == (693,) and layout["prefix"] == (268, 693)
    values = game.observation_tensor(state.observation(0), (23, 153))
    hand = [i for i in range(52) if values[layout["hand"][0] + i]]
    assert hand == sorted(c(x) for x in ("9C", "2D", "JS", "3C", "KD"))
    assert [i for i in range(52) if values[layout["row"][0] + i]] == [c("5H")]
    assert [i for i in range(52) if values[layout["removed"][0] + i]] == [c("AS")]
    assert sum(values[slice(*layout["unseen"])]) == 52 - 7
    assert values[layout["hand_size"][0]] == 5 / 6  # of the largest hand, an Errand's 6
    assert [i for i in range(425) if values[268 + i]] == [23, 153]
    public = game.observation_tensor(state.observation(None))
    assert sum(public[slice(*layout["hand"])]) == 0 and sum(public[slice(*layout["unseen"])]) == 52 - 2
    assert public[layout["hand_size"][0]] == 5 / 6


def test_psalter_row_hand_size_reaches_1_with_an_errands_six_cards():
    game = parlour.load("psalter-row")
    state = game.from_position({"row": ["5H"], "hand": ["9C", "2D", "JS", "3C", "AS"]})
    state.apply(errand(c("AS")))  # the Ace goes, two cards come: 6 in hand until the discard (PR-6)
    observation = state.observation(0)
    assert observation["pending"] == "errand_discard" and len(observation["hand"]) == 6
    start = dict((name, begin) for name, begin, _ in game.observation_layout)["hand_size"]
    assert game.observation_tensor(observation)[start] == 1.0


# -- Decktet Golf ------------------------------------------------------------------------------

def test_decktet_golf_known_encodings():
    game = parlour.load("decktet-golf", excuse=True)
    assert game.action_id(TAKE_ACTION) == 12 and game.action_id(DISCARD_ACTION) == 26
    assert game.action_id(REPLACE_CELL[CELL_INDEX["C3"]]) == 14 + 8
    assert game.action_id(golf_swap(CELL_INDEX["B1"], CELL_INDEX["C1"])) == 35
    assert game.action_id(golf_swap(CELL_INDEX["C3"], CELL_INDEX["A2"])) == 61
    with pytest.raises(CodecError, match="option excuse"):
        parlour.load("decktet-golf").action_id(golf_swap(0, 1))
    state = game.new_state(seed=1)
    assert [str(state.action_from_id(i)) for i in state.legal_ids()] == [str(a) for a in state.legal_actions()]


def test_decktet_golf_tensor_puts_the_observer_first():
    game = parlour.load("decktet-golf", players=3)
    state = game.new_state(seed=3)
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    layout = {name: (start, stop) for name, start, stop in game.observation_layout}
    assert "prefix" not in layout and game.observation_shape == (layout["round"][1],)
    start = layout["face_up"][0]
    for seat in range(3):
        values = game.observation_tensor(state.observation(seat))
        up = [values[start + 12 * k : start + 12 * (k + 1)] for k in range(3)]
        for other in range(3):
            cells = set(state.observation(seat)["face_up"][other])
            flags = up[(other - seat) % 3]
            assert {cell for cell, i in CELL_INDEX.items() if flags[i]} == cells
    with pytest.raises(CodecError, match="one id each"):
        game.observation_tensor(state.observation(0), (1,))


# -- Quisquilian -------------------------------------------------------------------------------

def test_quisquilian_runs_and_additions():
    game = parlour.load("quisquilian")
    state = game.from_position({"spots": [["2C"], [], [], [], [], [], [], [], []],
                                "hands": [["3C", "4C", "5C", "9D"], [], [], []], "player": 0, "phase": "dig"})
    assert names(game, state.legal_ids()) == ["run 2C@1", "run 3C", "stop"]
    assert names(game, state.legal_ids((468 + 10 * c("2C") + 1,))) == ["run 3C"]
    short, long_ = run(((c("2C"), 1), (c("3C"), 0), (c("4C"), 0))), run(((c("2C"), 1), (c("3C"), 0), (c("4C"), 0), (c("5C"), 0)))
    assert names(game, game.action_ids(short)) == ["run 2C@1", "run 3C", "run 4C", "run_end"]
    assert names(game, state.legal_ids(game.action_ids(short)[:3])) == ["run 5C", "run_end"]
    assert state.action_from_ids(game.action_ids(long_)) is long_
    assert every_sequence(state) == by_ids(state)
    assert game.action_ids(STOP_ACTION) == (1526,)
    assert names(game, game.action_ids(add(c("8H"), 2, 0, named=False))) == ["add 8H@2"]
    assert names(game, game.action_ids(add(c("8H"), 0, 1, named=True))) == ["add 8H", "add to 2"]


def test_quisquilian_addition_to_either_of_two_runs():
    """The conformance start position: 8H on spot 1 extends 5H-7H and 9H-KH (QU-4)."""
    game = parlour.load("quisquilian", players=3)
    runs = [[["5H", "6H", "7H"], ["9H", "10H", "JH", "QH", "KH"]], [], []]
    state = game.from_position({"spots": [["8H"], [], [], [], [], [], [], [], []], "hands": [[], [], []],
                                "runs": runs, "player": 0, "phase": "dig"})
    first = 989 + 10 * c("8H") + 1
    assert names(game, state.legal_ids()) == ["add 8H@1", "stop"]
    assert names(game, state.legal_ids((first,))) == ["add to 1", "add to 2"]
    assert str(state.action_from_ids((first, 1510))) == "add 8H@1 to 2"
    assert every_sequence(state) == by_ids(state)


def test_quisquilian_largest_dig_walked_in_full():
    game = parlour.load("quisquilian", **LARGEST_DIG["options"])
    state = game.from_position(LARGEST_DIG)
    expected = by_ids(state)
    assert len(expected) > 5000
    assert every_sequence(state) == expected
    assert max(map(len, expected)) == 14  # Ace to King, then run_end
    values = game.observation_tensor(state.observation(0), next(iter(expected))[:5])
    assert len(values) == game.observation_shape[0] and all(map(math.isfinite, values))


def test_quisquilian_tensor_by_options():
    for players, decks in ((3, 1), (7, 1), (5, 2), (8, 2)):
        game = parlour.load("quisquilian", players=players, decks=decks)
        layout = {name: stop - start for name, start, stop in game.observation_layout}
        assert layout["hand_sizes"] == players and layout["run_cards"] == 52 * players
        assert layout["own_runs"] == (52 * decks // 3) * 30 and layout["prefix"] == game.num_distinct_actions
        assert sum(layout.values()) == game.observation_shape[0]
        values = game.observation_tensor(game.new_state(seed=players).observation(players - 1))
        assert len(values) == game.observation_shape[0]


# -- the interface: refusals, caching ------------------------------------------------------

def test_bad_ids_are_refused_and_change_nothing():
    game = parlour.load("psalter-row")
    state = game.from_position({"row": ["5H"], "hand": ["9C", "2D", "JS", "3C", "KD"]})
    before = state.to_position()
    with pytest.raises(CodecError, match=r"id 0 \(place 2C\) is not legal as the first id: expected one of"):
        state.legal_ids((0,))
    with pytest.raises(CodecError, match=r"id 119 \(pay 4D\) is not legal after \[23\]: expected one of 145 \(pay 3C with a Patron\), 153"):
        state.action_from_ids((23, 119))
    with pytest.raises(CodecError, match="already name the legal action place 9C high pay 2D JS"):
        state.legal_ids((23, 153, 186))
    with pytest.raises(CodecError, match="go on past the legal action"):
        state.action_from_ids((23, 153, 186, 0))
    with pytest.raises(CodecError, match="begins an action of several sub-decisions"):
        state.action_from_id(23)
    with pytest.raises(CodecError, match="takes 3 ids"):
        game.action_id(place(c("9C"), HIGH, c("2D"), c("JS")))
    for bad in ((-1,), (425,), (True,), ("23",), (2.0,)):
        with pytest.raises(CodecError, match="expected an integer 0..424"):
            state.legal_ids(bad)
    with pytest.raises(CodecError, match="tuple or list"):
        state.action_from_ids(23)
    with pytest.raises(CodecError, match="not a Psalter Row action"):
        game.action_ids(parlour.load("quisquilian").new_state(1).legal_actions()[0])
    assert issubclass(CodecError, ParlourError) and issubclass(CodecError, ValueError)
    assert state.to_position() == before


def test_finished_game_has_no_ids():
    game = parlour.load("decktet-golf", rounds=1)
    state = game.new_state(seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.legal_ids() == []
    for call in (lambda: state.action_from_ids(()), lambda: state.action_from_id(12), lambda: state.legal_ids((12,))):
        with pytest.raises(CodecError, match="the game is over"):
            call()


#: The slots documented (docs/codecs.md) to leave 0..1 in play: Decktet Golf's match totals
#: (below 0 with Courts and Pawns, past 1 once a total passes the target) and its round counter.
UNBOUNDED = {"decktet-golf": {"totals", "round"}}


@pytest.mark.parametrize("name, options, games", [("psalter-row", {"revision_discard": 2}, 30),
                                                  ("decktet-golf", {"players": 3, "excuse": True}, 1),
                                                  ("quisquilian", {"players": 5, "decks": 2}, 1)])
def test_tensor_values_lie_in_0_to_1_but_the_documented_slots(name, options, games):
    game = parlour.load(name, **options)
    slots = [(segment, range(start, stop)) for segment, start, stop in game.observation_layout
             if segment not in UNBOUNDED.get(name, ())]
    for seed in range(games):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            for seat in (state.current_player, None):
                values = game.observation_tensor(state.observation(seat))
                for segment, where in slots:
                    assert all(0.0 <= values[i] <= 1.0 for i in where), (segment, [values[i] for i in where])
            state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name, key, value, message", [
    ("psalter-row", "hand", None, "has no 'hand'"),
    ("psalter-row", "hand", 5, r"'hand' is 5, which does not encode \(TypeError"),
    ("psalter-row", "row", ["ZZ"], r"'row' is \['ZZ'\], which does not encode \(KeyError"),
    ("decktet-golf", "layouts", None, "has no 'layouts'"),
    ("decktet-golf", "seat", "0", r"'seat' is '0', which does not encode \(TypeError"),
    ("decktet-golf", "totals", None, r"'totals' is None, which does not encode"),
    ("quisquilian", "seat", None, "has no 'seat'"),
    ("quisquilian", "seat", 9, r"'seat' is 9, which does not encode \(IndexError: seat 9 is not one of seats 0..3\)"),
    ("quisquilian", "runs", [1, 2], r"'runs' is \[1, 2\], which does not encode"),
])
def test_a_malformed_observation_is_a_codec_error_naming_the_key(name, key, value, message):
    """``value`` None stands for the key left out."""
    game = parlour.load(name)
    observation = game.new_state(seed=1).observation(0)
    broken = {k: v for k, v in observation.items() if k != key}
    if value is not None or key == "totals":
        broken[key] = value
    with pytest.raises(CodecError, match=f"this {game.title} observation.*{message}.*state.observation"):
        game.observation_tensor(broken)


def test_numpy_integers_are_ids_and_bools_are_not():
    np = pytest.importorskip("numpy")
    game = parlour.load("psalter-row")
    state = game.from_position({"row": ["5H"], "hand": ["9C", "2D", "JS", "3C", "KD"]})
    fresh = game.new_state(seed=1)  # an empty Row: every placement is one id
    assert fresh.action_from_id(np.int64(6)) is fresh.action_from_id(6)
    assert game.codec.id_name(np.int32(23)) == "place 9C high"
    assert state.legal_ids([np.int64(23), np.int16(153)]) == state.legal_ids((23, 153))
    assert state.action_from_ids([np.int64(23), np.int64(153), np.int64(186)]) is state.action_from_ids((23, 153, 186))
    for bad in (True, np.True_, np.float64(23), np.int64(425)):
        with pytest.raises(CodecError, match="is not an action id of .*: expected an integer 0..424"):
            state.action_from_id(bad)


def test_tensors_refuse_other_observations():
    game = parlour.load("quisquilian", players=3)
    with pytest.raises(CodecError, match="expected an observation of Quisquilian"):
        game.observation_tensor(parlour.load("psalter-row").new_state(1).observation(0))
    with pytest.raises(CodecError, match="options"):
        game.observation_tensor(parlour.load("quisquilian", players=4).new_state(1).observation(0))
    with pytest.raises(CodecError, match="expected an integer"):
        game.observation_tensor(game.new_state(1).observation(0), (1544,))


def test_masks_follow_the_state_they_are_asked_of():
    """The codec keeps the trie of the last legal list it saw: a state that moved on, or a
    clone that did, gets its own masks."""
    game = parlour.load("psalter-row")
    state = game.new_state(seed=2)
    copy = state.clone()
    first = state.legal_ids()
    assert copy.legal_ids() == first
    rng = random.Random(2)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
        assert every_sequence(state) == by_ids(state)
        assert copy.legal_ids() == first  # the clone stays where it was
        assert every_sequence(copy) == by_ids(copy)


def test_game_pickles_without_the_cached_trie():
    game = parlour.load("quisquilian", **LARGEST_DIG["options"])
    state = game.from_position(LARGEST_DIG)
    state.legal_ids()
    game = state.game  # (the position's options give it a game of its own, with its own codec)
    assert game.codec._cache is not None and len(game.codec._known) == len(state.legal_actions()) == 5442
    again = pickle.loads(pickle.dumps(game))
    assert again == game and again.codec._cache is None and again.codec._known == {}
    assert again.num_distinct_actions == 1544


def answer(codec, state, ids):
    """What ``codec`` says ``ids`` name in ``state``: the action, None (more ids follow) or the error."""
    try:
        return codec.action_from_ids(state, ids)
    except CodecError as err:
        return f"refused: {err}"


@pytest.mark.parametrize("name, options", [("decktet-golf", {"players": 3, "rounds": 1}), ("psalter-row", {}),
                                           ("quisquilian", {"players": 3})])
def test_ids_remembered_from_other_states_name_only_legal_actions(name, options, monkeypatch):
    """The codec remembers which action every id sequence it saw named, across states: every
    id, and every id after each legal first id, gets the answer of a codec that has seen
    only this state, also when the memory overflows and starts afresh."""
    monkeypatch.setattr("parlour.core.codec.KNOWN", 40)
    game = parlour.load(name, **options)
    state, rng = game.new_state(seed=8), random.Random(8)
    for _ in range(60):
        if state.is_terminal():
            break
        fresh = type(game.codec)(game)
        for first in range(game.num_distinct_actions):
            assert answer(game.codec, state, (first,)) == answer(fresh, state, (first,))
        for first in state.legal_ids():
            if fresh.action_from_ids(state, (first,)) is None:
                for i in range(game.num_distinct_actions):
                    assert answer(game.codec, state, (first, i)) == answer(fresh, state, (first, i))
        assert len(game.codec._known) <= 40
        state.apply(rng.choice(state.legal_actions()))


def test_clashing_ids_are_a_codec_bug():
    action = parlour.load("quisquilian").new_state(1).legal_actions()
    with pytest.raises(AssertionError, match="codec bug"):
        Branch([((1, 2), action[0]), ((1,), action[1])], 0).children()
    with pytest.raises(AssertionError, match="codec bug"):
        Branch([((1,), action[0]), ((1,), action[1])], 0).children()


def test_segments():
    space = Segments([("a", ("x", "y")), ("b", 3)])
    assert space.size == 5 and space.layout == [("a", 0, 2), ("b", 2, 5)]
    assert [space.label(i) for i in range(5)] == ["x", "y", "b 0", "b 1", "b 2"]


# -- docs/codecs.md says what the codecs do -------------------------------------------------

DOC = Path(__file__).resolve().parents[2] / "docs" / "codecs.md"


def _doc_section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end >= 0 else None]


def _ranges(section: str) -> list[tuple[str, int, int]]:
    """The table rows ``| a..b | `name` |`` (or ``| a | `name` |``) of a section, in order."""
    rows = re.findall(r"^\| (\d+)(?:\.\.(\d+))? \| `(\w+)` \|", section, re.M)
    return [(name, int(a), int(b or a) + 1) for a, b, name in rows]


def test_docs_tables_match_the_layouts():
    psalter = parlour.load("psalter-row")
    section = _doc_section("Psalter Row")
    assert _ranges(section) == psalter.codec.actions.layout + psalter.observation_layout
    quis = parlour.load("quisquilian")
    assert _ranges(_doc_section("Quisquilian").split("Tensor:")[0]) == quis.codec.actions.layout
    for players in range(2, 6):
        assert parlour.load("decktet-golf", players=players).observation_shape == (570 * players + 200,)
    for players in range(3, 9):
        for decks in (1, 2):
            if (players, decks) != (8, 1):
                shape = 69 * players + (4515 if decks == 1 else 5042)
                assert parlour.load("quisquilian", players=players, decks=decks).observation_shape == (shape,)
    examples = re.findall(r"`([a-z][^`]*)` is `\(([\d, ]+)\)`", DOC.read_text(encoding="utf-8"))
    assert len(examples) == 5
    for text, ids in examples:
        game = quis if text.split()[0] in ("run", "add") else psalter
        action = _action_of(game, text)
        assert str(action) == text and game.action_ids(action) == tuple(int(i) for i in ids.split(",") if i.strip())


#: States in which the docs' examples are legal: Psalter Row's (a free and two paid
#: placements of 9C) and Quisquilian's (a run, and an addition that two runs could take).
_EXAMPLE_POSITIONS = {
    "psalter-row": [{"row": ["8H"], "hand": ["9C", "2D", "JS", "4D", "6C"]},
                    {"row": ["5H"], "hand": ["9C", "2D", "JS", "4D", "6C"]}],
    "quisquilian": [{"spots": [["2C"], [], [], [], [], [], [], [], []], "hands": [["3C", "4C"], [], [], []],
                     "player": 0, "phase": "dig"},
                    {"spots": [["8H"], [], [], [], [], [], [], [], []], "hands": [[], [], [], []], "player": 0,
                     "phase": "dig", "runs": [[["5H", "6H", "7H"], ["9H", "10H", "JH"]], [], [], []]}],
}


def _action_of(game, text: str):
    for position in _EXAMPLE_POSITIONS[game.name]:
        found = [a for a in game.from_position(position).legal_actions() if str(a) == text]
        if found:
            return found[0]
    raise AssertionError(f"{text!r} is legal in none of the example positions")
