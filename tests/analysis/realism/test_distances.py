"""Distances and intervals worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import wasserstein_distance

from macrs_sim.analysis.realism.compute import realism_table
from macrs_sim.analysis.realism.distance import Interval, distinct_n
from macrs_sim.analysis.realism.measures import DialogueMeasures
from macrs_sim.analysis.realism.sample import SideSample
from macrs_sim.analysis.realism.table import verdict


def _m(
    words: tuple[int, ...], answers: tuple[str, ...] = (), text: str = "a b"
) -> DialogueMeasures:
    n = len(words)
    return DialogueMeasures(words, None, (False,) * n, (0,) * n, answers, None, (text,) * n)


def _side(label: str, dialogues: list[DialogueMeasures], cap: int = 100) -> SideSample:
    side = SideSample(label, cap)
    for d in dialogues:
        side.add(d)
    return side


def test_wasserstein_and_total_variation_by_hand() -> None:
    people = _side(
        "people", [_m((12, 7, 5), ("rejected", "accepted")), _m((6, 4), ("unanswered",))]
    )
    run = _side("run", [_m((8, 5, 4), ("rejected", "accepted"))])
    table = {r.spec.name: r for r in realism_table(people, [run], draws=50)}
    # F_people - F_run over [4,5) [5,6) [6,7) [7,8) [8,12): 2/15 + 4/15 + 1/15 + 2/15 + 4 * 1/5
    assert table["words"].distances[0].point == pytest.approx(1.4)
    assert table["words"].distances[0].point == pytest.approx(
        wasserstein_distance([12, 7, 5, 6, 4], [8, 5, 4])
    )
    # answers: people 1/3 each, run 1/2 accepted, 1/2 rejected: (1/6 + 1/6 + 1/3) / 2
    assert table["answers"].distances[0].point == pytest.approx(1 / 3)
    assert table["words"].people.mean == pytest.approx(34 / 5)
    assert table["answers"].runs[0].shares == pytest.approx((0.5, 0.5, 0.0))
    lo, hi = table["words"].distances[0].lo, table["words"].distances[0].hi
    assert 0 <= lo <= hi
    assert math.isnan(table["attributes"].distances[0].point)  # no side knows its target


def test_the_same_users_are_at_distance_zero_and_no_run_is_closer() -> None:
    dialogues = [_m((3, 9)), _m((5,)), _m((2, 2, 7))]
    a, b, c = (_side(n, dialogues) for n in ("people", "a", "b"))
    table = realism_table(a, [b, c], draws=30)
    words = next(r for r in table if r.spec.name == "words")
    assert [d.point for d in words.distances] == [0.0, 0.0]
    assert verdict(words.differences[0], "a", "b") == "no clear difference"


def test_distinct_n_by_hand_and_the_verdict() -> None:
    texts = [("a b a",), ("b c",)]
    assert distinct_n(texts, np.array([0, 1]), 100, 1) == pytest.approx(3 / 5)
    assert distinct_n(texts, np.array([0, 1]), 100, 2) == pytest.approx(3 / 3)
    assert distinct_n(texts, np.array([0, 1]), 3, 1) == pytest.approx(2 / 3)  # budget: 3 words
    assert verdict(Interval(-0.2, -0.3, -0.1), "a", "b") == "b closer"
    assert verdict(Interval(0.2, 0.1, 0.3), "a", "b") == "a closer"


def test_the_reservoir_keeps_at_most_its_cap() -> None:
    side = _side("big", [_m((i,)) for i in range(1000)], cap=10)
    assert (side.seen, len(side.kept), side.sampled) == (1000, 10, True)
    again = _side("big", [_m((i,)) for i in range(1000)], cap=10)
    assert [m.words for m in side.kept] == [m.words for m in again.kept]  # seeded
