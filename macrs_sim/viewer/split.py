"""Split exported runs into what a browser loads: one index of list rows, dialogue chunks.

The list page loads only the index (one short row per dialogue); a dialogue's full record
lives in a chunk file loaded when it is opened. All dialogues of one sample share a chunk,
so the side-by-side view of a sample across systems loads a single file.

`plan_chunks` decides the chunks from the dialogues' sample ids alone, so a site of any
size is planned before a dialogue is read (viewer/build.py); `split_runs` applies the plan
to exports held in memory.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

# Columns of an index row, in order (docs/viewer.md).
INDEX_COLUMNS = (
    "run",
    "dialogue_id",
    "system",
    "sample_id",
    "status",
    "bucket",
    "turns",
    "exchanges",
    "acts",
    "final_rank",
    "leaks",
    "failed_calls",
    "error",
    "chunk",
)
ERROR_PREVIEW_CHARS = 160
DEFAULT_CHUNK_DIALOGUES = 60


@dataclass
class Chunk:
    dialogues: list[dict[str, Any]] = field(default_factory=list)
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        return {"dialogues": self.dialogues, "samples": self.samples}


@dataclass(frozen=True)
class ChunkPlan:
    """Dialogues by their position in all runs' dialogues (run by run, in store order):
    `chunk_of[g]` is dialogue g's chunk; chunk n holds `members[bounds[n]:bounds[n + 1]]`,
    in the order it lists them."""

    chunk_of: array[int]
    members: array[int]
    bounds: array[int]

    @property
    def count(self) -> int:
        return len(self.bounds) - 1

    def members_of(self, chunk: int) -> array[int]:
        return self.members[self.bounds[chunk] : self.bounds[chunk + 1]]


def plan_chunks(
    sample_ids: Sequence[str] | pd.Series, chunk_dialogues: int = DEFAULT_CHUNK_DIALOGUES
) -> ChunkPlan:
    """Chunks of about `chunk_dialogues` dialogues: samples in the order first met, each
    with all its dialogues (across runs too) in their order, so one chunk may exceed the
    size by the systems of its last sample. Worked out in numpy arrays (no Python object a
    dialogue): a site's plan stays small beside the runs it splits."""
    codes = pd.factorize(np.asarray(sample_ids, dtype=object), use_na_sentinel=False)[0]
    chunk_of_group, bounds = array("i"), array("q", [0])
    for size in np.bincount(codes).tolist():
        if len(bounds) == 1 or bounds[-1] - bounds[-2] >= chunk_dialogues:
            bounds.append(bounds[-1])
        chunk_of_group.append(len(bounds) - 2)
        bounds[-1] += size
    # A sample's dialogues lie together, samples in code order: a stable sort by code.
    members = np.argsort(codes, kind="stable").astype(np.int32)
    chunk_of = np.frombuffer(chunk_of_group, dtype=np.int32)[codes]
    return ChunkPlan(array("i", chunk_of.tobytes()), array("i", members.tobytes()), bounds)


def sample_key(run_index: int, sample_id: str) -> str:
    return f"{run_index}|{sample_id}"


def _acts(dialogue: dict[str, Any]) -> list[str]:
    return [str(ex.get("system", {}).get("act", "")) for ex in dialogue.get("exchanges", [])]


def _preview(error: object) -> str | None:
    if not error:
        return None
    text = " ".join(str(error).split())
    return text if len(text) <= ERROR_PREVIEW_CHARS else text[: ERROR_PREVIEW_CHARS - 1] + "…"


def index_row(dialogue: dict[str, Any], chunk: int) -> list[Any]:
    calls = dialogue.get("calls", [])
    values = {
        "run": dialogue["run"],
        "dialogue_id": dialogue["dialogue_id"],
        "system": dialogue["system"],
        "sample_id": dialogue["sample_id"],
        "status": dialogue.get("status"),
        "bucket": dialogue.get("bucket"),
        "turns": dialogue.get("turns_taken"),
        "exchanges": len(dialogue.get("exchanges", [])),
        "acts": _acts(dialogue),
        "final_rank": dialogue.get("final_rank"),
        "leaks": dialogue.get("leaks", 0),
        "failed_calls": sum(1 for c in calls if c.get("ok") is False),
        "error": _preview(dialogue.get("error")),
        "chunk": chunk,
    }
    return [values[c] for c in INDEX_COLUMNS]


def split_runs(
    exports: Sequence[dict[str, Any]], chunk_dialogues: int = DEFAULT_CHUNK_DIALOGUES
) -> tuple[list[list[Any]], list[Chunk]]:
    """Index rows (in run, then store order) and the chunks of `plan_chunks`."""
    dialogues = [d for doc in exports for d in doc["dialogues"]]
    plan = plan_chunks([d["sample_id"] for d in dialogues], chunk_dialogues)
    samples = {sample_key(s["run"], s["sample_id"]): s for doc in exports for s in doc["samples"]}
    chunks = [Chunk() for _ in range(plan.count)]
    for n, chunk in enumerate(chunks):
        for g in plan.members_of(n):
            chunk.dialogues.append(dialogues[g])
            key = sample_key(dialogues[g]["run"], dialogues[g]["sample_id"])
            if key in samples:
                chunk.samples[key] = samples[key]
    rows = [index_row(d, plan.chunk_of[g]) for g, d in enumerate(dialogues)]
    return rows, chunks
