"""The MACRS paper's metrics (§4.3): success rate, average turns and Hit@K.

The paper's eq. 6-8 divide by all N test samples, so every dialogue of a run counts:
one that ended in an error is a failure (max_turns + 1 turns, never a hit) and is also
counted in `n_errors`, so a table can show how many there were. Leaving errors out
would score each system on a different, self-selected subset of the samples.

`completed_only=True` gives the secondary view over the dialogues that ended without
an error (success or failure); reports show it beside the headline numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from macrs_sim.analysis.metrics.rows import rows_where
from macrs_sim.protocol import DialogueResult


@dataclass(frozen=True)
class SystemMetrics:
    system: str
    n: int  # dialogues the rates divide by: all of them, or the completed ones only
    n_errors: int  # dialogues that ended in an error (counted as failures unless completed_only)
    success_rate: float
    avg_turns: float
    hit_at: dict[int, float]
    completed_only: bool = False


def is_hit(result: DialogueResult, k: int) -> bool:
    """Paper eq. 7: a success is a hit at every K; a failure is a hit if the target is within
    the first K entries of its final list as given (duplicates and short lists as they are);
    an error is never a hit."""
    if result.status == "error":
        return False
    if result.status == "success":
        return True
    return any(ref.item_id == result.target_id for ref in result.final_list[:k])


def _system_metrics(
    system: str, results: Sequence[DialogueResult], ks: Sequence[int], completed_only: bool
) -> SystemMetrics:
    errors = sum(r.status == "error" for r in results)
    counted = [r for r in results if r.status != "error"] if completed_only else list(results)
    n = len(counted)

    def rate(count: int) -> float:
        return count / n if n else math.nan

    return SystemMetrics(
        system=system,
        n=n,
        n_errors=errors,
        success_rate=rate(sum(r.status == "success" for r in counted)),
        # turns_taken is max_turns + 1 for anything but a success, errors included.
        avg_turns=rate(sum(r.turns_taken for r in counted)),
        hit_at={k: rate(sum(is_hit(r, k) for r in counted)) for k in ks},
        completed_only=completed_only,
    )


def compute_metrics(
    results: Sequence[DialogueResult], ks: Sequence[int] = (5, 10), *, completed_only: bool = False
) -> list[SystemMetrics]:
    """One SystemMetrics per system, in order of each system's first dialogue."""
    by_system: dict[str, list[DialogueResult]] = {}
    for result in results:
        by_system.setdefault(result.system, []).append(result)
    return [_system_metrics(s, group, ks, completed_only) for s, group in by_system.items()]


def metrics_frame(metrics: Sequence[SystemMetrics]) -> pd.DataFrame:
    """A table of metrics: one row per system, one hit@K column per K.

    `dialogues` is the denominator of the rates; `errors` how many of the system's
    dialogues ended in an error (inside `dialogues`, unless the metrics are completed-only).
    """
    ks = list(dict.fromkeys(k for m in metrics for k in m.hit_at))
    columns = ["system", "dialogues", "errors", "success_rate", "avg_turns"]
    columns += [f"hit@{k}" for k in ks]
    rows = [
        [m.system, m.n, m.n_errors, m.success_rate, m.avg_turns]
        + [m.hit_at.get(k, math.nan) for k in ks]
        for m in metrics
    ]
    return pd.DataFrame(rows, columns=columns)


def metrics_from_dialogues(
    dialogues: pd.DataFrame, *, completed_only: bool = False
) -> list[SystemMetrics]:
    """compute_metrics over a `dialogues` frame (one row a dialogue, as runs/load.py builds
    it): the same counts, so the same numbers, without reading a dialogue's turns."""
    ks = [int(c.split("@")[1]) for c in dialogues.columns if c.startswith("hit@")]
    out = []
    for system in dict.fromkeys(dialogues["system"]):
        mine = rows_where(dialogues, dialogues["system"] == system)
        errors = int((mine["status"] == "error").sum())
        counted = mine[mine["status"] != "error"] if completed_only else mine
        n = len(counted)

        def rate(count: int, n: int = n) -> float:
            return count / n if n else math.nan

        out.append(
            SystemMetrics(
                system=str(system),
                n=n,
                n_errors=errors,
                success_rate=rate(int((counted["status"] == "success").sum())),
                avg_turns=rate(int(counted["turns"].sum())),
                hit_at={k: rate(int(counted[f"hit@{k}"].sum())) for k in ks},
                completed_only=completed_only,
            )
        )
    return out
