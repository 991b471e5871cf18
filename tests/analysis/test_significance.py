"""Bootstrap CIs, Student's t-tests and the paper's markers, against hand-worked values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from macrs_sim.analysis.metrics.significance import bootstrap_ci, significance_marker, t_test

IDS = ["s1", "s2", "s3", "s4", "s5"]


def _series(values: list[float], ids: list[str] | None = None) -> pd.Series:
    return pd.Series(values, index=ids or IDS[: len(values)], dtype=float)


# --- paired t-test -------------------------------------------------------------------

# Reference turns a and other turns b per sample; differences b - a = [1, 0, 1, 1, 0].
# mean d = 3/5 = 0.6; sample variance = (3 * 0.4² + 2 * 0.6²) / 4 = (0.48 + 0.72) / 4 = 0.3;
# t = 0.6 / (sqrt(0.3) / sqrt(5)) = sqrt(0.36 * 5 / 0.3) = sqrt(6) = 2.449489742783178;
# df = n - 1 = 4, two-sided p = 2 * P(T_4 > sqrt(6)).
PAIRED_A = [3.0, 5.0, 2.0, 4.0, 6.0]
PAIRED_B = [4.0, 5.0, 3.0, 5.0, 6.0]
PAIRED_T = math.sqrt(6.0)


def test_paired_by_hand() -> None:
    res = t_test(_series(PAIRED_A), _series(PAIRED_B), paired=True)
    assert res.statistic == pytest.approx(PAIRED_T, abs=1e-9)
    assert res.p_value == pytest.approx(2 * stats.t.sf(PAIRED_T, 4), abs=1e-12)
    assert (res.n, res.paired) == (5, True)


def test_paired_sign_follows_other_minus_reference() -> None:
    res = t_test(_series(PAIRED_B), _series(PAIRED_A), paired=True)
    assert res.statistic == pytest.approx(-PAIRED_T, abs=1e-9)


def test_paired_aligns_by_sample_id_and_drops_unmatched() -> None:
    # Same pairs as above, `other` reversed, one id only in each series, and a NaN pair
    # partner ("s6" is NaN in other), so the pairs left are exactly s1..s5.
    ref = _series([*PAIRED_A, 9.0, 1.0], [*IDS, "s6", "only_ref"])
    other = _series([*reversed(PAIRED_B), math.nan, 7.0], [*reversed(IDS), "s6", "only_other"])
    res = t_test(ref, other, paired=True)
    assert res.statistic == pytest.approx(PAIRED_T, abs=1e-9)
    assert res.n == 5


@pytest.mark.parametrize(
    ("ref", "other"),
    [
        ([1.0, 2.0, 3.0], [2.0, 3.0, 4.0]),  # differences all 1: zero variance
        ([1.0, 0.0, 1.0], [1.0, 0.0, 1.0]),  # differences all 0
        ([1.0], [0.0]),  # a single pair
        ([], []),
    ],
)
def test_paired_degenerate_is_nan(ref: list[float], other: list[float]) -> None:
    res = t_test(_series(ref), _series(other), paired=True)
    assert math.isnan(res.statistic) and math.isnan(res.p_value)
    assert res.n == len(ref)


def test_paired_without_common_ids_is_nan() -> None:
    res = t_test(_series([1.0, 2.0], ["a", "b"]), _series([3.0, 5.0], ["c", "d"]), paired=True)
    assert math.isnan(res.p_value) and res.n == 0


# --- unpaired (Student's, pooled variance) -------------------------------------------

# a = [1, 2, 3]: mean 2, sum of squares 2; b = [2, 4, 6, 8]: mean 5, sum of squares
# 9 + 1 + 1 + 9 = 20. Pooled variance = (2 + 20) / (3 + 4 - 2) = 4.4;
# SE = sqrt(4.4 * (1/3 + 1/4)) = sqrt(77/30); t = (5 - 2) / SE = 3 * sqrt(30/77)
# = 1.8725633517..., df = 5.
UNPAIRED_T = 3 * math.sqrt(30 / 77)


def test_unpaired_by_hand() -> None:
    ref = _series([1.0, 2.0, 3.0, math.nan])  # the NaN is dropped
    other = _series([2.0, 4.0, 6.0, 8.0], ["x1", "x2", "x3", "x4"])  # ids need not match
    res = t_test(ref, other, paired=False)
    assert res.statistic == pytest.approx(UNPAIRED_T, abs=1e-9)
    assert res.p_value == pytest.approx(2 * stats.t.sf(UNPAIRED_T, 5), abs=1e-12)
    assert (res.n, res.paired) == (7, False)


def test_unpaired_one_constant_group_is_fine() -> None:
    # a = [1, 1, 1] (SS 0), b = [0, 1, 0, 1] (mean 0.5, SS 1): pooled var = 1/5 = 0.2,
    # SE = sqrt(0.2 * 7/12) = sqrt(7/60), t = (0.5 - 1) / SE = -0.5 * sqrt(60/7).
    res = t_test(_series([1.0, 1.0, 1.0]), _series([0.0, 1.0, 0.0, 1.0]), paired=False)
    assert res.statistic == pytest.approx(-0.5 * math.sqrt(60 / 7), abs=1e-9)


@pytest.mark.parametrize(
    ("ref", "other"),
    [
        ([1.0, 1.0], [0.0, 0.0, 0.0]),  # both constant: pooled variance 0
        ([], [1.0, 2.0]),
        ([1.0], [2.0]),  # no degree of freedom
    ],
)
def test_unpaired_degenerate_is_nan(ref: list[float], other: list[float]) -> None:
    res = t_test(_series(ref), _series(other), paired=False)
    assert math.isnan(res.statistic) and math.isnan(res.p_value)


# --- markers -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "marker"),
    [
        (0.0, "‡"),
        (0.01, "‡"),
        (0.0100001, "†"),
        (0.05, "†"),
        (0.051, ""),
        (1.0, ""),
        (math.nan, ""),
    ],
)
def test_markers_follow_the_paper(p: float, marker: str) -> None:
    assert significance_marker(p) == marker


# --- bootstrap -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "expected"),
    [([0.5, 0.5, 0.5], (0.5, 0.5)), ([0.7], (0.7, 0.7)), ([math.nan, 4.0, 4.0], (4.0, 4.0))],
)
def test_bootstrap_degenerate(values: list[float], expected: tuple[float, float]) -> None:
    assert bootstrap_ci(values) == expected


@pytest.mark.parametrize("values", [[], [math.nan, math.nan]])
def test_bootstrap_empty_is_nan(values: list[float]) -> None:
    low, high = bootstrap_ci(values)
    assert math.isnan(low) and math.isnan(high)


# 1/30, 2/30, ..., 30/30: mean 31/60, sample sd ~0.2976, so SE of the mean ~0.0543.
SPREAD = np.arange(1, 31) / 30


def _numpy_percentile_bootstrap(data: np.ndarray, level: float) -> tuple[float, float]:
    """An independent percentile bootstrap: 50,000 resamples with replacement."""
    rng = np.random.default_rng(12345)
    means = data[rng.integers(0, data.size, size=(50_000, data.size))].mean(axis=1)
    tail = (1 - level) / 2 * 100
    return float(np.percentile(means, tail)), float(np.percentile(means, 100 - tail))


@pytest.mark.parametrize("level", [0.95, 0.8])
def test_bootstrap_matches_a_plain_numpy_bootstrap(level: float) -> None:
    low, high = bootstrap_ci(SPREAD, level=level)
    ref_low, ref_high = _numpy_percentile_bootstrap(SPREAD, level)
    assert low == pytest.approx(ref_low, abs=0.02)
    assert high == pytest.approx(ref_high, abs=0.02)
    # Normal theory as a second check: mean ± z * SE, SE = sd / sqrt(30).
    z = stats.norm.ppf(1 - (1 - level) / 2)
    se = float(np.std(SPREAD, ddof=1)) / math.sqrt(30)
    assert low == pytest.approx(31 / 60 - z * se, abs=0.02)
    assert high == pytest.approx(31 / 60 + z * se, abs=0.02)


def test_bootstrap_is_deterministic_per_seed() -> None:
    assert bootstrap_ci(SPREAD, seed=7) == bootstrap_ci(SPREAD, seed=7)
    assert bootstrap_ci(list(SPREAD), seed=7) == bootstrap_ci(SPREAD, seed=7)
    assert bootstrap_ci(SPREAD, seed=7) != bootstrap_ci(SPREAD, seed=8)


def test_bootstrap_narrower_at_lower_level() -> None:
    low95, high95 = bootstrap_ci(SPREAD, level=0.95)
    low50, high50 = bootstrap_ci(SPREAD, level=0.5)
    assert low95 < low50 < 31 / 60 < high50 < high95
