"""The MACRS paper's metrics (§4.3): success rate, average turns and Hit@K.

Dialogues that ended in an error are no evidence about the system's recommending,
so they are counted apart (`n_errors`) and left out of every rate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from macrs_sim.protocol import DialogueResult


@dataclass(frozen=True)
class SystemMetrics:
    system: str
    n: int  # completed dialogues: successes + failures
    n_errors: int
    success_rate: float
    avg_turns: float
    hit_at: dict[int, float]


def _target_in_top(result: DialogueResult, k: int) -> bool:
    return any(ref.item_id == result.target_id for ref in result.final_list[:k])


def _system_metrics(
    system: str, results: Sequence[DialogueResult], ks: Sequence[int]
) -> SystemMetrics:
    done = [r for r in results if r.status != "error"]
    n = len(done)
    successes = sum(r.status == "success" for r in done)

    def rate(count: int) -> float:
        return count / n if n else math.nan

    # Paper eq. 7: a success is a hit at every K; a failure is a hit if its final list
    # holds the target within the top K.
    failures = [r for r in done if r.status != "success"]
    hit_at = {k: rate(successes + sum(_target_in_top(r, k) for r in failures)) for k in ks}
    return SystemMetrics(
        system=system,
        n=n,
        n_errors=len(results) - n,
        success_rate=rate(successes),
        avg_turns=rate(sum(r.turns_taken for r in done)),
        hit_at=hit_at,
    )


def compute_metrics(
    results: Sequence[DialogueResult], ks: Sequence[int] = (5, 10)
) -> list[SystemMetrics]:
    """One SystemMetrics per system, in order of each system's first dialogue."""
    by_system: dict[str, list[DialogueResult]] = {}
    for result in results:
        by_system.setdefault(result.system, []).append(result)
    return [_system_metrics(system, group, ks) for system, group in by_system.items()]


def metrics_frame(metrics: Sequence[SystemMetrics]) -> pd.DataFrame:
    """A table of metrics: one row per system, one hit@K column per K."""
    ks = list(dict.fromkeys(k for m in metrics for k in m.hit_at))
    columns = ["system", "dialogues", "errors", "success_rate", "avg_turns"]
    columns += [f"hit@{k}" for k in ks]
    rows = [
        [m.system, m.n, m.n_errors, m.success_rate, m.avg_turns]
        + [m.hit_at.get(k, math.nan) for k in ks]
        for m in metrics
    ]
    return pd.DataFrame(rows, columns=columns)
