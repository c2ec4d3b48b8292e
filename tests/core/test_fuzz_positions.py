"""Property-based fuzzing of everything parlour reads from outside (issue 18, DESIGN.md
"Positions" and "Core API"): positions, game records, game options and agent specs, for
every game.

Whatever the input (wrong types at any key and nesting level, huge numbers, bools where
integers are expected, any Unicode), only a ParlourError subclass comes out, and a refused
call changes nothing, not even its argument. What is accepted is sound: a position that loads
round-trips through JSON, is never a live state without a legal action, plays on, and its
record replays.

The fast suite runs a bounded number of examples, the same ones every run (``derandomize``);
``pytest -m slow`` runs the same properties on many more, freshly drawn.
"""

from __future__ import annotations

import copy
import functools
import json
import math
import random
from typing import Any

import pytest
from conformance.adapters import ADAPTERS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from parlour import ParlourError, RecordError

#: Games with options that change what a position holds (seats, decks, the Excuse, owed discards).
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("psalter-row", {}),
    ("psalter-row", {"revision_discard": 2, "end_on": "failed_draw", "first_page_cost": 3}),
    ("decktet-golf", {}),
    ("decktet-golf", {"players": 3, "excuse": True, "rounds": 2}),
    ("quisquilian", {"players": 3}),
    ("quisquilian", {"players": 5, "max_turns": 300}),  # two decks: the conformance start after a clearing
    ("quisquilian", {"players": 6, "max_turns": 300}),
)
GAME_IDS = [f"{name}{''.join(f',{k}={v}' for k, v in options.items())}" for name, options in GAMES]

FAST = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))

#: Values a reader meets in real positions, so that mutations reach the checks behind the types.
LIKELY = (
    "5H", "10H", "TH", "KS", "AC", "QD", "2MK", "XW", "PMYK", "CMWK", "EX", "the Author", "B1", "C3", "A2", "D3",
    "2", "3", "B", "C", "pile", "discard", "dig", "start", "opening", "taken", "drawn", "flip", "ontop", "swap",
    "lines", "cover", "complete", "exhausted", "stalemate", "max_turns", "target", "rounds", "errand_discard",
    "revision_discard", "hand", "²", "\u0661", "ß", "\x00", "5\u200bH", "",
)
INTS = st.one_of(
    st.integers(-3, 12), st.integers(), st.sampled_from([2**63 - 1, 2**63, -(2**63), 2**128, 10**400]),
)
SCALARS = st.one_of(
    st.none(), st.booleans(), INTS, st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(LIKELY),
)
KEYS = st.one_of(st.text(max_size=10), st.sampled_from(("cards", "counts", "B1", "0", "options", "hand", "row")))
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=14,
)


# ---------------------------------------------------------------------------------------
# real inputs to start from
# ---------------------------------------------------------------------------------------

def _game(index: int) -> parlour.core.game.Game:
    name, options = GAMES[index]
    return parlour.load(name, **options)


@functools.lru_cache(maxsize=None)
def _playouts(index: int) -> tuple[tuple[str, str], ...]:
    """(position, record) JSON texts along two seeded random games, every few actions, and
    of the game's hand-written start positions from the conformance suite."""
    game = _game(index)
    found = []
    for seed in (1, 2):
        state, rng = game.new_state(seed), random.Random(seed)
        step = 0
        while True:
            if step % 7 == 0 or state.is_terminal():
                found.append((json.dumps(state.to_position()), json.dumps(state.record())))
            if state.is_terminal() or step > 600:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            step += 1
    for start in ADAPTERS[game.name].start_positions:
        try:
            state = game.from_position({**start, "options": {**game.options, **start.get("options", {})}})
        except ParlourError:
            continue  # a start for other seats than these options have
        found.append((json.dumps(state.to_position()), json.dumps(state.record())))
    return tuple(found)


def _positions(index: int) -> list[str]:
    return [p for p, _ in _playouts(index)]


def _records(index: int) -> list[str]:
    return [r for _, r in _playouts(index)]


# ---------------------------------------------------------------------------------------
# mutations: one key (at any nesting level) deleted, replaced or retyped
# ---------------------------------------------------------------------------------------

def _retyped(value: Any) -> list[Any]:
    """Values of other types that a careless writer might put in ``value``'s place."""
    out: list[Any] = [None, True, False, [value], {"x": value}, 10**400, -1, 2**63, float("nan"), "²"]
    if isinstance(value, bool):
        out += [int(value), str(value).lower()]
    elif isinstance(value, int):
        out += [str(value), float(value), value + 1, value - 1, -value, value * 10**30]
    elif isinstance(value, str):
        out += [value.lower(), value + value, value[:1], f" {value} ", [[value]], {value: value}]
    elif isinstance(value, list):
        out += [value[:-1], value + value, tuple(value) and list(reversed(value)), [value], {}]
    elif isinstance(value, dict):
        out += [list(value), list(value.values()), {**value, "extra": 1}]
    return out


@st.composite
def mutated(draw: st.DrawFn, text: str) -> Any:
    """The JSON ``text`` with one place changed: a key or item deleted, its value replaced by
    any JSON value, or retyped."""
    root = json.loads(text)
    if draw(st.integers(0, 19)) == 0:
        return draw(JSON)  # the whole thing replaced
    node = root
    while True:
        children = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
        if not children:
            return root
        at = draw(st.sampled_from(children))
        child = node[at]
        if isinstance(child, (dict, list)) and child and draw(st.booleans()):
            node = child  # one level deeper
            continue
        how = draw(st.sampled_from(("delete", "replace", "retype", "retype")))
        if how == "delete":
            del node[at]
        elif how == "replace":
            node[at] = draw(JSON)
        else:
            node[at] = draw(st.sampled_from(_retyped(child)))
        return root


# ---------------------------------------------------------------------------------------
# the properties
# ---------------------------------------------------------------------------------------

def _same(a: Any, b: Any) -> bool:
    """Structural equality where NaN equals NaN (a deep copy of the input must match it)."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def sound(state: Any) -> None:
    """A state that was accepted: JSON round-trip, a legal action while live, it plays on,
    and its record replays (before and after one action)."""
    game = state.game
    pos = state.to_position()
    again = game.from_position(json.loads(json.dumps(pos)))
    assert again.to_position() == pos, "the position does not round-trip"
    for seat in [None, *range(game.num_players)]:
        json.dumps(state.observation(seat))
    assert parlour.replay(json.dumps(state.record())).to_position() == pos, "its record does not replay"
    if state.is_terminal():
        assert state.legal_actions() == [] and state.current_player is None
        return
    legal = state.legal_actions()
    assert legal, f"a live state with no legal action: {pos}"
    after = state.clone().apply(legal[len(legal) // 2])
    assert parlour.replay(after.record()).to_position() == after.to_position()


def loads_soundly(game: Any, position: Any) -> None:
    """``from_position`` refuses with a PositionError (or an OptionError for the options)
    and leaves its argument alone, or gives a sound state."""
    given_copy = copy.deepcopy(position)
    try:
        state = game.from_position(position)
    except ParlourError as err:
        assert str(err) and len(str(err)) < 2000, "an error says what was wrong, briefly"
        assert _same(position, given_copy), "a refused position was changed"
        return
    assert _same(position, given_copy), "from_position changed its argument"
    sound(state)


def mutated_positions_load_soundly(index: int, data: st.DataObject) -> None:
    position = data.draw(mutated(data.draw(st.sampled_from(_positions(index)))))
    loads_soundly(_game(index), position)


def tampered_records_replay_or_are_refused(index: int, data: st.DataObject) -> None:
    record = data.draw(mutated(data.draw(st.sampled_from(_records(index)))))
    if data.draw(st.booleans()):
        record = json.dumps(record, allow_nan=True)
    given_copy = copy.deepcopy(record)
    try:
        state = parlour.replay(record)
    except RecordError as err:  # DESIGN.md: a record that does not replay is a RecordError
        assert str(err) and len(str(err)) < 2000
        assert _same(record, given_copy), "a refused record was changed"
        return
    assert _same(record, given_copy), "replay changed its argument"
    sound(state)


def options_load_or_are_refused(name: str, data: st.DataObject) -> None:
    specs = parlour.load(name).option_specs
    names = [spec.name for spec in specs] + ["", "Players", "nonsense"]
    values = JSON | st.sampled_from([v for spec in specs for v in spec.samples()] + ["1", "none", "true", " 2 ", "2.0"])
    options = data.draw(st.dictionaries(st.sampled_from(names), values, max_size=4))
    seed = data.draw(INTS)
    try:
        game = parlour.load(name, **options)
        state = game.new_state(seed)
    except ParlourError as err:  # OptionError: a bad option or seed
        assert str(err) and len(str(err)) < 2000
        return
    assert parlour.load(name, **game.options).options == game.options
    rng = random.Random(seed % 1000)
    for _ in range(data.draw(st.integers(0, 40))):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    sound(state)


AGENT_WORDS = (
    "random", "heuristic", "ismcts", "clairvoyant", ":", ",", "=", "iterations", "depth", "rollout", "keep",
    "tree", "margin", "1", "0", "-1", "1e9", "9" * 30, "nan", "true", "none", " ", "²", "\u0661", "\x00",
)
SPECS = st.lists(st.sampled_from(AGENT_WORDS), max_size=7).map("".join) | st.text(max_size=30) | JSON


def agent_specs_build_or_are_refused(spec: Any) -> None:
    try:
        agent = parlour.agent(spec)
    except ParlourError as err:  # OptionError: what was wrong and what is expected
        assert str(err) and len(str(err)) < 2000
        return
    assert parlour.agent(agent.spec).spec == agent.spec  # the spec it gives makes it again
    for name in parlour.game_names():
        try:
            agent.check(parlour.load(name))
        except ParlourError as err:
            assert str(err)


# -- the fast suite -----------------------------------------------------------------------

@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
@FAST
@given(data=st.data())
def test_from_position_takes_mutated_positions(index: int, data: st.DataObject) -> None:
    mutated_positions_load_soundly(index, data)


@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
@FAST
@given(position=JSON)
def test_from_position_takes_any_json(index: int, position: Any) -> None:
    loads_soundly(_game(index), position)


@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
@FAST
@given(data=st.data())
def test_replay_takes_tampered_records(index: int, data: st.DataObject) -> None:
    tampered_records_replay_or_are_refused(index, data)


@pytest.mark.parametrize("name", parlour.game_names())
@FAST
@given(data=st.data())
def test_game_options_take_any_value(name: str, data: st.DataObject) -> None:
    options_load_or_are_refused(name, data)


@FAST
@given(spec=SPECS)
def test_agent_specs_take_any_text(spec: Any) -> None:
    agent_specs_build_or_are_refused(spec)


# -- the slow twins: the same properties on many more examples, freshly drawn --------------

@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
@SLOW
@given(data=st.data())
def test_slow_from_position_takes_mutated_positions(index: int, data: st.DataObject) -> None:
    mutated_positions_load_soundly(index, data)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
@SLOW
@given(position=JSON)
def test_slow_from_position_takes_any_json(index: int, position: Any) -> None:
    loads_soundly(_game(index), position)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
@SLOW
@given(data=st.data())
def test_slow_replay_takes_tampered_records(index: int, data: st.DataObject) -> None:
    tampered_records_replay_or_are_refused(index, data)


@pytest.mark.slow
@pytest.mark.parametrize("name", parlour.game_names())
@SLOW
@given(data=st.data())
def test_slow_game_options_take_any_value(name: str, data: st.DataObject) -> None:
    options_load_or_are_refused(name, data)


@pytest.mark.slow
@SLOW
@given(spec=SPECS)
def test_slow_agent_specs_take_any_text(spec: Any) -> None:
    agent_specs_build_or_are_refused(spec)
