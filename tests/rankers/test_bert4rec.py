"""BERT4Rec: cloze windows and masks by hand; it learns a planted chain; an eval sequential row."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from macrs_sim.cli import main
from macrs_sim.data.splits import leave_one_out
from macrs_sim.rankers.evaluate import ranking_metrics, target_ranks
from macrs_sim.rankers.popularity import PopularityRanker
from tests.rankers.toy_data import TORCH_REASON, chain_data

pytest.importorskip("torch", reason=TORCH_REASON)

import torch  # noqa: E402

from macrs_sim.rankers.torch.bert4rec import (  # noqa: E402
    BERT4RecParams,
    BERT4RecRanker,
    cloze_windows,
    mask_items,
)

SMALL = {"dim": 16, "max_len": 12, "blocks": 1, "heads": 1, "dropout": 0.1, "batch_size": 32}


def test_cloze_windows_cut_from_the_end() -> None:
    # Items 0..6 in windows of 3 from the end: (4, 5, 6), (1, 2, 3); item 0 alone is left out.
    # Rows are catalog index + 1, padding 0 on the left.
    windows = cloze_windows({"a": tuple(range(7)), "b": (9, 8)}, 3)
    assert windows.tolist() == [[5, 6, 7], [2, 3, 4], [0, 10, 9]]


def test_mask_items_by_hand() -> None:
    rows = torch.tensor([[0, 0, 3, 4], [0, 5, 6, 7]])
    g = torch.Generator().manual_seed(0)
    inputs, labels = mask_items(rows, 1.0, 9, g)  # every real item masked (row 9)
    assert inputs.tolist() == [[0, 0, 9, 9], [0, 9, 9, 9]]
    assert labels.tolist() == rows.tolist()
    # Almost never chosen: each window still masks one item, its last.
    inputs, labels = mask_items(rows, 1e-9, 9, g)
    assert inputs.tolist() == [[0, 0, 3, 9], [0, 5, 6, 9]]
    assert labels.tolist() == [[0, 0, 0, 4], [0, 0, 0, 7]]


def bert4rec(seed: int = 0, epochs: int = 30) -> BERT4RecRanker:
    data = chain_data()
    split = leave_one_out(data)
    params = BERT4RecParams.model_validate(
        {**SMALL, "epochs": epochs, "patience": epochs, "lr": 1e-2, "seed": seed}
    )
    return BERT4RecRanker.fit(data.item_ids, split.train, split.validation, params)


def test_bert4rec_learns_the_planted_chain_and_beats_popularity() -> None:
    data = chain_data()
    split = leave_one_out(data)
    model = bert4rec()
    assert model.summary.losses[-1] < 0.8 * model.summary.losses[0]
    ndcg = ranking_metrics(target_ranks(model, split.test), [10])["NDCG@10"]
    pop = PopularityRanker.fit(data.item_ids, split.train)
    pop_ndcg = ranking_metrics(target_ranks(pop, split.test), [10])["NDCG@10"]
    # The next item is always last + 1: [mask] after the history learns to be it.
    assert ndcg > 0.7 and ndcg > pop_ndcg + 0.3


def test_bert4rec_seeded_masks_seen_and_round_trips() -> None:
    a, b = bert4rec(seed=2, epochs=2), bert4rec(seed=2, epochs=2)
    hist = [[0, 1, 2], []]
    assert np.array_equal(a.score(hist), b.score(hist))
    assert a.score(hist)[0, :3].tolist() == [-np.inf] * 3
    params = BERT4RecParams.model_validate({**SMALL, "epochs": 2})
    back = BERT4RecRanker.from_arrays(a.item_ids, a.arrays(), params)
    assert np.array_equal(back.score(hist), a.score(hist))


def test_eval_sequential_has_a_bert4rec_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tiny = ("--set", "bert4rec.epochs=1", "--set", "bert4rec.dim=8")
    code = main(["eval", "sequential", "demo", "--models", "popularity,bert4rec", "--k", "10",
                 "--out", str(tmp_path / "out"), "--cache-dir", str(tmp_path / "cache"),
                 "--no-progress", *tiny])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "bert4rec: ran to the epoch limit, 1 epoch (best epoch 1)" in out
    with (tmp_path / "out" / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert [r["model"] for r in rows] == ["popularity", "bert4rec"]
    assert 0 < float(rows[1]["NDCG@10"]) <= 1
