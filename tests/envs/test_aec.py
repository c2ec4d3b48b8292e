"""The PettingZoo AEC environment: PettingZoo's own checkers, and what it plays."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from rl_helpers import DICT_OBSERVATION_WARNINGS, IDS, SETTINGS, masked_choice, unexpected, warnings_of

import parlour
from parlour import IllegalAction, OptionError
from parlour.envs.aec import ParlourAECEnv
from parlour.envs.rewards import returns


@pytest.mark.parametrize(("name", "options"), SETTINGS, ids=IDS)
def test_pettingzoo_api_test_and_seed_test_pass(name, options):
    messages = warnings_of(lambda: api_test(ParlourAECEnv(name, **options), num_cycles=400))
    messages |= warnings_of(lambda: seed_test(lambda: ParlourAECEnv(name, **options), num_cycles=200))
    assert unexpected(messages, DICT_OBSERVATION_WARNINGS) == []


def play(env: ParlourAECEnv, seed: int) -> tuple[list[int], dict[str, float], dict[str, tuple[bool, bool]]]:
    """A random game: the ids played, each agent's reward and (termination, truncation) at its end."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    ids, rewards, ends = [], {}, {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            rewards[agent], ends[agent] = reward, (termination, truncation)
            env.step(None)
            continue
        ids.append(masked_choice(observation["action_mask"], rng))
        env.step(ids[-1])
    return ids, rewards, ends


@pytest.mark.parametrize(("name", "options"), SETTINGS, ids=IDS)
def test_a_random_game_is_the_game_its_ids_name_and_pays_its_result(name, options):
    env = ParlourAECEnv(name, **options)
    ids, rewards, ends = play(env, seed=5)
    state = env.decisions.state
    record = state.record()
    replayed = parlour.replay(record)  # every action legal, the result recomputed
    assert replayed.to_position() == state.to_position()
    # The ids played are exactly the actions' ids, one action after another.
    assert [i for action in state.history() for i in env.game.action_ids(action)] == ids
    # The same actions applied to the same seed's game in parlour give the same record.
    again = env.game.new_state(record["seed"])
    for action in record["actions"]:
        again.apply(action)
    assert again.record() == record
    assert rewards == dict(zip(env.possible_agents, returns(state)))
    assert set(ends.values()) == {(True, False)} and env.agents == []


@pytest.mark.parametrize(("name", "options"), SETTINGS, ids=IDS)
def test_the_mask_is_the_legal_ids_of_the_seat_to_act_and_zero_for_the_others(name, options):
    env = ParlourAECEnv(name, **options)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(60):
        decisions = env.decisions
        if decisions.state.is_terminal():
            break
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            if agent == env.agent_selection:
                assert list(np.flatnonzero(mask)) == decisions.state.legal_ids(decisions.prefix)
            else:
                assert not mask.any()
        env.step(masked_choice(env.observe(env.agent_selection)["action_mask"], rng))


def test_the_sub_decisions_of_one_action_are_steps_of_the_same_agent():
    env = ParlourAECEnv("quisquilian", players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(2000):  # play until some action takes several ids
        agent, before = env.agent_selection, len(env.decisions.state.history())
        env.step(masked_choice(env.observe(agent)["action_mask"], rng))
        if env.decisions.prefix:
            assert env.agent_selection == agent and len(env.decisions.state.history()) == before
            # The prefix is the acting seat's own: the tensor shows it to that seat alone.
            seat = env.possible_agents.index(agent)
            assert env.decisions.tensor(seat) != env.game.observation_tensor(env.decisions.state.observation(seat))
            return
    pytest.fail("no action of several ids in 2000 steps")


def test_the_same_seed_gives_the_same_game_and_a_reset_without_one_goes_on():
    a, b = ParlourAECEnv("decktet-golf", rounds=1), ParlourAECEnv("decktet-golf", rounds=1)
    assert play(a, 9)[0] == play(b, 9)[0]
    first = a.decisions.state.record()["seed"]
    a.reset()
    b.reset(seed=9)
    b.reset()
    assert a.decisions.state.record()["seed"] == b.decisions.state.record()["seed"] != first


def test_max_turns_ends_quisquilian_as_a_truncation_with_nothing_paid():
    env = ParlourAECEnv("quisquilian", players=4, max_turns=3)
    ids, rewards, ends = play(env, seed=2)
    assert env.decisions.state.end_reason == "max_turns"
    assert set(ends.values()) == {(False, True)} and set(rewards.values()) == {0}


def test_an_illegal_id_is_refused_and_changes_nothing():
    env = ParlourAECEnv("psalter-row")
    env.reset(seed=4)
    before = (env.decisions.state.to_position(), env.decisions.prefix, env.agent_selection, dict(env.rewards))
    illegal = int(np.flatnonzero(env.observe("player_0")["action_mask"] == 0)[0])
    for bad in (illegal, env.game.num_distinct_actions, -1, 2.0, "3", True, None):
        with pytest.raises(IllegalAction, match="not legal now|not an integer"):
            env.step(bad)
    assert (env.decisions.state.to_position(), env.decisions.prefix, env.agent_selection, env.rewards) == before
    with pytest.raises(IllegalAction, match=rf"action id {illegal} is not legal now \(seat 0 to act\): .*expected one of"):
        env.step(illegal)
    with pytest.raises(IllegalAction, match=rf"expected an integer 0..{env.game.num_distinct_actions - 1}"):
        env.step(env.game.num_distinct_actions)


def test_with_illegal_penalty_an_illegal_id_ends_the_game_and_costs_the_offender():
    env = ParlourAECEnv("decktet-golf", illegal="penalty")
    env.reset(seed=4)
    offender = env.agent_selection
    other = next(agent for agent in env.agents if agent != offender)
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert env.terminations == {offender: True, other: True}
    assert env.rewards == {offender: -1.0, other: 0}
    assert env.infos[offender] == {"illegal_action": illegal}
    _, reward, termination, _, _ = env.last()
    assert termination and reward == env._cumulative_rewards[env.agent_selection]
    for agent in (offender, other):  # nobody acts in an ended game: every mask is 0
        assert not env.observe(agent)["action_mask"].any()


def test_steps_and_last_before_the_first_reset_are_refused():
    env = ParlourAECEnv("psalter-row")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("player_0")):
        with pytest.raises(IllegalAction, match=r"call reset\(\) first"):
            call()


def test_render_ansi_shows_the_table_of_the_seat_to_act():
    env = ParlourAECEnv("psalter-row", render_mode="ansi")
    env.reset(seed=6)
    text = env.render()
    hand = env.decisions.state.observation(0)["hand"]  # e.g. 10D, shown as 10♦
    assert text.startswith("Row") and "[bold]" not in text  # plain text, not rich markup
    shown = next(line for line in text.splitlines() if line.startswith("Hand")).split()[1:]
    assert [card[:-1] for card in shown] == [card[:-1] for card in hand]


def test_render_ansi_tags_the_seat_to_act_as_viewed_not_as_the_reader():
    env = ParlourAECEnv("decktet-golf", render_mode="ansi", rounds=1)
    env.reset(seed=0)
    text, seat = env.render(), env.decisions.state.current_player
    assert f"Seat {seat} (viewed)" in text and "(you)" not in text


def test_bad_settings_are_refused_with_what_is_allowed():
    with pytest.raises(OptionError, match="illegal='quietly' is not allowed: expected one of error, penalty"):
        ParlourAECEnv("psalter-row", illegal="quietly")
    with pytest.raises(OptionError, match="render_mode='human' is not allowed"):
        ParlourAECEnv("psalter-row", render_mode="human")
    with pytest.raises(OptionError, match="players=9 is not allowed"):
        ParlourAECEnv("quisquilian", players=9)
    with pytest.raises(IllegalAction, match=r"call reset\(\) first"):
        ParlourAECEnv("psalter-row").observe("player_0")
