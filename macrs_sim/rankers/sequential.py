"""`eval sequential`: every model on the same leave-one-out split, full ranking, one table."""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from macrs_sim.data.splits import Interactions, leave_one_out
from macrs_sim.rankers.evaluate import ranking_metrics, target_ranks
from macrs_sim.rankers.train import stop_reason, train_ranker

RESULTS_CSV = "results.csv"
RESULTS_JSON = "results.json"


@dataclass(frozen=True)
class EvalRow:
    model: str
    metrics: dict[str, float]
    n_users: int
    train_seconds: float
    cache_hit: bool
    checkpoint: str
    # Epoch-trained models: epochs run, the best (kept) epoch, "early_stopping" or
    # "epoch_limit"; None for the others.
    epochs_run: int | None = None
    best_epoch: int | None = None
    stopped: str | None = None

    def flat(self) -> dict[str, Any]:
        return {"model": self.model, **self.metrics, "n_users": self.n_users,
                "train_seconds": self.train_seconds, "cache_hit": self.cache_hit,
                "checkpoint": self.checkpoint, "epochs_run": self.epochs_run,
                "best_epoch": self.best_epoch, "stopped": self.stopped}  # fmt: skip


def stopping_line(row: EvalRow) -> str | None:
    """How an epoch-trained model's training ended, in one line (None for the others)."""
    if row.stopped is None:
        return None
    epochs = f"{row.epochs_run} epoch{'' if row.epochs_run == 1 else 's'}"
    if row.stopped == "early_stopping":
        return (f"{row.model}: early stopping after {epochs}; "
                f"weights of its best epoch, {row.best_epoch}")  # fmt: skip
    return (f"{row.model}: ran to the epoch limit, {epochs} (best epoch {row.best_epoch}); "
            f"more epochs may help: --set {row.model}.epochs=N")  # fmt: skip


def evaluate_models(
    data: Interactions, params: Mapping[str, BaseModel], ks: Sequence[int], cache_dir: Path,
    progress: Callable[[str], Any] | None = None,
) -> list[EvalRow]:  # fmt: skip
    """Train (or load) each model on the leave-one-out split; rank each user's last item."""
    split = leave_one_out(data)
    rows = []
    for kind, p in params.items():
        hook = progress(kind) if progress is not None else None
        trained = train_ranker(kind, data, split, p, cache_dir, hook)
        ranks = target_ranks(trained.ranker, split.test)
        rec = trained.record
        seconds = float(rec.get("train_seconds", 0.0))
        rows.append(EvalRow(kind, ranking_metrics(ranks, ks), len(split.test), seconds,
                            trained.cache_hit, str(trained.checkpoint), rec.get("epochs_run"),
                            rec.get("best_epoch"), stop_reason(rec, p)))  # fmt: skip
    return rows


def _write_atomic(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_results(folder: Path, data: Interactions, rows: Sequence[EvalRow]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    flat = [r.flat() for r in rows]
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(flat[0]) if flat else ["model"])
    writer.writeheader()
    writer.writerows(flat)
    record = {"dataset": data.dataset_name, "fingerprint": data.fingerprint,
              "split": "leave-one-out", "n_items": data.n_items, "results": flat}  # fmt: skip
    _write_atomic(folder / RESULTS_CSV, buf.getvalue())
    _write_atomic(folder / RESULTS_JSON, json.dumps(record, indent=2) + "\n")
    return [folder / RESULTS_CSV, folder / RESULTS_JSON]
