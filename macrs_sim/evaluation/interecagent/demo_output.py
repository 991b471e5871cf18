"""What `eval interecagent demos` writes: the demonstration file InteRecAgent loads
(`demonstrations_file`), every generated request with its verdict beside it, and the counts."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from macrs_sim.agents.interecagent.demos import Demonstration, dump_demonstrations
from macrs_sim.evaluation.interecagent.demo_gen import DemoCandidate, Mode, demonstrations


def candidates_path(out: Path) -> Path:
    return out.with_name(out.stem + ".candidates.jsonl")


def write_demo_file(
    out: Path, seeds: Sequence[Demonstration], found: Sequence[DemoCandidate]
) -> list[Path]:
    """The demonstration file (seeds, then the kept) and the verdicts (JSON lines)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(dump_demonstrations(demonstrations(seeds, found)), encoding="utf-8")
    lines = [json.dumps(c.model_dump(mode="json"), ensure_ascii=False) for c in found]
    side = candidates_path(out)
    side.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return [out, side]


def _reason_kind(reason: str | None) -> str:
    return (reason or "kept").split(":")[0]


def summary_line(mode: Mode, found: Sequence[DemoCandidate]) -> str | None:
    """'output-first: 10 requests, 6 kept; 4 inconsistent' (None: the mode did not run)."""
    mine = [c for c in found if c.mode == mode]
    if not mine:
        return None
    requests = sum(1 for c in mine if c.intent)
    kept = sum(1 for c in mine if c.kept)
    lost = Counter(_reason_kind(c.reason) for c in mine if not c.kept)
    why = "; " + ", ".join(f"{n} {kind}" for kind, n in lost.items()) if lost else ""
    return f"{mode}: {requests} requests, {kept} kept{why}"
