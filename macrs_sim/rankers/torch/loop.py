"""The training loop the torch rankers share: Adam, one validation per epoch, early stopping.

The weights kept are those of the epoch with the best validation NDCG@10. Training
stops when the validation NDCG@10, averaged over the last `smoothing` epochs, has set
no record for `patience` epochs, but never before `min_epochs` (nor after `epochs`).
With `smoothing` = `min_epochs` = 1 that is plain patience on the raw value.
"""

from __future__ import annotations

import copy
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import torch

from macrs_sim.rankers.params import LoopParams as LoopParams


@dataclass(frozen=True)
class EpochReport:
    epoch: int
    epochs: int
    loss: float
    val_ndcg: float
    best_epoch: int


ProgressHook = Callable[[EpochReport], None]


@dataclass
class TrainSummary:
    best_epoch: int = 0
    best_val_ndcg: float = math.nan
    epochs_run: int = 0
    train_seconds: float = 0.0
    losses: list[float] = field(default_factory=list)
    val_ndcgs: list[float] = field(default_factory=list)
    # Seconds from the start of training to the end of each epoch (validation included).
    epoch_ends: list[float] = field(default_factory=list)
    # True: early stopping ended training; False: it ran to the epoch limit.
    stopped_early: bool = False


def pick_device() -> torch.device:
    """A GPU when torch sees one, otherwise every CPU core, or OMP_NUM_THREADS of them."""
    if torch.cuda.is_available():
        return torch.device("cuda")
    torch.set_num_threads(cpu_threads())
    return torch.device("cpu")


def cpu_threads() -> int:
    """OMP_NUM_THREADS where it is a positive whole number (the usual way to share a machine
    between processes), else every core."""
    value = os.environ.get("OMP_NUM_THREADS", "").strip()
    return int(value) if value.isdecimal() and int(value) > 0 else os.cpu_count() or 1


def _better(value: float, best: float) -> bool:
    return not math.isnan(value) and (math.isnan(best) or value > best)


def _smoothed(values: list[float], width: int) -> float:
    """Mean of the last `width` values that are numbers (NaN when none)."""
    recent = [v for v in values[-width:] if not math.isnan(v)]
    return sum(recent) / len(recent) if recent else math.nan


class _Stopper:
    """When to stop: `patience` epochs with no record of the smoothed validation value."""

    def __init__(self, params: LoopParams) -> None:
        self.params = params
        self.best, self.best_epoch = math.nan, 0

    def stop(self, epoch: int, values: list[float]) -> bool:
        level = _smoothed(values, self.params.smoothing)
        if _better(level, self.best) or math.isnan(level):
            self.best, self.best_epoch = level, epoch
        waited = epoch - self.best_epoch >= self.params.patience
        return waited and epoch >= self.params.min_epochs


def fit_early_stopping(
    module: torch.nn.Module,
    epoch_losses: Callable[[torch.Generator], Iterator[torch.Tensor]],
    validate: Callable[[], float],
    params: LoopParams,
    generator: torch.Generator,
    progress: ProgressHook | None = None,
) -> TrainSummary:
    opt = torch.optim.Adam(module.parameters(), lr=params.lr, weight_decay=params.weight_decay)
    summary, stopper = TrainSummary(), _Stopper(params)
    best_state = copy.deepcopy(module.state_dict())
    started = time.perf_counter()
    for epoch in range(1, params.epochs + 1):
        module.train()
        total, batches = 0.0, 0
        for loss in epoch_losses(generator):
            opt.zero_grad(set_to_none=True)
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total, batches = total + float(loss.detach()), batches + 1
        module.eval()
        with torch.no_grad():
            val = validate()
        summary.losses.append(total / max(batches, 1))
        summary.val_ndcgs.append(val)
        summary.epochs_run = epoch
        summary.epoch_ends.append(round(time.perf_counter() - started, 3))
        # Without validation cases (tiny data) the last epoch is kept.
        if _better(val, summary.best_val_ndcg) or math.isnan(val):
            summary.best_epoch, summary.best_val_ndcg = epoch, val
            best_state = copy.deepcopy(module.state_dict())
        if progress is not None:
            progress(EpochReport(epoch, params.epochs, summary.losses[-1], val, summary.best_epoch))
        if stopper.stop(epoch, summary.val_ndcgs):
            summary.stopped_early = epoch < params.epochs
            break
    module.load_state_dict(best_state)
    summary.train_seconds = time.perf_counter() - started
    return summary
