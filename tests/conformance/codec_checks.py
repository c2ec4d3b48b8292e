"""The conformance checks of the codecs for learning (core/codec.py, docs/codecs.md), run on
every playout of every game, like the harness's checks (``CODEC_CHECKS`` joins ``CHECKS``).

- ``codec_ids``: in every state, the id sequences reachable by walking ``legal_ids`` from
  ``()`` are exactly the legal actions' ``action_ids`` (walked in full up to a bound on the
  trie's size, else every legal action's path and random walks down the masks); the ids are
  prefix-free, within ``num_distinct_actions``, and round-trip with the actions and their
  notation; bad ids and prefixes are refused with a CodecError and change nothing.
- ``codec_tensors``: every seat's (and the spectator's) tensor has the game's shape and
  finite floats, shows the prefix of the action being made, and is the same for the seat's
  hidden twin (a state differing only in cards the seat cannot know).
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from adapters import ADAPTERS
from conformance_harness import Playout, seats, snapshot, step_rng, walk

from parlour import CodecError
from parlour.core.game import State

#: The most trie nodes (masks) one state's full walk may visit; a larger trie is checked
#: path by path (every legal action's) and by random walks down the masks.
FULL_WALK_NODES = 5_000
RANDOM_WALKS = 200
#: Tensors of every seat are compared with their twins' at every step of a playout of at
#: most this many steps, else at this many steps spread over it (the hidden twins are
#: dear to make); the current seat's tensors, with each prefix of its action, at every step.
TWIN_STEPS = 20


def id_sequences(state: State) -> dict[tuple[int, ...], Any] | None:
    """Every complete id sequence reachable from ``()`` through ``legal_ids``, with its action;
    None if the trie has more than FULL_WALK_NODES nodes."""
    found: dict[tuple[int, ...], Any] = {}
    stack: list[tuple[int, ...]] = [()]
    nodes = 0
    while stack:
        prefix = stack.pop()
        nodes += 1
        if nodes > FULL_WALK_NODES:
            return None
        mask = state.legal_ids(prefix)
        assert mask == sorted(set(mask)), f"legal_ids({prefix}) is not sorted and distinct: {mask}"
        assert mask or not prefix, f"the mask after {prefix} is empty, but they name no action"
        for i in mask:
            ids = (*prefix, i)
            action = state.action_from_ids(ids)
            if action is None:
                stack.append(ids)
            else:
                found[ids] = action
    return found


def _random_walks(state: State, rng: random.Random, where: str) -> None:
    """Random walks down the masks each end at a legal action (masks offer nothing else)."""
    legal = set(state.legal_actions())
    for _ in range(RANDOM_WALKS):
        ids: tuple[int, ...] = ()
        while True:
            mask = state.legal_ids(ids)
            assert mask, f"{where}: an empty mask after {ids}"
            ids = (*ids, rng.choice(mask))
            action = state.action_from_ids(ids)
            if action is not None:
                assert action in legal and state.game.action_ids(action) == ids, f"{where}: {ids} -> {action}"
                break


def _refused(call: Callable[[], Any], where: str) -> None:
    """``call`` raises a CodecError with a message (the caller checks that nothing changed)."""
    try:
        call()
    except CodecError as err:
        assert str(err), f"{where}: a CodecError with no message"
    else:
        raise AssertionError(f"{where}: a bad id or prefix was accepted")


def check_codec_ids(p: Playout) -> None:
    """Masks equal the legal actions; ids round-trip; bad ids are refused and change nothing."""
    game = p.load()
    size = game.num_distinct_actions
    assert isinstance(size, int) and size > 0
    for step, state, _ in walk(p):
        where = p.describe(step)
        legal = state.legal_actions()
        by_ids = {game.action_ids(a): a for a in legal}
        assert len(by_ids) == len(legal), f"{where}: two legal actions share their ids"
        for ids, a in by_ids.items():
            assert ids and all(isinstance(i, int) and 0 <= i < size for i in ids), f"{where}: {a}: {ids}"
            for k in range(1, len(ids)):
                assert ids[:k] not in by_ids, f"{where}: the ids of {by_ids[ids[:k]]} begin those of {a}"
                assert state.action_from_ids(ids[:k]) is None, f"{where}: {a}: {ids[:k]} is no prefix"
                assert ids[k] in state.legal_ids(ids[:k]), f"{where}: {a}: id {ids[k]} not in the mask after {ids[:k]}"
            assert ids[0] in state.legal_ids(), f"{where}: {a}: id {ids[0]} not in the first mask"
            found = state.action_from_ids(ids)
            assert found is a and str(found) == str(a), f"{where}: {ids} name {found}, not {a}"
            assert game.action_ids(game.parse_action(state, str(a))) == ids, f"{where}: {a} through its notation"
            if len(ids) == 1:
                assert game.action_id(a) == ids[0] and state.action_from_id(ids[0]) is a, where
        walked = id_sequences(state)
        if walked is None:
            _random_walks(state, step_rng(p, "codec", step), where)
        else:
            assert walked.keys() == by_ids.keys(), (
                f"{where}: the masks reach {sorted(walked.keys() - by_ids.keys())[:5]} beyond the legal "
                f"actions and miss {sorted(by_ids.keys() - walked.keys())[:5]}")
        _check_refusals(state, by_ids, step_rng(p, "codec refusals", step), where)


def _check_refusals(state: State, by_ids: dict[tuple[int, ...], Any], rng: random.Random, where: str) -> None:
    game = state.game
    size = game.num_distinct_actions
    before = snapshot(state)
    first = set(state.legal_ids())
    illegal = [i for i in rng.sample(range(size), min(size, 8)) if i not in first]
    bad: list[Any] = [(-1,), (size,), (True,), ("1",), (1.5,), [None], "1", 3, None]
    bad += [(i,) for i in illegal]
    if by_ids:
        ids = rng.choice(list(by_ids))
        bad.append((*ids, ids[0]))  # on past a complete action
        if len(ids) > 1:
            bad.append((*ids[:-1], size))
        bad += [(*ids[:-1], i) for i in illegal[:2] if i not in state.legal_ids(ids[:-1])]
    else:
        bad.append(())  # a finished game: no action, not even a partial one
    for ids in bad:
        _refused(lambda: state.action_from_ids(ids), f"{where}: action_from_ids({ids!r})")
        if ids != ():
            _refused(lambda: state.legal_ids(ids), f"{where}: legal_ids({ids!r})")
    for ids in by_ids:
        _refused(lambda: state.legal_ids(ids), f"{where}: legal_ids of a complete action")
        if len(ids) > 1:
            _refused(lambda: state.action_from_id(ids[0]), f"{where}: action_from_id({ids[0]})")
            _refused(lambda: game.action_id(by_ids[ids]), f"{where}: action_id of {by_ids[ids]}")
    if state.is_terminal():
        assert state.legal_ids() == [], f"{where}: a finished game has a mask"
    for thing in (None, "stop", 3):
        _refused(lambda: game.action_ids(thing), f"{where}: action_ids({thing!r})")
    assert snapshot(state) == before, f"{where}: a refused id or prefix changed the state"


def _tensor(state: State, seat: int | None, prefix: tuple[int, ...] = ()) -> list[float]:
    game = state.game
    values = game.observation_tensor(state.observation(seat), prefix)
    assert isinstance(values, list) and len(values) == math.prod(game.observation_shape)
    assert set(map(type, values)) == {float} and all(map(math.isfinite, values)), "a tensor value is not a finite float"
    return values


def check_codec_tensors(p: Playout) -> None:
    """Shapes, finite values, the prefix shown, the layout, and no leak through a hidden twin."""
    ad = ADAPTERS[p.game]
    game = p.load()
    layout = game.observation_layout
    assert layout[0][1] == 0 and layout[-1][2] == math.prod(game.observation_shape)
    assert all(a[2] == b[1] for a, b in zip(layout, layout[1:])), f"the layout has gaps: {layout}"
    prefixed = dict((name, (start, stop)) for name, start, stop in layout).get("prefix")
    every = max(1, len(p.choices) // TWIN_STEPS)
    differed = 0
    for step, state, action in walk(p):
        where = p.describe(step)
        rng = step_rng(p, "codec twin", step)
        if step % every == 0:  # every seat's tensor against its twin's
            for seat in [None, *seats(state)]:
                values = _tensor(state, seat)
                twin = ad.hidden_twin(state, seat, rng)
                differed += twin.to_position() != state.to_position()
                assert _tensor(twin, seat) == values, f"{where}: seat {seat}'s tensor shows a card it cannot know"
                if seat is not None and seat == state.current_player:
                    assert twin.legal_ids() == state.legal_ids(), f"{where}: the masks show hidden cards"
        if action is None:
            continue
        ids = game.action_ids(action)
        seat = state.current_player
        plain = _tensor(state, seat)
        if prefixed is None:
            assert len(ids) == 1, f"{where}: {action} takes several ids but the tensor has no prefix"
            continue
        for k in range(len(ids)):
            shown = _tensor(state, seat, ids[:k])
            start, stop = prefixed
            assert shown[:start] == plain[:start], f"{where}: the prefix changed more than its segment"
            assert [i for i in range(stop - start) if shown[start + i]] == sorted(ids[:k]), where
        _refused(lambda: game.observation_tensor(state.observation(seat), (game.num_distinct_actions,)),
                 f"{where}: a prefix id out of range")
    assert differed, f"{p.describe()}: the hidden twins never differed: the tensor twin check proved nothing"


CODEC_CHECKS: dict[str, Callable[[Playout], None]] = {
    "codec_ids": check_codec_ids,
    "codec_tensors": check_codec_tensors,
}
