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


# Built-in simulator kinds and backend names, and where each may be named.
SIMULATOR_KINDS_AND_BACKENDS = ("llm", "agenda", "person", "embedded", "openai", "scripted")
NAME_HOMES = (
    "simulators/llm_spec.py",
    "simulators/agenda_spec.py",
    "interactive/person_spec.py",
    "llm/backends/",
    # Each system's offline protocol picks a backend (--backend) and, for InteRecAgent's
    # session-wise protocol, requires the paper's LLM user: that is the protocol's own rule.
    "evaluation/toolrec/",
    "evaluation/recmind/",
    "evaluation/interecagent/",
)
NAME_ALLOWED = {
    # config/sections.py's SimulatorConfig: a comment on the `[simulator]` kinds by their default.
    ("config/sections.py", "llm"),
    ("config/sections.py", "agenda"),
    # Structured-output mode names ("openai": response_format json_schema), not backends.
    ("llm/modes.py", "openai"),
}


def test_no_simulator_kind_or_backend_is_a_key_or_a_branch_outside_its_home() -> None:
    names = "|".join(SIMULATOR_KINDS_AND_BACKENDS)
    used = re.compile(rf"""(["']({names})["']\s*[]:])|([=!]=\s*["']({names})["'])""")
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith(NAME_HOMES):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in used.finditer(line):
                name = m.group(2) or m.group(4)
                if (rel, name) not in NAME_ALLOWED and "Literal[" not in line:
                    found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []
