"""A small multilayer perceptron in numpy: forward pass, hand-written backward pass, and its file.

The policy agent (``policy:path=FILE.npz``) plays with :meth:`Mlp.forward`; the trainer
(``parlour.envs.ppo``) also needs :meth:`Mlp.forward_train` and :meth:`Mlp.backward`, whose
gradients the tests check against finite differences. numpy is the ``sim`` extra: this module is
imported only by what needs it, never by the rules core.

>>> import numpy as np
>>> net = Mlp.initial([3, 8, 2], np.random.default_rng(0))
>>> net.sizes, net.forward(np.zeros((4, 3))).shape
([3, 8, 2], (4, 2))
"""

from __future__ import annotations

import json
import os
import zipfile
from typing import Any

import numpy as np

#: The activations between layers (the output layer is linear).
ACTIVATIONS = ("tanh", "relu")


class Mlp:
    """Dense layers ``x @ W + b``, an activation between them, a linear output.

    ``weights[i]`` has shape ``(sizes[i], sizes[i + 1])``; the parameters in the order
    :meth:`params` and :meth:`backward` give them are ``W0, b0, W1, b1, ...``.
    """

    def __init__(self, weights: list[np.ndarray], biases: list[np.ndarray], activation: str = "tanh") -> None:
        if activation not in ACTIVATIONS:
            raise ValueError(f"activation {activation!r} is not one of {', '.join(ACTIVATIONS)}")
        if len(weights) != len(biases) or not weights:
            raise ValueError(f"an Mlp needs as many bias vectors as weight matrices, at least one: got "
                             f"{len(weights)} and {len(biases)}")
        for i, (w, b) in enumerate(zip(weights, biases)):
            if w.ndim != 2 or b.shape != (w.shape[1],) or (i and w.shape[0] != weights[i - 1].shape[1]):
                raise ValueError(f"layer {i}: weights {w.shape} and biases {b.shape} do not chain")
        self.weights, self.biases, self.activation = weights, biases, activation

    @classmethod
    def initial(cls, sizes: list[int], rng: np.random.Generator, activation: str = "tanh",
                out_gain: float = 1.0, dtype: Any = np.float64) -> "Mlp":
        """Orthogonal weights (gain sqrt(2) in the hidden layers, ``out_gain`` at the output, the
        usual start for policy gradients: a small ``out_gain`` gives a near-uniform first policy)
        and zero biases."""
        weights, biases = [], []
        for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
            gain = out_gain if i == len(sizes) - 2 else np.sqrt(2.0)
            q, r = np.linalg.qr(rng.standard_normal((max(n_in, n_out), min(n_in, n_out))))
            q *= np.sign(np.diag(r))  # a uniformly random orthogonal matrix, not QR's bias
            w = q if n_in >= n_out else q.T
            weights.append((gain * w).astype(dtype))
            biases.append(np.zeros(n_out, dtype=dtype))
        return cls(weights, biases, activation)

    @property
    def sizes(self) -> list[int]:
        return [self.weights[0].shape[0]] + [w.shape[1] for w in self.weights]

    def params(self) -> list[np.ndarray]:
        """``W0, b0, W1, b1, ...``: the arrays themselves (an optimiser updates them in place)."""
        return [p for pair in zip(self.weights, self.biases) for p in pair]

    def forward(self, x: np.ndarray) -> np.ndarray:
        """The outputs for a batch ``x`` of shape ``(n, sizes[0])``: shape ``(n, sizes[-1])``."""
        return self.forward_train(x)[0]

    def forward_train(self, x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """The outputs and what :meth:`backward` needs: each layer's input."""
        inputs = []
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases)):
            inputs.append(h)
            h = h @ w + b
            if i < last:
                h = np.tanh(h) if self.activation == "tanh" else np.maximum(h, 0.0)
        return h, inputs

    def backward(self, inputs: list[np.ndarray], d_out: np.ndarray) -> list[np.ndarray]:
        """The gradients of a loss with respect to :meth:`params`, given the layer inputs from
        :meth:`forward_train` and the loss's gradient ``d_out`` with respect to the outputs."""
        pairs: list[tuple[np.ndarray, np.ndarray]] = []
        d = d_out
        for i in range(len(self.weights) - 1, -1, -1):
            h = inputs[i]
            pairs.append((h.T @ d, d.sum(axis=0)))
            if i:
                d = d @ self.weights[i].T
                # h is the activation's output: tanh' = 1 - tanh^2, relu' = (h > 0)
                d = d * (1.0 - h * h) if self.activation == "tanh" else d * (h > 0)
        return [g for pair in reversed(pairs) for g in pair]

    def astype(self, dtype: Any) -> "Mlp":
        return Mlp([w.astype(dtype) for w in self.weights], [b.astype(dtype) for b in self.biases], self.activation)


def save(path: str | os.PathLike[str], nets: dict[str, Mlp], meta: dict[str, Any]) -> None:
    """Write ``nets`` and a JSON-ready ``meta`` dict to one ``.npz`` file (compressed, no pickles)."""
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps({**meta, "nets": {
        name: {"sizes": net.sizes, "activation": net.activation} for name, net in nets.items()}}))}
    for name, net in nets.items():
        for i, (w, b) in enumerate(zip(net.weights, net.biases)):
            arrays[f"{name}.w{i}"], arrays[f"{name}.b{i}"] = w, b
    with open(path, "wb") as out:
        np.savez_compressed(out, **arrays)


def load(path: str | os.PathLike[str]) -> tuple[dict[str, Mlp], dict[str, Any]]:
    """The nets and the meta dict of a file written by :func:`save`. A file that is not one
    raises ValueError (what is wrong with it); a missing file, OSError."""
    try:
        data = np.load(path, allow_pickle=False)
    except (ValueError, EOFError, zipfile.BadZipFile) as err:
        raise ValueError(f"it is not a numpy .npz file ({err})") from err
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError("it is a single numpy array, not an .npz file of networks")
    with data:
        try:
            meta = json.loads(str(data["meta"][()]))
            nets = {}
            for name, spec in meta.pop("nets").items():
                layers = range(len(spec["sizes"]) - 1)
                nets[name] = Mlp([data[f"{name}.w{i}"] for i in layers], [data[f"{name}.b{i}"] for i in layers],
                                 spec["activation"])
        except (KeyError, TypeError, AttributeError, ValueError, zipfile.BadZipFile) as err:
            raise ValueError(f"it holds no networks saved by parlour ({type(err).__name__}: {err})") from err
    return nets, meta
