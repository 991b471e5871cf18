"""Split exported runs into what a browser loads: one index of list rows, dialogue chunks.

The list page loads only the index (one short row per dialogue); a dialogue's full record
lives in a chunk file loaded when it is opened. All dialogues of one sample share a chunk,
so the side-by-side view of a sample across systems loads a single file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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
    """Index rows (in run, then store order) and chunks of about `chunk_dialogues` each.

    A sample's dialogues (across runs too) are never split over two chunks, so one chunk
    may exceed the size by the systems of its last sample.
    """
    by_sample: dict[str, list[dict[str, Any]]] = {}
    for doc in exports:
        for d in doc["dialogues"]:
            by_sample.setdefault(d["sample_id"], []).append(d)
    samples = {sample_key(s["run"], s["sample_id"]): s for doc in exports for s in doc["samples"]}
    chunk_of: dict[int, int] = {}
    chunks: list[Chunk] = []
    for group in by_sample.values():
        if not chunks or len(chunks[-1].dialogues) >= chunk_dialogues:
            chunks.append(Chunk())
        chunk = chunks[-1]
        for d in group:
            chunk_of[id(d)] = len(chunks) - 1
            chunk.dialogues.append(d)
            key = sample_key(d["run"], d["sample_id"])
            if key in samples:
                chunk.samples[key] = samples[key]
    rows = [index_row(d, chunk_of[id(d)]) for doc in exports for d in doc["dialogues"]]
    return rows, chunks
