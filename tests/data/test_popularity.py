"""Popularity buckets by interaction count, ties sharing their average rank."""

from fractions import Fraction

import pytest

from macrs_sim.config import DataConfig, parse_scenario
from macrs_sim.data.popularity import assign_buckets, bucket_labels, percentile_ranks
from macrs_sim.errors import ConfigError

# Ten rated items and one never rated (left out). Worked out by hand:
# a rank 1 -> 0.1 top; b rank 2 -> 0.2; c, d share ranks 3-4 -> 3.5/10 = 0.35; e rank 5 -> 0.5;
# f rank 6 -> 0.6; g, h, i share 7-9 -> 0.8; j rank 10 -> 1.0.
COUNTS = {
    "a": 50,
    "b": 40,
    "c": 30,
    "d": 30,
    "e": 20,
    "f": 10,
    "g": 5,
    "h": 5,
    "i": 5,
    "j": 1,
    "k": 0,
}


def test_labels() -> None:
    assert bucket_labels(DataConfig().popularity_buckets) == [
        "top 10%",
        "10-20%",
        "20-30%",
        "30-50%",
        "bottom 50%",
    ]
    assert bucket_labels([0.25, 0.5, 1.0]) == ["top 25%", "25-50%", "bottom 50%"]


def test_percentile_ranks_average_ties() -> None:
    r = percentile_ranks(COUNTS)
    assert "k" not in r
    assert r["a"] == Fraction(1, 10) and r["c"] == r["d"] == Fraction(35, 100)
    assert r["g"] == r["h"] == r["i"] == Fraction(8, 10) and r["j"] == 1


def test_assign_buckets_by_quantile_with_ties_together() -> None:
    got = assign_buckets(COUNTS, DataConfig().popularity_buckets)
    assert got == {
        "a": "top 10%",
        "b": "10-20%",
        "c": "30-50%",
        "d": "30-50%",
        "e": "30-50%",
        "f": "bottom 50%",
        "g": "bottom 50%",
        "h": "bottom 50%",
        "i": "bottom 50%",
        "j": "bottom 50%",
    }


def test_a_long_tail_of_ties_is_not_dumped_in_one_middle_bucket() -> None:
    # 4 popular items, then 16 items with one interaction each: ranks 5..20 share 12.5/20.
    counts = {f"p{i}": 100 - i for i in range(4)} | {f"t{i}": 1 for i in range(16)}
    got = assign_buckets(counts, [0.1, 0.2, 0.3, 0.5, 1.0])
    assert {got[f"t{i}"] for i in range(16)} == {"bottom 50%"}
    assert [got[f"p{i}"] for i in range(4)] == ["top 10%", "top 10%", "10-20%", "10-20%"]


@pytest.mark.parametrize(
    ("edges", "message"),
    [
        ([0.2, 0.1, 1.0], "increasing fractions"),
        ([0.1, 0.5], "must end at 1.0"),
        ([0.0, 1.0], "increasing fractions"),
    ],
)
def test_bad_bucket_edges_are_config_errors(edges: list[float], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_scenario(
            {
                "name": "x",
                "systems": [{"name": "m", "kind": "macrs"}],
                "data": {"popularity_buckets": edges},
            }
        )
