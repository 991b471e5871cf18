"""docs/faithfulness.md stays true to the code: its paths exist, its symbols are defined,
and every table row has a status that starts with faithful / deviates / missing."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "faithfulness.md"
HEADER = ("Mechanism", "Where", "Status")
STATUSES = ("faithful", "deviates", "missing")
# A backticked reference: `macrs_sim/a/b.py` or `macrs_sim/a/b.py::Name` / `::Class.method`.
REF = re.compile(r"`((?:macrs_sim|scenarios)/[^`:\s]+)(?:::([A-Za-z_][\w.]*))?`")


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of every table whose header is Mechanism | Where | Status."""
    rows: list[list[str]] = []
    in_table = False
    for line in text.splitlines():
        if not line.lstrip().startswith("|"):
            in_table = False
            continue
        row = cells(line)
        if tuple(row) == HEADER:
            in_table = True
        elif in_table and not set("".join(row)) <= set("-: "):
            rows.append(row)
    return rows


def references(text: str) -> list[tuple[str, str | None]]:
    return [(m.group(1), m.group(2)) for m in REF.finditer(text)]


def _names(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    out: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out[node.name] = node
        elif isinstance(node, ast.Assign):
            out |= {t.id: node for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


@cache
def _module(path: Path) -> dict[str, ast.stmt]:
    return _names(ast.parse(path.read_text(encoding="utf-8")).body)


def defines(path: Path, symbol: str) -> bool:
    """`symbol` is a top-level def/class/assignment of the file, or `Class.member`."""
    head, _, member = symbol.partition(".")
    node = _module(path).get(head)
    if node is None:
        return False
    if not member:
        return True
    return isinstance(node, ast.ClassDef) and "." not in member and member in _names(node.body)


def problems(text: str, root: Path) -> list[str]:
    found: list[str] = []
    for path, symbol in references(text):
        file = root / path
        if not file.exists():
            found.append(f"{path}: no such path")
        elif symbol is not None and (file.suffix != ".py" or not defines(file, symbol)):
            found.append(f"{path}::{symbol}: not defined there")
    for row in table_rows(text):
        if len(row) != len(HEADER):
            found.append(f"row with {len(row)} cells: {row[0]!r}")
        elif not row[2].startswith(STATUSES):
            found.append(f"status {row[2][:30]!r} of {row[0][:40]!r}")
    return found


def test_the_doc_matches_the_code() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert problems(text, ROOT) == []


def test_the_doc_covers_every_seed_system() -> None:
    text = DOC.read_text(encoding="utf-8")
    for title in ("## MACRS", "## RecMind", "## ToolRec", "## InteRecAgent", "Fair contest"):
        assert title in text
    assert len(table_rows(text)) >= 100
    assert len(references(text)) >= 100


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    pkg = tmp_path / "macrs_sim"
    pkg.mkdir()
    (pkg / "mod.py").write_text(
        "X = 1\ny: int = 2\n\ndef f() -> None: ...\n\n"
        "class C:\n    z = 3\n\n    def m(self) -> None: ...\n\n    class Inner:\n        pass\n",
        encoding="utf-8",
    )
    (pkg / "notes.txt").write_text("text", encoding="utf-8")
    return tmp_path


def doc(where: str, status: str = "faithful") -> str:
    return f"| Mechanism | Where | Status |\n|---|---|---|\n| thing (§1) | {where} | {status} |\n"


@pytest.mark.parametrize(
    "where",
    [
        "`macrs_sim/mod.py`",
        "`macrs_sim/notes.txt`",
        "`macrs_sim/mod.py::X`",
        "`macrs_sim/mod.py::y`",
        "`macrs_sim/mod.py::f`",
        "`macrs_sim/mod.py::C.m`",
        "`macrs_sim/mod.py::C.z`",
        "`macrs_sim/mod.py::C.Inner`",
        "—",
    ],
)
def test_good_references_pass(tree: Path, where: str) -> None:
    assert problems(doc(where), tree) == []


@pytest.mark.parametrize(
    ("where", "problem"),
    [
        ("`macrs_sim/renamed.py`", "macrs_sim/renamed.py: no such path"),
        ("`macrs_sim/mod.py::g`", "macrs_sim/mod.py::g: not defined there"),
        ("`macrs_sim/mod.py::C.n`", "macrs_sim/mod.py::C.n: not defined there"),
        ("`macrs_sim/mod.py::f.m`", "macrs_sim/mod.py::f.m: not defined there"),
        ("`macrs_sim/mod.py::C.Inner.x`", "macrs_sim/mod.py::C.Inner.x: not defined there"),
        ("`macrs_sim/notes.txt::X`", "macrs_sim/notes.txt::X: not defined there"),
    ],
)
def test_a_renamed_path_or_symbol_fails(tree: Path, where: str, problem: str) -> None:
    assert problems(doc(where), tree) == [problem]


@pytest.mark.parametrize("status", ["Faithful", "partly done", "", "(in progress) deviates"])
def test_a_status_must_start_with_a_known_word(tree: Path, status: str) -> None:
    assert problems(doc("—", status), tree) == [f"status {status!r} of 'thing (§1)'"]


def test_rows_outside_the_tables_are_not_checked(tree: Path) -> None:
    text = "| Other | Table |\n|---|---|\n| a | whatever |\n\n" + doc("—", "missing")
    assert problems(text, tree) == []
    assert table_rows(text) == [["thing (§1)", "—", "missing"]]


def test_a_row_with_a_missing_cell_fails(tree: Path) -> None:
    text = "| Mechanism | Where | Status |\n|---|---|---|\n| thing | faithful |\n"
    assert problems(text, tree) == ["row with 2 cells: 'thing'"]
