"""Agents that break the rules of a table's bot, for the tests of the bots' worker pool: each
states a tiny budget and then does not keep to it. A worker process imports this module by
name when it unpickles a job, so the tests put this folder on ``sys.path`` (conftest does in
the test process; ``PRELUDE`` does in a ``parlour serve`` started by the tests)."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

from parlour.agents.random_agent import RandomAgent
from parlour.core.action import Action
from parlour.core.view import View

HERE = str(Path(__file__).resolve().parent)

#: An environment variable: where set, a stubborn agent makes this file as it starts thinking.
MARK = "PARLOUR_TEST_STUBBORN_MARK"

#: Python for ``Server(prelude=...)``: these agents become specs of the server's tables.
PRELUDE = (f"import sys; sys.path.insert(0, {HERE!r}); import parlour.agents; "
           "parlour.agents._AGENTS.update(stubborn='rogue_agents:StubbornAgent', "
           "hungry='rogue_agents:HungryAgent', crashing='rogue_agents:CrashingAgent')")


class StubbornAgent(RandomAgent):
    """Says it does not search (the random agent's budget), then thinks for ten minutes (longer than any wait of the tests)."""

    name = "stubborn"

    def act(self, view: View, rng: random.Random) -> Action:
        if MARK in os.environ:
            Path(os.environ[MARK]).touch()
        time.sleep(600)
        return super().act(view, rng)


class HungryAgent(RandomAgent):
    """Asks for 8 GiB at once."""

    name = "hungry"

    def act(self, view: View, rng: random.Random) -> Action:
        hoard = bytearray(8 << 30)
        return view.legal_actions[len(hoard) % len(view.legal_actions)]


class CrashingAgent(RandomAgent):
    """Kills the process it thinks in."""

    name = "crashing"

    def act(self, view: View, rng: random.Random) -> Action:
        os.kill(os.getpid(), signal.SIGKILL)
        return super().act(view, rng)
