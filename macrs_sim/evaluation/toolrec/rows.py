"""The LLM rows of ToolRec's protocol: ToolRec and its ablations (one loop per user),
and LLMRank (one ranking per user), all through one concurrency gate."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.rendering import NONE
from macrs_sim.agents.toolrec.build import make_loop
from macrs_sim.agents.toolrec.llmrank import LLMRank
from macrs_sim.agents.toolrec.loop import LoopResult, top_up
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.data.splits import EvalCase, Interactions
from macrs_sim.evaluation.toolrec.llmrank import LLMRANK, LLMRankRecord, llmrank_user
from macrs_sim.evaluation.toolrec.records import TOOLREC, LoopRecord, UserResult, ids_of, score
from macrs_sim.llm.context import CallContext
from macrs_sim.prompts import PromptLibrary


async def _toolrec_user(
    seed: int,
    case: EvalCase,
    data: Interactions,
    run: Callable[..., Any],
    prepared: ToolRecPrepared,
    k: int,
    model: str = TOOLREC,
) -> tuple[UserResult, LoopRecord]:
    history, target = ids_of(data, case)
    try:
        result: LoopResult = await run(history, f"s{seed}-u{case.user_id}", case.user_id)
    except Exception as err:  # an outage after the client's retries costs this user only
        rec = LoopRecord(seed=seed, user_id=case.user_id, target=target, final=(), filled=0,
                         model=model, error=f"{type(err).__name__}: {err}")  # fmt: skip
        return score(seed, case.user_id, target, model, (), k), rec
    final = top_up(result.final, prepared.plain(history, k), k)
    filled = sum(1 for i in final if i not in result.final)
    rec = LoopRecord(seed=seed, user_id=case.user_id, target=target, final=tuple(final),
                     model=model, filled=filled, loop=result)  # fmt: skip
    return score(seed, case.user_id, target, model, final, k), rec


@dataclass(frozen=True)
class Shared:
    """What every LLM row of one evaluation uses."""

    client: ChatCompletionClient
    prompts: PromptLibrary
    prepared: ToolRecPrepared
    gate: asyncio.Semaphore
    progress: Callable[[int], None] | None
    # Each user's rating of each item (records.history_ratings), shown in the history.
    ratings: Mapping[str, Mapping[str, float]] = field(default_factory=dict)


async def loop_rows(
    sh: Shared, model: str, options: ToolRecOptions, seed: int, cases: Sequence[EvalCase],
    data: Interactions, k: int,
) -> list[tuple[UserResult, LoopRecord]]:  # fmt: skip
    async def run(history: list[str], dialogue_id: str, user_id: str) -> LoopResult:
        ctx = CallContext(role="", dialogue_id=dialogue_id, system=model)
        async with sh.gate:
            loop = make_loop(options, sh.prepared, sh.client, sh.prompts, context=ctx)
            out = await loop.run(history, NONE, sh.ratings.get(user_id))
        if sh.progress is not None:
            sh.progress(1)
        return out

    return list(await asyncio.gather(
        *(_toolrec_user(seed, c, data, run, sh.prepared, k, model) for c in cases)
    ))  # fmt: skip


async def llmrank_rows(
    sh: Shared, options: ToolRecOptions, seed: int, cases: Sequence[EvalCase],
    data: Interactions, k: int,
) -> list[LLMRankRecord]:  # fmt: skip
    async def one(case: EvalCase) -> LLMRankRecord:
        history, target = ids_of(data, case)
        dialogue = f"s{seed}-u{case.user_id}"
        ranker = LLMRank(sh.client, sh.prompts.get("toolrec/llmrank"), sh.prepared,
                         candidates=options.candidates, history_items=options.history_items,
                         context=lambda role: CallContext(role=role, dialogue_id=dialogue,
                                                          system=LLMRANK))  # fmt: skip
        async with sh.gate:
            rec = await llmrank_user(ranker, seed, case.user_id, history, target, k)
        if sh.progress is not None:
            sh.progress(1)
        return rec

    return list(await asyncio.gather(*(one(c) for c in cases)))
