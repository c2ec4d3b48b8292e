"""docs/research.md: its Python examples run as written and end their games (or, for rebuilding
an OpenSpiel game, give the same game)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)


def test_the_page_has_its_four_examples():
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_example_runs_to_the_end_of_a_game(index, capsys):
    namespace: dict = {}
    exec(compile(BLOCKS[index], f"{DOC}:example {index + 1}", "exec"), namespace)
    printed = capsys.readouterr().out.strip()
    if index == 0:  # PettingZoo: every agent has stepped out of the finished game
        assert namespace["env"].decisions.state.is_terminal() and namespace["env"].agents == []
        assert printed == str(namespace["record"]["result"]["winners"])
    elif index == 1:  # Gymnasium: the learner's reward at the end
        assert namespace["done"] and printed in ("1.0", "-1.0")
        assert namespace["env"].unwrapped.decisions.state.is_terminal()
    elif index == 2:  # OpenSpiel: a game rebuilt from its parameters
        assert printed == "True"
    else:  # OpenSpiel: a Psalter Row score
        assert namespace["state"].is_terminal() and -9 <= namespace["state"].returns()[0] <= 14
