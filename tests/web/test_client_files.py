"""The browser client's files, checked without a browser: the Decktet names drawn on the
cards are the engine's, every module and stylesheet a page loads is there, and nothing is
fetched from outside the app (no CDN, no build step)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from parlour.cards import decktet

STATIC = Path(__file__).resolve().parents[2] / "src" / "parlour" / "web" / "static"


def test_the_decktet_names_on_the_cards_are_the_engines():
    source = (STATIC / "js" / "cards.js").read_text()
    block = source.split("export const DECKTET_NAMES = {")[1].split("};")[0]
    names = dict(re.findall(r'"?([0-9A-Z]+)"?: "([^"]+)"', block))
    assert names == {decktet.CODE[c]: decktet.NAME[c] for c in range(decktet.DECK_SIZE)}


def test_every_file_a_page_or_module_loads_is_there():
    for path in STATIC.rglob("*"):
        if path.suffix not in (".html", ".js"):
            continue
        text = path.read_text()
        for ref in re.findall(r'(?:src|href)="(/static/[^"]+)"', text):
            assert (STATIC / ref.removeprefix("/static/")).is_file(), f"{path.name} loads {ref}, which is missing"
        for ref in re.findall(r'^import .* from "(\.[^"]+)";', text, re.MULTILINE):
            assert (path.parent / ref).resolve().is_file(), f"{path.name} imports {ref}, which is missing"


def test_nothing_is_fetched_from_outside():
    for path in STATIC.rglob("*"):
        if path.is_file():
            text = path.read_text()
            outside = [u for u in re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s\"')]*", text)
                       if not u.startswith("http://www.w3.org/")]
            assert not outside, f"{path.relative_to(STATIC)} refers to {outside}"


def test_a_missing_chromium_fails_the_browser_tests_and_says_how_to_install_it(monkeypatch):
    import browserkit

    monkeypatch.setattr(browserkit, "CHROMIUM", "/nonexistent/chromium")
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install chromium.*make test"):
        browserkit.require_chromium()
