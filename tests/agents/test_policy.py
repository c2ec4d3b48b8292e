"""The policy agent: a saved network plays legal moves from the view alone, and a file that is
missing, not a policy, for another game or of the wrong shape is refused with a reason."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_cli import one_line_error, run, runner  # noqa: F401  (runner is a fixture)

import parlour
from parlour.agents import agent_class, mlp
from parlour.agents.mlp import Mlp
from parlour.agents.policy import save_policy

GAMES = [("psalter-row", {}), ("decktet-golf", {"rounds": 1}), ("decktet-golf", {"players": 3, "rounds": 1})]


def saved(tmp_path, name: str, options: dict, seed: int = 0, hidden: int = 16) -> str:
    """A small random policy for the game, saved (a large output gain: its choices are far from uniform)."""
    game = parlour.load(name, **options)
    net = Mlp.initial([game.observation_shape[0], hidden, game.num_distinct_actions], np.random.default_rng(seed),
                      out_gain=3.0)
    path = tmp_path / f"{name}-{seed}.npz"
    save_policy(path, net, game, {"note": "random weights, for tests"})
    return str(path)


@pytest.mark.parametrize("sample", [False, True])
@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_saved_policy_plays_legal_moves_to_the_end(tmp_path, name, options, sample):
    game = parlour.load(name, **options)
    agent, other = parlour.agent(f"policy:path={saved(tmp_path, name, options)},sample={sample}"), parlour.agent("random")
    agent.check(game)
    several = 0
    for seed in range(game.num_players):  # the policy in each seat, random players in the others
        state, rng = game.new_state(seed), random.Random(seed)
        # (a Decktet Golf game has no bound on its length: a policy in every seat may take and
        # replace for ever, where random players end the round by turning their grid up)
        while not state.is_terminal():
            seat = state.current_player
            action = (agent if seat == seed else other).move(state, seat, rng)
            assert action in state.legal_actions()
            several += len(game.action_ids(action)) > 1
            state.apply(action)
        assert parlour.replay(state.record()).to_position() == state.to_position()
    assert several or name == "decktet-golf"  # Psalter Row's placements with payments take several ids


@pytest.mark.parametrize(("name", "options"), GAMES[:2])
def test_the_policy_takes_the_most_likely_legal_id_and_reads_only_the_view(tmp_path, name, options):
    game = parlour.load(name, **options)
    agent = parlour.agent(f"policy:{saved(tmp_path, name, options)}")
    state = game.new_state(4)
    while len({game.action_ids(a)[0] for a in state.legal_actions()}) < 2:
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    logits = agent.policy.logits(game, view.observation, ())
    first = {game.action_ids(a)[0] for a in view.legal_actions}
    chosen = agent.act(view, random.Random(1))
    assert game.action_ids(chosen)[0] == max(first, key=lambda i: logits[i])
    # the same whatever the hidden cards are, and whatever the rng
    twin = view.sample(random.Random(8))
    assert agent.act(twin.view(state.current_player), random.Random(2)) is chosen
    assert agent.spec == f"policy:{agent.settings['path']}"


def test_sampling_follows_the_probabilities(tmp_path):
    game = parlour.load("decktet-golf")
    agent = parlour.agent(f"policy:path={saved(tmp_path, 'decktet-golf', {})},sample=true")
    state = game.new_state(3)
    view = state.view(state.current_player)
    ids = [game.action_id(a) for a in view.legal_actions]
    logits = agent.policy.logits(game, view.observation, ())[ids]
    p = np.exp(logits - logits.max())
    p /= p.sum()
    rng = random.Random(5)
    counts = {i: 0 for i in ids}
    draws = 4000
    for _ in range(draws):
        counts[game.action_id(agent.act(view, rng))] += 1
    shares = np.array([counts[i] / draws for i in ids])
    assert np.abs(shares - p).max() < 4 * np.sqrt(p.max() * (1 - p.min()) / draws) + 1e-9
    assert agent.act(view, random.Random(9)) is agent.act(view, random.Random(9))


def test_a_policy_for_another_game_or_other_shapes_is_refused_before_a_move(tmp_path):
    agent = parlour.agent(f"policy:path={saved(tmp_path, 'psalter-row', {})}")
    with pytest.raises(parlour.OptionError, match=r"the policy '.*psalter-row-0.npz' was trained for psalter-row, "
                                                  r"not decktet-golf"):
        agent.check(parlour.load("decktet-golf"))
    golf = parlour.agent(f"policy:path={saved(tmp_path, 'decktet-golf', {})}")
    golf.check(parlour.load("decktet-golf", rounds=2))  # the same shapes: other options are fine
    with pytest.raises(parlour.OptionError, match=r"takes 1340 inputs and scores 35 action ids \(trained with options "
                                                  r".*\); .*has \d+ and 101: train a policy under these options"):
        golf.check(parlour.load("decktet-golf", excuse=True))
    state = parlour.load("decktet-golf", excuse=True).new_state(1)
    with pytest.raises(parlour.OptionError, match="101"):  # act checks too, for a caller that did not
        golf.act(state.view(state.current_player), random.Random(0))


def test_a_path_that_is_no_policy_is_refused_with_what_is_wrong(tmp_path):
    game = parlour.load("psalter-row")
    (tmp_path / "text.npz").write_text("not a zip")
    np.save(tmp_path / "array.npy", np.zeros(3))
    np.savez(tmp_path / "plain.npz", w=np.zeros(3))
    mlp.save(tmp_path / "other.npz", {"value": Mlp.initial([3, 2], np.random.default_rng(0))}, {"format": "x"})
    good = saved(tmp_path, "psalter-row", {})
    nets, meta = mlp.load(good)
    mlp.save(tmp_path / "damaged.npz", nets, {**meta, "num_distinct_actions": 7})
    cases = [
        ("nowhere.npz", "cannot read the policy '.*nowhere.npz': No such file"),
        (".", "is not a saved policy: expected an .npz file of at most 64 MB"),
        ("text.npz", "text.npz' is not a saved policy: it is not a numpy .npz file"),
        ("array.npy", "is not a saved policy: it is a single numpy array"),
        ("plain.npz", "plain.npz' is not a saved policy: it holds no networks saved by parlour"),
        ("other.npz", "expected a file of format 'parlour-policy/1' with a 'policy' network.*found format 'x' "
                      r"with networks \['value'\]"),
        ("damaged.npz", "damaged.npz' is damaged: its network takes 693 inputs and scores 425 ids, but .* 7 ids"),
    ]
    for name, says in cases:
        agent = parlour.agent(f"policy:path={tmp_path / name}")  # made: the file is read on first use
        with pytest.raises(parlour.OptionError, match=says):
            agent.check(game)
    with pytest.raises(parlour.OptionError, match="needs its saved policy: policy:path=FILE.npz"):
        parlour.agent("policy:sample=true")
    with pytest.raises(parlour.OptionError, match="path='a,b' is not allowed: expected a non-empty text without commas"):
        agent_class("policy")(path="a,b")  # a spec could not name it again


def test_the_policy_plays_from_the_command_line_and_a_bad_one_fails_before_a_game(runner, tmp_path):
    path = saved(tmp_path, "decktet-golf", {})
    result = run(runner, "tournament", "decktet-golf", "--agents", f"random,policy:path={path}", "--games", "2",
                 "--option", "rounds=1", "--workers", "1", "--no-progress")
    assert result.exit_code == 0, result.output
    assert "policy" in result.output
    one_line_error(run(runner, "tournament", "decktet-golf", "--agents", f"random,policy:path={tmp_path}/x.npz",
                       "--games", "2", "--workers", "1", "--no-progress"), "cannot read the policy")
    one_line_error(run(runner, "play", "psalter-row", "--seats", f"policy:path={path}", "--seed", "1"),
                   "was trained for decktet-golf, not psalter-row")


def test_the_policy_trained_for_the_docs_plays_psalter_row():
    """docs/research/ppo-psalter-row.npz, the worked example's policy (docs/research.md), still loads and plays."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "docs" / "research" / "ppo-psalter-row.npz"
    game, agent = parlour.load("psalter-row"), parlour.agent(f"policy:path={path}")
    agent.check(game)
    assert agent.policy.meta["config"]["steps"] == 600_000 and path.stat().st_size < 1_000_000
    state = game.new_state(11)
    while not state.is_terminal():
        state.apply(agent.act(state.view(0), random.Random(0)))
    assert parlour.replay(state.record()).is_terminal()
