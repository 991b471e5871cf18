"""ToolRec's protocol: metrics, user samples and the Table 2 aggregation, by hand."""

from __future__ import annotations

import math

import pytest

from macrs_sim.data.splits import EvalCase
from macrs_sim.evaluation.toolrec.metrics import mean_std, ndcg_at, recall_at, target_rank
from macrs_sim.evaluation.toolrec.report import per_seed, summarize
from macrs_sim.evaluation.toolrec.run import UserResult
from macrs_sim.evaluation.toolrec.sampling import sample_cases


def test_recall_and_ndcg_of_one_target() -> None:
    ranked = [f"i{n}" for n in range(1, 13)]
    assert (recall_at(ranked, "i1", 10), ndcg_at(ranked, "i1", 10)) == (1.0, 1.0)
    # Third place: 1 / log2(4) = 0.5.
    assert (recall_at(ranked, "i3", 10), ndcg_at(ranked, "i3", 10)) == (1.0, 0.5)
    # Seventh place: 1 / log2(8) = 1/3.
    assert ndcg_at(ranked, "i7", 10) == pytest.approx(1 / 3)
    # Eleventh place is outside the top 10; a missing target scores nothing.
    assert (recall_at(ranked, "i11", 10), ndcg_at(ranked, "i11", 10)) == (0.0, 0.0)
    assert (recall_at([], "i1", 10), target_rank(ranked[:10], "i11")) == (0.0, None)


def test_mean_and_sample_std() -> None:
    assert mean_std([0.2, 0.4, 0.6]) == pytest.approx((0.4, 0.2))
    assert mean_std([0.3]) == (0.3, 0.0)
    assert all(math.isnan(v) for v in mean_std([]))


def test_samples_are_seeded_distinct_and_capped() -> None:
    cases = [EvalCase(f"u{n:02d}", (0,), 1) for n in range(30)]
    first = sample_cases(cases, 5, seed=0)
    assert first == sample_cases(cases, 5, seed=0)
    assert len({c.user_id for c in first}) == 5
    assert [c.user_id for c in first] == sorted(c.user_id for c in first)
    assert first != sample_cases(cases, 5, seed=1)
    assert sample_cases(cases, 99, seed=0) == cases


def user(model: str, seed: int, recall: float, ndcg: float) -> UserResult:
    return UserResult(seed=seed, user_id="u", target="t", model=model, rank=None,
                      recall=recall, ndcg=ndcg)  # fmt: skip


def test_per_seed_means_then_mean_and_std_over_seeds() -> None:
    users = [
        user("sasrec", 0, 1.0, 1.0), user("sasrec", 0, 0.0, 0.0),    # seed 0: 0.5, 0.5
        user("sasrec", 1, 1.0, 0.5), user("sasrec", 1, 1.0, 0.5),    # seed 1: 1.0, 0.5
        user("sasrec", 2, 0.0, 0.0), user("sasrec", 2, 0.0, 0.0),    # seed 2: 0.0, 0.0
        user("ToolRec", 0, 1.0, 1.0),
    ]  # fmt: skip
    seeds = per_seed(users, ["sasrec", "ToolRec", "absent"])
    assert [(r.model, r.seed, r.n_users, r.recall, r.ndcg) for r in seeds] == [
        ("sasrec", 0, 2, 0.5, 0.5), ("sasrec", 1, 2, 1.0, 0.5), ("sasrec", 2, 2, 0.0, 0.0),
        ("ToolRec", 0, 1, 1.0, 1.0),
    ]  # fmt: skip
    sasrec, toolrec = summarize(seeds, ["sasrec", "ToolRec", "absent"])
    # Recall over seeds: 0.5, 1.0, 0.0 -> mean 0.5, sample std 0.5.
    assert (sasrec.recall_mean, sasrec.recall_std) == pytest.approx((0.5, 0.5))
    # NDCG over seeds: 0.5, 0.5, 0.0 -> mean 1/3, std sqrt(1/12).
    assert (sasrec.ndcg_mean, sasrec.ndcg_std) == pytest.approx((1 / 3, math.sqrt(1 / 12)))
    assert (sasrec.seeds, sasrec.n_users, toolrec.recall_std) == (3, 6, 0.0)
