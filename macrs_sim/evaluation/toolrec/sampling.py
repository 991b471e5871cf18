"""Which test users a trial evaluates: N drawn without replacement, one draw per seed."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from macrs_sim.data.splits import EvalCase


def sample_cases(cases: Sequence[EvalCase], n: int, seed: int) -> list[EvalCase]:
    """`n` cases (all when there are fewer), in the split's order; same seed, same users."""
    if n >= len(cases):
        return list(cases)
    rng = np.random.default_rng(seed)
    chosen = sorted(int(i) for i in rng.choice(len(cases), size=n, replace=False))
    return [cases[i] for i in chosen]
