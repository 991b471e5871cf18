"""The "w/ single" and "w/ multi" ablations (paper §4.3.1, Fig. 4): no CoT, no tool
learning; the candidates come from fixed sources and the LLM ranks them in one call.

w/ single: `candidates` items of the plain ranker (SASRec). w/ multi: the same number
split evenly over the plain ranker and every attribute-oriented retrieval tool (the
remainder to the first sources), each source adding items not on the list yet; the plain
ranker tops up a pool left short. Each source is kept as a round (`retrieve[none, K]` is
the plain ranker, the authors' "None" attribute), the ranking as the last round.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.rendering import NONE
from macrs_sim.agents.toolrec import prompts as pb
from macrs_sim.agents.toolrec.loop import ROLE_RANK, ROLE_TOOLS, LoopResult, RoundRecord
from macrs_sim.agents.toolrec.memory import ToolMemory
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.rank_tool import LLMRankTool
from macrs_sim.agents.toolrec.toolcalls import record_call
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.prompts import PromptTemplate
from macrs_sim.tools import ToolCallLog

PLAIN = "none"  # the plain ranker as a source (ToolRec-Code: Retrieve[None, K])


class ToolRecLoop(Protocol):
    context: Callable[[str], CallContext]

    async def run(
        self, history: Sequence[str], evidence: str, ratings: Mapping[str, float] | None = None
    ) -> LoopResult: ...


def split_evenly(total: int, parts: int) -> list[int]:
    """`total` over `parts` sources, the remainder to the first ones: 30 over 4 -> 8 8 7 7."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def source_block(template: PromptTemplate, attribute: str, items: str, k: int) -> str:
    if attribute == PLAIN:
        return template.render("plain", k=k, items=items)
    return template.render("source", attribute=attribute, k=k, items=items)


def pool_messages(
    template: PromptTemplate, history: str, evidence: str, sources: str, n: int, k: int
) -> list[LLMMessage]:
    user = template.render("user", history=history, evidence=evidence or NONE, sources=sources,
                           n=n, k=k)  # fmt: skip
    return [SystemMessage(content=template.render("system")),
            UserMessage(content=user, source="user")]  # fmt: skip


class CandidateRankLoop:
    """One ranking call over a fixed candidate pool; `multi` adds the attribute tools."""

    def __init__(
        self,
        client: ChatCompletionClient,
        prompts: pb.ToolRecPrompts,
        prepared: ToolRecPrepared,
        *,
        multi: bool,
        candidates: int,
        top: int,
        history_items: int,
        mismatch_retries: int = 2,
        json_retries: int = 2,
        context: Callable[[str], CallContext] = lambda role: CallContext(role=role),
        log: ToolCallLog | None = None,
    ) -> None:
        self.prompts = prompts
        self.prepared = prepared
        self.sources = [PLAIN, *(prepared.retriever.attributes if multi else ())]
        self.candidates, self.top, self.history_items = candidates, top, history_items
        self.context = context
        self.log = log
        # Its prompt ranks the given candidates only: an item off the list is a mismatch.
        self.ranker = LLMRankTool(client, prompts, mismatch_retries=mismatch_retries,
                                  json_retries=json_retries, candidates_only=True)  # fmt: skip

    def _fetch(self, history: Sequence[str], attribute: str, n: int) -> list[str]:
        if attribute == PLAIN:
            return self.prepared.plain(history, n)
        return self.prepared.retriever.retrieve(history, attribute, n)

    def _take(self, memory: ToolMemory, attribute: str, size: int) -> tuple[RoundRecord, str]:
        """Up to `size` of the source's items not on the list yet, stored as one round."""
        number = len(memory.sets) + 1
        mark = f"retrieve[{attribute}, {size}]"
        start = time.perf_counter()
        with calling(self.context(ROLE_TOOLS)):
            found = self._fetch(memory.sequence, attribute, size + len(memory.current))
            checked = memory.check([i for i in found if i not in memory.current][:size])
            memory.add_retrieved(number, mark, checked.valid)
            text = pb.render_items(self.prepared.catalog, checked.valid, self.prompts.domain)
            given = {"attribute": attribute, "k": size}
            record_call(self.log, "retrieve", given, text, time.perf_counter() - start)
        rec = RoundRecord(round=number, action=mark, tool="retrieve", attribute=attribute, k=size,
                          items=checked.valid, invalid=checked.invalid,
                          candidates=len(memory.current))  # fmt: skip
        return rec, source_block(self.prompts.rank, attribute, text, len(checked.valid))

    def _gather(self, memory: ToolMemory) -> tuple[list[RoundRecord], list[str]]:
        """Each source's share, then the plain ranker for what the sources could not give."""
        sizes = split_evenly(self.candidates, len(self.sources))
        taken = [self._take(memory, a, n) for a, n in zip(self.sources, sizes, strict=True) if n]
        short = self.candidates - len(memory.current)
        if short > 0 and len(self.sources) > 1:
            taken.append(self._take(memory, PLAIN, short))
        return [r for r, _ in taken], [b for _, b in taken]

    async def run(
        self, history: Sequence[str], evidence: str, ratings: Mapping[str, float] | None = None
    ) -> LoopResult:
        memory = ToolMemory(self.prepared.catalog, history)
        rounds, blocks = self._gather(memory)
        text = pb.render_history_items(
            self.prepared.catalog, history, self.history_items, self.prompts.domain, ratings
        )
        k = min(self.top, len(memory.current))
        if k == 0:
            return LoopResult(rounds=tuple(rounds), sets=tuple(memory.sets), final=(),
                              stop="finish", llm_calls=0)  # fmt: skip
        opening = pool_messages(self.prompts.rank, text, evidence, "\n".join(blocks),
                                len(memory.current), k)  # fmt: skip
        with calling(self.context(ROLE_RANK)):
            result = await self.ranker.rank(memory, text, PLAIN, k, opening=opening)
            record_call(self.log, "rank", {"attribute": PLAIN, "k": k,
                        "candidates": len(memory.current)}, "", 0.0, result.error)  # fmt: skip
        mark = f"rank[{PLAIN}, {k}]"
        memory.set_ranked(len(rounds) + 1, mark, result.items)
        rounds.append(RoundRecord(round=len(rounds) + 1, action=mark, tool="rank", attribute=PLAIN,
                                  k=k, items=result.items, invalid=result.invalid,
                                  reprompts=result.reprompts, error=result.error,
                                  candidates=len(memory.current)))  # fmt: skip
        return LoopResult(
            rounds=tuple(rounds),
            sets=tuple(memory.sets),
            final=tuple(memory.current),
            stop="finish",
            llm_calls=result.llm_calls,
        )
