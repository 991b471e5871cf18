"""Task metrics against hand computations."""

from __future__ import annotations

import math

import pytest

from macrs_sim.evaluation.recmind.metrics import (
    hit_at,
    ndcg_at,
    ranking_metrics,
    rating_metrics,
    target_position,
)


def test_target_position_is_one_based() -> None:
    assert target_position(("a", "b", "c"), "c") == 3
    assert target_position(("a",), "z") is None


def test_ndcg_of_one_relevant_item() -> None:
    assert ndcg_at(1, 5) == 1.0
    assert ndcg_at(3, 5) == pytest.approx(0.5)  # 1 / log2(4)
    assert ndcg_at(7, 10) == pytest.approx(1 / 3)  # 1 / log2(8)
    assert ndcg_at(6, 5) == 0.0 and ndcg_at(None, 10) == 0.0
    assert hit_at(5, 5) == 1.0 and hit_at(6, 5) == 0.0 and hit_at(None, 5) == 0.0


def test_ranking_metrics_with_a_miss_and_an_unparsable_answer() -> None:
    # targets at 1, 3, 7; one not ranked; one unparsable answer (no position): 5 cases
    got = ranking_metrics([1, 3, 7, None, None], [5, 10])
    assert list(got) == ["HR@5", "HR@10", "NDCG@5", "NDCG@10"]
    assert got["HR@5"] == pytest.approx(2 / 5)
    assert got["HR@10"] == pytest.approx(3 / 5)
    assert got["NDCG@5"] == pytest.approx((1 + 0.5) / 5)
    assert got["NDCG@10"] == pytest.approx((1 + 0.5 + 1 / 3) / 5)


def test_ranking_metrics_of_no_case_are_nan() -> None:
    assert all(math.isnan(v) for v in ranking_metrics([], [5]).values())


def test_rmse_and_mae_leave_an_unparsable_rating_out() -> None:
    # errors: 4-2=2, 1-3=-2, (unparsable: not scored), 4.5-4.5=0
    got = rating_metrics([4.0, 1.0, None, 4.5], [2.0, 3.0, 5.0, 4.5])
    assert got["RMSE"] == pytest.approx(math.sqrt(8 / 3))
    assert got["MAE"] == pytest.approx(4 / 3)
    assert all(math.isnan(v) for v in rating_metrics([None], [3.0]).values())


def test_rating_lengths_must_agree() -> None:
    with pytest.raises(ValueError):
        rating_metrics([1.0], [1.0, 2.0])
