"""Full-ranking metrics against hand-computed values."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest

from macrs_sim.data.splits import EvalCase
from macrs_sim.rankers.base import ItemRanker, Scores, mask_seen, top_items
from macrs_sim.rankers.evaluate import ranking_metrics, target_ranks


class Fixed:
    """Scores items by a fixed vector (item i gets scores[i])."""

    kind = "fixed"

    def __init__(self, scores: list[float]) -> None:
        self.item_ids = tuple(f"i{n}" for n in range(len(scores)))
        self.scores = np.array(scores, dtype=np.float32)

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        return mask_seen(np.tile(self.scores, (len(histories), 1)), histories)


def test_a_fixed_ranker_is_an_item_ranker() -> None:
    assert isinstance(Fixed([1.0]), ItemRanker)


def test_target_at_rank_three() -> None:
    ranker = Fixed([0.9, 0.8, 0.7, 0.6, 0.5, 0.1])
    # Item 0 is seen (excluded), so target 3 sits behind items 1 and 2: rank 3.
    ranks = target_ranks(ranker, [EvalCase("u", (0,), 3)])
    assert ranks.tolist() == [3]
    m = ranking_metrics(ranks, [1, 5])
    assert m["HR@1"] == 0.0 and m["HR@5"] == 1.0
    assert m["NDCG@5"] == pytest.approx(0.5)  # 1 / log2(4)
    assert m["MRR"] == pytest.approx(1 / 3)


def test_means_over_users() -> None:
    m = ranking_metrics(np.array([1, 3, 7]), [5])
    assert m["HR@5"] == pytest.approx(2 / 3)
    assert m["NDCG@5"] == pytest.approx((1.0 + 0.5 + 0.0) / 3)
    assert m["MRR"] == pytest.approx((1 + 1 / 3 + 1 / 7) / 3)
    assert list(m) == ["HR@5", "NDCG@5", "MRR"]


def test_ties_count_against_the_model() -> None:
    ranks = target_ranks(Fixed([1.0, 1.0, 1.0, 1.0]), [EvalCase("u", (), 0)])
    assert ranks.tolist() == [4]


def test_a_target_inside_its_history_is_never_found() -> None:
    ranks = target_ranks(Fixed([3.0, 2.0, 1.0]), [EvalCase("u", (0,), 0)])
    assert ranks.tolist() == [3]


def test_batches_give_the_same_ranks() -> None:
    ranker = Fixed([0.5, 0.4, 0.3, 0.2, 0.1])
    cases = [EvalCase("u", (), t) for t in range(5)]
    assert target_ranks(ranker, cases, batch=2).tolist() == [1, 2, 3, 4, 5]


def test_no_cases_gives_nan() -> None:
    assert all(math.isnan(v) for v in ranking_metrics(np.array([], dtype=np.int64), [5]).values())


def test_top_items_skips_seen_and_unknown_ids() -> None:
    ranker = Fixed([0.9, 0.8, 0.7])
    assert top_items(ranker, ["i0", "nowhere"], 5) == [
        ("i1", pytest.approx(0.8)),
        ("i2", pytest.approx(0.7)),
    ]
