"""A single-agent Gymnasium environment: one seat of a parlour game, the others played by
parlour agents (agent specs such as ``"heuristic"`` or ``"ismcts:iterations=200"``).

Each step is one action id of the learner's seat (an action of several sub-decisions takes
several steps); between the learner's decisions the other seats move, each agent given its
seat's view only. The reward is the learner's at the end (``parlour.envs.rewards``), 0
before; Quisquilian's ``max_turns`` end is a truncation. Registered ids:
``parlour/PsalterRow-v0``, ``parlour/DecktetGolf-v0``, ``parlour/Quisquilian-v0``
(``parlour.envs.registration``).

>>> from parlour.envs.single import ParlourEnv
>>> env = ParlourEnv("decktet-golf", opponents="random", rounds=1)
>>> observation, info = env.reset(seed=4)
>>> observation["observation"].shape == env.game.observation_shape
True
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np

from parlour.agents import Agent, make_agent
from parlour.core.errors import IllegalAction, OptionError
from parlour.core.game import Game
from parlour.core.integers import plain_int
from parlour.core.words import shown
from parlour.envs import episode, spaces
from parlour.envs.decisions import Decisions
from parlour.envs.rewards import returns, truncated


class ParlourEnv(gymnasium.Env):
    """``seat`` of ``game`` (a name or a Game; game options as keywords) for one learner.

    ``opponents`` is one agent spec for every other seat, or a list of specs, one per other
    seat in seat order; a solitaire takes none. ``illegal`` and ``render_mode`` are as in
    :class:`parlour.envs.aec.ParlourAECEnv`; with ``illegal="penalty"`` an illegal id ends the
    episode with reward -1. ``action_masks()`` gives the current mask (what sb3-contrib's
    MaskablePPO asks for).
    """

    metadata = {"render_modes": episode.RENDER_MODES, "render_fps": episode.RENDER_FPS}

    def __init__(self, game: str | Game = "psalter-row", *, seat: int = 0, opponents: str | list[str] | None = None,
                 render_mode: str | None = None, illegal: str = "error", **options: Any) -> None:
        self.game = episode.load_game(game, options)
        self.render_mode = episode.render_mode(render_mode)
        self.illegal = episode.illegal_mode(illegal)
        index = plain_int(seat)
        if index is None or not 0 <= index < self.game.num_players:
            raise OptionError(f"seat={shown(seat)} does not exist: {self.game.name} has seats 0..{self.game.num_players - 1}")
        self.seat = index
        self.opponents = _opponents(self.game, seat, opponents)
        self.observation_space = spaces.observation_space(self.game)
        self.action_space = spaces.action_space(self.game)
        self.decisions: Decisions | None = None
        self._rng = random.Random()  # the opponents' choices, seeded at each reset

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict]:
        """A new game (``seed`` fixes it, the opponents' play included), played up to the learner's turn.

        Where the other seats end the game before the learner's first decision (a Quisquilian
        ``max_turns`` reached first), the info says how, ``{"game_over": end_reason}``, and the
        mask is all 0: such an episode has no step (Gymnasium's reset cannot end one), so reset again.
        """
        super().reset(seed=seed)
        self.decisions = Decisions(self.game.new_state(episode.game_seed(self.np_random)))
        self._rng.seed(episode.game_seed(self.np_random))
        self._play_opponents()
        state = self.decisions.state
        return self._observe(), {"game_over": state.end_reason} if state.is_terminal() else {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict]:
        """Play one id for the learner, then the other seats up to its next decision."""
        decisions = self._live()
        decisions.refuse_if_over()  # whatever the illegal mode: a step after the end is refused
        try:
            completed = decisions.choose(action)
        except IllegalAction:
            if self.illegal == "error":
                raise  # choose changed nothing: the environment stays as it was
            decisions.forfeit()
            return self._observe(), episode.PENALTY, True, False, {"illegal_action": action}
        if completed is not None:
            self._play_opponents()
        state = decisions.state
        over = state.is_terminal()
        reward = returns(state)[self.seat] if over else 0.0
        cut = over and truncated(state)
        return self._observe(), reward, over and not cut, cut, {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids now, as a 0/1 array (all 0 once the game is over)."""
        return spaces.mask(self._live(), self.seat)

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render mode: make the environment with render_mode='ansi'")
            return None
        return episode.ansi(self._live())

    def _play_opponents(self) -> None:
        decisions = self._live()
        state = decisions.state
        while not state.is_terminal() and state.current_player != self.seat:
            seat = state.current_player
            decisions.apply(self.opponents[seat].act(state.view(seat), self._rng))

    def _observe(self) -> dict[str, Any]:
        return spaces.observe(self._live(), self.seat)

    def _live(self) -> Decisions:
        if self.decisions is None:
            raise IllegalAction("the environment has no game yet: call reset() first")
        return self.decisions


def _opponents(game: Game, seat: int, specs: str | list[str] | None) -> dict[int, Agent]:
    """The agent of every seat but ``seat``, checked to play ``game`` from views alone."""
    others = [s for s in range(game.num_players) if s != seat]
    if specs is None:
        specs = []
    elif isinstance(specs, str):
        specs = [specs] * len(others)
    if not isinstance(specs, (list, tuple)) or len(specs) != len(others):
        raise OptionError(f"opponents={shown(specs)}: {game.name} with {game.num_players} players needs "
                          f"{len(others)} agent specs for seats {others} (one spec for all, or a list)")
    agents = {}
    for other, spec in zip(others, specs):
        agent = make_agent(spec)
        if agent.cheats:
            raise OptionError(f"opponent {spec!r} sees hidden cards: an opponent plays from its seat's view only")
        agent.check(game)
        agents[other] = agent
    return agents
