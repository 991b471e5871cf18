"""The paper's metrics straight from a run store's `dialogues` table, one row at a time.

What `compute_metrics` gives for the stored results, without reading a single turn:
the end of a campaign and `report` print it for runs of any size.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from macrs_sim.analysis.metrics.outcomes import SystemMetrics
from macrs_sim.store import RunStore
from macrs_sim.store.read import damaged


@dataclass
class _Counts:
    n: int = 0
    errors: int = 0
    successes: int = 0
    turns: int = 0
    hits: dict[int, int] = field(default_factory=dict)


def _hit(status: str, target: str, final_ids: list[str], k: int) -> bool:
    """outcomes.is_hit over stored columns."""
    if status == "error":
        return False
    return status == "success" or target in final_ids[:k]


def _final_ids(text: str) -> list[str]:
    entries = json.loads(text)
    if not isinstance(entries, list):
        raise ValueError("final_list_json is not a list")
    return [str(e["item_id"]) for e in entries]


def stored_metrics(store: RunStore, ks: Sequence[int] = (5, 10)) -> list[SystemMetrics]:
    """One SystemMetrics per system, in order of each system's first dialogue."""
    counts: dict[str, _Counts] = {}
    rows = store.query(
        "SELECT dialogue_id, system, status, turns_taken, target_id, final_list_json"
        " FROM dialogues ORDER BY rowid"
    )
    for row in rows:
        try:
            final = _final_ids(row["final_list_json"]) if row["status"] == "failure" else []
            turns = int(row["turns_taken"])
        except (ValueError, TypeError, KeyError) as exc:
            raise damaged(store.path, "dialogues", str(row["dialogue_id"]), exc) from None
        c = counts.setdefault(str(row["system"]), _Counts(hits=dict.fromkeys(ks, 0)))
        c.n += 1
        c.errors += row["status"] == "error"
        c.successes += row["status"] == "success"
        c.turns += turns
        for k in ks:
            c.hits[k] += _hit(row["status"], row["target_id"], final, k)
    return [
        SystemMetrics(
            system=system,
            n=c.n,
            n_errors=c.errors,
            success_rate=c.successes / c.n if c.n else math.nan,
            avg_turns=c.turns / c.n if c.n else math.nan,
            hit_at={k: c.hits[k] / c.n if c.n else math.nan for k in ks},
        )
        for system, c in counts.items()
    ]
