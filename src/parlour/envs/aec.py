"""A PettingZoo AEC environment for any parlour game.

Agents ``player_0``, ``player_1``, ... are the seats. Each step is one action id; an action
of several sub-decisions takes several steps of the same agent (DESIGN.md "Codecs for
learning"). Rewards come at the end (``parlour.envs.rewards``); Quisquilian's ``max_turns``
ends the game as a truncation. ``reset(seed=...)`` fixes every shuffle.

>>> from parlour.envs.aec import ParlourAECEnv
>>> env = ParlourAECEnv("decktet-golf", players=3, rounds=1)
>>> env.reset(seed=1)
>>> env.agents, env.agent_selection in env.agents
(['player_0', 'player_1', 'player_2'], True)
>>> observation, reward, termination, truncation, info = env.last()
>>> int(observation["action_mask"].sum()) > 0, reward, termination, truncation
(True, 0, False, False)
"""

from __future__ import annotations

from typing import Any

from gymnasium import logger
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from parlour.core.errors import IllegalAction
from parlour.core.game import Game
from parlour.envs import episode, spaces
from parlour.envs.decisions import Decisions
from parlour.envs.rewards import returns, truncated


class ParlourAECEnv(AECEnv):
    """The AEC environment of ``game`` (a name or a Game); game options as keywords.

    ``illegal="error"`` (the default) refuses an illegal id with IllegalAction and leaves
    the environment as it was; ``illegal="penalty"`` ends the game instead, the offender
    getting -1 and the others 0, with ``info["illegal_action"]`` naming the id (PettingZoo's
    TerminateIllegalWrapper convention). ``render_mode="ansi"`` renders the table as text.
    """

    metadata = {"render_modes": episode.RENDER_MODES, "render_fps": episode.RENDER_FPS, "is_parallelizable": False}

    def __init__(self, game: str | Game = "decktet-golf", *, render_mode: str | None = None,
                 illegal: str = "error", **options: Any) -> None:
        super().__init__()
        self.game = episode.load_game(game, options)
        self.render_mode = episode.render_mode(render_mode)
        self.illegal = episode.illegal_mode(illegal)
        self.metadata = {**self.metadata, "name": f"parlour_{self.game.name.replace('-', '_')}_v0"}
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space, action_space = spaces.observation_space(self.game), spaces.action_space(self.game)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self.np_random, _ = seeding.np_random()
        self.decisions: Decisions | None = None

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes it (and the games of later resets without a seed)."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self.decisions = Decisions(self.game.new_state(episode.game_seed(self.np_random)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.decisions.seat]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation tensor and action mask (zeros unless it is to act)."""
        return spaces.observe(self._live(), self._seats[agent])

    def step(self, action: Any) -> None:
        """Play one id for ``agent_selection`` (``None`` for an agent whose game is over)."""
        decisions = self._live()  # refuses before the first reset
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            completed = decisions.choose(action)
        except IllegalAction:
            if self.illegal == "error":
                raise  # choose changed nothing: the environment stays as it was
            self._end(agent, self._penalty(agent, action))
            return
        if completed is not None and decisions.state.is_terminal():
            self._end(agent, self._result())
        else:
            # Before the end every reward is 0 and no agent is done: nothing else to update.
            self.agent_selection = self.possible_agents[decisions.state.current_player]

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, refused (IllegalAction) before the first reset."""
        self._live()
        return super().last(observe)

    def _end(self, agent: str, rewards: dict[str, float]) -> None:
        """Pay ``rewards`` for the step ``agent`` took, and let the done agents step out."""
        self._cumulative_rewards[agent] = 0
        self.rewards = rewards
        self._accumulate_rewards()
        self._deads_step_first()

    def _result(self) -> dict[str, float]:
        """The rewards of the game's end; every agent is done (truncated where a safety net ended it)."""
        state = self._live().state
        ends = self.truncations if truncated(state) else self.terminations
        ends.update(dict.fromkeys(self.agents, True))
        return dict(zip(self.agents, returns(state)))

    def _penalty(self, agent: str, action: Any) -> dict[str, float]:
        """The rewards of an illegal id under ``illegal="penalty"``: the game ends, the offender pays."""
        self._live().forfeit()  # nobody acts now: every mask is 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_action": action}
        return {other: episode.PENALTY if other == agent else 0 for other in self.agents}

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``), as the agent to act sees it; whoever reads
        it is not that seat, so it is tagged "(viewed)"."""
        if self.render_mode is None:
            logger.warn("render() was called without a render mode: make the environment with render_mode='ansi'")
            return None
        return episode.ansi(self._live(), you="viewed")

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""

    def _live(self) -> Decisions:
        if self.decisions is None:
            raise IllegalAction("the environment has no game yet: call reset() first")
        return self.decisions

    def __str__(self) -> str:
        return self.metadata["name"]
