"""Nothing outside a system's own folders keys or branches on its kind (DESIGN.md §3):
a table keyed by kind elsewhere breaks the next kind (it was a KeyError for every paper
system on any base_url). What a kind costs, sees or is called lives in its SystemSpec."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "macrs_sim"
HOMES = ("agents", "evaluation", "prompts")

# (file, kind) pairs that name a kind for another reason, each with its reason.
ALLOWED = {
    # The LLM user's instruction variants ("the MACRS paper's", "InteRecAgent's rules").
    ("simulators/instructions.py", "macrs"),
    ("simulators/instructions.py", "interecagent"),
}


def _kinds() -> list[str]:
    skip = {"__pycache__", "common", "baselines"}
    return sorted(
        p.name for p in (PACKAGE / "agents").iterdir() if p.is_dir() and p.name not in skip
    )


def test_no_kind_is_a_key_or_a_branch_outside_its_own_folders() -> None:
    kinds = "|".join(_kinds())
    # A kind as a dict key or subscript ("macrs": / ["macrs"]) or compared (== "macrs").
    used = re.compile(rf"""(["']({kinds})["']\s*[]:])|([=!]=\s*["']({kinds})["'])""")
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in HOMES and len(rel.parts) > 2 and rel.parts[1] in _kinds():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in used.finditer(line):
                kind = m.group(2) or m.group(4)
                if (rel.as_posix(), kind) not in ALLOWED and "Literal[" not in line:
                    found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []
