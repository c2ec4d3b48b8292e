"""Puts tests/ on the import path, so test files share helpers.py (pytest runs with
--import-mode=importlib, which does not)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
