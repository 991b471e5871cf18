"""What `eval interecagent demos` writes: the demonstration file InteRecAgent loads
(`demonstrations_file`), every generated request with its verdict beside it, and the counts.
Each file is written to a temporary file beside it and renamed: whole or not at all."""

from __future__ import annotations

import json
import os
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
    """The demonstration file (seeds, then the kept) and the verdicts (JSON lines); the
    verdicts first, so a failure leaves the file the system loads as it was."""
    out.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(c.model_dump(mode="json"), ensure_ascii=False) for c in found]
    side = candidates_path(out)
    _write_whole(side, "".join(line + "\n" for line in lines))
    _write_whole(out, dump_demonstrations(demonstrations(seeds, found)))
    return [out, side]


def _write_whole(path: Path, text: str) -> None:
    """`path` holds its old text or `text`, never part of it (as write_sample_set)."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


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
