"""The run's files: results.csv, results.json, answers.jsonl and settings.json.

Written only after every run finished, each file whole or not at all (a temporary file
beside it, then a rename), so an interrupted evaluation leaves no half-written result.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from macrs_sim.analysis.atomic import write_text_atomic
from macrs_sim.data.splits import Interactions
from macrs_sim.evaluation.recmind.results import Answer, RunRow
from macrs_sim.evaluation.recmind.settings import EvalSettings

RESULTS_CSV = "results.csv"
RESULTS_JSON = "results.json"
ANSWERS_JSONL = "answers.jsonl"
SETTINGS_JSON = "settings.json"


def _clean(value: Any) -> Any:
    """NaN (no case to average) as null: JSON has no NaN."""
    return None if isinstance(value, float) and math.isnan(value) else value


def _csv(rows: Sequence[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def write_outputs(
    folder: Path,
    settings: EvalSettings,
    data: Interactions,
    rows: Sequence[RunRow],
    answers: Sequence[tuple[str, str, Sequence[Answer]]],
) -> list[Path]:
    """`answers`: (solver, prompting, that run's answers) for each row."""
    folder.mkdir(parents=True, exist_ok=True)
    flat = [{k: _clean(v) for k, v in r.flat().items()} for r in rows]
    record = {"task": settings.task, "dataset": data.dataset_name,
              "fingerprint": data.fingerprint, "split": "leave-one-out",
              "n_items": data.n_items, "results": flat}  # fmt: skip
    lines = [
        json.dumps(a.record(solver, prompting), ensure_ascii=False)
        for solver, prompting, run in answers
        for a in run
    ]
    resolved = {"command": "eval recmind", **settings.model_dump(mode="json"),
                "dataset_name": data.dataset_name, "fingerprint": data.fingerprint}  # fmt: skip
    files = {
        RESULTS_CSV: _csv(flat),
        RESULTS_JSON: json.dumps(record, indent=2) + "\n",
        ANSWERS_JSONL: "".join(line + "\n" for line in lines),
        SETTINGS_JSON: json.dumps(resolved, indent=2) + "\n",
    }
    for name, text in files.items():
        write_text_atomic(folder / name, text)
    return [folder / name for name in files]
