"""The game and state protocol every game implements (DESIGN.md "Core API").

A :class:`Game` is a rule set with its options fixed; it makes states. A
:class:`State` is one position in a game, mutated by :meth:`State.apply`.
Subclasses fill in the hooks whose names start with ``_``; this module keeps the
parts every game shares: validation of applied actions, the history, records
and views.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable, Sequence
from types import ModuleType
from typing import Any, ClassVar, Iterator

from parlour.core.action import Action
from parlour.core.chance import is_seed
from parlour.core.codec import Codec
from parlour.core.errors import CodecError, IllegalAction, NotationError, OptionError, ParlourError
from parlour.core.integers import plain_int
from parlour.core.notation import longest_length
from parlour.core.options import Option, validate_options
from parlour.core.view import View
from parlour.core.words import excerpt, first_of, shown

#: The candidates an ambiguous text's NotationError lists at most (a bare ``run`` in a
#: Quisquilian dig can match thousands), then how many more there are.
CANDIDATES = 20


class Game:
    """A game with its options fixed; subclasses declare ``name`` and ``option_specs``."""

    name: ClassVar[str]
    title: ClassVar[str]
    option_specs: ClassVar[tuple[Option, ...]] = ()
    rules_summary: ClassVar[str] = ""
    #: The lowest and highest score a seat can end with, where scores are bounded (the
    #: solitaire's score is what search agents maximise; multiplayer games go by winners).
    score_range: ClassVar[tuple[int, int] | None] = None
    #: The game's modules for positions (``new_state``, ``from_position``, ``observation``,
    #: ``to_position``), for samples (``sampler``) and for text (``render``): the hooks hand
    #: over to them.
    _positions: ClassVar[ModuleType]
    _sampling: ClassVar[ModuleType]
    _text: ClassVar[ModuleType]
    #: The game's codec for learning (a ``core.codec.Codec`` subclass in its package).
    _codec_type: ClassVar[type[Codec] | None] = None

    def score_bounds(self) -> tuple[float | None, float | None]:
        """The least and most a seat can end with under these options (None: no bound):
        ``score_range`` where the game has one; a game may know more from its options.

        >>> import parlour
        >>> parlour.load("psalter-row").score_bounds(), parlour.load("quisquilian").score_bounds()
        ((-9, 14), (None, None))
        """
        return (None, None) if self.score_range is None else self.score_range

    def figure_bounds(self, name: str) -> tuple[float | None, float | None]:
        """The least and most the figure ``name`` of a result row (``score``, ``score_<seat>``,
        or one of :meth:`State.stats`'s) can be under these options, as ``within`` bounds for its
        interval; None where there is no bound. A game overrides it for figures of its own.

        >>> import parlour
        >>> parlour.load("psalter-row").figure_bounds("score"), parlour.load("psalter-row").figure_bounds("turns")
        ((-9, 14), (None, None))
        """
        base, _, seat = name.rpartition("_")
        return self.score_bounds() if name == "score" or (base == "score" and seat.isdigit()) else (None, None)

    def __init__(self, /, **options: Any) -> None:
        self.options: dict[str, Any] = validate_options(self.option_specs, options, self.name)

    @property
    def num_players(self) -> int:
        """The number of seats (the ``players`` option where the game has one)."""
        return int(self.options.get("players", 1))

    def new_state(self, seed: int) -> "State":
        """The state at the start of a game whose every chance event derives from ``seed``."""
        if not is_seed(seed):
            raise OptionError(f"seed {shown(seed)} is not allowed: expected an integer below 2**128 in size")
        return self._new_state(seed)

    #: What notation looks like, for the error that unparseable text gets (a game may set
    #: its own per instance, naming only the forms its options allow).
    notation_help: str = ""

    def parse_action(self, state: "State", text: str) -> Action:
        """The legal action that ``text`` names in ``state``.

        Lenient (DESIGN.md "Notation input"): the game's ``_parse_spec`` reads what is
        written, and any part left out is fine when exactly one legal action matches.
        An ambiguous text is a NotationError listing the candidates; one that matches
        no legal action is an IllegalAction saying why. A text longer than
        :attr:`max_notation_length` is a NotationError before any of it is read.
        """
        if not isinstance(text, str):
            raise NotationError(f"notation is text, not {type(text).__name__}: {self.notation_help}")
        limit = self.max_notation_length
        if len(text) > limit:
            raise NotationError(f"{excerpt(text)} is too long: {self.title} notation is at most {limit} "
                                f"characters; {self.notation_help}")
        if not text.strip():
            raise NotationError(f"{text!r} is empty: {self.notation_help}")
        spec = self._parse_spec(text)
        found = [a for a in state.legal_actions() if spec.matches(a)]
        if len(found) == 1:
            return found[0]
        if found:
            raise NotationError(f"{text!r} is ambiguous: it could be {first_of(found, CANDIDATES)}")
        raise IllegalAction(state._why_illegal(spec))

    @functools.cached_property
    def max_notation_length(self) -> int:
        """The longest text :meth:`parse_action` reads: longer is refused unread.

        Each form of the game's notation under its options (``_notation_forms``: the longest
        spelling of each of its words) is counted with ``core.notation.GAP`` blanks before,
        between and after its words; the bound is the longest of them.

        >>> import parlour
        >>> parlour.load("decktet-golf").max_notation_length  # "replace C3" and its blanks
        33
        """
        return longest_length(self._notation_forms())

    def _parse_spec(self, text: str) -> Any:
        """What a text says, as an object with ``matches(action)``; NotationError if it does not parse."""
        raise NotImplementedError

    def _notation_forms(self) -> list[Sequence[str]]:
        """Each form of the notation under this game's options, as the longest spelling of each
        of its words (e.g. ``("replace", "C3")``): what :attr:`max_notation_length` counts."""
        raise NotImplementedError

    def from_position(self, position: dict[str, Any]) -> "State":
        """The state a position describes (see the game's position keys in DESIGN.md)."""
        return self._positions.from_position(self, position)

    def sample(self, observation: dict[str, Any], rng: random.Random) -> "State":
        """A full state consistent with an observation; hidden cards dealt by ``rng`` alone."""
        return self.sampler(observation)(rng)

    def sampler(self, observation: dict[str, Any]) -> Callable[[random.Random], "State"]:
        """Samples for one observation: ``sampler(observation)(rng)`` is ``sample(observation,
        rng)``, what the observation tells worked out once for all of them (``core.sampling``;
        a view keeps its sampler, and a search draws thousands of samples from one view).

        >>> import parlour
        >>> game = parlour.load("decktet-golf")
        >>> observation = game.new_state(seed=2).observation(0)
        >>> sample = game.sampler(observation)
        >>> sample(random.Random(5)).to_position() == game.sample(observation, random.Random(5)).to_position()
        True
        """
        return self._sampling.sampler(self, observation)

    def _observation_key(self, state: "State", seat: int | None) -> Hashable:
        """:meth:`State.observation_key`: a game with no compact key of its own has the observation's text."""
        return repr(state.observation(seat))

    def render(self, observation: dict[str, Any], you: str = "you") -> str:
        """The observation as text for a terminal, with rich console markup. ``you`` is how the
        text names the seat whose observation it is: ``"you"`` at that player's own table
        ("Seat 2 (you)", "Your hand"); another word, say ``"viewed"`` in a replay or for a bot's
        seat, tags the seat with it ("Seat 2 (viewed)") and speaks of it in the third person.

        >>> import parlour
        >>> state = parlour.load("quisquilian", players=3).new_state(seed=1)
        >>> "(viewed)" in state.game.render(state.observation(0), you="viewed")
        True
        """
        return self._text.render(observation, you)

    def events(self, before: dict[str, Any], after: dict[str, Any], action: str | None = None) -> list[str]:
        """What happened between two observations of one seat that a player would want told
        (a reshuffle, a round's end, a clearing), as lines of rich markup, naming only what
        that seat (None: a spectator) can know. ``action`` is the notation played between the
        two, for a game whose notation leaves out cards the move showed (Decktet Golf names
        them). A game whose text module has no ``events`` tells nothing."""
        hook = getattr(getattr(type(self), "_text", None), "events", None)
        return hook(before, after) if hook else []

    def discard_pile(self, observation: dict[str, Any]) -> str | None:
        """Every card of the discard pile an observation shows, bottom to top, as rich markup (the
        table shows only its top); None for a game whose text module has no ``discard_pile``.

        >>> import parlour
        >>> parlour.load("quisquilian").discard_pile(parlour.load("quisquilian").new_state(1).observation(0)) is None
        True
        """
        hook = getattr(getattr(type(self), "_text", None), "discard_pile", None)
        return hook(observation) if hook else None

    def breakdown(self, observation: dict[str, Any]) -> list[dict[str, Any]] | None:
        """How each seat's score came about, from an observation (public facts only): a list
        of ``{"seat", "score", "parts": [{"label", "points", "detail"}], "summary"}``, one
        per seat, for an end-of-game panel. ``None`` for a game whose text module has no
        ``breakdown``.

        >>> import parlour
        >>> game = parlour.load("psalter-row")
        >>> [part["label"] for part in game.breakdown(game.new_state(seed=1).observation(None))[0]["parts"]]
        ['pages', 'missing', 'style']
        """
        hook = getattr(getattr(type(self), "_text", None), "breakdown", None)
        return hook(observation) if hook else None

    def with_options(self, options: dict[str, Any] | None) -> "Game":
        """This game, or the same game with other options (those not named are this game's)."""
        if options is None or options == self.options:
            return self
        if not isinstance(options, dict) or not all(isinstance(key, str) for key in options):
            raise OptionError(f"options must map option names (text) to values, not {shown(options)}")
        return type(self)(**{**self.options, **options})

    # -- codecs for learning (core/codec.py, docs/codecs.md) -------------------------------
    @functools.cached_property
    def codec(self) -> Codec:
        """The game's codec: action ids and observation tensors under these options."""
        if self._codec_type is None:
            raise CodecError(f"{self.title} has no codec for learning")
        return self._codec_type(self)

    @property
    def num_distinct_actions(self) -> int:
        """The size of the one id space of the game's actions and sub-decisions (by options).

        >>> import parlour
        >>> parlour.load("decktet-golf").num_distinct_actions, parlour.load("decktet-golf", excuse=True).num_distinct_actions
        (35, 101)
        """
        return self.codec.num_distinct_actions

    def action_ids(self, action: Action) -> tuple[int, ...]:
        """An action's ids, one per sub-decision, in order (one id for most actions); in any
        state the legal actions' ids are prefix-free."""
        return self.codec.action_ids(action)

    def action_id(self, action: Action) -> int:
        """The id of an action that is one decision (CodecError for one of several)."""
        return self.codec.action_id(action)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`observation_tensor` (flat: one dimension)."""
        return self.codec.observation_shape

    @property
    def observation_layout(self) -> list[tuple[str, int, int]]:
        """The tensor's segments: ``(name, start, stop)``, in order (docs/codecs.md)."""
        return self.codec.observation_layout

    def observation_tensor(self, observation: dict[str, Any], prefix: Sequence[int] = ()) -> list[float]:
        """``observation(seat)`` (and the ids already chosen in the action being made) as a
        flat list of floats of :attr:`observation_shape`; made from those alone, so it shows
        nothing the seat cannot know.

        >>> import parlour
        >>> game = parlour.load("psalter-row")
        >>> len(game.observation_tensor(game.new_state(seed=1).observation(0))) == game.observation_shape[0]
        True
        """
        return self.codec.observation_tensor(observation, prefix)

    def _new_state(self, seed: int) -> "State":
        return self._positions.new_state(self, seed)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != _default(self, k)}
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"parlour.load({self.name!r}{args})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self.options) == (other.name, other.options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items(), key=lambda kv: kv[0]))))


def _default(game: Game, key: str) -> Any:
    return next(spec.default for spec in game.option_specs if spec.name == key)


class State:
    """One position of a game. Subclasses implement the ``_``-prefixed hooks.

    ``legal_actions()`` is cached until the next ``apply``, so that the usual loop
    (ask for the legal actions, apply one of them) checks legality for free.
    """

    __slots__ = ("game", "_history", "_origin", "_legal", "end")

    game: Game
    #: Linked list ``(action, previous)`` shared between clones: cloning never copies it.
    _history: tuple[Action, Any] | None
    #: ``("seed", int)``, or ``("position", State)`` holding a copy of the starting state.
    _origin: tuple[str, Any]
    _legal: list[Action] | None
    #: Why the game ended (the game's own words, e.g. ``"complete"``); None while it goes on.
    end: str | None
    #: The seat to decide now, while the game goes on (a slot or a class attribute of a game).
    player: int

    # -- the contract -------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat to act (the game's ``player``); ``None`` once the game is over."""
        return None if self.end_reason is not None else self.player

    def legal_actions(self) -> list[Action]:
        """Every legal action now, in a fixed order; empty once the game is over.

        A new list on every call: the caller may change it (agents get it in their view),
        while the cached list is what ``apply`` checks legality against. The copy costs
        well under 1% of a random playout.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_actions()
        return list(legal)

    def apply(self, action: Action | str) -> "State":
        """Play an action (an Action or its notation). Returns the state itself.

        Raises NotationError or IllegalAction, and then changes nothing.
        """
        if isinstance(action, str):
            action = self.game.parse_action(self, action)
        else:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._legal_actions()
            if action not in legal:
                raise IllegalAction(self._why_illegal(action))
        self._legal = None  # before _apply, which may fill it when it had to work it out anyway
        self._apply(action)
        self._history = (action, self._history)
        return self

    def clone(self) -> "State":
        """An independent copy (the history is shared, being immutable)."""
        raise NotImplementedError

    def __deepcopy__(self, memo: dict[int, Any]) -> "State":
        """``copy.deepcopy`` is :meth:`clone`: what OpenSpiel copies states with (a generic deep
        copy walks the game, the history and every interned action, many times slower).

        >>> import copy, parlour
        >>> state = parlour.load("psalter-row").new_state(seed=4)
        >>> twin = copy.deepcopy(state)
        >>> twin is not state and twin.to_position() == state.to_position() and twin.game is state.game
        True
        """
        return self.clone()

    def is_terminal(self) -> bool:
        # Through ``end_reason``, which a game may compute instead of keeping ``end`` (the
        # play tests' toy game does); reading ``end`` here would save only about 30 ns a call.
        return self.end_reason is not None

    @property
    def end_reason(self) -> str | None:
        """Why the game ended (e.g. ``"complete"``), or ``None`` while it goes on."""
        return self.end

    def scores(self) -> list[int]:
        raise NotImplementedError

    def winners(self) -> list[int]:
        raise NotImplementedError

    def observation(self, seat: int | None) -> dict[str, Any]:
        """A JSON-ready dict of exactly what ``seat`` may know; ``None`` is the public
        observation (what a spectator may know: no hand, no card private to a seat).

        >>> import parlour
        >>> state = parlour.load("quisquilian").new_state(seed=1)
        >>> public = state.observation(None)
        >>> public["seat"], public["hand"], public["hand_sizes"] == state.observation(0)["hand_sizes"]
        (None, None, True)
        """
        if seat is not None:
            seat = self._seat(seat)
        return self.game._positions.observation(self, seat)

    def observation_key(self, seat: int | None) -> Hashable:
        """A compact stand-in for ``observation(seat)``: two states of one game have equal keys
        exactly when their observations for ``seat`` are equal (``repr`` of each alike: IS-MCTS
        finds the seat's information sets by it, thousands of times a search).

        >>> import parlour
        >>> state = parlour.load("psalter-row").new_state(seed=1)
        >>> state.view(0).sample(random.Random(0)).observation_key(0) == state.observation_key(0)
        True
        """
        if seat is not None:
            seat = self._seat(seat)
        return self.game._observation_key(self, seat)

    def to_position(self) -> dict[str, Any]:
        """The full position as a JSON-ready dict; ``game.from_position`` rebuilds it."""
        return self.game._positions.to_position(self)

    def stats(self) -> dict[str, Any]:
        """Per-game figures for simulation rows (turns, end reason, ...)."""
        return {"decisions": len(self.history()), "end": self.end_reason}

    def view(self, seat: int) -> "View":
        """What an agent in ``seat`` gets: its observation, its legal actions and ``sample``."""
        seat = self._seat(seat)
        acts = self.legal_actions() if seat == self.current_player else []
        return View(self.game, seat, acts, self.clone())

    def history(self) -> list[Action]:
        """The actions applied since the start of the record, oldest first."""
        out = list(_walk(self._history))
        out.reverse()
        return out

    def record(self, players: list[str] | None = None) -> dict[str, Any]:
        """The game record (JSON-ready); ``parlour.replay`` rebuilds the game from it."""
        from parlour.core.record import make_record

        return make_record(self, players)

    def legal_ids(self, prefix: Sequence[int] = ()) -> list[int]:
        """The action ids (sorted) that extend ``prefix`` toward a legal action: the mask of
        the next sub-decision; ``[]`` once the game is over. A prefix that leads to no legal
        action, or names one already, is a CodecError.

        >>> import parlour
        >>> state = parlour.load("decktet-golf").new_state(seed=1)
        >>> [str(state.action_from_id(i)) for i in state.legal_ids()][:2]
        ['flip B1', 'flip C1']
        """
        return self.game.codec.legal_ids(self, prefix)

    def action_from_ids(self, ids: Sequence[int]) -> Action | None:
        """The legal action that ``ids`` complete; None while more sub-decisions follow; a
        CodecError for ids that lead to no legal action."""
        return self.game.codec.action_from_ids(self, ids)

    def action_from_id(self, i: int) -> Action:
        """The legal action the one id ``i`` names (CodecError where it begins a longer one)."""
        return self.game.codec.action_from_id(self, i)

    # -- hooks ------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _apply(self, action: Action) -> None:
        raise NotImplementedError

    def _why_illegal(self, action: Action) -> str:
        if self.is_terminal():
            return f"the game is over ({self.end_reason}); no action is legal"
        return f"{action} is not legal now"

    def _seat(self, seat: Any) -> int:
        """``seat`` as a plain int (a numpy integer, as RL code has them, is taken); ParlourError
        for what is no seat of this game."""
        index = plain_int(seat)
        if index is None or not 0 <= index < self.game.num_players:
            raise ParlourError(
                f"seat {shown(seat)} does not exist: {self.game.name} has seats 0..{self.game.num_players - 1}"
            )
        return index

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_position()!r}>"


def _walk(node: tuple[Action, Any] | None) -> Iterator[Action]:
    while node is not None:
        action, node = node
        yield action
