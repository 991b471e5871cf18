"""Load a run directory into typed records and pandas DataFrames (for reports and notebooks).

    >>> run = load_run("runs/paper_table1-20261123-101500")
    >>> run.dialogues.groupby("system").success.mean()   # also run.turns, run.calls, run.samples
    >>> run.tool_calls.groupby(["system", "tool"]).size()  # tool calls of toolkit systems

Everything comes from the run store alone: nothing is re-run. A run that is still
going or was interrupted loads with what finished (`run.complete` is False and
`run.missing` says how many dialogues are not there); a store of another format
version is refused with a clear message.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from macrs_sim.agents.registry import variant_label
from macrs_sim.analysis.metrics.outcomes import is_hit
from macrs_sim.analysis.runs.access import run_access
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample, ToolCallRecord
from macrs_sim.store import RunStore

HIT_KS = (5, 10)


@dataclass(frozen=True)
class SystemInfo:
    """A system of the run as the scenario configured it; `variant` names an ablation."""

    name: str
    kind: str
    variant: str
    # What it was given of the user's past ("none" | "pre-target"); "?" for older runs.
    history: str = "?"


@dataclass
class RunData:
    path: Path
    name: str
    systems: list[SystemInfo]
    results: list[DialogueResult]
    sample_records: list[Sample]
    call_records: list[LLMCallRecord]
    meta: dict[str, str]
    scenario: dict[str, Any]
    expected: int
    dialogues: pd.DataFrame = field(repr=False)
    turns: pd.DataFrame = field(repr=False)
    calls: pd.DataFrame = field(repr=False)
    samples: pd.DataFrame = field(repr=False)
    tool_call_records: list[ToolCallRecord] = field(default_factory=list, repr=False)
    # One row a tool call (TOOL_CALL_COLUMNS); empty for systems without tools and old runs.
    tool_calls: pd.DataFrame = field(default_factory=lambda: tool_calls_frame([]), repr=False)

    @property
    def finished(self) -> int:
        return len(self.results)

    @property
    def missing(self) -> int:
        return max(self.expected - self.finished, 0)

    @property
    def complete(self) -> bool:
        # Runs made before the status marker existed were only stored once finished.
        return self.meta.get("status", "finished") == "finished" and self.missing == 0

    @property
    def system_names(self) -> list[str]:
        return [s.name for s in self.systems]


def hit_rank(result: DialogueResult) -> int | None:
    """1-based position of the target in the fallback list, if there."""
    for pos, ref in enumerate(result.final_list, start=1):
        if ref.item_id == result.target_id:
            return pos
    return None


def dialogue_row(r: DialogueResult, buckets: dict[str, str | None]) -> dict[str, Any]:
    """One dialogue's metrics as the paper counts them: an error is a failure (0, never a
    hit, max_turns + 1 turns); `status` tells errors apart for the completed-only view."""
    row: dict[str, Any] = {
        "dialogue_id": r.dialogue_id,
        "system": r.system,
        "sample_id": r.sample_id,
        "target_id": r.target_id,
        "bucket": buckets.get(r.sample_id),
        "status": r.status,
        "success": float(r.status == "success"),
        "success_turn": r.success_turn,
        "turns": float(r.turns_taken),
        "n_exchanges": len(r.exchanges),
        "final_rank": hit_rank(r),
        "leaks": r.leaks,
        "error": r.error,
    }
    for k in HIT_KS:
        row[f"hit@{k}"] = float(is_hit(r, k))
    return row


def turn_rows(r: DialogueResult) -> list[dict[str, Any]]:
    return [
        {
            "dialogue_id": r.dialogue_id,
            "system": r.system,
            "sample_id": r.sample_id,
            "turn": ex.turn,
            "act": ex.system.act,
            "system_text": ex.system.text,
            "items": [i.title for i in ex.system.items],
            "item_ids": [i.item_id for i in ex.system.items],
            "user_text": ex.user.text,
            "accepted": ex.user.accepted,
            "leak_retries": ex.user.leak_retries,
            "redacted": ex.user.redacted,
            "explain": ex.system.explain,
        }
        for ex in r.exchanges
    ]


def tool_calls_frame(records: list[ToolCallRecord]) -> pd.DataFrame:
    """Tool calls as rows; `input` stays the argument dict the tool was given."""
    return pd.DataFrame([r.model_dump() for r in records], columns=TOOL_CALL_COLUMNS).astype(
        {"output_chars": int, "latency_s": float, "ok": bool}
    )


def _scenario(path: Path) -> dict[str, Any]:
    file = path / "scenario.resolved.toml"
    if not file.is_file():
        return {}
    try:
        return tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError:
        return {}


def _systems(
    meta: dict[str, str], scenario: dict[str, Any], results: list[DialogueResult]
) -> list[SystemInfo]:
    configured = {s["name"]: s for s in scenario.get("systems", [])}
    order: list[str] = json.loads(meta.get("systems", "[]"))
    order += [r.system for r in results if r.system not in order]
    names = list(dict.fromkeys(order))
    access = run_access(meta)
    return [
        SystemInfo(
            n,
            configured.get(n, {}).get("kind", "?"),
            variant_label(configured.get(n, {})),
            access.history_of(n) if access else "?",
        )
        for n in names
    ]


def load_run(path: str | Path) -> RunData:
    """A run directory (or its store.sqlite) as records and DataFrames."""
    path = Path(path)
    if path.name == "store.sqlite":
        path = path.parent
    if not path.is_dir():
        raise DataError(f"{path}: run directory not found")
    if not (path / "store.sqlite").is_file():
        raise DataError(f"{path}: not a run directory (no store.sqlite)")
    with RunStore.open(path / "store.sqlite") as store:
        meta = store.all_meta()
        results = store.read_results()
        samples = store.read_samples()
        calls = store.read_calls()
        tool_calls = store.read_tool_calls()
    scenario = _scenario(path)
    systems = _systems(meta, scenario, results)
    expected = int(meta.get("expected_dialogues", len(systems) * len(samples)))
    buckets = {s.sample_id: s.bucket for s in samples}
    return RunData(
        path=path,
        name=meta.get("scenario_name", path.name),
        systems=systems,
        results=results,
        sample_records=samples,
        call_records=calls,
        meta=meta,
        scenario=scenario,
        expected=expected,
        dialogues=pd.DataFrame(
            [dialogue_row(r, buckets) for r in results], columns=_DIALOGUE_COLUMNS
        ),
        turns=pd.DataFrame([t for r in results for t in turn_rows(r)], columns=_TURN_COLUMNS),
        calls=pd.DataFrame(
            [c.model_dump() for c in calls], columns=list(LLMCallRecord.model_fields)
        ),
        samples=pd.DataFrame(
            [
                {
                    "sample_id": s.sample_id,
                    "user_id": s.user_id,
                    "target_id": s.target_id,
                    "bucket": s.bucket,
                    "history_len": len(s.history),
                    "opening": s.opening,
                }
                for s in samples
            ],
            columns=["sample_id", "user_id", "target_id", "bucket", "history_len", "opening"],
        ),
        tool_call_records=tool_calls,
        tool_calls=tool_calls_frame(tool_calls),
    )


TOOL_CALL_COLUMNS = list(ToolCallRecord.model_fields)
_DIALOGUE_COLUMNS = [
    "dialogue_id",
    "system",
    "sample_id",
    "target_id",
    "bucket",
    "status",
    "success",
    "success_turn",
    "turns",
    "n_exchanges",
    "final_rank",
    "leaks",
    "error",
    *(f"hit@{k}" for k in HIT_KS),
]
_TURN_COLUMNS = [
    "dialogue_id",
    "system",
    "sample_id",
    "turn",
    "act",
    "system_text",
    "items",
    "item_ids",
    "user_text",
    "accepted",
    "leak_retries",
    "redacted",
    "explain",
]
