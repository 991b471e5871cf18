"""The per-user records of ToolRec's protocol: one model's score, one loop for audit."""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.agents.recmind.memory import read_ratings
from macrs_sim.agents.toolrec.loop import LoopResult
from macrs_sim.data.splits import EvalCase, Interactions
from macrs_sim.evaluation.toolrec.metrics import ndcg_at, recall_at, target_rank
from macrs_sim.protocol import Record

TOOLREC = "ToolRec"


class UserResult(Record):
    """One model's list for one sampled user."""

    seed: int
    user_id: str
    target: str
    model: str
    rank: int | None
    recall: float
    ndcg: float


class LoopRecord(Record):
    """ToolRec's loop for one sampled user, for audit (rounds, tool marks, stop reason)."""

    seed: int
    user_id: str
    target: str
    final: tuple[str, ...]
    # "ToolRec", or the ablation's row ("w/ single", "w/ multi", "w/ Plan").
    model: str = TOOLREC
    # How many of the final top K came from the plain ranker (the loop's list was short).
    filled: int
    loop: LoopResult | None = None
    # The loop raised (the model endpoint failed after its retries): scored as an empty list.
    error: str | None = None


def score(
    seed: int, user_id: str, target: str, model: str, ranked: Sequence[str], k: int
) -> UserResult:
    return UserResult(
        seed=seed,
        user_id=user_id,
        target=target,
        model=model,
        rank=target_rank(ranked[:k], target),
        recall=recall_at(ranked, target, k),
        ndcg=ndcg_at(ranked, target, k),
    )


def ids_of(data: Interactions, case: EvalCase) -> tuple[list[str], str]:
    return [data.item_ids[i] for i in case.history], data.item_ids[case.target]


def history_ratings(data: Interactions) -> dict[str, dict[str, float]]:
    """Each user's rating of each item they rated (a prepared database's; {} for the demo),
    for the surrogate user's history lines; only history items are ever shown."""
    by_user = read_ratings(data)
    return {
        user: {data.item_ids[i]: r for i, r in zip(data.sequences.get(user, ()), rated,
                                                   strict=False) if r is not None}
        for user, rated in by_user.items()
    }  # fmt: skip
