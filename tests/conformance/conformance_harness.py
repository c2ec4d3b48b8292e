"""The generic conformance checks, run against every registered game.

A *plan* is a list of (options, seed) pairs: in the fast run a random subset of the
option combinations that still shows every value of every option, in the soak run
every combination round-robin. A *playout* is a game of that plan played with random
actions (indices into ``legal_actions()``, drawn from a generator seeded by the
playout's seed). Playouts are cached per (game, run); each check replays them and
looks at every step.

Every check is a function ``check(playout)`` that raises AssertionError (or the
engine's error) on the first violation; ``CHECKS`` lists them by name.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import itertools
import json
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from adapters import ADAPTERS, Adapter
from helpers import option_combinations as option_combos  # every accepted combination, as the suite sweeps them

import parlour
from parlour import IllegalAction, NotationError, OptionError, ParlourError
from parlour.core.game import State

FAST, SOAK = "fast", "soak"
GENERIC_JUNK = ("", "   ", "xyzzy", "xyzzy 12 34", "\x00", "??", "place place place")


# ---------------------------------------------------------------------------------------
# plans and playouts
# ---------------------------------------------------------------------------------------

def adapter(name: str) -> Adapter:
    return ADAPTERS[name]


def option_samples(name: str) -> list[tuple[str, tuple[Any, ...]]]:
    game = parlour.load(name)
    return [(spec.name, tuple(spec.samples())) for spec in game.option_specs]


def all_option_combos(name: str) -> list[dict[str, Any]]:
    """Every combination of every option's ``samples()``, also those the game refuses."""
    samples = option_samples(name)
    names = [n for n, _ in samples]
    return [dict(zip(names, values)) for values in itertools.product(*(v for _, v in samples))]


@functools.lru_cache(maxsize=None)
def _refusal(name: str, options_json: str) -> str | None:
    """The OptionError message ``parlour.load`` gives for these options, or None if it loads.

    Each option value may be allowed on its own but not with the others (e.g. one deck
    for too many players): such combinations are refused, never played.
    """
    try:
        parlour.load(name, **json.loads(options_json))
    except OptionError as err:
        return str(err)
    return None


def refusal(name: str, options: dict[str, Any]) -> str | None:
    return _refusal(name, _key(options))


def accepted(name: str, options: dict[str, Any]) -> bool:
    return refusal(name, options) is None


def refused_combos(name: str) -> list[tuple[dict[str, Any], str]]:
    """The sample combinations that ``parlour.load`` refuses, with its messages."""
    return [(c, refusal(name, c) or "") for c in all_option_combos(name) if not accepted(name, c)]


def _key(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True)


@dataclass(frozen=True)
class PlanItem:
    options: dict[str, Any]
    seed: int
    #: index into the adapter's ``start_positions``, or None for ``new_state(seed)``
    start: int | None = None
    #: play with the adapter's ``policy`` instead of uniformly random actions
    policy: bool = False


def pinned_options(ad: Adapter, start: int) -> dict[str, Any]:
    """The options a start position fixes (its ``"options"``, e.g. the number of players
    its layouts are for); the rest of each combination still varies."""
    return dict(ad.start_positions[start].get("options") or {})


def start_combos(name: str, start: int) -> list[dict[str, Any]]:
    """The option combinations a start position is played under: each accepted combination
    with the options the position fixes put over it, without repeats, where the game accepts it."""
    pinned = pinned_options(adapter(name), start)
    found: dict[str, dict[str, Any]] = {}
    for c in option_combos(name):
        options = {**c, **pinned}
        if accepted(name, options):
            found.setdefault(_key(options), options)
    assert found, f"{name}: start position {start} fixes options that no combination accepts"
    return list(found.values())


@functools.lru_cache(maxsize=None)
def plan(name: str, run: str) -> tuple[PlanItem, ...]:
    """The playouts of a run; deterministic (string seeds hash stably).

    Half the games use the adapter's policy where it has one (to reach rare endings);
    each of the adapter's start positions is played too (in the soak, under every
    option combination, with the options the position itself fixes put over it).
    """
    rng = random.Random(f"parlour-conformance/{name}/{run}")
    combos = option_combos(name)
    ad = adapter(name)
    if run == SOAK:
        count = max(ad.soak_playouts, len(combos))
        chosen = [combos[i % len(combos)] for i in range(count)]
        policies = [(i // len(combos)) % 2 == 1 for i in range(count)]
        starts = [(s, o) for s in range(len(ad.start_positions)) for o in start_combos(name, s)]
    else:
        samples = option_samples(name)
        width = max((len(v) for _, v in samples), default=1)
        orders = {n: rng.sample(range(len(v)), len(v)) for n, v in samples}
        # First a few combinations that together show every value of every option
        # (those the game refuses replaced by accepted ones showing the values still unseen) ...
        diagonal = [{n: v[orders[n][i % len(v)]] for n, v in samples} for i in range(width)]
        chosen = [c for c in diagonal if accepted(name, c)]
        unseen = {(n, _key(v)) for n, vs in samples for v in vs} - {(n, _key(c[n])) for c in chosen for n in c}
        candidates = [c for c in combos if c not in chosen]
        if unseen:  # (only then, so that other games' plans stay as they were)
            rng.shuffle(candidates)
        while unseen:
            best = max(candidates, key=lambda c: len(unseen & {(n, _key(v)) for n, v in c.items()}))
            assert unseen & {(n, _key(v)) for n, v in best.items()}, f"{name}: no accepted combination shows {unseen}"
            chosen.append(best)
            candidates.remove(best)
            unseen -= {(n, _key(v)) for n, v in best.items()}
        # ... then random ones, without repeats while there are unused ones.
        rest = [c for c in combos if c not in chosen]
        rng.shuffle(rest)
        while len(chosen) < ad.fast_playouts:
            chosen.append(rest.pop() if rest else rng.choice(combos))
        policies = [i % 2 == 1 for i in range(len(chosen))]
        starts = [
            (s, rng.choice(start_combos(name, s))) for s in range(len(ad.start_positions)) for _ in range(2)
        ]
    has_policy = ad.policy is not None
    items = [PlanItem(o, rng.getrandbits(32), None, has_policy and pol) for o, pol in zip(chosen, policies)]
    items += [PlanItem(o, rng.getrandbits(32), s, has_policy and i % 2 == 1) for i, (s, o) in enumerate(starts)]
    return tuple(items)


@dataclass(frozen=True)
class Playout:
    game: str
    options_json: str
    seed: int
    choices: tuple[int, ...]
    #: the start position (JSON) for games that do not start from ``new_state(seed)``
    start_json: str | None = None

    @property
    def options(self) -> dict[str, Any]:
        return json.loads(self.options_json)

    def load(self) -> parlour.core.game.Game:
        return parlour.load(self.game, **self.options)

    def new_state(self, game: parlour.core.game.Game | None = None) -> State:
        game = game or self.load()
        if self.start_json is None:
            return game.new_state(self.seed)
        return game.from_position(json.loads(self.start_json))

    def describe(self, step: int | None = None) -> str:
        at = "" if step is None else f" at action {step}"
        start = f"new_state({self.seed})" if self.start_json is None else f"from_position({self.start_json})"
        return (
            f"{self.game} options={self.options_json} seed={self.seed}{at} "
            f"(replay: parlour.load({self.game!r}, **options).{start}, then "
            f"action i is legal_actions()[choices[i]], choices={list(self.choices[: (step or 0) + 1])}...)"
        )


def _play(name: str, item: PlanItem) -> Playout:
    ad = adapter(name)
    game = parlour.load(name, **item.options)
    start_json = None
    if item.start is not None:
        start = {**ad.start_positions[item.start], "options": game.options}
        start_json = json.dumps(start)
    p = Playout(name, _key(item.options), item.seed, (), start_json)
    state = p.new_state(game)
    rng = random.Random(item.seed)
    choices: list[int] = []
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, f"{p.describe(len(choices))}: no legal action in a state that is not over"
        index = ad.policy(state, rng) if item.policy and ad.policy else rng.randrange(len(legal))
        state.apply(legal[index])
        choices.append(index)
        assert len(choices) <= ad.max_actions, f"{p.describe()}: no end after {ad.max_actions} actions"
    return Playout(name, p.options_json, item.seed, tuple(choices), start_json)


@functools.lru_cache(maxsize=None)
def playouts(name: str, run: str) -> tuple[Playout, ...]:
    return tuple(_play(name, item) for item in plan(name, run))


def walk(p: Playout) -> Iterator[tuple[int, State, Any]]:
    """Each state of a playout, live, with the action about to be applied (None at the end).

    The consumer must not change the state (work on clones); the walk applies the
    next action when resumed.
    """
    state = p.new_state()
    for step, index in enumerate(p.choices):
        action = state.legal_actions()[index]
        yield step, state, action
        state.apply(action)
    yield len(p.choices), state, None


def notations(actions: list[Any]) -> list[str]:
    return [str(a) for a in actions]


def seats(state: State) -> range:
    return range(state.game.num_players)


def step_rng(p: Playout, *parts: object) -> random.Random:
    return random.Random("/".join(map(str, (p.game, p.options_json, p.seed, *parts))))


def _json_ready(value: Any, what: str) -> None:
    text = json.dumps(value)
    assert json.loads(text) == value, f"{what} does not survive JSON unchanged (tuples? int keys?)"


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything observable through the API, for "nothing changed" comparisons."""
    return (
        state.to_position(),
        notations(state.legal_actions()),
        notations(state.history()),
        state.current_player,
        state.scores(),
        state.winners(),
        [state.observation(s) for s in seats(state)],
    )


# ---------------------------------------------------------------------------------------
# the checks
# ---------------------------------------------------------------------------------------

def generic_invariants(state: State) -> None:
    game = state.game
    n = game.num_players
    assert isinstance(n, int) and n >= 1
    terminal = state.is_terminal()
    assert terminal == (state.current_player is None), "current_player is None exactly when the game is over"
    assert terminal == (state.end_reason is not None)
    legal = state.legal_actions()
    if terminal:
        assert legal == []
    else:
        assert state.current_player in range(n), state.current_player
        assert legal, "a game that is not over has a legal action"
        texts = notations(legal)
        assert all(t and t == t.strip() for t in texts), texts
        assert len(set(texts)) == len(texts), f"two legal actions share a notation: {texts}"
    scores = state.scores()
    assert isinstance(scores, list) and len(scores) == n, scores
    winners = state.winners()
    assert isinstance(winners, list) and len(set(winners)) == len(winners), winners
    assert set(winners) <= set(range(n)), winners
    pos = state.to_position()
    assert pos["end"] == state.end_reason
    assert pos["options"] == game.options
    assert "chance" in pos


def check_conservation(p: Playout) -> None:
    """Each card of the deck in exactly one place; the game's invariants; generic invariants."""
    ad = adapter(p.game)
    deck = Counter(ad.deck(p.options))
    previous: tuple[dict[str, Any], str] | None = None
    for step, state, action in walk(p):
        pos = state.to_position()
        places = ad.cards_by_place(pos)
        found = Counter(code for cards in places.values() for code in cards)
        if found != deck:
            where = {code: [pl for pl, cards in places.items() if code in cards] for code in (found - deck)}
            raise AssertionError(
                f"{p.describe(step)}: cards not conserved: extra {dict(found - deck)} (in {where}), "
                f"missing {dict(deck - found)}"
            )
        try:
            ad.invariants(state)
            generic_invariants(state)
            if ad.transition is not None and previous is not None:
                ad.transition(previous[0], previous[1], pos)
        except AssertionError as err:
            last = f" after {previous[1]!r}" if previous else ""
            raise AssertionError(f"{p.describe(step)}{last}: {err}\nposition: {pos}") from err
        previous = (pos, str(action)) if action is not None else None


def check_determinism(p: Playout) -> None:
    """Same seed and same actions (as objects or as notation): the same game."""
    a, b = p.new_state(), p.new_state(parlour.load(p.game, **p.options))
    for step, index in enumerate(p.choices):
        assert a.to_position() == b.to_position(), p.describe(step)
        legal_a, legal_b = a.legal_actions(), b.legal_actions()
        assert notations(legal_a) == notations(legal_b), p.describe(step)
        a.apply(legal_a[index])
        b.apply(str(legal_b[index]))
    assert a.to_position() == b.to_position() and a.is_terminal() and b.is_terminal(), p.describe()
    assert a.record() == b.record()


def check_positions(p: Playout) -> None:
    """to_position / from_position round-trips (through JSON), with and without the optional keys."""
    plain = parlour.load(p.game)
    for step, state, _ in walk(p):
        game = state.game
        where = p.describe(step)
        pos = state.to_position()
        _json_ready(pos, "to_position()")
        for seat in seats(state):
            _json_ready(state.observation(seat), f"observation({seat})")
        _json_ready(state.record(), "record()")
        rebuilt = game.from_position(json.loads(json.dumps(pos)))
        assert rebuilt.to_position() == pos, where
        assert snapshot(rebuilt)[:2] == snapshot(state)[:2], where
        assert rebuilt.current_player == state.current_player and rebuilt.is_terminal() == state.is_terminal()
        assert rebuilt.scores() == state.scores() and rebuilt.winners() == state.winners(), where
        assert [rebuilt.observation(s) for s in seats(state)] == [state.observation(s) for s in seats(state)]
        # "options" present: it wins over the options of the game that reads it ...
        assert plain.from_position(pos).to_position() == pos, where
        # ... missing: the options of the game whose from_position is called.
        no_options = {k: v for k, v in pos.items() if k != "options"}
        assert game.from_position(no_options).to_position() == pos, where
        # "chance" missing: one is derived from the position, the rest is kept.
        no_chance = {k: v for k, v in pos.items() if k != "chance"}
        derived = game.from_position(no_chance)
        assert {k: v for k, v in derived.to_position().items() if k != "chance"} == no_chance, where
        assert isinstance(derived.to_position()["chance"], int)
        assert notations(derived.legal_actions()) == notations(state.legal_actions()), where
        assert game.from_position(no_chance).to_position() == derived.to_position(), "derived chance is not stable"
        if pos["end"] is None:
            no_end = {k: v for k, v in pos.items() if k != "end"}
            assert game.from_position(no_end).to_position() == pos, where
        # from_position keeps no reference to the dict it was given.
        given = copy.deepcopy(pos)
        built = game.from_position(given)
        _scramble(given)
        assert built.to_position() == pos, f"{where}: from_position aliases its argument"


def _scramble(value: Any) -> None:
    """Empty every list and dict inside ``value``, in place."""
    if isinstance(value, list):
        for item in value:
            _scramble(item)
        value.clear()
    elif isinstance(value, dict):
        for item in value.values():
            _scramble(item)
        value.clear()


def check_continuation(p: Playout) -> None:
    """A game rebuilt from a mid-game position plays on exactly like the original;
    its record has ``"seed": null`` and the position under ``"start"`` and replays."""
    positions = [state.to_position() for _, state, _ in walk(p)]
    rng = step_rng(p, "continuation")
    for k in sorted({0, rng.randrange(len(positions)), len(positions) - 1}):
        state = p.load().from_position(json.loads(json.dumps(positions[k])))
        applied = []
        for i in range(k, len(p.choices)):
            legal = state.legal_actions()
            assert p.choices[i] < len(legal), f"{p.describe(i)}: fewer legal actions after from_position"
            action = legal[p.choices[i]]
            applied.append(str(action))
            state.apply(action)
            assert state.to_position() == positions[i + 1], p.describe(i)
        record = json.loads(json.dumps(state.record()))
        assert record["seed"] is None, record["seed"]
        assert record["start"] == positions[k], p.describe(k)
        assert record["actions"] == applied
        replayed = parlour.replay(json.dumps(record))
        assert replayed.to_position() == positions[-1], p.describe(k)


def check_records(p: Playout) -> None:
    """state.record() replays to the same position, at the end and in the middle."""
    rng = step_rng(p, "records")
    middle = rng.randrange(len(p.choices) + 1)
    applied: list[str] = []
    for step, state, action in walk(p):
        if step in (0, middle) or action is None:
            pos = state.to_position()
            record = state.record()
            assert set(record) >= {"game", "version", "options", "seed", "players", "actions", "result"}
            assert record["game"] == p.game and record["options"] == state.game.options
            if p.start_json is None:
                assert record["seed"] == p.seed and "start" not in record
            else:
                assert record["seed"] is None and record["start"] == p.new_state().to_position()
            assert len(record["players"]) == state.game.num_players
            assert record["actions"] == applied == notations(state.history()), p.describe(step)
            over = state.is_terminal()
            assert record["result"] == {
                "scores": state.scores(),
                "winners": state.winners() if over else [],
                "end": state.end_reason,
            }
            for given in (record, json.dumps(record), json.loads(json.dumps(record))):
                replayed = parlour.replay(given)
                assert replayed.to_position() == pos, p.describe(step)
                assert notations(replayed.legal_actions()) == notations(state.legal_actions())
                assert replayed.record() == record
        if action is not None:
            applied.append(str(action))


def check_notation(p: Playout) -> None:
    """str(action) parses back to the same action, also in other case and spacing
    (DESIGN.md "Notation input"), and applying the text does what applying the action does."""
    for step, state, _ in walk(p):
        game = state.game
        legal = state.legal_actions()
        for a in legal:
            parsed = game.parse_action(state, str(a))
            assert parsed == a and str(parsed) == str(a), f"{p.describe(step)}: {str(a)!r} parses as {str(parsed)!r}"
        if not legal:
            continue
        rng = step_rng(p, "notation", step)
        a = legal[rng.randrange(len(legal))]
        text = str(a)
        for variant in (text.upper(), text.lower(), "  " + text.replace(" ", "   ") + " \t"):
            assert game.parse_action(state, variant) == a, f"{p.describe(step)}: {variant!r}"
        by_object, by_text = state.clone(), state.clone()
        by_object.apply(a)
        by_text.apply(text)
        assert by_object.to_position() == by_text.to_position(), p.describe(step)


def check_clone(p: Playout) -> None:
    """clone() is independent both ways; returned lists and dicts are the caller's to change."""
    for step, state, action in walk(p):
        where = p.describe(step)
        before = snapshot(state)
        original = state.clone()
        assert snapshot(original) == before, where
        if not state.is_terminal():
            copy_ = original.clone()
            legal = copy_.legal_actions()
            rng = step_rng(p, "clone", step)
            copy_.apply(legal[rng.randrange(len(legal))])
            assert snapshot(original) == before, f"{where}: applying to a clone changed the original"
            after = snapshot(copy_)
            other = original.legal_actions()
            original.apply(other[rng.randrange(len(other))])
            assert snapshot(copy_) == after, f"{where}: applying to the original changed its clone"
        # Results handed out are copies.
        _scramble(state.legal_actions())
        _scramble(state.to_position())
        _scramble(state.history())
        _scramble(state.record())
        for seat in seats(state):
            _scramble(state.observation(seat))
            view = state.view(seat)
            _scramble(view.observation)
            _scramble(view.legal_actions)
        assert snapshot(state) == before, f"{where}: changing a returned value changed the state"


def check_no_leak(p: Playout) -> None:
    """DESIGN.md "Hidden information": a seat cannot tell a state from its hidden twin,
    and samples for it are consistent with what it sees and depend on nothing else."""
    ad = adapter(p.game)
    deck = Counter(ad.deck(p.options))
    differed = public_differed = 0
    for step, state, _ in walk(p):
        public = state.observation(None)
        _json_ready(public, "observation(None)")
        assert public["seat"] is None, f"{p.describe(step)}: the public observation names a seat"
        # A spectator knows no card that any seat cannot know: its twin hides every private card.
        twin = ad.hidden_twin(state, None, step_rng(p, "twin", step, "public"))
        public_differed += twin.to_position() != state.to_position()
        assert twin.observation(None) == public, f"{p.describe(step)}: the public observation shows hidden cards"
        # A spectator's sample is a lawful state showing the spectator what it saw, the same
        # for the twin (issue 18: a hand's size is public, its cards unknown like the pile's).
        game = state.game
        sample = game.sample(public, random.Random(step))
        assert sample.observation(None) == public, f"{p.describe(step)}: a spectator's sample contradicts its view"
        assert game.sample(twin.observation(None), random.Random(step)).to_position() == sample.to_position()
        found = Counter(c for cards in ad.cards_by_place(sample.to_position()).values() for c in cards)
        assert found == deck, f"{p.describe(step)}: a spectator's sample does not conserve cards"
        ad.invariants(sample)
        generic_invariants(sample)
        for seat in seats(state):
            where = f"{p.describe(step)} seat {seat}"
            twin = ad.hidden_twin(state, seat, step_rng(p, "twin", step, seat))
            differed += twin.to_position() != state.to_position()
            obs = state.observation(seat)
            assert twin.observation(seat) == obs, f"{where}: the observation shows hidden cards"
            assert twin.observation(None) == public, f"{where}: the public observation shows a card {seat} cannot know"
            view, twin_view = state.view(seat), twin.view(seat)
            assert view.observation == obs and twin_view.observation == obs, where
            assert view.current_player == state.current_player
            expected_legal = notations(state.legal_actions()) if seat == state.current_player else []
            assert notations(view.legal_actions) == expected_legal, where
            assert notations(twin_view.legal_actions) == expected_legal, where
            for k in (step, step + 10_000):
                sample = view.sample(random.Random(k))
                twin_sample = twin_view.sample(random.Random(k))
                assert sample.to_position() == twin_sample.to_position(), (
                    f"{where}: view.sample depends on hidden cards (rng {k})"
                )
                assert view.sample(random.Random(k)).to_position() == sample.to_position(), "sample not reproducible"
                # The sample is a full, lawful state consistent with the observation.
                assert sample.observation(seat) == obs, f"{where}: the sample contradicts the observation"
                found = Counter(c for cards in ad.cards_by_place(sample.to_position()).values() for c in cards)
                assert found == deck, f"{where}: the sample does not conserve cards"
                ad.invariants(sample)
                generic_invariants(sample)
                if seat == state.current_player:
                    assert notations(sample.legal_actions()) == expected_legal, where
            # A sample can be played on (search agents do), and its record replays.
            sample = view.sample(random.Random(step + 20_000))
            if not sample.is_terminal():
                legal = sample.legal_actions()
                sample.apply(legal[step % len(legal)])
                assert parlour.replay(sample.record()).to_position() == sample.to_position(), where
    assert differed, f"{p.describe()}: the hidden twins never differed from the state: the check proved nothing"
    assert public_differed, f"{p.describe()}: the spectator's twins never differed: the check proved nothing"


def check_terminal(p: Playout) -> None:
    """The end: no player to act, no legal action, and nothing applies."""
    pool: list[Any] = []
    seen: set[str] = set()
    final = None
    for _, state, action in walk(p):
        for a in state.legal_actions():
            if str(a) not in seen:
                seen.add(str(a))
                pool.append(a)
        final = state
    assert final is not None and final.is_terminal(), p.describe()
    assert final.current_player is None and final.legal_actions() == []
    assert set(final.winners()) <= set(seats(final))
    assert len(final.scores()) == final.game.num_players
    before = snapshot(final)
    rng = step_rng(p, "terminal")
    for a in rng.sample(pool, min(len(pool), 12)) + final.history()[-1:]:
        for attempt in (a, str(a)):
            try:
                final.apply(attempt)
            except IllegalAction as err:
                assert str(err), "an error says why"
            else:
                raise AssertionError(f"{p.describe()}: {attempt!r} applied to a finished game")
            assert snapshot(final) == before, p.describe()
    for seat in seats(final):
        view = final.view(seat)
        assert view.legal_actions == [] and view.current_player is None


def _refused(state: State, attempt: Any, before: tuple[Any, ...], where: str, errors: tuple = (IllegalAction, NotationError)) -> None:
    """``attempt`` (not legal now) raises one of ``errors`` and changes nothing."""
    try:
        state.apply(attempt)
    except errors as err:
        assert str(err), f"{where}: an error with no message"
    else:
        raise AssertionError(f"{where}: {attempt!r} was applied though not legal")
    assert snapshot(state) == before, f"{where}: the refused {attempt!r} changed the state"


def check_illegal(p: Playout) -> None:
    """Actions from other states, junk notation and non-actions are refused and change nothing."""
    pool: list[Any] = []
    seen: set[str] = set()
    for _, state, _ in walk(p):
        for a in state.legal_actions():
            if str(a) not in seen:
                seen.add(str(a))
                pool.append(a)
    junk = list(GENERIC_JUNK) + list(adapter(p.game).junk_notation)
    for step, state, _ in walk(p):
        where = p.describe(step)
        game = state.game
        before = snapshot(state)
        legal = state.legal_actions()
        legal_texts = set(notations(legal))
        rng = step_rng(p, "illegal", step)
        foreign = [a for a in rng.sample(pool, min(len(pool), 6)) if str(a) not in legal_texts]
        for a in foreign:
            _refused(state, a, before, where, IllegalAction)
        # Every junk text is tried at some step of the run, a few at each step.
        texts = [str(a) for a in foreign] + rng.sample(junk, min(len(junk), 6))
        for text in texts:
            # Text may be an abbreviation of exactly one legal action; otherwise it is refused.
            try:
                parsed = game.parse_action(state, text)
            except (IllegalAction, NotationError) as err:
                assert str(err), where
                assert snapshot(state) == before, f"{where}: parsing {text!r} changed the state"
                _refused(state, text, before, where)
            else:
                assert parsed in legal, f"{where}: {text!r} parsed to {parsed!r}, which is not legal"
        for thing in (None, 42, object(), ["not", "an", "action"]):
            _refused(state, thing, before, where, ParlourError)


CHECKS: dict[str, Callable[[Playout], None]] = {
    "conservation": check_conservation,
    "determinism": check_determinism,
    "positions": check_positions,
    "continuation": check_continuation,
    "records": check_records,
    "notation": check_notation,
    "clone": check_clone,
    "no_leak": check_no_leak,
    "terminal": check_terminal,
    "illegal": check_illegal,
}


def fingerprint(name: str, count: int = 4) -> str:
    """A digest of every position of the first fast playouts (for cross-process determinism)."""
    digest = hashlib.sha256()
    for p in playouts(name, FAST)[:count]:
        digest.update(repr(p.choices).encode())
        for _, state, _ in walk(p):
            digest.update(json.dumps(state.to_position(), sort_keys=True).encode())
            digest.update(json.dumps(notations(state.legal_actions())).encode())
    return digest.hexdigest()
