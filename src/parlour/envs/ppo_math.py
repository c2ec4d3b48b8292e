"""The arithmetic of PPO in numpy: a masked categorical, the clipped objective with its entropy
bonus and their gradients, the value loss, generalised advantage estimation and Adam.

Each loss returns its value and its gradient with respect to the network's outputs, worked out by
hand; :meth:`parlour.agents.mlp.Mlp.backward` carries it to the weights (the tests check both
against finite differences). Illegal actions get probability 0: their logits are ``-inf`` before
the softmax, so they are never sampled and get no gradient.

>>> import numpy as np
>>> logp = masked_log_softmax(np.zeros((1, 3)), np.array([[True, False, True]]))
>>> np.exp(logp).round(2).tolist()
[[0.5, 0.0, 0.5]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def masked_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Log-probabilities of a categorical over the ``mask``'s legal entries (``-inf`` elsewhere).
    Every row needs at least one legal entry."""
    z = np.where(mask, logits, -np.inf)
    z = z - z.max(axis=1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=1, keepdims=True))


def entropy(logp: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each row's entropy, from :func:`masked_log_softmax`'s output (illegal entries add 0)."""
    legal = np.where(mask, logp, 0.0)  # not 0 * -inf
    return -(np.exp(legal) * legal * mask).sum(axis=1)


@dataclass(frozen=True)
class PolicyLoss:
    """The clipped surrogate loss of a minibatch with its entropy bonus, its gradient with
    respect to the logits, and diagnostics (``kl``: the estimate ``mean(ratio - 1 - log ratio)``
    of the KL divergence from the old policy; ``clipped``: the share of ratios outside the clip
    range)."""

    loss: float
    d_logits: np.ndarray
    entropy: float
    kl: float
    clipped: float


def policy_loss(logits: np.ndarray, mask: np.ndarray, actions: np.ndarray, old_logp: np.ndarray,
                advantages: np.ndarray, clip: float, entropy_coef: float) -> PolicyLoss:
    """``-mean(min(r A, clip(r, 1-clip, 1+clip) A)) - entropy_coef * mean(H)``, where ``r`` is
    the ratio of the taken action's probability now to ``exp(old_logp)``."""
    n = len(actions)
    rows = np.arange(n)
    logp = masked_log_softmax(logits, mask)
    p = np.exp(logp)
    log_ratio = logp[rows, actions] - old_logp
    ratio = np.exp(log_ratio)
    unclipped = ratio * advantages
    clipped = np.clip(ratio, 1.0 - clip, 1.0 + clip) * advantages
    h = entropy(logp, mask)
    loss = -np.minimum(unclipped, clipped).mean() - entropy_coef * h.mean()
    # d loss / d logp[a]: the unclipped term's where it is the minimum, else nothing (the clip is flat)
    g = np.where(unclipped <= clipped, -unclipped, 0.0) / n
    d = -p * g[:, None]  # d logp[a] / d z_j = [j = a] - p_j
    d[rows, actions] += g
    # d H / d z_j = -p_j (log p_j + H)
    d += (entropy_coef / n) * p * (np.where(mask, logp, 0.0) + h[:, None])  # p is 0 where illegal
    return PolicyLoss(float(loss), d, float(h.mean()), float((ratio - 1.0 - log_ratio).mean()),
                      float((np.abs(ratio - 1.0) > clip).mean()))


def value_loss(values: np.ndarray, returns: np.ndarray) -> tuple[float, np.ndarray]:
    """``0.5 * mean((v - R)^2)`` and its gradient with respect to ``values``."""
    error = values - returns
    return float(0.5 * (error * error).mean()), error / len(values)


def advantages(rewards: np.ndarray, values: np.ndarray, dones: np.ndarray, last_values: np.ndarray,
               gamma: float, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Generalised advantage estimates and the value targets (advantage + value) of a rollout of
    shape ``(steps, envs)``; ``dones[t]`` says an episode ended with step ``t`` (the next value
    then counts for nothing) and ``last_values`` are the values after the last step.

    >>> a, r = advantages(np.array([[0.0], [1.0]]), np.zeros((2, 1)), np.array([[0.0], [1.0]]),
    ...                   np.zeros(1), gamma=1.0, lam=0.5)
    >>> a.ravel().tolist(), r.ravel().tolist()
    ([0.5, 1.0], [0.5, 1.0])
    """
    out = np.zeros_like(rewards)
    running = np.zeros_like(last_values)
    for t in range(len(rewards) - 1, -1, -1):
        next_values = last_values if t == len(rewards) - 1 else values[t + 1]
        going_on = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_values * going_on - values[t]
        running = delta + gamma * lam * going_on * running
        out[t] = running
    return out, out + values


def clip_norm(grads: list[np.ndarray], max_norm: float) -> float:
    """Scale ``grads`` in place so that their joint L2 norm is at most ``max_norm``; the norm
    before."""
    norm = float(np.sqrt(sum(float((g * g).sum()) for g in grads)))
    if norm > max_norm:
        for g in grads:
            g *= max_norm / norm
    return norm


class Adam:
    """Adam (Kingma and Ba) over a list of arrays, updated in place.

    >>> w = np.array([1.0]); opt = Adam([w], lr=0.1)
    >>> opt.step([np.array([2.0])]); w.round(3).tolist()
    [0.9]
    """

    def __init__(self, params: list[np.ndarray], lr: float, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8) -> None:
        self.params, self.lr, self.betas, self.eps = params, lr, betas, eps
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]
        self.t = 0

    def step(self, grads: list[np.ndarray]) -> None:
        self.t += 1
        b1, b2 = self.betas
        scale = self.lr * np.sqrt(1.0 - b2 ** self.t) / (1.0 - b1 ** self.t)
        for p, g, m, v in zip(self.params, grads, self.m, self.v):
            m *= b1
            m += (1.0 - b1) * g
            v *= b2
            v += (1.0 - b2) * g * g
            p -= scale * m / (np.sqrt(v) + self.eps)
