"""The policy agent: a trained network plays from the view alone, ``policy:path=FILE.npz``.

The file is written by the trainer (``python -m parlour.envs.ppo``, docs/research.md): a small
numpy MLP from the game's observation tensor to a logit per action id, and what it was trained
for. The agent picks an action one sub-decision at a time, as it was trained: it encodes the
view's observation with the ids chosen so far (``game.observation_tensor``), masks the ids that
lead on to none of the view's legal actions, and takes the most likely of the rest (or, with
``sample=true``, draws one by its probability from the rng it is handed). It reads the view's
observation and legal actions only, so it cannot see a hidden card.

The file is read when the agent is first asked to play (``check(game)``, which every driver
calls before the first move, or ``act``), not when it is made: a host that takes agent specs
from strangers (the web table) refuses it first, by ``reads_files``, without touching the path.
numpy (the ``sim`` extra) is imported then too.

>>> import parlour, random
>>> parlour.agent("policy")
Traceback (most recent call last):
...
parlour.core.errors.OptionError: the policy agent needs its saved policy: policy:path=FILE.npz (a file written by python -m parlour.envs.ppo)
"""

from __future__ import annotations

import functools
import os
import random
import stat
from typing import TYPE_CHECKING, Any

from parlour.agents.base import NO_SEARCH, Agent, Budget
from parlour.core.action import Action
from parlour.core.errors import OptionError, ParlourError
from parlour.core.options import Option
from parlour.core.view import View
from parlour.core.words import shown

if TYPE_CHECKING:
    import numpy as np

    from parlour.agents.mlp import Mlp
    from parlour.core.game import Game

#: What a policy file says it is (``meta["format"]``); a new layout gets a new number.
FORMAT = "parlour-policy/1"
#: The largest policy file read (a policy of this kind is well under a megabyte).
MAX_BYTES = 64 * 2**20


class Policy:
    """A saved policy: its network and what it was trained for (``meta``: ``game``,
    ``options``, ``observation_shape``, ``num_distinct_actions`` and the training's own notes)."""

    def __init__(self, net: "Mlp", meta: dict[str, Any], path: str) -> None:
        self.net, self.meta, self.path = net, meta, path

    def check(self, game: "Game") -> None:
        """An OptionError unless this policy was trained for ``game``'s name and its network fits
        the game's tensor and id space under its options (other options may differ)."""
        if game.name != self.meta["game"]:
            raise OptionError(f"the policy {shown(self.path)} was trained for {self.meta['game']}, not {game.name}")
        try:
            inputs, ids = game.observation_shape[0], game.num_distinct_actions
        except ParlourError as err:
            raise OptionError(f"the policy agent cannot play {game!r}: {err}") from err
        if [inputs, ids] != [self.net.sizes[0], self.net.sizes[-1]]:
            raise OptionError(f"the policy {shown(self.path)} takes {self.net.sizes[0]} inputs and scores "
                              f"{self.net.sizes[-1]} action ids (trained with options {self.meta['options']}); "
                              f"{game!r} has {inputs} and {ids}: train a policy under these options")

    def choose(self, view: View, rng: random.Random | None) -> Action:
        """The action of the view's legal actions that the policy picks, sub-decision by
        sub-decision: the most likely id each time, or (with an ``rng``) one drawn by its
        probability."""
        game = view.game
        paths = {game.action_ids(action): action for action in view.legal_actions}
        prefix: tuple[int, ...] = ()
        while (action := paths.get(prefix)) is None:
            depth = len(prefix)
            nexts = sorted({ids[depth] for ids in paths if len(ids) > depth and ids[:depth] == prefix})
            prefix += (nexts[0] if len(nexts) == 1 else self._pick(game, view.observation, prefix, nexts, rng),)
        return action

    def logits(self, game: "Game", observation: dict[str, Any], prefix: tuple[int, ...]) -> "np.ndarray":
        """The network's logit for every id, given the observation and the ids chosen so far."""
        import numpy as np

        x = np.asarray(game.observation_tensor(observation, prefix), dtype=self.net.weights[0].dtype)
        return self.net.forward(x[None, :])[0]

    def _pick(self, game: "Game", observation: dict[str, Any], prefix: tuple[int, ...], nexts: list[int],
              rng: random.Random | None) -> int:
        import numpy as np

        scores = self.logits(game, observation, prefix)[nexts].astype(np.float64)
        if rng is None:
            return nexts[int(np.argmax(scores))]  # the first of tied ids: the same view, the same move
        weights = np.exp(scores - scores.max()).cumsum()
        return nexts[min(int(np.searchsorted(weights, rng.random() * weights[-1], side="right")), len(nexts) - 1)]


def save_policy(path: str | os.PathLike[str], net: "Mlp", game: "Game", notes: dict[str, Any]) -> None:
    """Write ``net`` (float32) as a policy for ``game`` under its options, with JSON-ready
    ``notes`` about its training kept in the file."""
    import numpy as np

    from parlour.agents import mlp

    meta = {**notes, "format": FORMAT, "game": game.name, "options": game.options,
            "observation_shape": list(game.observation_shape), "num_distinct_actions": game.num_distinct_actions}
    mlp.save(path, {"policy": net.astype(np.float32)}, meta)


def load_policy(path: str) -> Policy:
    """The policy saved at ``path``; an OptionError that says what is wrong with a missing file
    or one that is not a policy."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise OptionError(f"cannot read the policy {shown(path)}: {err.strerror or err}") from err
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_BYTES:
        raise OptionError(f"{shown(path)} is not a saved policy: expected an .npz file of at most "
                          f"{MAX_BYTES // 2**20} MB, written by python -m parlour.envs.ppo")
    return _load(os.path.abspath(path), info.st_mtime_ns, info.st_size, path)


@functools.lru_cache(maxsize=8)
def _load(resolved: str, mtime_ns: int, size: int, path: str) -> Policy:
    """A file read once while it stays the same (its time and size are in the key): a
    tournament makes an agent for every game."""
    try:
        from parlour.agents import mlp
    except ImportError as err:
        raise OptionError(f"the policy agent needs numpy: pip install 'parlour[sim]' ({err})") from err
    try:
        nets, meta = mlp.load(resolved)
    except OSError as err:
        raise OptionError(f"cannot read the policy {shown(path)}: {err.strerror or err}") from err
    except ValueError as err:
        raise OptionError(f"{shown(path)} is not a saved policy: {err}") from err
    if meta.get("format") != FORMAT or "policy" not in nets:
        raise OptionError(f"{shown(path)} is not a saved policy: expected a file of format {FORMAT!r} with a "
                          f"'policy' network (written by python -m parlour.envs.ppo), found format "
                          f"{shown(meta.get('format'))} with networks {sorted(nets)}")
    net = nets["policy"]
    if [net.sizes[0], net.sizes[-1]] != [*meta["observation_shape"], meta["num_distinct_actions"]]:
        raise OptionError(f"{shown(path)} is damaged: its network takes {net.sizes[0]} inputs and scores "
                          f"{net.sizes[-1]} ids, but it says it was trained on a tensor of shape "
                          f"{meta['observation_shape']} and {meta['num_distinct_actions']} ids")
    return Policy(net, meta, path)


class PolicyAgent(Agent):
    """Plays a saved policy network (``policy:path=FILE.npz``, or ``policy:FILE.npz``)."""

    name = "policy"
    positional = "path"
    params = (
        Option("path", "", "the saved policy: an .npz file written by python -m parlour.envs.ppo"),
        Option("sample", False, "draw each id by the policy's probabilities (false: the most likely id)"),
    )
    summary = "a trained policy network (python -m parlour.envs.ppo), playing from the view"
    reads_files = True

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if not self.settings["path"]:
            raise OptionError("the policy agent needs its saved policy: policy:path=FILE.npz (a file written by "
                              "python -m parlour.envs.ppo)")

    @functools.cached_property
    def policy(self) -> Policy:
        """The saved policy, read on first use."""
        return load_policy(self.settings["path"])

    def check(self, game: "Game") -> None:
        self.policy.check(game)

    def budget(self) -> Budget:
        return NO_SEARCH

    def act(self, view: View, rng: random.Random) -> Action:
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        self.policy.check(view.game)
        return self.policy.choose(view, rng if self.settings["sample"] else None)
