"""split_runs: index rows for the list, chunks that never split a sample."""

from __future__ import annotations

from typing import Any

from macrs_sim.viewer.split import ERROR_PREVIEW_CHARS, INDEX_COLUMNS, index_row, split_runs


def _dialogue(run: int, system: str, sample: str, **kw: Any) -> dict[str, Any]:
    return {
        "run": run,
        "dialogue_id": f"{system}:{sample}",
        "system": system,
        "sample_id": sample,
        "status": "failure",
        "turns_taken": 6,
        "exchanges": [],
        "calls": [],
        **kw,
    }


def _export(run: int, dialogues: list[dict[str, Any]], samples: list[str]) -> dict[str, Any]:
    return {"dialogues": dialogues, "samples": [{"run": run, "sample_id": s} for s in samples]}


def test_chunks_keep_a_sample_together() -> None:
    a = [_dialogue(0, sys, s) for s in ("s1", "s2", "s3") for sys in ("A", "B")]
    b = [_dialogue(1, "A", "s2")]  # a second run talking to s2 too
    rows, chunks = split_runs([_export(0, a, ["s1", "s2", "s3"]), _export(1, b, ["s2"])], 3)
    # s1 (2 dialogues) < 3, so s2's three dialogues join chunk 0; s3 starts chunk 1.
    assert [[d["dialogue_id"] for d in c.dialogues] for c in chunks] == [
        ["A:s1", "B:s1", "A:s2", "B:s2", "A:s2"],
        ["A:s3", "B:s3"],
    ]
    assert sorted(chunks[0].samples) == ["0|s1", "0|s2", "1|s2"]
    chunk_col = INDEX_COLUMNS.index("chunk")
    assert [r[chunk_col] for r in rows] == [0, 0, 0, 0, 1, 1, 0]
    assert chunks[0].payload()["samples"]["1|s2"] == {"run": 1, "sample_id": "s2"}


def test_index_row_values() -> None:
    exchanges = [{"system": {"act": "ask"}}, {"system": {"act": "recommend"}}, {}]
    calls = [{"ok": True}, {"ok": False}, {"ok": False}, {}]
    long_error = "Boom:\r\n  " + "x" * 500
    d = _dialogue(
        2, "S", "s9", exchanges=exchanges, calls=calls, error=long_error, bucket="top 10%"
    )
    row = dict(zip(INDEX_COLUMNS, index_row(d, 7), strict=True))
    assert row["acts"] == ["ask", "recommend", ""]
    assert (row["exchanges"], row["failed_calls"], row["chunk"], row["run"]) == (3, 2, 7, 2)
    assert (row["turns"], row["final_rank"], row["leaks"]) == (6, None, 0)
    # Whitespace (CRLF too) collapsed, cut to the preview length with an ellipsis.
    assert row["error"].startswith("Boom: xxx") and row["error"].endswith("…")
    assert len(row["error"]) == ERROR_PREVIEW_CHARS
    assert index_row(_dialogue(0, "S", "s"), 0)[INDEX_COLUMNS.index("error")] is None
