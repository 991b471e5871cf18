"""Early stopping lets SASRec learn: scripted validation curves through the shared loop."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.rankers.toy_data import TORCH_REASON

pytest.importorskip("torch", reason=TORCH_REASON)

import torch  # noqa: E402

from macrs_sim.rankers.torch.loop import LoopParams, TrainSummary, fit_early_stopping  # noqa: E402
from macrs_sim.rankers.torch.sasrec import SASRecParams  # noqa: E402

# Measured on ~600 users (benchmarks/bench_sasrec_learns.py, seed 0 before the change):
# validation NDCG@10 of the first 8 epochs, a plateau near popularity's before SASRec learns.
PLATEAU = [0.0305, 0.0323, 0.0384, 0.0318, 0.033, 0.0258, 0.0196, 0.0231]


def run(curve: list[float], params: LoopParams) -> TrainSummary:
    """The loop with a one-weight module and validation values read from `curve`."""
    module = torch.nn.Linear(1, 1)
    epoch = iter(curve)

    def epoch_losses(_g: torch.Generator) -> Iterator[torch.Tensor]:
        yield module.weight.sum() ** 2

    return fit_early_stopping(module, epoch_losses, lambda: next(epoch), params,
                              torch.Generator().manual_seed(0))  # fmt: skip


def climbing_then_flat() -> list[float]:
    """The plateau, a climb of 0.001 an epoch (epochs 9-40: 0.029 ... 0.060), then 0.05."""
    return [*PLATEAU, *(0.02 + 0.001 * e for e in range(9, 41)), *[0.05] * 100]


def test_sasrec_defaults_wait_out_the_plateau() -> None:
    curve = climbing_then_flat()
    s = run(curve, SASRecParams())
    # The 3-epoch mean's last record is epoch 40 ((0.058 + 0.059 + 0.060) / 3; epoch 41's is
    # (0.059 + 0.060 + 0.05) / 3): 20 epochs later, at 60, early stopping ends training and
    # keeps epoch 40, the best raw value.
    assert (s.epochs_run, s.best_epoch, s.stopped_early) == (60, 40, True)
    assert s.best_val_ndcg == pytest.approx(0.060)
    # Patience 5 on the raw value (the old default) stops on the plateau: best epoch 3.
    old = run(curve, SASRecParams(patience=5, min_epochs=1, smoothing=1))
    assert (old.epochs_run, old.best_epoch, old.stopped_early) == (8, 3, True)


def test_smoothing_outlasts_a_lucky_epoch_and_the_limit_is_reported() -> None:
    # A slow climb (0.03 + 0.0004 * epoch) with one lucky epoch, 21: 0.048 instead of 0.0384.
    curve = [0.03 + 0.0004 * e for e in range(1, 101)]
    curve[20] = 0.048
    raw = run(curve, LoopParams(epochs=100, patience=20, min_epochs=20, smoothing=1))
    # On the raw value the climb passes 0.048 only at epoch 46: stopped at 41.
    assert (raw.epochs_run, raw.best_epoch, raw.stopped_early) == (41, 21, True)
    # The 3-epoch mean at 21 is (0.0376 + 0.0380 + 0.048) / 3 = 0.0412; the climb's mean
    # passes it at epoch 30, records go on to the limit and training runs all 100 epochs.
    smooth = run(curve, LoopParams(epochs=100, patience=20, min_epochs=20, smoothing=3))
    assert (smooth.epochs_run, smooth.best_epoch, smooth.stopped_early) == (100, 100, False)


def test_min_epochs_is_capped_by_the_epoch_limit() -> None:
    s = run([0.5, 0.1, 0.1], SASRecParams(epochs=3))
    assert (s.epochs_run, s.best_epoch, s.stopped_early) == (3, 1, False)


def test_bert4rec_waits_out_a_longer_plateau() -> None:
    from macrs_sim.rankers.torch.bert4rec import BERT4RecParams

    # A peak at epoch 5, a plateau at 0.03 to epoch 45, a climb of 0.002 an epoch to 0.06 at
    # epoch 60, then 0.05. The 3-epoch mean's records: epoch 7 ((0.04 + 0.03 + 0.03) / 3),
    # then from epoch 48 ((0.032 + 0.034 + 0.036) / 3) to 60; none after.
    curve = [0.02] * 4 + [0.04] + [0.03] * 40
    curve += [0.03 + 0.002 * (e - 45) for e in range(46, 61)] + [0.05] * 100
    s = run(curve, BERT4RecParams())
    assert (s.epochs_run, s.best_epoch, s.stopped_early) == (80, 60, True)
    # SASRec's minimum (20) would have stopped it 20 epochs after epoch 7, on the plateau.
    short = run(curve, BERT4RecParams(min_epochs=20))
    assert (short.epochs_run, short.best_epoch, short.stopped_early) == (27, 5, True)
