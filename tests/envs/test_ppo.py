"""envs.ppo: a tiny training run end to end (its files, its policy playing as an agent, the same
run twice), an update that moves the policy the way its advantages say, the margin reward, and
the policy agent choosing exactly what the network chose in the environment."""

from __future__ import annotations

import csv
import json
import random

import numpy as np
import pytest

import parlour
from parlour.agents.policy import save_policy
from parlour.envs.ppo import CURVE, Config, Learner, MarginReward, main, make_env, train
from parlour.envs.ppo_math import masked_log_softmax
from parlour.envs.single import ParlourEnv

TINY = dict(steps=256, envs=2, horizon=64, epochs=2, minibatch=64, hidden=(8,), eval_every=2, eval_games=2)


def test_a_tiny_run_writes_its_policy_curve_and_plot_and_the_policy_plays(tmp_path):
    rows = train(Config("psalter-row", **TINY), tmp_path, say=lambda text: None)
    assert [row["update"] for row in rows] == [1, 2] and rows[-1]["steps"] == 256
    with open(tmp_path / "curve.csv") as handle:
        written = list(csv.DictReader(handle))
    assert list(written[0]) == CURVE and len(written) == 2
    assert written[0]["eval"] == "" and float(written[1]["eval_low"]) <= float(written[1]["eval"])
    assert float(written[1]["eval"]) <= float(written[1]["eval_high"])
    assert set(json.loads((tmp_path / "references.json").read_text())) == {"random", "heuristic"}
    assert (tmp_path / "curve.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "policy.npz").stat().st_size < 1_000_000
    agent, game = parlour.agent(f"policy:path={tmp_path / 'policy.npz'}"), parlour.load("psalter-row")
    agent.check(game)
    assert agent.policy.meta["config"]["steps"] == 256 and agent.policy.meta["steps"] == 256
    state = game.new_state(5)
    while not state.is_terminal():
        state.apply(agent.act(state.view(0), random.Random(0)))
    assert parlour.replay(state.record()).is_terminal()


def test_the_same_config_gives_the_same_run(tmp_path):
    config = Config("decktet-golf", {"rounds": 1}, reward="margin", **{**TINY, "steps": 128, "eval_every": 1})
    runs = [train(config, tmp_path / name, say=lambda text: None) for name in ("a", "b")]
    for a, b in zip(*runs, strict=True):
        assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}
    first, second = (np.load(tmp_path / name / "policy.npz") for name in ("a", "b"))
    assert all(np.array_equal(first[key], second[key]) for key in first.files if key != "meta")


def test_an_update_makes_the_advantaged_id_likelier_and_moves_values_to_the_returns():
    config = Config("psalter-row", minibatch=8, epochs=4, hidden=(8,), entropy=0.0, lr=0.01)
    rng = np.random.default_rng(0)
    learner = Learner(config, 5, 4, rng)
    x = np.tile(rng.normal(size=(1, 5)).astype(np.float32), (8, 1))
    mask = np.tile([True, True, True, False], (8, 1))
    ids = np.array([0, 1] * 4)
    logp = masked_log_softmax(learner.policy.forward(x), mask)[np.arange(8), ids]
    batch = {"x": x, "mask": mask, "ids": ids, "logp": logp, "advantages": np.where(ids == 0, 1.0, -1.0),
             "returns": np.full(8, 3.0)}
    before = np.exp(masked_log_softmax(learner.policy.forward(x[:1]), mask[:1]))[0]
    value_before = learner.value.forward(x[:1])[0, 0]
    stats = learner.update(batch, rng, config.lr)
    after = np.exp(masked_log_softmax(learner.policy.forward(x[:1]), mask[:1]))[0]
    assert after[0] > before[0] and after[1] < before[1] and after[3] == 0.0
    assert abs(learner.value.forward(x[:1])[0, 0] - 3.0) < abs(value_before - 3.0)
    assert set(stats) == {"entropy", "kl", "clipped", "value_loss"}


def test_the_margin_reward_adds_the_score_margin_at_the_end():
    config = Config("decktet-golf", {"rounds": 1}, reward="margin", margin_scale=10.0)
    env = make_env(config)
    assert isinstance(env, MarginReward)
    observation, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    rewards, done = [], False
    while not done:
        observation, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        rewards.append(reward)
        done = terminated or truncated
    state = env.unwrapped.decisions.state
    mine, theirs = state.scores()
    result = 1.0 if 0 in state.winners() else -1.0
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] == pytest.approx(result + (theirs - mine) / 10)
    assert mine != theirs  # the margin was tested
    with pytest.raises(parlour.OptionError, match="reward=margin needs other seats.*psalter-row is a solitaire"):
        make_env(Config("psalter-row", reward="margin"))


@pytest.mark.parametrize(("name", "options", "opponents"), [("psalter-row", {}, None),
                                                            ("decktet-golf", {"rounds": 1}, "heuristic")])
def test_the_agent_plays_what_the_network_chose_in_the_environment(tmp_path, name, options, opponents):
    """The agent encodes the view as the environment encodes it for training, prefix and all."""
    game = parlour.load(name, **options)
    learner = Learner(Config(name, options, hidden=(16,)), game.observation_shape[0], game.num_distinct_actions,
                      np.random.default_rng(1))
    learner.policy.weights[-1] *= 300  # far from uniform: ties cannot hide a difference
    save_policy(tmp_path / "p.npz", learner.policy, game, {})
    agent = parlour.agent(f"policy:path={tmp_path / 'p.npz'}")
    env = ParlourEnv(name, opponents=opponents, **options)
    observation, _ = env.reset(seed=6)
    done, compared = False, 0
    while not done:
        decisions = env.decisions
        if decisions.prefix == ():
            expected, before = agent.act(decisions.state.view(0), random.Random(0)), len(decisions.state.history())
        logits = learner.policy.forward(observation["observation"][None].astype(np.float32))[0]
        chosen = int(np.flatnonzero(observation["action_mask"])[np.argmax(logits[observation["action_mask"] == 1])])
        observation, _, terminated, truncated, _ = env.step(chosen)
        done = terminated or truncated
        if decisions.prefix == ():
            assert decisions.state.history()[before] == expected
            compared += 1
    assert compared > 10


def test_the_command_line_trains_and_refuses_bad_input_with_a_reason(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["psalter-row", "--steps", "64", "--envs", "2", "--horizon", "32", "--minibatch", "32", "--hidden",
                 "8", "--eval-games", "1", "--out", str(out)]) == 0
    assert "update 1: 64 steps" in capsys.readouterr().out and (out / "policy.npz").exists()
    assert main(["decktet-golf", "--option", "players=9", "--out", str(tmp_path / "x")]) == 1
    assert "players='9' is not allowed" in capsys.readouterr().err and not (tmp_path / "x").exists()
    with pytest.raises(parlour.OptionError, match="there is no environment for 'chess'"):
        Config("chess")
    with pytest.raises(parlour.OptionError, match="reward='score' is not allowed: expected result or margin"):
        Config("psalter-row", reward="score")
    with pytest.raises(parlour.OptionError, match="must be 1 or more"):
        Config("psalter-row", envs=0)
