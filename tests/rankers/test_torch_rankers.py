"""BPR-MF and SASRec: losses fall, SASRec learns a planted sequence, same seed = same scores."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest

from macrs_sim.data.splits import leave_one_out
from macrs_sim.rankers.evaluate import ranking_metrics, target_ranks
from macrs_sim.rankers.popularity import PopularityRanker
from tests.rankers.toy_data import TORCH_REASON, chain_data

pytest.importorskip("torch", reason=TORCH_REASON)

from macrs_sim.rankers.bpr import BPRParams, BPRRanker  # noqa: E402
from macrs_sim.rankers.torch.sasrec import SASRecParams, SASRecRanker  # noqa: E402

SMALL = {"dim": 16, "max_len": 12, "blocks": 1, "heads": 1, "dropout": 0.1, "batch_size": 32}


def sasrec(seed: int = 0, epochs: int = 30, **kw: object) -> SASRecRanker:
    data = chain_data()
    split = leave_one_out(data)
    params = SASRecParams.model_validate(
        {**SMALL, "epochs": epochs, "patience": epochs, "lr": 1e-2, "seed": seed, **kw}
    )
    return SASRecRanker.fit(data.item_ids, split.train, split.validation, params)


def test_sasrec_learns_the_planted_chain_and_beats_popularity() -> None:
    data = chain_data()
    split = leave_one_out(data)
    model = sasrec(loss="softmax")
    losses = model.summary.losses
    assert losses[-1] < 0.5 * losses[0]
    pop = PopularityRanker.fit(data.item_ids, split.train)
    sas_ndcg = ranking_metrics(target_ranks(model, split.test), [10])["NDCG@10"]
    pop_ndcg = ranking_metrics(target_ranks(pop, split.test), [10])["NDCG@10"]
    # Next item is always last + 1: SASRec puts it first; popularity is near chance (~0.3).
    assert sas_ndcg > 0.9
    assert sas_ndcg > pop_ndcg + 0.4


def test_sasrec_same_seed_same_scores_other_seed_other_scores() -> None:
    a, b, c = sasrec(seed=3, epochs=3), sasrec(seed=3, epochs=3), sasrec(seed=4, epochs=3)
    hist = [[0, 1, 2], [5, 6]]
    assert np.array_equal(a.score(hist), b.score(hist))
    assert not np.array_equal(a.score(hist), c.score(hist))


def test_sasrec_without_positions_and_with_bce_trains() -> None:
    model = sasrec(epochs=4, position=False, loss="bce")
    assert model.net.positions is None
    assert model.summary.losses[-1] < model.summary.losses[0]


def test_early_stopping_keeps_the_best_epoch() -> None:
    # Plain patience on the raw value (no minimum, no smoothing): stops 2 epochs after the best.
    model = sasrec(epochs=40, patience=2, lr=1e-2, min_epochs=1, smoothing=1)
    s = model.summary
    assert s.epochs_run - s.best_epoch <= 2
    assert s.best_val_ndcg == max(s.val_ndcgs)


def test_sasrec_arrays_round_trip() -> None:
    model = sasrec(epochs=2)
    params = SASRecParams.model_validate({**SMALL, "epochs": 2})
    back = SASRecRanker.from_arrays(model.item_ids, model.arrays(), params)
    hist = [[3, 4, 5]]
    assert np.array_equal(back.score(hist), model.score(hist))


def bpr(seed: int = 0, epochs: int = 8) -> BPRRanker:
    data = chain_data()
    split = leave_one_out(data)
    params = BPRParams(dim=8, epochs=epochs, patience=epochs, batch_size=64, seed=seed)
    return BPRRanker.fit(data.item_ids, split.train, split.validation, params)


def test_bpr_loss_falls_and_seed_reproduces() -> None:
    a, b = bpr(seed=1), bpr(seed=1)
    assert a.summary.losses[-1] < a.summary.losses[0]
    hist = [[0, 1, 2]]
    assert np.array_equal(a.score(hist), b.score(hist))
    assert a.score(hist)[0, :3].tolist() == [-np.inf] * 3


class FixedNet:
    """Stands in for SASRecNet: fixed states s1 = (1, 0), s2 = (0, 1); items e1 = e2 = 0,
    e3 = (0, ln 3). Positions (target, negative): (2, 3) and (3, 1), so the score
    differences are s1.e2 - s1.e3 = 0 and s2.e3 - s2.e1 = ln 3."""

    def __init__(self) -> None:
        import math

        import torch

        self.table = torch.tensor([[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, math.log(3)]])
        self.states = torch.tensor([[[1.0, 0.0], [0.0, 1.0]]])

    def __call__(self, inputs: Any) -> Any:
        return self.states

    def items(self, rows: Any) -> Any:
        return self.table[rows]


@pytest.mark.parametrize(
    ("loss", "expected"),
    [
        # BPR: mean of -log sigmoid(0) = ln 2 and -log sigmoid(ln 3) = ln 4/3 -> ln(8/3) / 2.
        ("bpr", 0.490415),
        # BCE: the same over the positives, plus -log(1 - sigmoid(0)) = ln 2 over the negatives.
        ("bce", 1.183562),
    ],
)
def test_sampled_losses_by_hand(loss: str, expected: float) -> None:
    import torch

    from macrs_sim.rankers.torch.sasrec import _loss
    from macrs_sim.rankers.torch.sasrec_net import SASRecNet

    params = SASRecParams.model_validate({"loss": loss})
    inputs, targets, negatives = (torch.tensor([r]) for r in ([1, 2], [2, 3], [3, 1]))
    net = cast(SASRecNet, FixedNet())
    value = _loss(net, inputs, targets, negatives, params, torch.device("cpu"))
    assert float(value) == pytest.approx(expected, abs=1e-6)


def test_sasrec_trains_with_bpr_and_toolrec_stage_one_uses_it() -> None:
    from macrs_sim.rankers.torch.toolrec import ToolRecParams

    model = sasrec(epochs=4, loss="bpr")
    assert model.summary.losses[-1] < model.summary.losses[0]
    assert SASRecParams().loss == "bce"  # the SASRec paper's
    assert ToolRecParams().loss == "bpr" and ToolRecParams().backbone().loss == "bpr"
    assert ToolRecParams.model_validate({"loss": "bce"}).backbone().loss == "bce"
