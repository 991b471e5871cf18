"""The one-turn task's files: results.csv (one row per system), cases.csv (one row per case
and system) and results.json (settings, results, every case with its generated request).
Each is written whole or not at all, and each names the requests the systems answered: a
request set's path and SHA-256, or "the model under test" when the brain wrote them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from macrs_sim.analysis.atomic import write_csv_atomic, write_text_atomic
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.metrics import metric_name
from macrs_sim.evaluation.interecagent.run import OneTurnResult, RequestSource

RESULTS_CSV, CASES_CSV, RESULTS_JSON = "results.csv", "cases.csv", "results.json"


def case_frame(result: OneTurnResult) -> pd.DataFrame:
    targets = {c.case_id: (c.user_id, c.target_id) for c in result.cases}
    rows = [
        {
            "case_id": a.case_id, "user_id": targets[a.case_id][0],
            "target_id": targets[a.case_id][1], "system": a.system, "rank": a.rank,
            "score": a.score, "items": " ".join(a.items), "llm_calls": a.llm_calls,
            "error": a.error,
        }
        for a in result.answers
    ]  # fmt: skip
    columns = ["case_id", "user_id", "target_id", "system", "rank", "score", "items",
               "llm_calls", "error"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns).astype({"rank": "Int64"})


def source_record(source: RequestSource) -> dict[str, str | None]:
    return {"path": source.path, "sha256": source.sha256, "generator": source.generator}


def results_frame(result: OneTurnResult) -> pd.DataFrame:
    """The summary, each row naming the request set (empty path: the model under test)."""
    s = result.source
    return result.summary.assign(requests=s.path or "", requests_sha256=s.sha256 or "",
                                 requests_generator=s.generator)  # fmt: skip


def result_record(result: OneTurnResult) -> dict[str, Any]:
    s = result.settings
    requests = {r.case_id: r for r in result.requests}
    return {
        "protocol": "interecagent one-turn", "task": s.task,
        "metric": metric_name(s.task, s.k), "dataset": result.dataset_name,
        "fingerprint": result.fingerprint, "n_items": result.n_items, "split": "leave-one-out",
        "n": s.n, "k": s.k, "seed": s.seed, "history_len": s.history_len,
        "request_set": source_record(result.source), "failed_requests": result.failed_requests,
        "results": json.loads(result.summary.to_json(orient="records")),
        "cases": [
            {**c.model_dump(mode="json"), **requests[c.case_id].model_dump(mode="json",
                                                                         exclude={"case_id"})}
            for c in result.cases
        ],
    }  # fmt: skip


def write_one_turn(folder: Path, result: OneTurnResult) -> list[Path]:
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--out {folder}: not a folder (expected where the results go)")
    paths = [folder / RESULTS_CSV, folder / CASES_CSV, folder / RESULTS_JSON]
    write_csv_atomic(results_frame(result), paths[0])
    write_csv_atomic(case_frame(result), paths[1])
    write_text_atomic(paths[2], json.dumps(result_record(result), indent=2) + "\n")
    return paths
