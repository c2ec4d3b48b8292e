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
codec's ids, one sub-decision each. Observation and information-state strings and tensors
are the seat's ``observation(seat)`` (which keeps everything that was public: perfect
recall) with the ids the seat to act has chosen in its action so far; ``resample_from_infostate``
is ``view.sample``, so OpenSpiel's ``ISMCTSBot`` searches on what the seat may know.

>>> import pyspiel
>>> game = pyspiel.load_game("parlour_decktet_golf", {"players": 3, "rounds": "1", "seed": 7})
>>> state = game.new_initial_state()
>>> game.num_players(), state.current_player() in (0, 1, 2), len(state.observation_tensor(0)) == game.observation_tensor_size()
(3, True, True)
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

import numpy as np
import pyspiel

from parlour.core.game import Game
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

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "ParlourObserver":
        """The observer of both observations and information states (they are the same)."""
        if params:
            raise ValueError(f"parlour's observers take no parameters, not {params!r}")
        return ParlourObserver(self.parlour)


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
        self.decisions.choose(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.decisions.state.game.codec.id_name(action)

    def is_terminal(self) -> bool:
        return self.decisions.state.is_terminal()

    def returns(self) -> list[float]:
        return returns(self.decisions.state)

    def resample_from_infostate(self, player: int, probability_sampler: Any) -> "ParlourSpielState":
        """A state ``player`` cannot tell from this one: ``view(player).sample``, the ids of the
        action under way kept when ``player`` is choosing them (the others do not see them)."""
        rng = random.Random(int(probability_sampler() * 2**53))
        decisions = self.decisions
        sample = decisions.state.view(player).sample(rng)
        prefix = decisions.prefix if player == decisions.seat else ()
        return ParlourSpielState(self.get_game(), _Deal(None, Decisions(sample, prefix)))

    def __str__(self) -> str:
        """The full position (hidden cards too) and the ids chosen so far, for debugging."""
        position = json.dumps(self.decisions.state.to_position(), sort_keys=True)
        return f"{position} prefix {list(self.decisions.prefix)}"


class _Deal:
    """The parlour side of a pyspiel state, dealt at first use.

    OpenSpiel clones a Python state by making a new initial state and deep-copying the
    original's attributes into it. So a new initial state must not draw its seed at once
    (every clone would take one from the sequence), and a deep copy deals the original
    first (an untouched state and its clone are then the same game)."""

    __slots__ = ("_game", "_decisions")

    def __init__(self, game: ParlourSpielGame | None, decisions: Decisions | None = None) -> None:
        self._game = game
        self._decisions = decisions

    @property
    def decisions(self) -> Decisions:
        if self._decisions is None:
            assert self._game is not None
            self._decisions, self._game = self._game.deal(), None
        return self._decisions

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Deal":
        return _Deal(None, self.decisions.clone())


class ParlourObserver:
    """OpenSpiel's observer: a seat's codec tensor, and its observation as text."""

    def __init__(self, game: Game) -> None:
        self.tensor = np.zeros(math.prod(game.observation_shape), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourSpielState, player: int) -> None:
        self.tensor[:] = state.decisions.tensor(player)

    def string_from(self, state: ParlourSpielState, player: int) -> str:
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
        provides_information_state_tensor=True,
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
