"""The single-agent Gymnasium environments: Gymnasium's checker, the registered ids, and
what the learner and its opponents play."""

from __future__ import annotations


import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from rl_helpers import UNBOUNDED_WARNINGS, masked_choice, unexpected, warnings_of

import parlour
import parlour.envs  # noqa: F401  (registers the ids)
from parlour import IllegalAction, OptionError
from parlour.agents import Agent
from parlour.core.view import View
from parlour.envs.registration import ENV_IDS
from parlour.envs.rewards import returns
from parlour.envs.single import ParlourEnv

SETTINGS = [
    ("parlour/PsalterRow-v0", {}),
    ("parlour/PsalterRow-v0", {"revision_discard": 2}),
    ("parlour/DecktetGolf-v0", {"rounds": 1}),
    ("parlour/DecktetGolf-v0", {"players": 4, "excuse": True, "rounds": 1, "seat": 2}),
    ("parlour/Quisquilian-v0", {"players": 3}),
    ("parlour/Quisquilian-v0", {"players": 6, "seat": 5, "opponents": "random"}),
]


@pytest.mark.parametrize(("env_id", "kwargs"), SETTINGS, ids=[f"{e}{k}" for e, k in SETTINGS])
def test_gymnasium_check_env_passes(env_id, kwargs):
    # check_env steps with ids drawn without the mask, so it runs with illegal="penalty"
    # (an illegal id ends the episode); with the default an illegal id is an error (below).
    for render_mode in (None, "ansi"):
        env = gymnasium.make(env_id, illegal="penalty", render_mode=render_mode, **kwargs)
        assert unexpected(warnings_of(lambda: check_env(env.unwrapped)), UNBOUNDED_WARNINGS) == []


def test_every_id_is_registered_on_import_with_its_game():
    assert set(ENV_IDS) <= set(gymnasium.registry)
    games = {env_id: gymnasium.make(env_id).unwrapped.game.name for env_id in ENV_IDS}
    assert games == {"parlour/PsalterRow-v0": "psalter-row", "parlour/DecktetGolf-v0": "decktet-golf",
                     "parlour/Quisquilian-v0": "quisquilian"}
    assert gymnasium.make("parlour/DecktetGolf-v0").unwrapped.opponents[1].name == "heuristic"


class Spy(Agent):
    """Plays randomly and keeps what it was handed."""

    name = "spy"
    handed: list[object] = []

    def act(self, view, rng):
        Spy.handed.append(view)
        return view.legal_actions[rng.randrange(len(view.legal_actions))]


def play(env: ParlourEnv, seed: int) -> tuple[list[int], float, bool, bool]:
    """A random episode: the learner's ids, its last reward and how the episode ended."""
    rng = np.random.default_rng(seed)
    observation, _ = env.reset(seed=seed)
    ids, done = [], False
    while not done:
        assert list(np.flatnonzero(observation["action_mask"])) == env.decisions.legal_ids()
        ids.append(masked_choice(observation["action_mask"], rng))
        observation, reward, terminated, truncated, _ = env.step(ids[-1])
        done = terminated or truncated
        assert reward == 0 or done
    return ids, reward, terminated, truncated


@pytest.mark.parametrize(("name", "options"), [("psalter-row", {}), ("decktet-golf", {"players": 3, "rounds": 1}),
                                               ("quisquilian", {"players": 4})])
def test_an_episode_is_a_game_that_replays_and_pays_the_learners_result(name, options, monkeypatch):
    monkeypatch.setattr(Spy, "handed", [])
    seat = parlour.load(name, **options).num_players - 1
    with monkeypatch.context() as patched:
        patched.setattr("parlour.envs.single.make_agent", lambda spec: Spy())
        env = ParlourEnv(name, seat=seat, opponents="spy", **options)
    ids, reward, terminated, truncated = play(env, seed=8)
    state = env.decisions.state
    assert parlour.replay(state.record()).to_position() == state.to_position()
    learner = [action for action, seat_of in zip(state.history(), seats_of(state)) if seat_of == seat]
    assert [i for action in learner for i in env.game.action_ids(action)] == ids
    assert reward == returns(state)[seat] and terminated and not truncated
    # The opponents moved every other action, each handed a view (never the state) of its own seat.
    assert len(Spy.handed) == len(state.history()) - len(learner)
    assert all(type(view) is View and view.seat != seat for view in Spy.handed)


def seats_of(state):
    """The seat that played each action of a finished game's history."""
    replay = state.game.new_state(state.record()["seed"])
    seats = []
    for action in state.history():
        seats.append(replay.current_player)
        replay.apply(action)
    return seats


def test_the_same_seed_gives_the_same_episode_opponents_included():
    first = play(ParlourEnv("quisquilian", opponents="heuristic", players=3), seed=12)
    again = play(ParlourEnv("quisquilian", opponents="heuristic", players=3), seed=12)
    assert first == again


def test_max_turns_ends_quisquilian_as_a_truncation():
    env = ParlourEnv("quisquilian", opponents="random", players=3, max_turns=4)
    _, reward, terminated, truncated = play(env, seed=1)
    assert env.decisions.state.end_reason == "max_turns"
    assert (reward, terminated, truncated) == (0.0, False, True)


def test_an_illegal_id_is_refused_and_changes_nothing():
    env = gymnasium.make("parlour/DecktetGolf-v0").unwrapped
    observation, _ = env.reset(seed=3)
    before = env.decisions.state.to_position()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction, match=rf"action id {illegal} is not legal now"):
        env.step(illegal)
    assert env.decisions.state.to_position() == before and env.decisions.prefix == ()
    assert (env.action_masks() == observation["action_mask"]).all()


def test_with_illegal_penalty_an_illegal_id_ends_the_episode_at_a_cost():
    env = ParlourEnv("psalter-row", illegal="penalty")
    observation, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": illegal})
    # the episode is over: nothing is legal, and no id is taken or penalised again
    assert not after["action_mask"].any() and not env.action_masks().any()
    before = env.decisions.state.to_position()
    for action in (int(np.flatnonzero(observation["action_mask"])[0]), illegal):
        with pytest.raises(IllegalAction, match="the episode is over"):
            env.step(action)
    assert env.decisions.state.to_position() == before and not env.decisions.state.is_terminal()
    assert env.decisions.clone().legal_ids() == [] and env.decisions.clone().seat is None  # a copy stays forfeited


def test_a_step_after_the_end_is_refused_in_either_illegal_mode():
    for illegal in ("error", "penalty"):
        env = ParlourEnv("psalter-row", illegal=illegal)
        observation, _ = env.reset(seed=3)
        terminated = False
        while not terminated:
            terminated = env.step(int(np.flatnonzero(observation["action_mask"])[0]))[2]
            observation = env._observe()
        with pytest.raises(IllegalAction, match="the game is over"):
            env.step(0)


def test_opponents_are_checked_before_any_game():
    with pytest.raises(OptionError, match=r"needs 2 agent specs for seats \[1, 2\]"):
        ParlourEnv("decktet-golf", players=3)
    with pytest.raises(OptionError, match="needs 2 agent specs"):
        ParlourEnv("decktet-golf", players=3, opponents=["random"])
    with pytest.raises(OptionError, match="sees hidden cards"):
        ParlourEnv("decktet-golf", opponents="clairvoyant")
    with pytest.raises(OptionError, match="there is no agent 'nobody'"):
        ParlourEnv("decktet-golf", opponents="nobody")
    with pytest.raises(OptionError, match=r"seat=2 does not exist: decktet-golf has seats 0..1"):
        ParlourEnv("decktet-golf", seat=2, opponents="random")
    env = ParlourEnv("decktet-golf", players=3, opponents=["random", "heuristic"])
    assert [env.opponents[seat].name for seat in (1, 2)] == ["random", "heuristic"]


def test_render_ansi_is_the_learners_table_as_text():
    env = gymnasium.make("parlour/DecktetGolf-v0", render_mode="ansi", rounds=1)
    env.reset(seed=0)
    text = env.render()
    assert "Seat 0 (you)" in text and "[bold" not in text


def test_a_step_after_the_end_is_refused_until_a_reset():
    env = ParlourEnv("psalter-row")
    play(env, seed=2)
    with pytest.raises(IllegalAction, match=r"the game is over \(\w+\): no action id is legal; reset to play again"):
        env.step(0)
    assert not env.action_masks().any()
    observation, _ = env.reset(seed=2)
    assert observation["action_mask"].any()


def test_a_game_the_opponents_end_before_the_learners_turn_says_so_at_reset():
    env = ParlourEnv("quisquilian", players=3, seat=2, opponents="random", max_turns=1)
    observation, info = env.reset(seed=0)
    assert info == {"game_over": "max_turns"} and env.decisions.state.is_terminal()
    assert not observation["action_mask"].any()
    _, info = ParlourEnv("quisquilian", players=3, seat=0, opponents="random", max_turns=1).reset(seed=0)
    assert info == {}  # the learner moves first: its game is under way


def test_the_learners_seat_may_be_a_numpy_integer():
    env = ParlourEnv("decktet-golf", seat=np.int64(1), opponents="random", rounds=1)
    assert type(env.seat) is int and env.seat == 1
    with pytest.raises(OptionError, match="does not exist"):
        ParlourEnv("decktet-golf", seat=np.float64(1), opponents="random")
