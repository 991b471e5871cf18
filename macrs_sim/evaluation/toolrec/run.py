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

from macrs_sim.agents.toolrec.build import attribute_retriever, backbone_params
from macrs_sim.agents.toolrec.options import VARIANT_LABELS, ToolRecOptions, Variant
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.retrieval import AttributeRetriever
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import EvalCase, Interactions, Split, leave_one_out
from macrs_sim.evaluation.toolrec.llmrank import LLMRANK, LLMRankRecord
from macrs_sim.evaluation.toolrec.records import TOOLREC as TOOLREC
from macrs_sim.evaluation.toolrec.records import LoopRecord as LoopRecord
from macrs_sim.evaluation.toolrec.records import UserResult as UserResult
from macrs_sim.evaluation.toolrec.records import history_ratings, ids_of, score
from macrs_sim.evaluation.toolrec.rows import Shared, llmrank_rows, loop_rows
from macrs_sim.evaluation.toolrec.sampling import sample_cases
from macrs_sim.prompts import PromptLibrary
from macrs_sim.rankers.base import top_items
from macrs_sim.rankers.train import TrainedRanker, train_ranker


@dataclass(frozen=True)
class EvalSettings:
    users: int = 200
    seeds: tuple[int, ...] = (0, 1, 2)
    rankers: tuple[str, ...] = ("popularity", "itemcf", "bpr", "sasrec")
    k: int = 10
    concurrency: int = 4
    # Rows beside ToolRec: its ablations (Fig. 4) and the LLMRank baseline (Table 2).
    variants: tuple[Variant, ...] = ()
    llmrank: bool = False


@dataclass
class Evaluation:
    users: list[UserResult] = field(default_factory=list)
    loops: list[LoopRecord] = field(default_factory=list)
    # The ablations' loops, and LLMRank's answers as parsed.
    variant_loops: list[LoopRecord] = field(default_factory=list)
    llmrank: list[LLMRankRecord] = field(default_factory=list)
    # Each row's ToolRec options (ToolRec and its ablations), for the run record.
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    models: list[str] = field(default_factory=list)
    sampled: dict[int, int] = field(default_factory=dict)
    training: dict[str, dict[str, Any]] = field(default_factory=dict)
    toolrec_seconds: float = 0.0
    # The retrieval tools' class (the stand-in, or the trained attribute model once merged).
    retriever: str = ""


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
        history, target = ids_of(data, case)
        for kind in settings.rankers:
            ranked = [i for i, _ in top_items(trained[kind].ranker, history, settings.k)]
            rows.append(score(seed, case.user_id, target, kind, ranked, settings.k))
        for attribute in retriever.attributes:
            ranked = retriever.retrieve(history, attribute, settings.k)
            rows.append(
                score(seed, case.user_id, target, f"retrieve:{attribute}", ranked, settings.k)
            )
    return rows


def _training(t: TrainedRanker) -> dict[str, Any]:
    seconds = t.record.get("train_seconds")
    return {"train_seconds": seconds, "cache_hit": t.cache_hit, "checkpoint": str(t.checkpoint)}


def train_all(
    data: Interactions, split: Split, params: Mapping[str, BaseModel], cache_dir: Path
) -> dict[str, TrainedRanker]:
    return {kind: train_ranker(kind, data, split, p, cache_dir) for kind, p in params.items()}


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
    # ToolRec's base: the compared ranker of its kind, unless stage 1 trains it otherwise
    # (SASRec with BPR, Eq. 4, where the SASRec row keeps its own loss).
    kind = options.base_ranker
    base_params = backbone_params(kind, params[kind])
    own = base_params != params[kind]
    base_trained = train_ranker(kind, data, split, base_params, cache_dir) if own else trained[kind]
    base = base_trained.ranker
    backbone = base_params if kind == "sasrec" else None
    retriever = attribute_retriever(options, data, split, dataset, base, cache_dir, backbone)
    prepared = ToolRecPrepared(retriever, base, dataset.catalog)
    loops = {TOOLREC: options} | {VARIANT_LABELS[v]: options.model_copy(update={"variant": v})
                                  for v in settings.variants}  # fmt: skip
    extra = [LLMRANK] if settings.llmrank else []
    attributes = [f"retrieve:{a}" for a in retriever.attributes]
    ev = Evaluation(models=[*settings.rankers, *attributes, *loops, *extra])
    ev.training = {k: _training(t) for k, t in trained.items()}
    if own:
        ev.training[f"{TOOLREC}.base"] = _training(base_trained)
    ev.retriever = type(retriever).__name__
    ev.options = {m: o.model_dump(mode="json") for m, o in loops.items()}
    if settings.llmrank:  # LLMRank's own settings: the base ranker's candidates
        ev.options[LLMRANK] = options.model_dump(
            include={"base_ranker", "ranker_params", "candidates", "history_items"}
        )
    sh = Shared(client, prompts, prepared, asyncio.Semaphore(settings.concurrency), progress,
                history_ratings(data))  # fmt: skip
    for seed in settings.seeds:
        cases = sample_cases(split.test, settings.users, seed)
        ev.sampled[seed] = len(cases)
        ev.users += _plain_rows(seed, cases, data, settings, trained, retriever)
        for model, opts in loops.items():
            started = time.perf_counter()
            done = await loop_rows(sh, model, opts, seed, cases, data, settings.k)
            if model == TOOLREC:
                ev.toolrec_seconds += time.perf_counter() - started
            ev.users += [u for u, _ in done]
            (ev.loops if model == TOOLREC else ev.variant_loops).extend(r for _, r in done)
        if settings.llmrank:
            ranked = await llmrank_rows(sh, options, seed, cases, data, settings.k)
            ev.llmrank += ranked
            ev.users += [score(seed, r.user_id, r.target, LLMRANK, r.final, settings.k)
                         for r in ranked]  # fmt: skip
    return ev
