"""Codecs for learning (DESIGN.md "Codecs for learning"): fixed action ids and tensors.

A game's codec maps its actions to short sequences of integer ids in one fixed id space of
``num_distinct_actions`` ids (depending on the game's options only), and an observation to a
flat list of floats of fixed shape. An action that is one decision has one id; one that is
many (a Psalter Row placement with its payment, a Quisquilian run) has several, one per
sub-decision, in a fixed order. In every state the id sequences of the legal actions are
prefix-free, so a learner picks ids one at a time from masks (:meth:`Codec.legal_ids`) and
the ids it picked name exactly one legal action (:meth:`Codec.action_from_ids`).

What the games share is here: the named segments of the id space and of the tensor
(:class:`Segments`), the trie of the legal actions' ids that masks and look-ups walk, the
checks and the errors. Each game's package holds its own ``codec.py``: the segments, the
ids of an action and how an observation fills the tensor. The rules keep their own actions:
the codec reads ``legal_actions()`` and never changes a state.

>>> import parlour
>>> game = parlour.load("psalter-row")
>>> state = game.from_position({"row": ["5H"], "hand": ["9C", "2D", "JS", "3C", "KD"]})
>>> action = game.parse_action(state, "place 9C high pay 2D JS")
>>> ids = game.action_ids(action)
>>> [game.codec.id_name(i) for i in ids]
['place 9C high', 'pay 2D with a Patron', 'patron JS']
>>> state.legal_ids(ids[:2]) == [ids[2]], state.action_from_ids(ids) is action
(True, True)
>>> state.action_from_ids(ids[:1]) is None  # more sub-decisions follow
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from parlour.core.action import Action
from parlour.core.errors import CodecError
from parlour.core.integers import plain_int
from parlour.core.words import first_of, shown

if TYPE_CHECKING:
    from parlour.core.game import Game, State

#: How many ids an error lists before it says how many more there are.
LISTED = 12

#: The most id sequences a codec remembers the action of (a Quisquilian dig can have
#: thousands of runs): past it the memory starts afresh. An entry of a long run costs about
#: 220 bytes, so the memory stays under about 4 MB.
KNOWN = 16_384


class Segments:
    """Consecutive named ranges of integers: the id space, or the slots of a tensor.

    Each part is ``(name, labels)`` with a label per index (the id space names each id,
    e.g. ``"place 9C high"``) or ``(name, size)`` for a tensor's slots.

    >>> space = Segments([("take", ("take",)), ("flip", ("flip B1", "flip C1"))])
    >>> space.size, space.start["flip"], space.layout, space.label(2)
    (3, 1, [('take', 0, 1), ('flip', 1, 3)], 'flip C1')
    """

    __slots__ = ("start", "sizes", "size", "layout", "_labels")

    def __init__(self, parts: Iterable[tuple[str, int | Sequence[str]]]) -> None:
        self.start: dict[str, int] = {}
        self.sizes: dict[str, int] = {}
        self.layout: list[tuple[str, int, int]] = []
        self._labels: list[str] = []
        at = 0
        for name, spec in parts:
            size = spec if isinstance(spec, int) else len(spec)
            assert name not in self.start and size > 0, f"segment {name!r} is named twice or empty"
            self.start[name], self.sizes[name] = at, size
            self.layout.append((name, at, at + size))
            self._labels += [f"{name} {k}" for k in range(size)] if isinstance(spec, int) else list(spec)
            at += size
        self.size = at

    def label(self, index: int) -> str:
        """What one index means (the segment's label, or ``"<segment> <offset>"``)."""
        return self._labels[index]


class Tensor:
    """A flat tensor being filled, segment by segment (offsets within a segment are checked).

    >>> t = Tensor(Segments([("hand", 3), ("size", 1)]))
    >>> t.set("hand", 2); t.set("size", 0, 0.5); t.values
    [0.0, 0.0, 1.0, 0.5]
    """

    __slots__ = ("values", "_segments")

    def __init__(self, segments: Segments) -> None:
        self.values = [0.0] * segments.size
        self._segments = segments

    def set(self, segment: str, offset: int, value: float = 1.0) -> None:
        """Slot ``offset`` of ``segment`` is ``value``."""
        self.values[self._at(segment, offset)] = float(value)

    def add(self, segment: str, offset: int, value: float = 1.0) -> None:
        """Slot ``offset`` of ``segment`` grows by ``value`` (counts of cards, e.g.)."""
        self.values[self._at(segment, offset)] += value

    def _at(self, segment: str, offset: int) -> int:
        if not 0 <= offset < self._segments.sizes[segment]:
            raise IndexError(f"offset {offset} is outside segment {segment!r} ({self._segments.sizes[segment]} slots)")
        return self._segments.start[segment] + offset


class Branch:
    """A node of the trie of the legal actions' ids: the actions whose ids begin with the
    ``depth`` ids that lead here. Its children (each next id, to a branch or to the action it
    completes) are worked out on first use: a mask at the root groups the actions by their
    first id once, and only the branches a learner walks down are grouped further.
    """

    __slots__ = ("entries", "depth", "_children")

    def __init__(self, entries: list[tuple[tuple[int, ...], Action]], depth: int) -> None:
        self.entries = entries
        self.depth = depth
        self._children: dict[int, Branch | Action] | None = None

    def children(self) -> dict[int, "Branch | Action"]:
        children = self._children
        if children is None:
            depth = self.depth
            children, deeper = {}, {}
            for entry in self.entries:  # one pass: most actions end at the first id
                ids, action = entry
                i = ids[depth]
                if len(ids) == depth + 1:
                    if i in children or i in deeper:
                        self._clash(i, action)
                    children[i] = action
                elif i in children:
                    self._clash(i, children[i])
                else:
                    deeper.setdefault(i, []).append(entry)
            for i, group in deeper.items():
                children[i] = Branch(group, depth + 1)
            self._children = children
        return children

    def _clash(self, i: int, action: Action) -> None:
        others = [str(a) for ids, a in self.entries if ids[self.depth] == i and a is not action]
        raise AssertionError(f"codec bug: the ids of {action} are those of, or begin those of, {others[:3]}")


class Codec:
    """A game's codec; each game subclasses it (``games/<game>/codec.py``) and fills the hooks.

    ``game.codec`` is the game's one instance (its options fixed); ``Game`` and ``State``
    hand their codec methods over to it. Between calls it keeps the trie of the last
    legal-action list it was asked about, so that an environment asking for a mask, then the
    mask after one id, then the action, builds it once; and the action each id sequence it
    has seen named (actions are interned, and an action's ids depend on the options alone),
    so that ids naming a legal action are looked up without working out the ids of every
    other legal action (the environments' step).
    """

    #: The kind of action this codec encodes (the game's Action subclass).
    action_type: ClassVar[type[Action]] = Action

    def __init__(self, game: "Game") -> None:
        self.game = game
        self.actions = Segments(self._action_segments())
        self._multi = self._takes_several_ids()
        observed = list(self._observation_segments())
        if self._multi:  # the policy sees what it already chose in the action being made
            observed.append(("prefix", self.actions.size))
        self.observed = Segments(observed)
        self._cache: tuple[list[Action], Branch] | None = None
        self._known: dict[tuple[int, ...], Action] = {}  # at most KNOWN entries

    # -- hooks ------------------------------------------------------------------------
    def _action_segments(self) -> list[tuple[str, Sequence[str]]]:
        """The id space: (segment name, a label per id), in id order."""
        raise NotImplementedError

    def _takes_several_ids(self) -> bool:
        """Whether some action has more than one id (then the tensor shows the prefix)."""
        raise NotImplementedError

    def _ids(self, action: Action) -> tuple[int, ...]:
        """The ids of one of the game's actions (CodecError where the options allow none)."""
        raise NotImplementedError

    def _observation_segments(self) -> list[tuple[str, int]]:
        """The tensor's segments before the prefix: (name, number of slots), in order."""
        raise NotImplementedError

    def _fill(self, observation: dict[str, Any], tensor: Tensor) -> None:
        """Write an observation into a zeroed tensor."""
        raise NotImplementedError

    # -- the id space -------------------------------------------------------------------
    @property
    def num_distinct_actions(self) -> int:
        return self.actions.size

    def id_name(self, i: int) -> str:
        """What an id means, in words (e.g. ``"place 9C high"``)."""
        return self.actions.label(self._id(i))

    def action_ids(self, action: Action) -> tuple[int, ...]:
        """The ids of an action's sub-decisions, in order."""
        if not isinstance(action, self.action_type):
            raise CodecError(f"{shown(action)} is not a {self.game.title} action: expected one of its "
                             f"legal actions (state.legal_actions())")
        return self._ids(action)

    def action_id(self, action: Action) -> int:
        """The one id of an action that is one decision; CodecError for one of several."""
        ids = self.action_ids(action)
        if len(ids) != 1:
            raise CodecError(f"{action} takes {len(ids)} ids {list(ids)}, not one: use game.action_ids "
                             f"and state.action_from_ids for actions of several sub-decisions")
        return ids[0]

    # -- masks and look-ups -----------------------------------------------------------------
    def legal_ids(self, state: "State", prefix: Sequence[int] = ()) -> list[int]:
        """The ids that extend ``prefix`` toward a legal action of ``state``, sorted: the mask
        of the next sub-decision (empty at the root of a finished game)."""
        ids = self._checked(prefix)
        node = self._walk(state, ids)
        if not isinstance(node, Branch):
            raise CodecError(f"ids {list(ids)} already name the legal action {node}: no sub-decision follows; "
                             f"apply it (state.action_from_ids)")
        return sorted(node.children())

    def action_from_ids(self, state: "State", ids: Sequence[int]) -> Action | None:
        """The legal action that ``ids`` complete; None while more sub-decisions follow."""
        ids = self._checked(ids)
        known = self._known.get(ids)
        if known is not None and known in self._legal(state):
            return known  # its ids are whole, and a legal action's ids begin no other's
        node = self._walk(state, ids)
        if isinstance(node, Branch):
            if not node.entries:
                raise CodecError(f"the game is over ({state.end_reason}): no ids name an action")
            return None
        return node

    def action_from_id(self, state: "State", i: int) -> Action:
        """The legal action that the one id ``i`` names; CodecError where it only begins one."""
        i = self._id(i)
        action = self.action_from_ids(state, (i,))
        if action is None:
            raise CodecError(f"id {i} ({self.actions.label(i)}) begins an action of several sub-decisions: "
                             f"next come the ids {self._listed(self.legal_ids(state, (i,)))} "
                             f"(use state.action_from_ids)")
        return action

    def _checked(self, ids: Sequence[int]) -> tuple[int, ...]:
        if not isinstance(ids, (tuple, list)):
            raise CodecError(f"ids must be a tuple or list of integers, not {shown(ids)}")
        size = self.actions.size
        for i in ids:
            if type(i) is not int or not 0 <= i < size:  # the plain ints of a learner's loop pass at once
                return tuple(map(self._id, ids))
        return tuple(ids)

    def _id(self, i: Any) -> int:
        """``i`` as a plain int id: an int or a numpy integer (what an argmax gives) within the
        id space; CodecError for the rest (bools, floats, text, ids outside the space)."""
        index = plain_int(i)
        if index is None or not 0 <= index < self.actions.size:
            raise CodecError(f"{shown(i)} is not an action id of {self.game!r}: expected an integer "
                             f"0..{self.actions.size - 1}")
        return index

    def _walk(self, state: "State", ids: tuple[int, ...]) -> Branch | Action:
        node: Branch | Action = self._root(state)
        for k, i in enumerate(ids):
            if not isinstance(node, Branch):
                raise CodecError(f"ids {list(ids)} go on past the legal action {node}, whose ids are {list(ids[:k])}")
            children = node.children()
            child = children.get(i)
            if child is None:
                if not children:
                    raise CodecError(f"the game is over ({state.end_reason}): no id is legal")
                where = f"after {list(ids[:k])}" if k else "as the first id"
                raise CodecError(f"id {i} ({self.actions.label(i)}) is not legal {where}: expected one of "
                                 f"{self._listed(sorted(children))}")
            node = child
        return node

    def _listed(self, ids: list[int]) -> str:
        return first_of([f"{i} ({self.actions.label(i)})" for i in ids[:LISTED]] + ids[LISTED:], LISTED)

    def _root(self, state: "State") -> "Branch":
        """The legal actions' ids as the root of a trie, kept for the state's legal-action list
        (the list a state keeps until its next ``apply``; a clone shares it, with the same actions)."""
        legal = self._legal(state)
        cached = self._cache
        if cached is not None and cached[0] is legal:
            return cached[1]
        ids_of = self._ids
        entries = [(ids_of(action), action) for action in legal]
        root = Branch(entries, 0)
        self._cache = (legal, root)
        known = self._known
        if len(known) + len(entries) > KNOWN:
            known.clear()
        if len(entries) <= KNOWN:  # a longer list is looked up in its trie alone
            known.update(entries)
        return root

    def _legal(self, state: "State") -> list[Action]:
        """The state's legal actions, kept in the state as ``State.apply`` keeps them (for the
        apply that follows)."""
        if state.game is not self.game and state.game != self.game:  # the same object, nearly always
            raise CodecError(f"this state is of {state.game!r}, not of {self.game!r}")
        legal = state._legal
        if legal is None:
            legal = state._legal = state._legal_actions()
        return legal

    # -- tensors ----------------------------------------------------------------------
    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.observed.size,)

    @property
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """The tensor's segments as ``(name, start, stop)``: slots ``start..stop-1`` mean ``name``."""
        return list(self.observed.layout)

    def observation_tensor(self, observation: dict[str, Any], prefix: Sequence[int] = ()) -> list[float]:
        """The observation (and the ids already chosen in the action being made) as a flat list
        of ``prod(observation_shape)`` floats, laid out as :attr:`observation_layout` says."""
        if not isinstance(observation, dict) or observation.get("game") != self.game.name:
            raise CodecError(f"expected an observation of {self.game.title} (state.observation(seat)), "
                             f"not {shown(observation)}")
        if observation.get("options") != self.game.options:
            raise CodecError(f"this observation is of a game with options {shown(observation.get('options'))}; "
                             f"this codec encodes {self.game!r}: use that game's observation_tensor")
        ids = self._checked(prefix)
        if ids and not self._multi:
            raise CodecError(f"{self.game.title}'s actions are one id each: an observation has no prefix "
                             f"(got {list(ids)})")
        tensor = Tensor(self.observed)
        try:
            self._fill(observation, tensor)
        except UNENCODABLE as err:
            raise self._unencodable(observation, err) from None
        for i in ids:
            tensor.set("prefix", i)
        return tensor.values

    def _unencodable(self, observation: dict[str, Any], err: Exception) -> CodecError:
        """What is wrong with an observation that ``_fill`` failed on (with ``err``): it fills
        again, through a dict that keeps the key read last, to name the key it failed at (so an
        observation that encodes pays nothing for it)."""
        reading = _Reading(observation)
        try:
            self._fill(reading, Tensor(self.observed))
        except UNENCODABLE:
            pass  # the same failure, now with the key it came at
        key, title = reading.last, self.game.title
        expected = "expected a dict as state.observation(seat) gives it"
        if key is None:  # it failed before reading a key
            return CodecError(f"this {title} observation does not encode ({type(err).__name__}: {err}): {expected}")
        if key not in observation:
            return CodecError(f"this {title} observation has no {key!r}: {expected}")
        return CodecError(f"this {title} observation's {key!r} is {shown(observation[key])}, which does not "
                          f"encode ({type(err).__name__}: {err}): {expected}")

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and deep-copied without the cached trie and the known ids (they hold actions)."""
        return {**self.__dict__, "_cache": None, "_known": {}}


#: What ``_fill`` raises on an observation with a key missing or a value of the wrong kind.
UNENCODABLE = (KeyError, TypeError, ValueError, IndexError, AttributeError)


class _Reading(dict):  # type: ignore[type-arg]
    """An observation that keeps the key read last (``observation[key]``), found or not."""

    last: str | None = None

    def __getitem__(self, key: str) -> Any:
        self.last = key
        return super().__getitem__(key)


def seat_order(observation: dict[str, Any], players: int) -> list[int]:
    """Each seat's place in a tensor, the observing seat first (a spectator sees seat 0
    first): ``seat_order(...)[seat]`` is ``(seat - observer) % players``.

    >>> seat_order({"seat": 2}, 4), seat_order({"seat": None}, 3)
    ([2, 3, 0, 1], [0, 1, 2])
    """
    me = observation["seat"] or 0
    if not 0 <= me < players:  # an IndexError, named by the codec as the seat's fault
        raise IndexError(f"seat {me} is not one of seats 0..{players - 1}")
    return [(seat - me) % players for seat in range(players)]
