"""The committed design reports: each made by the command written at its top, its plots present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DESIGN = Path(__file__).resolve().parents[1] / "docs" / "design"


@pytest.mark.parametrize("game", ["psalter-row", "decktet-golf", "quisquilian"])
def test_a_report_names_the_command_that_made_its_figures_and_links_files_that_exist(game):
    report = (DESIGN / f"{game}.md").read_text(encoding="utf-8")
    made = (DESIGN / game / "study.md").read_text(encoding="utf-8")
    command = re.search(r"```sh\n\.venv/bin/(parlour study .+)\n```", report).group(1)
    assert f"```sh\n{command}\n```" in made  # the study's own record of how it was run
    assert f"--out docs/design/{game}" in command
    for link in re.findall(r"\]\(([^)#]+)\)", report):
        if not link.startswith("http"):
            assert (DESIGN / link).exists(), link
    for image in re.findall(r"!\[[^]]*\]\(([^)]+)\)", made):
        assert (DESIGN / game / image).stat().st_size > 1000, image
