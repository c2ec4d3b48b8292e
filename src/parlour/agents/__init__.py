"""Agents, made from specs ``name`` or ``name:key=value,key=value``; an agent with a positional
parameter takes its value as a bare word first (``level:strong``, ``level:strong,time=0.5``).

>>> make_agent("random").spec, make_agent("level:strong").spec
('random', 'level:strong')
>>> make_agent("randm")
Traceback (most recent call last):
...
parlour.core.errors.OptionError: there is no agent 'randm': the agents are clairvoyant, heuristic, ismcts, level, pimc, policy, random
"""

from __future__ import annotations

import importlib

from parlour.agents.base import Advice, Agent, Budget
from parlour.core.errors import OptionError
from parlour.core.options import option_dict
from parlour.core.words import shown

_AGENTS: dict[str, str] = {
    "random": "parlour.agents.random_agent:RandomAgent",
    "heuristic": "parlour.agents.heuristic:HeuristicAgent",
    "clairvoyant": "parlour.agents.clairvoyant:ClairvoyantAgent",
    "ismcts": "parlour.agents.ismcts:IsmctsAgent",
    "level": "parlour.agents.levels:LevelAgent",
    "pimc": "parlour.agents.pimc:PimcAgent",
    "policy": "parlour.agents.policy:PolicyAgent",
}


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def agent_class(name: str) -> type[Agent]:
    target = _AGENTS.get(name) if isinstance(name, str) else None
    if target is None:
        raise OptionError(f"there is no agent {shown(name)}: the agents are {', '.join(agent_names())}")
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def make_agent(spec: str) -> Agent:
    """An agent from ``name`` or ``name:key=value,key=value``."""
    if not isinstance(spec, str) or not spec.strip():
        raise OptionError(f"agent spec {shown(spec)} is empty: expected a name such as {', '.join(agent_names())}")
    name, _, rest = spec.strip().partition(":")
    cls = agent_class(name.strip())
    parts = [part.strip() for part in rest.split(",") if part.strip()]
    if parts and cls.positional is not None and "=" not in parts[0]:
        parts[0] = f"{cls.positional}={parts[0]}"  # so that naming it again is "given twice"
    return cls(**option_dict(parts))


__all__ = ["Advice", "Agent", "Budget", "agent_class", "agent_names", "make_agent"]
