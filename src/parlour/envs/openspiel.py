"""Every parlour game as an OpenSpiel Python game, registered on import.

``import parlour.envs.openspiel`` registers ``parlour_psalter_row``, ``parlour_decktet_golf``
and ``parlour_quisquilian`` (``parlour_`` and the game's name with ``_`` for ``-``), so that
``pyspiel.load_game("parlour_decktet_golf", {"players": 3})`` works. The parameters are the
game's options, typed as their defaults are (``players`` an int, ``excuse`` a bool); an
option whose default is ``None`` or whose choices mix types takes text, as on a command line
(``{"rounds": "2"}``, ``{"revision_discard": "2"}``), plus ``seed``: each
``new_initial_state()`` deals a game whose seed comes from a generator seeded by it (-1: by
the operating system).

The games are sequential, imperfect-information, with terminal rewards (those of
``parlour.envs.rewards``) and *sampled* stochastic chance: shuffles and draws happen inside
a move, from the state's own chance seed, so the tree has no chance nodes. Actions are the
codec's ids, one sub-decision each. The observation string and tensor are the seat's
``observation(seat)`` now, with the ids the seat to act has chosen in its action so far. The
information-state string is that string and the seat's *recall*: a digest chained through
every observation the seat had and every action it heard (:func:`recalled`), so two histories
that end in one observation (two flips in either order) are two information states. A tensor
of fixed size cannot recall a history of any length, so there is no information-state
tensor (``provides_information_state_tensor`` is false; ``information_state_tensor(p)``
raises): learners take the observation tensor. ``resample_from_infostate`` is
``view.sample``, with the seat's recall kept, so OpenSpiel's ``ISMCTSBot`` searches on what
the seat may know.

A game is rebuilt from its parameters: ``pyspiel.load_game(game.get_type().short_name,
game.get_parameters())``. ``pyspiel.load_game(str(game))`` does not always work: ``str``
writes a text parameter holding digits (``rounds="1"``) as a number, which OpenSpiel then
refuses for a text parameter. Nor do ``pyspiel.serialize_game_and_state`` and pickling a
game or state: OpenSpiel serializes a sampled-stochastic game with its random generator's
state, which a Python game cannot give it.

>>> import pyspiel
>>> game = pyspiel.load_game("parlour_decktet_golf", {"players": 3, "rounds": "1", "seed": 7})
>>> state = game.new_initial_state()
>>> game.num_players(), state.current_player() in (0, 1, 2), len(state.observation_tensor(0)) == game.observation_tensor_size()
(3, True, True)
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Hashable
from typing import Any

import numpy as np
import pyspiel

from parlour.core.action import Action
from parlour.core.game import Game, State
from parlour.core.options import Option
from parlour.core.registry import game_class, game_names, load
from parlour.envs.decisions import Decisions
from parlour.envs.rewards import returns, reward_range

PREFIX = "parlour_"
#: The ``seed`` parameter's "no seed": each game's seed then comes from the operating system.
NO_SEED = -1
#: OpenSpiel asks for the most actions a game can take. Parlour's games end by their rules
#: with no fixed bound on their length, so this is a bound of convenience, far above what
#: they take (a few hundred ids), not a proof.
MAX_GAME_LENGTH = 100_000


def short_name(name: str) -> str:
    """The OpenSpiel name of a parlour game: ``short_name("psalter-row") == "parlour_psalter_row"``."""
    return PREFIX + name.replace("-", "_")


def parameter(option: Option) -> bool | int | float | str:
    """An option's OpenSpiel default, typed as the option's values are where they share one type.

    >>> import parlour
    >>> [parameter(spec) for spec in parlour.load("decktet-golf").option_specs]
    [2, False, 50, 'none', 2]
    """
    values = [option.default, *(option.choices or ())]
    for kind in (bool, int, float):
        if all(type(value) is kind for value in values):
            return option.default
    return "none" if option.default is None else str(option.default)


class ParlourSpielGame(pyspiel.Game):
    """A parlour game with its options fixed, as OpenSpiel sees it; :func:`register` makes a
    subclass per game, naming it in ``parlour_name``."""

    parlour_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.parlour_name
        options = dict(params or {})
        seed = int(options.pop("seed", NO_SEED))
        self.parlour = load(name, **options)  # text values ("none", "2") are read as on a command line
        self.seeds = random.Random(None if seed == NO_SEED else seed)
        low, high = reward_range(self.parlour)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.parlour.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=self.parlour.num_players,
            min_utility=low,
            max_utility=high,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(game_type(name), info, params or {})

    def new_initial_state(self) -> "ParlourSpielState":
        """A new game, its seed the next from the game's ``seed`` parameter (drawn when first used)."""
        return ParlourSpielState(self, _Deal(self))

    def deal(self) -> Decisions:
        """The next game of this game's seed sequence."""
        return Decisions(self.parlour.new_state(self.seeds.getrandbits(63)))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ParlourObserver | RecallObserver":
        """The observer of information states (``perfect_recall``) or of observations (the
        rest, and no type: OpenSpiel's default, as in its ``kuhn_poker.py``), of one seat's
        private cards and the public ones: the kinds OpenSpiel's state methods ask for."""
        if isinstance(iig_obs_type, dict):  # pyspiel's game.make_observer(params) passes its params first
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"parlour's observers take no parameters, not {params!r}")
        if iig_obs_type is None:
            return ParlourObserver(self.parlour)
        if not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(f"parlour's observers show the public cards and one seat's private ones "
                             f"(public_info=True, private_info=SINGLE_PLAYER), not public_info="
                             f"{iig_obs_type.public_info}, private_info={iig_obs_type.private_info}")
        return RecallObserver(self.parlour) if iig_obs_type.perfect_recall else ParlourObserver(self.parlour)


class ParlourSpielState(pyspiel.State):
    """One game under way: a parlour state and the ids of the action being made."""

    def __init__(self, game: ParlourSpielGame, deal: "_Deal") -> None:
        super().__init__(game)
        self._deal = deal  # the only attribute: what OpenSpiel's clone() copies (see _Deal)

    @property
    def decisions(self) -> Decisions:
        return self._deal.decisions

    def current_player(self) -> int:
        seat = self.decisions.seat
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self.decisions.legal_ids() if player == self.decisions.seat else []

    def _apply_action(self, action: int) -> None:
        self._deal.choose(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.decisions.state.game.codec.id_name(action)

    def is_terminal(self) -> bool:
        return self.decisions.state.is_terminal()

    def returns(self) -> list[float]:
        return returns(self.decisions.state)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> "ParlourSpielState":
        """A state ``player`` cannot tell from this one: ``view(player).sample``, the ids of the
        action under way kept when ``player`` is choosing them (the others do not see them), and
        ``player``'s recall kept. The other seats' recall starts afresh from the sample: their
        past in it is not known (their information states are those of the sample's search)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        decisions = self.decisions
        sample = decisions.state.view(player).sample(rng)
        prefix = decisions.prefix if player == decisions.seat else ()
        chains = first_recall(sample)
        chains[player] = self._deal.chains[player]
        return ParlourSpielState(self.get_game(), _Deal(None, Decisions(sample, prefix), chains, sample.clone()))

    def recall(self, player: int) -> str:
        """``player``'s recall (:func:`recalled`) in hex: what its information state adds to its observation."""
        return self._deal.chains[player].hex()

    def __str__(self) -> str:
        """The full position (hidden cards too) and the ids chosen so far, for debugging."""
        position = json.dumps(self.decisions.state.to_position(), sort_keys=True)
        return f"{position} prefix {list(self.decisions.prefix)}"


class _Deal:
    """The parlour side of a pyspiel state, dealt at first use: the decisions and each seat's
    recall (:func:`recalled`).

    OpenSpiel clones a Python state by making a new initial state and deep-copying the
    original's attributes into it. So a new initial state must not draw its seed at once
    (every clone would take one from the sequence), and a deep copy deals the original
    first (an untouched state and its clone are then the same game).

    Each seat's recall is digested only when an information state is asked for: until then
    the state keeps the actions applied since the last digest (``_heard``) and the state they
    came from (``_base``, never changed), and the digest replays them (chance is the state's
    own, so the replay is the game). A search's playouts apply thousands of actions and pay
    nothing for recall."""

    __slots__ = ("_game", "_decisions", "_chains", "_base", "_heard")

    def __init__(self, game: ParlourSpielGame | None, decisions: Decisions | None = None,
                 chains: list[bytes] | None = None, base: State | None = None,
                 heard: list[Action] | None = None) -> None:
        self._game = game
        self._decisions = decisions
        self._chains = chains  # each seat's recall at _base (None: not digested yet)
        self._base = base if base is not None or decisions is None else decisions.state.clone()
        self._heard = heard or []

    @property
    def decisions(self) -> Decisions:
        if self._decisions is None:
            assert self._game is not None
            self._decisions, self._game = self._game.deal(), None
            self._base = self._decisions.state.clone()
        return self._decisions

    @property
    def chains(self) -> list[bytes]:
        """Each seat's recall now (the list itself: copy it to change it)."""
        self.decisions  # noqa: B018  (deals, so that there is a base)
        assert self._base is not None
        chains = self._chains if self._chains is not None else first_recall(self._base)
        if self._heard:
            state = self._base.clone()
            for action in self._heard:
                state.apply(action)
                chains = recalled(chains, str(action), sightings(state))
            self._base, self._heard = state, []
        self._chains = chains
        return chains

    def choose(self, action_id: int) -> None:
        """Play one id; an action it completes is kept for the seats' recall."""
        action = self.decisions.choose(action_id)
        if action is not None:
            self._heard.append(action)

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Deal":
        decisions = self.decisions.clone()  # deals first: the recall starts from the deal
        # shared: a chain list is replaced, never changed, and the base is only ever cloned
        return _Deal(None, decisions, self._chains, self._base, list(self._heard))


#: Every seat's ``observation_key``, in seat order: what each sees after an action.
Sightings = tuple[Hashable, ...]


def sightings(state: State) -> Sightings:
    """Every seat's ``observation_key`` in ``state``, in seat order."""
    return tuple(state.observation_key(seat) for seat in range(state.game.num_players))


def first_recall(state: State) -> list[bytes]:
    """Each seat's recall of the deal: its observation of ``state`` alone."""
    return recalled([b""] * state.game.num_players, "", sightings(state))


def recalled(chains: list[bytes], notation: str, seen: Sightings) -> list[bytes]:
    """Each seat's recall once it has heard an action (its notation, public in every game: the
    web table's log shows it to all) and then seen ``seen[seat]``: a digest of its recall
    before, the notation and the observation. A hash chain, so two histories give a seat one
    recall only if it heard and saw the same at every step (perfect recall, bar a collision of
    128-bit digests).

    >>> import parlour
    >>> state = parlour.load("decktet-golf").new_state(seed=5)
    >>> start, seen = first_recall(state), sightings(state)
    >>> b1_c1 = recalled(recalled(start, "flip B1", seen), "flip C1", seen)
    >>> c1_b1 = recalled(recalled(start, "flip C1", seen), "flip B1", seen)
    >>> len(b1_c1), b1_c1 != c1_b1, b1_c1 == recalled(recalled(start, "flip B1", seen), "flip C1", seen)
    (2, True, True)
    """
    return [hashlib.blake2b(digest + repr((notation, key)).encode(), digest_size=16).digest()
            for digest, key in zip(chains, seen)]


class ParlourObserver:
    """OpenSpiel's observer of observations: a seat's codec tensor, and its observation as text
    (with the ids of the action under way, for the seat choosing them)."""

    def __init__(self, game: Game) -> None:
        self.tensor = np.zeros(math.prod(game.observation_shape), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        self.tensor[:] = state.decisions.tensor(player)

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        return observation_text(state, player)


class RecallObserver:
    """OpenSpiel's observer of information states: the observation's text and the seat's
    recall (:func:`recalled`), and no tensor (a fixed size cannot hold a history)."""

    def __init__(self, game: Game) -> None:
        self.tensor = None  # OpenSpiel reads "no tensor" from this
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        raise ValueError("parlour's information states have no tensor (a fixed size cannot recall a history "
                         "of any length): use observation_tensor, or information_state_string")

    def string_from(self, state: ParlourSpielState, player: int) -> str:
        return f"{observation_text(state, player)} recall {state.recall(player)}"


def observation_text(state: ParlourSpielState, player: int) -> str:
    """``player``'s observation as JSON, with the ids of the action under way for the seat choosing them."""
    decisions = state.decisions
    text = json.dumps(decisions.state.observation(player), sort_keys=True)
    return f"{text} prefix {list(decisions.prefix)}" if player == decisions.seat and decisions.prefix else text


def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel type of a parlour game, its parameters the game's options and ``seed``."""
    cls = game_class(name)
    players = next((spec for spec in cls.option_specs if spec.name == "players"), None)
    low = int(players.minimum) if players is not None and players.minimum is not None else 1
    high = int(players.maximum) if players is not None and players.maximum is not None else 1
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"parlour {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,  # a fixed size cannot hold a history
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**{spec.name: parameter(spec) for spec in cls.option_specs}, "seed": NO_SEED},
    )


def register() -> None:
    """Register every parlour game with OpenSpiel (a name already registered is left as it is)."""
    known = set(pyspiel.registered_names())
    for name in game_names():
        if short_name(name) not in known:
            # A class, not a closure: OpenSpiel keeps the factory until the interpreter has
            # gone, and a closure's release then aborts it (pyspiel 2.0.2).
            cls = type(f"{game_class(name).__name__}SpielGame", (ParlourSpielGame,), {"parlour_name": name})
            pyspiel.register_game(game_type(name), cls)


register()
