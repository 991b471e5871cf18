"""docs/layout.md names every part of the package: each top-level folder as `name/` at the
start of a line of its tree, each top-level module by its file name (tests fail when a part
is added, moved or removed and the page is not)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "macrs_sim"
SKIP = {"__init__.py", "py.typed", "__pycache__", "__main__.py"}


def _tree() -> str:
    page = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    block = re.search(r"```\nmacrs_sim/\n(.*?)```", page, re.S)
    assert block is not None, "docs/layout.md: no ``` block starting with macrs_sim/"
    return block.group(1)


def test_every_folder_and_module_is_on_the_page() -> None:
    tree = _tree()
    listed_folders = set(re.findall(r"^  ([a-z_]+)/", tree, re.M))
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name not in SKIP}
    assert folders - listed_folders == set(), "folders missing from docs/layout.md"
    assert listed_folders - folders == set(), "docs/layout.md lists folders that are gone"
    modules = {p.name for p in PACKAGE.glob("*.py") if p.name not in SKIP}
    missing = sorted(m for m in modules if m not in tree)
    assert missing == [], f"modules missing from docs/layout.md: {missing}"


def test_the_tree_lists_folders_in_their_own_lines() -> None:
    assert re.search(r"^  cli/ ", _tree(), re.M) is not None
