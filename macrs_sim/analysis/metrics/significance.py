"""Confidence intervals and significance tests for Table 1 of the MACRS paper (§5).

The paper marks a system's Table 1 cell when it is significantly better than ChatGPT
(its reference system) by "a Student's t test". Here the unit of resampling and testing
is the sample (one dialogue of a system per sample): a bootstrap CI of each mean, and a
Student's t-test of a system's per-sample values against the reference system's.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy import stats

FloatArray = NDArray[np.float64]

# The paper's markers (Table 1). Its caption: "‡ indicates significant improvement over
# ChatGPT with p ≤ 0.01 according to a Student's t test". Table 1 also prints † (Average
# Turns of MACRS-C, 4.19†) without defining it in the caption; we read it as the usual
# next level, p ≤ 0.05.
STRONG_MARKER = "‡"
STRONG_P = 0.01
WEAK_MARKER = "†"
WEAK_P = 0.05


def _finite(values: Sequence[float] | np.ndarray) -> FloatArray:
    arr: FloatArray = np.asarray(values, dtype=float)
    kept: FloatArray = arr[~np.isnan(arr)]
    return kept


def _constant(data: FloatArray) -> bool:
    """No spread: every value equal (compared exactly; a variance could round to non-zero)."""
    return bool(np.all(data == data[0]))


# Resampled values held at once: scipy draws n_resamples x n indices in one array unless
# told to batch; 2,000 x 1,000,000 dialogues would be 16 GB. Smaller runs draw at once.
BOOTSTRAP_CELLS = 2**20


def _batch(n: int, n_resamples: int) -> int | None:
    return None if n * n_resamples <= BOOTSTRAP_CELLS else max(1, BOOTSTRAP_CELLS // n)


def bootstrap_ci(
    values: Sequence[float] | np.ndarray,
    *,
    n_resamples: int = 2000,
    level: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean of `values` (NaNs dropped), seeded.

    All values equal, or a single value: (mean, mean), no spread to resample. No values:
    (nan, nan). The same seed always gives the same interval.
    """
    data = _finite(values)
    if data.size == 0:
        return math.nan, math.nan
    mean = float(data.mean())
    if _constant(data):
        return mean, mean
    result = stats.bootstrap(
        (data,),
        np.mean,
        n_resamples=n_resamples,
        batch=_batch(data.size, n_resamples),
        confidence_level=level,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    interval = result.confidence_interval
    return float(interval.low), float(interval.high)


@dataclass(frozen=True)
class TTestResult:
    """A t-test of `other` against `reference`; `n` counts pairs (paired) or all values."""

    statistic: float
    p_value: float
    n: int
    paired: bool


def _nan_result(n: int, paired: bool) -> TTestResult:
    return TTestResult(statistic=math.nan, p_value=math.nan, n=n, paired=paired)


def _paired(reference: pd.Series, other: pd.Series) -> TTestResult:
    ref = reference.dropna()
    oth = other.dropna()
    common = ref.index.intersection(oth.index)
    a = ref.loc[common].to_numpy(dtype=float)
    b = oth.loc[common].to_numpy(dtype=float)
    n = len(common)
    if n < 2 or _constant(b - a):
        return _nan_result(n, paired=True)
    res = stats.ttest_rel(b, a)
    return TTestResult(float(res.statistic), float(res.pvalue), n, paired=True)


def _unpaired(reference: pd.Series, other: pd.Series) -> TTestResult:
    a = reference.dropna().to_numpy(dtype=float)
    b = other.dropna().to_numpy(dtype=float)
    n = a.size + b.size
    # Pooled variance needs a value in each group and at least one degree of freedom.
    if a.size == 0 or b.size == 0 or n < 3:
        return _nan_result(n, paired=False)
    if _constant(a) and _constant(b):  # pooled variance 0
        return _nan_result(n, paired=False)
    with warnings.catch_warnings():
        # scipy warns of "precision loss" for a group of identical values (0/1 metrics often
        # are); the pooled variance comes from the other group and the result is exact.
        warnings.simplefilter("ignore", RuntimeWarning)
        res = stats.ttest_ind(b, a, equal_var=True)
    return TTestResult(float(res.statistic), float(res.pvalue), n, paired=False)


def t_test(reference: pd.Series, other: pd.Series, *, paired: bool) -> TTestResult:
    """Two-sided Student's t-test of `other` against `reference` (series by sample_id).

    NaNs are dropped. Paired: `ttest_rel` over the sample ids in both series (whatever
    their order). Unpaired: the two-sample test with pooled (equal) variances, the
    paper's "Student's t test". The statistic is positive when `other`'s mean is higher.
    Too few values or zero variance (of the differences, when paired) give a NaN
    statistic and p-value rather than an error.
    """
    return _paired(reference, other) if paired else _unpaired(reference, other)


def significance_marker(p: float) -> str:
    """The paper's Table 1 marker for a p-value: "‡" for p ≤ 0.01, "†" for p ≤ 0.05, else "".

    The paper (Table 1 caption): "‡ indicates significant improvement over ChatGPT with
    p ≤ 0.01 according to a Student's t test". It also prints † (MACRS-C's Average Turns)
    without a stated threshold; we take the conventional p ≤ 0.05. NaN gives "".
    """
    if math.isnan(p):
        return ""
    if p <= STRONG_P:
        return STRONG_MARKER
    if p <= WEAK_P:
        return WEAK_MARKER
    return ""
