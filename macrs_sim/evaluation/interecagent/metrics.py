"""The one-turn metrics (paper §4.1, Table 5): Recall@k (retrieval) and NDCG@k (ranking).

One relevant item per case (the held-out target), so Recall@k is 1 when the target is among
the first k items returned, and NDCG@k is 1 / log2(1 + rank) for the target's 1-based rank
(0 beyond k or absent); the ideal DCG is 1. Items as returned count, out-of-scope ones
included: a system that does not follow the instruction is scored as it answered.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd

from macrs_sim.evaluation.interecagent.schemas import Task


def target_rank(items: Sequence[str], target: str) -> int | None:
    """1-based position of the first occurrence of `target`, None if absent."""
    for pos, item in enumerate(items, start=1):
        if item == target:
            return pos
    return None


def recall_at(rank: int | None, k: int) -> float:
    return 1.0 if rank is not None and rank <= k else 0.0


def ndcg_at(rank: int | None, k: int) -> float:
    return 1.0 / math.log2(1 + rank) if rank is not None and rank <= k else 0.0


def case_score(task: Task, items: Sequence[str], target: str, k: int) -> tuple[int | None, float]:
    rank = target_rank(items, target)
    return rank, (recall_at(rank, k) if task == "retrieval" else ndcg_at(rank, k))


def metric_name(task: Task, k: int) -> str:
    return f"Recall@{k}" if task == "retrieval" else f"NDCG@{k}"


def summary_frame(answers: pd.DataFrame, task: Task, k: int) -> pd.DataFrame:
    """One row per system (first-seen order): cases, errors, the metric's mean, mean items
    returned and mean LLM calls per case. `answers`: one row per (case, system) with columns
    system, score, items, error, llm_calls. An error scores 0 and stays in the mean."""
    name = metric_name(task, k)
    columns = ["system", "cases", "errors", name, "mean_items", "llm_calls_per_case"]
    if answers.empty:
        return pd.DataFrame(columns=columns)
    frame = answers.assign(
        failed=answers["error"].notna().astype(int), n_items=answers["items"].map(len)
    )
    grouped = frame.groupby("system", sort=False)
    out = pd.DataFrame({
        "cases": grouped.size(), "errors": grouped["failed"].sum(),
        name: grouped["score"].mean(), "mean_items": grouped["n_items"].mean(),
        "llm_calls_per_case": grouped["llm_calls"].mean(),
    })  # fmt: skip
    return out.reset_index()[columns]
