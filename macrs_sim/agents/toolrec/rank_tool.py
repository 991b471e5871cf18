"""Attribute-oriented rank tool (paper §3.3.1): the LLM orders the current candidates by an
attribute instruction; its answer is checked by the memory against the item pool directory
(§3.4: any catalog item the user has not consumed, as the authors' code checks, so the
model's open-world knowledge may bring an item in; `candidates_only` for the ablations
and LLMRank, whose prompts forbid that), and a mismatch is sent back with the wrong items
named, a bounded number of times. Attribute "none" ranks by the history alone; `conclude`
is the final ranking of every tool result (the authors' `conclude_step`)."""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import AssistantMessage, ChatCompletionClient, LLMMessage

from macrs_sim.agents.toolrec import prompts as pb
from macrs_sim.agents.toolrec.actions import RankOutput
from macrs_sim.agents.toolrec.memory import ToolMemory
from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm.structured import complete_json
from macrs_sim.protocol import Record


class RankResult(Record):
    # The ranked top k: valid items the model gave, then (when it gave too few or kept
    # failing) the remaining candidates in their current order.
    items: tuple[str, ...]
    llm_calls: int
    reprompts: int = 0
    # Every reference the memory refused, over all attempts.
    invalid: tuple[str, ...] = ()
    # How many of `items` were filled from the current order rather than ranked by the model.
    filled: int = 0
    error: str | None = None


class LLMRankTool:
    def __init__(
        self,
        client: ChatCompletionClient,
        prompts: pb.ToolRecPrompts,
        *,
        mismatch_retries: int = 2,
        json_retries: int = 2,
        candidates_only: bool = False,
    ) -> None:
        self.client = client
        self.prompts = prompts
        self.mismatch_retries = mismatch_retries
        self.json_retries = json_retries
        self.candidates_only = candidates_only

    async def rank(
        self,
        memory: ToolMemory,
        history: str,
        attribute: str,
        k: int,
        opening: Sequence[LLMMessage] = (),
        candidates: Sequence[str] | None = None,
    ) -> RankResult:
        """`opening`: the first messages when not the attribute instruction (the ablations);
        `candidates`: what is ranked (the current list by default)."""
        candidates = list(memory.current if candidates is None else candidates)
        text = pb.render_items(memory.catalog, candidates, self.prompts.domain)
        convo: list[LLMMessage] = list(opening) or pb.rank_messages(
            self.prompts, history, text, attribute, k
        )
        allowed = candidates if self.candidates_only else None
        invalid: list[str] = []
        valid: tuple[str, ...] = ()
        calls, error = 0, None
        for attempt in range(self.mismatch_retries + 1):
            calls += 1
            try:
                out = await complete_json(self.client, convo, RankOutput, retries=self.json_retries)
            except StructuredOutputError as err:
                error = str(err)
                break
            checked = memory.check(out.items, allowed=allowed)
            valid = checked.valid[:k]
            invalid += checked.invalid
            if not checked.invalid and valid:
                break
            if attempt < self.mismatch_retries:
                convo.append(AssistantMessage(content=out.model_dump_json(), source="assistant"))
                refused = list(checked.invalid) or ["(no item)"]
                convo.append(pb.mismatch_message(self.prompts, refused, k))
        rest = [i for i in candidates if i not in valid]
        items = (*valid, *rest)[: min(k, len(candidates))]
        return RankResult(
            items=items, llm_calls=calls, reprompts=calls - 1, invalid=tuple(invalid),
            filled=len(items) - len(valid), error=error,
        )  # fmt: skip
