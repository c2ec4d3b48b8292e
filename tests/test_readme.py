"""The README's Python example runs as written."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README shows a Python example"
    namespace: dict = {}
    exec(compile(blocks[0], str(README), "exec"), namespace)
    state = namespace["state"]
    assert state.is_terminal()
    assert state.end_reason in ("complete", "exhausted")
    assert namespace["record"]["game"] == "psalter-row"
