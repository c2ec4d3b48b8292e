"""What to tell someone whose installation lacks an optional extra.

>>> print(install_hint("sim"))
pip install 'parlour[sim]' (in a source checkout: .venv/bin/pip install -e '.[sim]')
"""

from __future__ import annotations


def install_hint(extra: str) -> str:
    """The command that installs ``extra``, from PyPI and in a checkout made by ``make``."""
    return f"pip install 'parlour[{extra}]' (in a source checkout: .venv/bin/pip install -e '.[{extra}]')"
