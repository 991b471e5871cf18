"""Training on CPU takes every core unless OMP_NUM_THREADS says how many (the test suite's
xdist workers set it to their share: tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.rankers.toy_data import TORCH_REASON

pytest.importorskip("torch", reason=TORCH_REASON)

from macrs_sim.rankers.torch.loop import cpu_threads  # noqa: E402


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", 1), (" 3 ", 3), ("0", 8), ("-2", 8), ("two", 8), ("²", 8), ("2,1", 8), ("", 8)]
    + [(None, 8)],
)
def test_omp_num_threads_is_read_where_it_is_a_positive_count(
    monkeypatch: pytest.MonkeyPatch, value: str | None, expected: int
) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    if value is None:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    else:
        monkeypatch.setenv("OMP_NUM_THREADS", value)
    assert cpu_threads() == expected
