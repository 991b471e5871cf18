"""The one-turn task's cases: leave-one-out test users (paper §4.1), drawn with a seed.

A case's history is the user's items before the held-out last one (at most `history_len`,
the latest). For ranking, the user gives `n_candidates` candidates: the target and
negatives drawn from the items the user never interacted with, in a shuffled order.
Everything comes from one `random.Random(seed)`, so the same arguments give the same cases.
"""

from __future__ import annotations

import random

from macrs_sim.data.splits import Interactions, Split
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, Task


def draw_cases(
    data: Interactions,
    split: Split,
    task: Task,
    *,
    n: int,
    k: int,
    seed: int,
    history_len: int = 20,
) -> list[OneTurnCase]:
    """`n` test cases of `split` (leave-one-out), in the order drawn; ranking gets k candidates."""
    tests = sorted(split.test, key=lambda case: case.user_id)
    if n > len(tests):
        raise ConfigError(
            f"--n {n}: {data.dataset_name} has only {len(tests)} test users (users with 3 or"
            " more interactions)"
        )
    rng = random.Random(seed)
    ids = data.item_ids
    cases = []
    for test in rng.sample(tests, n):
        history = tuple(ids[i] for i in test.history[-history_len:])
        candidates: tuple[str, ...] = ()
        if task == "ranking":
            candidates = _candidates(data, test.user_id, test.target, k, rng)
        cases.append(
            OneTurnCase(
                case_id=f"c-{test.user_id}", user_id=test.user_id, history=history,
                target_id=ids[test.target], candidates=candidates,
            )
        )  # fmt: skip
    return cases


def _candidates(
    data: Interactions, user_id: str, target: int, k: int, rng: random.Random
) -> tuple[str, ...]:
    seen = set(data.sequences[user_id])
    pool = [i for i in range(data.n_items) if i not in seen]
    if len(pool) < k - 1:
        raise ConfigError(
            f"--k {k}: user {user_id!r} has only {len(pool)} items never interacted with, so"
            f" {k - 1} negatives cannot be drawn; use a smaller --k"
        )
    picked = [*rng.sample(pool, k - 1), target]
    rng.shuffle(picked)
    return tuple(data.item_ids[i] for i in picked)
