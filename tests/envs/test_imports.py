"""The research libraries load only when asked for: the core stays standard-library only."""

from __future__ import annotations

import subprocess
import sys

LIBRARIES = ("gymnasium", "pettingzoo", "pyspiel", "open_spiel", "numpy")


def loaded_after(statement: str) -> set[str]:
    """The LIBRARIES in sys.modules after ``statement``, run in a fresh interpreter."""
    code = f"{statement}\nimport sys\nprint(' '.join(m for m in {LIBRARIES!r} if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    return set(done.stdout.split())


def test_import_parlour_and_playing_a_game_load_none_of_them():
    assert loaded_after("import parlour; parlour.load('quisquilian').new_state(1)") == set()


def test_parlour_envs_loads_gymnasium_but_not_openspiel_or_pettingzoo():
    assert loaded_after("import parlour.envs") == {"gymnasium", "numpy"}
    assert "pettingzoo" in loaded_after("import parlour.envs.aec")
    assert "pyspiel" in loaded_after("import parlour.envs.openspiel")
