"""Imports point one way (DESIGN.md §1): a lower layer never imports a higher one.

Every module under macrs_sim/ is parsed with `ast`; every import counts, the ones
inside functions and under TYPE_CHECKING included. A failure names file:line.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "macrs_sim"

# DESIGN.md §1, lowest first: errors, protocol, config, store < llm, data, prompts < rankers, tools
# < agents, simulators < judge < analysis < campaign < interactive, viewer < cli.
# Names in the same row may import each other (one way: the cycle test below).
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "errors",
        "protocol",
        "config",
        "store",
        "redact",
        "textfile",
        "textsafe",
        "registry",
    ),
    # Prompts speak the dataset's domain (data/domain.py): they sit beside data.
    ("llm", "data", "prompts"),
    ("rankers", "tools"),
    ("agents", "simulators"),
    ("judge",),
    ("analysis",),
    ("campaign", "evaluation"),
    ("interactive", "viewer", "serve"),
    # the CLI, and `macrs_sim/__init__` (the public API: lazy, names every layer)
    ("cli",),
    ("__init__",),
)
RANK = {name: rank for rank, row in enumerate(LAYERS) for name in row}

# (importing file, imported top-level part) pairs let through, each with its reason.
# Empty: every violation found when this test was written was fixed instead.
ALLOWED: frozenset[tuple[str, str]] = frozenset()


def _part(path: Path) -> str:
    """The top-level part of macrs_sim a file belongs to: its first folder or module name."""
    return path.relative_to(PACKAGE).with_suffix("").parts[0]


def _imports(path: Path) -> Iterator[tuple[str, int]]:
    """(imported top-level part of macrs_sim, line) for every import in the file."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # `from macrs_sim import judge` imports the part named after `import`
            names = [f"{node.module}.{a.name}" for a in node.names]
            modules = names if node.module == "macrs_sim" else [node.module]
        elif isinstance(node, ast.ImportFrom):
            raise AssertionError(f"{path}:{node.lineno}: relative import; use macrs_sim.…")
        else:
            continue
        for module in modules:
            parts = module.split(".")
            if parts[0] == "macrs_sim" and len(parts) > 1:
                yield parts[1], node.lineno


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {_part(path) for path in _modules()}
    assert sorted(parts - set(RANK)) == []


def test_every_layer_names_a_part_that_exists() -> None:
    """A part moved or folded into a package (store_rows.py into store/) leaves the table."""
    parts = {_part(path) for path in _modules()}
    assert sorted(set(RANK) - parts) == []


def test_no_layer_imports_a_higher_one() -> None:
    bad: list[str] = []
    for path in _modules():
        source = _part(path)
        for target, line in _imports(path):
            if target not in RANK or target == source:
                continue
            rel = path.relative_to(PACKAGE.parent).as_posix()
            if RANK[target] > RANK[source] and (rel, target) not in ALLOWED:
                bad.append(f"{rel}:{line}: {source} (layer {RANK[source]}) imports {target}")
    assert not bad, "\n".join(bad)


def test_no_two_parts_import_each_other() -> None:
    edges: dict[tuple[str, str], str] = {}
    for path in _modules():
        source = _part(path)
        for target, line in _imports(path):
            if target != source:
                edges.setdefault((source, target), f"{path.relative_to(PACKAGE.parent)}:{line}")
    both = sorted(f"{edges[a, b]} and {edges[b, a]}" for a, b in edges if a < b and (b, a) in edges)
    assert not both, "\n".join(both)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _module_edges() -> dict[str, dict[str, int]]:
    """module -> {imported module: line}; a package and its own submodules left out."""
    files = {_module_name(path): path for path in _modules()}
    edges: dict[str, dict[str, int]] = {}
    for name, path in files.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            for target in targets:
                related = target.startswith(name + ".") or name.startswith(target + ".")
                if target in files and target != name and not related:
                    edges.setdefault(name, {}).setdefault(target, node.lineno)
    return edges


def test_no_import_cycles_between_modules() -> None:
    """Not even through imports inside functions (report <-> full_report was one)."""
    edges = _module_edges()

    def cycle_from(start: str) -> list[str] | None:
        path, seen = [start], {start}
        stack = [iter(edges.get(start, {}))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                seen.discard(path.pop())
            elif nxt == start:
                return [*path, start]
            elif nxt not in seen and nxt > start:  # each cycle once, from its smallest module
                path.append(nxt)
                seen.add(nxt)
                stack.append(iter(edges.get(nxt, {})))
        return None

    cycles = [c for c in map(cycle_from, sorted(edges)) if c is not None]
    shown = [" -> ".join(f"{a}:{edges[a][b]}" for a, b in itertools.pairwise(c)) for c in cycles]
    assert not shown, "\n".join(shown)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from macrs_sim.analysis.runs.load import load_run\n", [("analysis", 1)]),
        ("def f():\n    import macrs_sim.campaign.runner\n", [("campaign", 2)]),
        ("from macrs_sim import judge, config\n", [("judge", 1), ("config", 1)]),
        ("import json\nfrom pathlib import Path\n", []),
    ],
)
def test_imports_are_found_even_inside_functions(
    tmp_path: Path, source: str, expected: list[tuple[str, int]]
) -> None:
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    assert list(_imports(path)) == expected
