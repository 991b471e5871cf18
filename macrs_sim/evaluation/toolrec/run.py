"""Run ToolRec's protocol: the same sampled users for ToolRec, its retrieval tools alone and
the toolkit's rankers, all trained on the leave-one-out split (the test item never seen)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autogen_core.models import ChatCompletionClient
from pydantic import BaseModel

from macrs_sim.agents.rendering import NONE
from macrs_sim.agents.toolrec.build import attribute_retriever, make_loop
from macrs_sim.agents.toolrec.loop import LoopResult, top_up
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.retrieval import AttributeRetriever
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import EvalCase, Interactions, Split, leave_one_out
from macrs_sim.evaluation.toolrec.metrics import ndcg_at, recall_at, target_rank
from macrs_sim.evaluation.toolrec.sampling import sample_cases
from macrs_sim.llm.context import CallContext
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Record
from macrs_sim.rankers.base import top_items
from macrs_sim.rankers.train import TrainedRanker, train_ranker

TOOLREC = "ToolRec"


@dataclass(frozen=True)
class EvalSettings:
    users: int = 200
    seeds: tuple[int, ...] = (0, 1, 2)
    rankers: tuple[str, ...] = ("popularity", "itemcf", "bpr", "sasrec")
    k: int = 10
    concurrency: int = 4


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
    # How many of the final top K came from the plain ranker (the loop's list was short).
    filled: int
    loop: LoopResult | None = None
    # The loop raised (the model endpoint failed after its retries): scored as an empty list.
    error: str | None = None


@dataclass
class Evaluation:
    users: list[UserResult] = field(default_factory=list)
    loops: list[LoopRecord] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    sampled: dict[int, int] = field(default_factory=dict)
    training: dict[str, dict[str, Any]] = field(default_factory=dict)
    toolrec_seconds: float = 0.0
    # The retrieval tools' class (the stand-in, or the trained attribute model once merged).
    retriever: str = ""


def _result(
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


def _plain_rows(
    seed: int,
    cases: Sequence[EvalCase],
    data: Interactions,
    settings: EvalSettings,
    trained: Mapping[str, TrainedRanker],
    retriever: AttributeRetriever,
) -> list[UserResult]:
    """The rankers' top K and each retrieval tool's top K alone (the paper's "frozen + a")."""
    rows: list[UserResult] = []
    for case in cases:
        history, target = _ids(data, case)
        for kind in settings.rankers:
            ranked = [i for i, _ in top_items(trained[kind].ranker, history, settings.k)]
            rows.append(_result(seed, case.user_id, target, kind, ranked, settings.k))
        for attribute in retriever.attributes:
            ranked = retriever.retrieve(history, attribute, settings.k)
            rows.append(
                _result(seed, case.user_id, target, f"retrieve:{attribute}", ranked, settings.k)
            )
    return rows


def _training(t: TrainedRanker) -> dict[str, Any]:
    seconds = t.record.get("train_seconds")
    return {"train_seconds": seconds, "cache_hit": t.cache_hit, "checkpoint": str(t.checkpoint)}


def train_all(
    data: Interactions, split: Split, params: Mapping[str, BaseModel], cache_dir: Path
) -> dict[str, TrainedRanker]:
    return {kind: train_ranker(kind, data, split, p, cache_dir) for kind, p in params.items()}


def _ids(data: Interactions, case: EvalCase) -> tuple[list[str], str]:
    return [data.item_ids[i] for i in case.history], data.item_ids[case.target]


async def _toolrec_user(
    seed: int,
    case: EvalCase,
    data: Interactions,
    run: Callable[..., Any],
    prepared: ToolRecPrepared,
    k: int,
) -> tuple[UserResult, LoopRecord]:
    history, target = _ids(data, case)
    try:
        result: LoopResult = await run(history, f"s{seed}-u{case.user_id}")
    except Exception as err:  # an outage after the client's retries costs this user only
        rec = LoopRecord(seed=seed, user_id=case.user_id, target=target, final=(), filled=0,
                         error=f"{type(err).__name__}: {err}")  # fmt: skip
        return _result(seed, case.user_id, target, TOOLREC, (), k), rec
    final = top_up(result.final, prepared.plain(history, k), k)
    filled = sum(1 for i in final if i not in result.final)
    rec = LoopRecord(seed=seed, user_id=case.user_id, target=target, final=tuple(final),
                     filled=filled, loop=result)  # fmt: skip
    return _result(seed, case.user_id, target, TOOLREC, final, k), rec


async def evaluate(
    data: Interactions,
    dataset: Dataset,
    settings: EvalSettings,
    *,
    options: ToolRecOptions,
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    params: Mapping[str, BaseModel],
    cache_dir: Path,
    progress: Callable[[int], None] | None = None,
) -> Evaluation:
    """`params`: every ranker to compare, plus `options.base_ranker` (ToolRec's base)."""
    split = leave_one_out(data)
    trained = train_all(data, split, params, cache_dir)
    base = trained[options.base_ranker].ranker
    backbone = params.get("sasrec") if options.base_ranker == "sasrec" else None
    retriever = attribute_retriever(options, data, split, dataset, base, cache_dir, backbone)
    prepared = ToolRecPrepared(retriever, base, dataset.catalog)
    attributes = [f"retrieve:{a}" for a in retriever.attributes]
    ev = Evaluation(models=[*settings.rankers, *attributes, TOOLREC])
    ev.training = {kind: _training(t) for kind, t in trained.items()}
    ev.retriever = type(retriever).__name__
    gate = asyncio.Semaphore(settings.concurrency)

    async def run(history: list[str], dialogue_id: str) -> LoopResult:
        ctx = CallContext(role="", dialogue_id=dialogue_id, system=TOOLREC)
        async with gate:
            loop = make_loop(options, prepared, client, prompts, context=ctx)
            out = await loop.run(history, NONE)
        if progress is not None:
            progress(1)
        return out

    for seed in settings.seeds:
        cases = sample_cases(split.test, settings.users, seed)
        ev.sampled[seed] = len(cases)
        ev.users += _plain_rows(seed, cases, data, settings, trained, retriever)
        started = time.perf_counter()
        done = await asyncio.gather(
            *(_toolrec_user(seed, c, data, run, prepared, settings.k) for c in cases)
        )
        ev.toolrec_seconds += time.perf_counter() - started
        ev.users += [u for u, _ in done]
        ev.loops += [r for _, r in done]
    return ev
