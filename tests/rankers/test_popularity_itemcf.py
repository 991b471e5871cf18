"""Popularity order and item-CF cosine neighbours, worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from macrs_sim.data.splits import leave_one_out
from macrs_sim.rankers.itemcf import ItemCFParams, ItemCFRanker
from macrs_sim.rankers.popularity import PopularityRanker
from tests.rankers.toy_data import toy

# Users: u1 {0, 1, 2}, u2 {0, 1} (1 twice: counts once), u3 {1, 3}. Users per item: 2, 3, 1, 1.
# Co-occurrence: (0,1) 2, (0,2) 1, (1,2) 1, (1,3) 1.
CF = {"u1": [0, 1, 2], "u2": [0, 1, 1], "u3": [1, 3]}
S01, S02, S12, S13 = 2 / math.sqrt(6), 1 / math.sqrt(2), 1 / math.sqrt(3), 1 / math.sqrt(3)


def fit_cf(neighbours: int = 200) -> ItemCFRanker:
    data = toy(CF, 5)
    return ItemCFRanker.fit(data.item_ids, data.sequences, ItemCFParams(neighbours=neighbours))


def test_itemcf_neighbours_by_hand() -> None:
    cf = fit_cf()
    assert cf.neighbours(0, 5) == [(1, pytest.approx(S01)), (2, pytest.approx(S02))]
    # Items 2 and 3 tie with item 1: lower index first.
    assert cf.neighbours(1, 5) == [
        (0, pytest.approx(S01)),
        (2, pytest.approx(S12)),
        (3, pytest.approx(S13)),
    ]
    assert cf.neighbours(4, 5) == []  # never seen


def test_itemcf_scores_sum_over_the_history() -> None:
    scores = fit_cf().score([[0, 1]])[0]
    assert scores[0] == -np.inf and scores[1] == -np.inf
    assert scores[2] == pytest.approx(S02 + S12)
    assert scores[3] == pytest.approx(S13)
    assert scores[4] == 0.0


def test_itemcf_pruning_keeps_the_best_neighbours() -> None:
    cf = fit_cf(neighbours=1)
    assert cf.neighbours(1, 5) == [(0, pytest.approx(S01))]
    assert cf.score([[1]])[0].tolist()[2:] == [0.0, 0.0, 0.0]


def test_popularity_counts_training_interactions_only() -> None:
    data = toy({"a": [0, 1, 2, 3], "b": [1, 2, 4], "c": [1, 0]}, 5)
    split = leave_one_out(data)  # train: a (0, 1), b (1,), c (1, 0)
    pop = PopularityRanker.fit(data.item_ids, split.train)
    assert pop.counts.tolist() == [2, 3, 0, 0, 0]
    assert pop.score([[1], []]).tolist() == [[2, -np.inf, 0, 0, 0], [2, 3, 0, 0, 0]]


def test_arrays_round_trip() -> None:
    cf = fit_cf()
    back = ItemCFRanker.from_arrays(cf.item_ids, cf.arrays())
    assert np.array_equal(back.score([[0], [3]]), cf.score([[0], [3]]))
