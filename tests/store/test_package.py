"""The store package: its names importable from `macrs_sim.store`, and its modules importing
one another one way, each its siblings directly and never the package (an import of the
package from inside it would run __init__ half done)."""

from __future__ import annotations

import ast
from pathlib import Path

import macrs_sim.store as store
from macrs_sim.store import read, run_store

PACKAGE = Path(__file__).resolve().parents[2] / "macrs_sim" / "store"
# Lowest first: a module imports only those before it.
ORDER = ("format", "read", "schema", "opening", "stream", "rows", "samples", "run_store")


def _imported(path: Path) -> list[tuple[str, int]]:
    """(module, line) of every import in the file, inside functions too."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, node.lineno))
    return found


def test_the_names_users_import_stay_importable() -> None:
    assert store.__all__ == ["SCHEMA_VERSION", "STORE_FILE", "RunStore", "StoredEvent"]
    assert store.RunStore is run_store.RunStore
    assert (store.STORE_FILE, store.SCHEMA_VERSION) == ("store.sqlite", "2")
    assert store.StoredEvent is read.StoredEvent


def test_every_module_has_its_place_in_the_order() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    assert sorted(modules) == sorted(ORDER)


def test_modules_import_siblings_below_them_and_never_the_package() -> None:
    bad: list[str] = []
    for name in ORDER:
        for module, line in _imported(PACKAGE / f"{name}.py"):
            sibling = module.removeprefix("macrs_sim.store.")
            if module == "macrs_sim.store":
                bad.append(f"{name}.py:{line}: imports the package; import the sibling module")
            elif sibling != module and ORDER.index(sibling) >= ORDER.index(name):
                bad.append(f"{name}.py:{line}: imports {sibling}, not below it in ORDER")
    assert bad == []
