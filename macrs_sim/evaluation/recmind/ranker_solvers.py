"""Trained rankers as solvers of the ranking tasks: the paper's non-LLM rows.

The paper sets RecMind beside trained recommenders (Tables 2-3: BPR-MLP, ENMF, S3-Rec,
SASRec). `ranker-<kind>` is the toolkit's ranker of that kind (popularity, itemcf, bpr,
sasrec, bert4rec), trained on the run's leave-one-out split (every user's last two items
held out of training, the second-last validating; checkpoints cached as `models train`
caches them) and asked the same cases: it orders the case's candidates by its scores for
the user's visible history (ties in the order shown) and answers the first `top_n`. It
reads no question text and calls no model; zero- and few-shot rows are the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from macrs_sim.data.splits import leave_one_out
from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.recmind.contract import (
    SolverAnswer,
    SolverContext,
    SolverFactory,
    TaskSolver,
)
from macrs_sim.rankers.base import ItemRanker
from macrs_sim.rankers.cache import default_cache_dir
from macrs_sim.rankers.train import make_params, train_ranker

RANKER_KINDS = ("popularity", "itemcf", "bpr", "sasrec", "bert4rec")


class RankerSolver:
    def __init__(
        self,
        ranker: ItemRanker,
        histories: Mapping[str, Sequence[tuple[str, float | None]]],
        top_n: int,
    ) -> None:
        self.ranker = ranker
        self.histories = histories
        self.top_n = top_n
        self.index = {item_id: i for i, item_id in enumerate(ranker.item_ids)}

    async def solve(
        self, question: str, *, user_id: str, candidates: Sequence[str] = ()
    ) -> SolverAnswer:
        seen = [self.index[i] for i, _ in self.histories.get(user_id, ()) if i in self.index]
        scores = self.ranker.score([seen])[0]

        def score(item_id: str) -> float:
            at = self.index.get(item_id)
            return float(scores[at]) if at is not None else -np.inf

        order = sorted(range(len(candidates)), key=lambda n: (-score(candidates[n]), n))
        ranked = tuple(candidates[n] for n in order[: self.top_n])
        return SolverAnswer("\n".join(ranked), ranked)


def ranker_factory(kind: str) -> SolverFactory:
    def build(ctx: SolverContext) -> TaskSolver:
        data = ctx.interactions
        if data is None:
            raise ConfigError(f"solver ranker-{kind} needs the run's interactions")
        split = leave_one_out(data)
        trained = train_ranker(kind, data, split, make_params(kind, {}), default_cache_dir(data))
        return RankerSolver(trained.ranker, ctx.histories, ctx.top_n)

    return build


RANKER_SOLVERS: dict[str, SolverFactory] = {f"ranker-{k}": ranker_factory(k) for k in RANKER_KINDS}
