"""IS-MCTS searches as it did before its samples and node keys were sped up: the same move,
the same visits of every root move, the generator left in the same state, for every game at
every stage, under the options that change the search (playout policy, cut playouts, score
margins, keep, progressive bias, first-play urgency, a one-level tree).

The fingerprints were recorded with the plain samplers and node keys (commit 12fe43e); the
kernels play the same playouts as Python, so they hold with ``engine=python`` too."""

from __future__ import annotations

import hashlib
import random

import pytest
from sample_reference import reference_sample, views

import parlour
from parlour.core.game import Game
from parlour.core.view import View

SPECS = (
    "ismcts:iterations=60",
    "ismcts:iterations=60,rollout=heuristic",
    "ismcts:iterations=60,rollout=heuristic,margin=8,keep=1",
    "ismcts:iterations=60,bias=2,fpu=0.5",
    "ismcts:iterations=60,rollout=heuristic,tree=1",
    "ismcts:iterations=60,depth=3,c=1.5",
)
GAMES = ("psalter-row", "decktet-golf", "quisquilian")


def decisions(name: str, count: int = 6, seed: int = 3) -> list[tuple[str, parlour.State]]:
    """``count`` states met in play where the seat to move has two or more moves, spread over
    the games of ``sample_reference.views`` (so over option combinations and stages)."""
    found = [(label, state) for label, state, seat in views(name, games=8, every=12, seed=seed)
             if seat is not None and seat == state.current_player and len(state.legal_actions()) > 1]
    return found[:: max(1, len(found) // count)][:count]


def searches(agent: parlour.Agent, found: list[tuple[str, parlour.State]]) -> list[tuple]:
    """For each decision: the move, the root's visits and rewards per move, and the generator's
    state after the search."""
    out = []
    for label, state in found:
        view, rng = state.view(state.current_player), random.Random(label)
        action, root = agent.decide(view, rng)
        visits = sorted((str(move), edge.visits, round(edge.reward, 9)) for move, edge in root.edges.items())
        out.append((str(action), visits, rng.getstate()))
    return out


def search_print(name: str, spec: str) -> str:
    """sha256 (16 hex digits) of :func:`searches` at :func:`decisions`, one decision after another."""
    digest = hashlib.sha256()
    for search in searches(parlour.agent(spec), decisions(name)):
        digest.update(repr(search).encode())
    return digest.hexdigest()[:16]


#: Recorded with the plain samplers and node keys (commit 12fe43e), one per game and spec.
FINGERPRINTS: dict[tuple[str, str], str] = {
    ('psalter-row', 'ismcts:iterations=60'): '53dc39625fa2d3a3',
    ('psalter-row', 'ismcts:iterations=60,rollout=heuristic'): 'de58e0fad12b1383',
    ('psalter-row', 'ismcts:iterations=60,rollout=heuristic,margin=8,keep=1'): '712400a154f691fb',
    ('psalter-row', 'ismcts:iterations=60,bias=2,fpu=0.5'): '60f17cb668edc69b',
    ('psalter-row', 'ismcts:iterations=60,rollout=heuristic,tree=1'): 'a2e56efcf3385e15',
    ('psalter-row', 'ismcts:iterations=60,depth=3,c=1.5'): '095669cbda420e49',
    ('decktet-golf', 'ismcts:iterations=60'): '5742ecb70d549766',
    ('decktet-golf', 'ismcts:iterations=60,rollout=heuristic'): 'fd4aced1edd6cf66',
    ('decktet-golf', 'ismcts:iterations=60,rollout=heuristic,margin=8,keep=1'): '7da25c5c77c3283e',
    ('decktet-golf', 'ismcts:iterations=60,bias=2,fpu=0.5'): 'f9e3fbe09e62261f',
    ('decktet-golf', 'ismcts:iterations=60,rollout=heuristic,tree=1'): 'fc85dc39c9e987c7',
    ('decktet-golf', 'ismcts:iterations=60,depth=3,c=1.5'): '0787b4e6fce113d2',
    ('quisquilian', 'ismcts:iterations=60'): 'ca438b906adfe08e',
    ('quisquilian', 'ismcts:iterations=60,rollout=heuristic'): '77fa8eabe24ace92',
    ('quisquilian', 'ismcts:iterations=60,rollout=heuristic,margin=8,keep=1'): '8ca8d76c849a8ff8',
    ('quisquilian', 'ismcts:iterations=60,bias=2,fpu=0.5'): 'ef98d2886ad63c08',
    ('quisquilian', 'ismcts:iterations=60,rollout=heuristic,tree=1'): 'c7a290ec44cd1236',
    ('quisquilian', 'ismcts:iterations=60,depth=3,c=1.5'): '9d3cde25fe4aa555',
}


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name", GAMES)
def test_the_search_is_the_one_recorded(name, spec):
    assert search_print(name, spec) == FINGERPRINTS[name, spec]


def other_decisions(name: str) -> list[tuple[str, parlour.State]]:
    """Decisions apart from the recorded ones; in Quisquilian also two at a game's end, where
    the hands are (nearly) empty and the seat's next turn is a few moves away, so that its
    nodes split by what it draws (earlier, 60 iterations never reach its next turn)."""
    found = decisions(name, count=5, seed=4)
    if name == "quisquilian":
        found += [(label, state) for label, state, seat in views(name, games=8, every=12, seed=4)
                  if seat is not None and seat == state.current_player and len(state.legal_actions()) > 1
                  and sum(map(len, state.hands)) <= state.n][-2:]
    return found


@pytest.mark.parametrize("name", GAMES)
def test_the_other_decisions_find_the_seats_nodes_by_what_it_sees(name, monkeypatch):
    """With one node for every observation the searches there would differ: the comparison
    with the plain node keys below can fail."""
    found = other_decisions(name)
    fast = searches(parlour.agent(SPECS[0]), found)
    monkeypatch.setattr(type(found[0][1].game), "_observation_key", lambda game, state, seat: 0)
    assert searches(parlour.agent(SPECS[0]), found) != fast


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name", GAMES)
def test_the_search_is_the_one_over_the_plain_samples_and_node_keys(name, spec, monkeypatch):
    """At other decisions, the search as it goes is the one that samples by the plain sampler
    and finds the seat's nodes by the observation's text: the same in every statistic."""
    found = other_decisions(name)
    fast = searches(parlour.agent(spec), found)
    monkeypatch.setattr(View, "sample", lambda view, rng: reference_sample(view.game, view.observation, rng))
    monkeypatch.setattr(type(found[0][1].game), "_observation_key", Game._observation_key)
    assert searches(parlour.agent(spec), found) == fast


@pytest.mark.parametrize("name", GAMES)
def test_the_recorded_decisions_spread_over_the_game(name):
    """The decisions are at different stages and show the cases a search meets (a clearing's
    cards, two decks, a reshuffle or a pile whose contents are known)."""
    found = decisions(name)
    assert len(found) == 6
    observations = [state.observation(state.current_player) for _, state in found]
    stages = sorted(len(state.history()) for _, state in found)
    assert stages[0] < 20 and stages[-1] > 50, stages  # (from a start position, the history starts there)
    assert len({repr(state.game) for _, state in found}) >= 4
    if name == "psalter-row":
        assert any(obs["reshuffled"] for obs in observations)
    elif name == "decktet-golf":
        assert any(obs["pile_contents"] is not None or obs["round"] > 1 for obs in observations)
    else:
        assert any(obs["pile_contents"] is not None for obs in observations)
        assert any(state.game.decks == 2 for _, state in found)
