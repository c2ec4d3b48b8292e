"""envs.ppo_math and agents.mlp: every hand-written gradient against central finite differences."""

from __future__ import annotations

import numpy as np
import pytest

from parlour.agents.mlp import Mlp
from parlour.envs.ppo_math import Adam, advantages, clip_norm, entropy, masked_log_softmax, policy_loss, value_loss

STEP = 1e-6


def numeric_gradient(f, x: np.ndarray) -> np.ndarray:
    """d f / d x by central differences, entry by entry (x is changed and put back)."""
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        keep = x[i]
        x[i] = keep + STEP
        up = f()
        x[i] = keep - STEP
        down = f()
        x[i] = keep
        grad[i] = (up - down) / (2 * STEP)
    return grad


def batch(rng: np.random.Generator, n: int = 12, actions: int = 6, clip: float = 0.2):
    """Logits, a mask with at least one legal entry a row (the taken action legal), and old
    log-probabilities that put the ratios on both sides of the clip range, away from its kinks."""
    logits = rng.normal(size=(n, actions)) * 2
    mask = rng.random((n, actions)) < 0.6
    taken = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
    mask[np.arange(n), taken] = True
    ratios = rng.choice([0.5, 0.7, 0.95, 1.05, 1.4, 2.0], size=n)
    logp = masked_log_softmax(logits, mask)[np.arange(n), taken]
    old_logp = logp - np.log(ratios)
    adv = rng.choice([-1.0, 1.0], size=n) * rng.uniform(0.2, 2.0, size=n)
    return logits, mask, taken, old_logp, adv


def test_the_masked_softmax_gives_illegal_entries_nothing_and_sums_to_one_even_for_huge_logits():
    logits = np.array([[1e4, 3.0, -1e4, 0.0], [0.0, 0.0, 0.0, 50.0]])
    mask = np.array([[False, True, True, True], [True, False, False, False]])
    p = np.exp(masked_log_softmax(logits, mask))
    assert np.allclose(p.sum(axis=1), 1.0) and (p[~mask] == 0).all()
    assert p[1, 0] == 1.0 and entropy(masked_log_softmax(logits, mask), mask)[1] == 0.0
    assert np.isclose(entropy(masked_log_softmax(np.zeros((1, 4)), mask[:1]), mask[:1])[0], np.log(3))


@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_the_mlp_backward_pass_is_the_gradient_of_its_outputs(activation):
    rng = np.random.default_rng(1)
    net = Mlp.initial([5, 7, 6, 4], rng, activation)
    for b in net.biases:  # nonzero biases, so that relu's units are not all on or off together
        b += rng.normal(size=b.shape) * 0.3
    x, weights = rng.normal(size=(9, 5)), rng.normal(size=(9, 4))

    def f() -> float:
        return float((net.forward(x) * weights).sum())

    out, inputs = net.forward_train(x)
    for param, grad in zip(net.params(), net.backward(inputs, weights), strict=True):
        assert grad.shape == param.shape
        assert np.allclose(grad, numeric_gradient(f, param), atol=1e-6)


@pytest.mark.parametrize("entropy_coef", [0.0, 0.05])
def test_the_policy_loss_gradient_is_its_derivative_and_nothing_reaches_illegal_logits(entropy_coef):
    logits, mask, taken, old_logp, adv = batch(np.random.default_rng(2))
    result = policy_loss(logits, mask, taken, old_logp, adv, 0.2, entropy_coef)
    assert 0 < result.clipped < 1  # some ratios clipped, some not: both branches are checked

    def f() -> float:
        return policy_loss(logits, mask, taken, old_logp, adv, 0.2, entropy_coef).loss

    assert np.allclose(result.d_logits, numeric_gradient(f, logits), atol=1e-6)
    assert (result.d_logits[~mask] == 0).all()


def test_a_clipped_ratio_passes_no_gradient_and_a_ratio_of_one_has_no_kl():
    logits, mask = np.zeros((2, 3)), np.ones((2, 3), dtype=bool)
    logp = masked_log_softmax(logits, mask)[:, 0]
    # ratio 2 with a positive advantage: clipped at 1.2, flat; ratio 1: the plain policy gradient
    result = policy_loss(logits, mask, np.array([0, 0]), logp - np.log([2.0, 1.0]), np.array([1.0, 1.0]), 0.2, 0.0)
    assert (result.d_logits[0] == 0).all() and (result.d_logits[1] != 0).all()
    still = policy_loss(logits, mask, np.array([0, 0]), logp, np.array([1.0, -1.0]), 0.2, 0.0)
    assert still.kl == 0.0 and still.clipped == 0.0


def test_the_whole_policy_gradient_reaches_the_weights():
    rng = np.random.default_rng(3)
    net = Mlp.initial([4, 8, 6], rng, out_gain=1.0)
    x = rng.normal(size=(12, 4))
    _, mask, taken, old_logp, adv = batch(rng)

    def f() -> float:
        return policy_loss(net.forward(x), mask, taken, old_logp, adv, 0.2, 0.01).loss

    logits, inputs = net.forward_train(x)
    grads = net.backward(inputs, policy_loss(logits, mask, taken, old_logp, adv, 0.2, 0.01).d_logits)
    for param, grad in zip(net.params(), grads):
        assert np.allclose(grad, numeric_gradient(f, param), atol=1e-6)


def test_the_value_loss_gradient():
    rng = np.random.default_rng(4)
    values, returns = rng.normal(size=7), rng.normal(size=7)
    loss, grad = value_loss(values, returns)
    assert np.isclose(loss, 0.5 * ((values - returns) ** 2).mean())
    assert np.allclose(grad, numeric_gradient(lambda: value_loss(values, returns)[0], values), atol=1e-8)


def test_advantages_are_monte_carlo_returns_at_lambda_one_and_td_errors_at_zero():
    rng = np.random.default_rng(5)
    rewards, values = rng.normal(size=(6, 2)), rng.normal(size=(6, 2))
    dones = np.zeros((6, 2))
    dones[2, 0] = dones[5, 1] = 1.0  # env 0: an episode ends after step 2, the next goes on past the rollout
    last = rng.normal(size=2)
    gamma = 0.9
    _, returns = advantages(rewards, values, dones, last, gamma, 1.0)
    expected_0 = [sum(gamma ** k * rewards[t + k, 0] for k in range(3 - t)) for t in range(3)]
    expected_0 += [sum(gamma ** k * rewards[t + k, 0] for k in range(6 - t)) + gamma ** (6 - t) * last[0]
                   for t in range(3, 6)]
    expected_1 = [sum(gamma ** k * rewards[t + k, 1] for k in range(6 - t)) for t in range(6)]
    assert np.allclose(returns[:, 0], expected_0) and np.allclose(returns[:, 1], expected_1)
    td, _ = advantages(rewards, values, dones, last, gamma, 0.0)
    following = np.vstack([values[1:], last]) * (1 - dones)
    assert np.allclose(td, rewards + gamma * following - values)


def test_clip_norm_scales_only_what_is_too_long():
    grads = [np.array([3.0]), np.array([[4.0]])]
    assert clip_norm(grads, 10.0) == 5.0 and grads[0][0] == 3.0
    assert clip_norm(grads, 1.0) == 5.0 and np.isclose(np.sqrt(grads[0][0] ** 2 + grads[1][0, 0] ** 2), 1.0)


def test_adam_finds_the_bottom_of_a_bowl():
    w = np.array([3.0, -2.0])
    opt = Adam([w], lr=0.05)
    for _ in range(500):
        opt.step([2 * (w - [1.0, 0.5])])
    assert np.allclose(w, [1.0, 0.5], atol=1e-2)
