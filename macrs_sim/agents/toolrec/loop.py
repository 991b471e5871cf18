"""User decision simulation (paper §3.2): the surrogate user thinks, acts, observes.

Each round one model call (`toolrec.simulate`) writes a thought and an action; the action
runs a retrieval tool (the attribute-oriented retriever), the rank tool (`toolrec.rank`)
or finishes. Observations go back into the next round's scratchpad. A round limit (the
paper uses 8) ends the loop too. Then, as the authors' `conclude_step` (§3.1: the final set
"ranked by preference"), the model ranks every item any tool returned to the final list
(`final_k`, 10); a model reply that breaks its schema after the repair retries ends the
loop with the current list. Every round is kept as a typed `RoundRecord`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.toolrec import prompts as pb
from macrs_sim.agents.toolrec.actions import (
    NO_ATTRIBUTE,
    ActionError,
    SimulationStep,
    ToolAction,
    parse_action,
)
from macrs_sim.agents.toolrec.memory import ToolMemory
from macrs_sim.agents.toolrec.rank_tool import LLMRankTool
from macrs_sim.agents.toolrec.retrieval import AttributeRetriever
from macrs_sim.agents.toolrec.rounds import LoopResult as LoopResult
from macrs_sim.agents.toolrec.rounds import RoundRecord as RoundRecord
from macrs_sim.agents.toolrec.rounds import Stop as Stop
from macrs_sim.agents.toolrec.rounds import top_up as top_up
from macrs_sim.agents.toolrec.toolcalls import record_call
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json
from macrs_sim.tools import ToolCallLog

ROLE_SIMULATE, ROLE_RANK, ROLE_TOOLS = "toolrec.simulate", "toolrec.rank", "toolrec.tools"


@dataclass(frozen=True)
class LoopSettings:
    max_rounds: int = 8
    max_k: int = 50
    history_items: int = 20
    mismatch_retries: int = 2
    json_retries: int = 2
    # The final list's length, ranked from every tool result (the authors' final_length).
    final_k: int = 10


class SurrogateUserLoop:
    def __init__(
        self,
        client: ChatCompletionClient,
        prompts: pb.ToolRecPrompts,
        retriever: AttributeRetriever,
        catalog: Catalog,
        settings: LoopSettings = LoopSettings(),
        *,
        context: Callable[[str], CallContext] = lambda role: CallContext(role=role),
        log: ToolCallLog | None = None,
        plain: Callable[[Sequence[str], int], list[str]] | None = None,
    ) -> None:
        """`plain`: the backbone alone (history, k), for retrieve[None, K]."""
        self.client = client
        self.plain = plain
        self.prompts = prompts
        self.domain = prompts.domain
        self.retriever = retriever
        self.catalog = catalog
        self.settings = settings
        self.context = context
        self.log = log
        self.ranker = LLMRankTool(client, prompts, mismatch_retries=settings.mismatch_retries,
                                  json_retries=settings.json_retries)  # fmt: skip

    async def run(
        self, history: Sequence[str], evidence: str, ratings: Mapping[str, float] | None = None
    ) -> LoopResult:
        """`ratings`: the user's rating of history items, where known (shown beside them)."""
        s = self.settings
        memory = ToolMemory(self.catalog, history)
        history_text = pb.render_history_items(self.catalog, history, s.history_items,
                                               self.domain, ratings)  # fmt: skip
        scene = pb.Scene(self.retriever.attributes, history_text, evidence, s.max_k, s.max_rounds)
        steps: list[str] = []
        rounds: list[RoundRecord] = []
        calls = 0
        stop: Stop = "round_limit"
        for number in range(1, s.max_rounds + 1):
            listed = pb.render_candidates(self.catalog, memory.marks(), self.domain)
            msgs = pb.simulation_messages(
                self.prompts, scene, steps, listed, len(memory.current), s.max_rounds - number + 1
            )
            calls += 1
            try:
                with calling(self.context(ROLE_SIMULATE)):
                    step = await complete_json(self.client, msgs, SimulationStep,
                                               retries=s.json_retries)  # fmt: skip
            except StructuredOutputError as err:
                rounds.append(RoundRecord(round=number, tool="model_error", error=str(err),
                                          candidates=len(memory.current)))  # fmt: skip
                stop = "model_error"
                break
            record, observation, used = await self._act(number, step, memory, history_text)
            calls += used
            rounds.append(record)
            if record.tool == "finish":
                stop = "finish"
                break
            steps.append(pb.render_step(number, step.thought, step.action, observation))
        return await self.conclude(memory, history_text, rounds, stop, calls)

    async def conclude(
        self,
        memory: ToolMemory,
        history_text: str,
        rounds: list[RoundRecord],
        stop: Stop,
        calls: int,
    ) -> LoopResult:
        """The final list: every item the tools returned, ranked by the model (no attribute)
        to `final_k`; stored under the mark "finish" (and as the finish round's items). After
        a model error the current list stays as it is."""
        pool = memory.pool()
        if stop != "model_error" and pool:
            given = {"attribute": pb.CONCLUDE, "k": self.settings.final_k, "candidates": len(pool)}
            start = time.perf_counter()
            with calling(self.context(ROLE_RANK)):
                result = await self.ranker.rank(memory, history_text, pb.CONCLUDE,
                                                self.settings.final_k, candidates=pool)  # fmt: skip
                text = pb.render_items(self.catalog, result.items, self.domain)
                record_call(self.log, "rank", given, text, time.perf_counter() - start,
                            result.error)  # fmt: skip
            memory.set_ranked(len(rounds), pb.CONCLUDE, result.items)
            calls += result.llm_calls
            if rounds and rounds[-1].tool == "finish":
                rounds[-1] = rounds[-1].model_copy(
                    update={"items": result.items, "invalid": result.invalid,
                            "candidates": len(result.items)}
                )  # fmt: skip
        return LoopResult(rounds=tuple(rounds), sets=tuple(memory.sets),
                          final=tuple(memory.current), stop=stop, llm_calls=calls)  # fmt: skip

    async def _act(
        self, number: int, step: SimulationStep, memory: ToolMemory, history_text: str
    ) -> tuple[RoundRecord, str, int]:
        """The round's record, the observation text, and the model calls the tool made."""
        try:
            action = parse_action(step.action, self.settings.max_k)
        except ActionError as err:
            rec = _record(number, step, memory, tool="invalid", error=str(err))
            return rec, pb.observation_failed(self.prompts, str(err)), 0
        if not isinstance(action, ToolAction):
            return _record(number, step, memory, tool="finish"), "", 0
        if action.tool == "retrieve":
            return (*self._retrieve(number, step, action, memory), 0)
        return await self._rank(number, step, action, memory, history_text)

    def _retrieve(
        self, number: int, step: SimulationStep, action: ToolAction, memory: ToolMemory
    ) -> tuple[RoundRecord, str]:
        given = {"attribute": action.attribute, "k": action.k}
        fields = {"tool": "retrieve", "attribute": action.attribute, "k": action.k}
        start = time.perf_counter()
        with calling(self.context(ROLE_TOOLS)):
            try:
                # K items not on the list yet: a retrieval complements the list (Fig. 1).
                wanted = action.k + len(memory.current)
                if action.attribute == NO_ATTRIBUTE and self.plain is not None:
                    found = self.plain(memory.sequence, wanted)  # the backbone alone
                else:
                    found = self.retriever.retrieve(memory.sequence, action.attribute, wanted)
            except ValueError as err:
                record_call(self.log, "retrieve", given, "", time.perf_counter() - start, str(err))
                rec = _record(number, step, memory, **fields, error=str(err))
                return rec, pb.observation_failed(self.prompts, str(err))
            checked = memory.check([i for i in found if i not in memory.current][: action.k])
            memory.add_retrieved(number, action.render(), checked.valid)
            text = pb.render_items(self.catalog, checked.valid, self.domain)
            record_call(self.log, "retrieve", given, text, time.perf_counter() - start)
        obs = pb.observation_retrieved(self.prompts, action.attribute, len(checked.valid), text)
        rec = _record(number, step, memory, **fields, items=checked.valid, invalid=checked.invalid)
        return rec, obs

    async def _rank(
        self,
        number: int,
        step: SimulationStep,
        action: ToolAction,
        memory: ToolMemory,
        history_text: str,
    ) -> tuple[RoundRecord, str, int]:
        given = {"attribute": action.attribute, "k": action.k, "candidates": len(memory.current)}
        fields = {"tool": "rank", "attribute": action.attribute, "k": action.k}
        if not memory.current:
            error = "the candidate list is empty; retrieve items first"
            with calling(self.context(ROLE_RANK)):
                record_call(self.log, "rank", given, "", 0.0, error)
            rec = _record(number, step, memory, **fields, error=error)
            return rec, pb.observation_failed(self.prompts, error), 0
        start = time.perf_counter()
        with calling(self.context(ROLE_RANK)):
            result = await self.ranker.rank(memory, history_text, action.attribute, action.k)
            memory.set_ranked(number, action.render(), result.items)
            text = pb.render_items(self.catalog, result.items, self.domain)
            record_call(self.log, "rank", given, text, time.perf_counter() - start, result.error)
        obs = pb.observation_ranked(self.prompts, action.attribute, len(result.items), text)
        rec = _record(
            number, step, memory, **fields, items=result.items, invalid=result.invalid,
            reprompts=result.reprompts, error=result.error,
        )  # fmt: skip
        return rec, obs, result.llm_calls


def _record(number: int, step: SimulationStep, memory: ToolMemory, **fields: Any) -> RoundRecord:
    return RoundRecord(round=number, thought=step.thought, action=step.action,
                       candidates=len(memory.current), **fields)  # fmt: skip
