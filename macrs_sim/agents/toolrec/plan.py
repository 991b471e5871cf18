"""The "w/ Plan" ablation (paper §4.3.1, Fig. 4): CoT disabled; "the LLM was instructed
to generate all the steps of tool-calling at once and then strictly follow the execution
plan" (ToolRec-Code: `plan_sample`, `plan_task`).

One model call (`toolrec.plan`) writes the plan; its actions then run in order through
the same tools and memory as the full loop, with no thought and no further surrogate-user
call (the rank tool still asks the model, as a tool). An action that cannot be read is
recorded and skipped; `finish` ends the plan; the first `max_rounds` actions run at most.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.rendering import NONE
from macrs_sim.agents.toolrec import prompts as pb
from macrs_sim.agents.toolrec.actions import PlanOutput, SimulationStep
from macrs_sim.agents.toolrec.loop import (
    LoopResult,
    LoopSettings,
    RoundRecord,
    Stop,
    SurrogateUserLoop,
)
from macrs_sim.agents.toolrec.memory import ToolMemory
from macrs_sim.agents.toolrec.retrieval import AttributeRetriever
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json
from macrs_sim.prompts import PromptTemplate
from macrs_sim.tools import ToolCallLog

ROLE_PLAN = "toolrec.plan"


def plan_messages(template: PromptTemplate, scene: pb.Scene, top: int) -> list[LLMMessage]:
    system = template.render(
        "system", attributes=", ".join(scene.attributes), max_k=scene.max_k,
        max_rounds=scene.max_rounds, demonstrations=template.render("demonstrations"),
    )  # fmt: skip
    user = template.render("user", history=scene.history, evidence=scene.evidence or NONE,
                           top=top)  # fmt: skip
    return [SystemMessage(content=system), UserMessage(content=user, source="user")]


class PlanFirstLoop(SurrogateUserLoop):
    """Generate-then-execute: `plan` is the `toolrec/plan` template, `top` the task's N."""

    def __init__(
        self,
        client: ChatCompletionClient,
        prompts: pb.ToolRecPrompts,
        retriever: AttributeRetriever,
        catalog: Catalog,
        settings: LoopSettings,
        *,
        plan_template: PromptTemplate,
        top: int,
        context: Callable[[str], CallContext] = lambda role: CallContext(role=role),
        log: ToolCallLog | None = None,
        plain: Callable[[Sequence[str], int], list[str]] | None = None,
    ) -> None:
        super().__init__(client, prompts, retriever, catalog, settings, context=context, log=log,
                         plain=plain)  # fmt: skip
        self.plan_template = plan_template
        self.top = top

    async def run(
        self, history: Sequence[str], evidence: str, ratings: Mapping[str, float] | None = None
    ) -> LoopResult:
        s = self.settings
        memory = ToolMemory(self.catalog, history)
        history_text = pb.render_history_items(self.catalog, history, s.history_items,
                                               self.domain, ratings)  # fmt: skip
        scene = pb.Scene(self.retriever.attributes, history_text, evidence, s.max_k, s.max_rounds)
        msgs = plan_messages(self.plan_template, scene, self.top)
        try:
            with calling(self.context(ROLE_PLAN)):
                plan = await complete_json(self.client, msgs, PlanOutput, retries=s.json_retries)
        except StructuredOutputError as err:
            failed = RoundRecord(round=1, tool="model_error", error=str(err))
            return LoopResult(rounds=(failed,), sets=(), final=(), stop="model_error", llm_calls=1)
        rounds: list[RoundRecord] = []
        calls = 1
        stop: Stop = "round_limit" if len(plan.plan) > s.max_rounds else "plan_end"
        for number, action in enumerate(plan.plan[: s.max_rounds], 1):
            step = SimulationStep(thought="", action=action)
            record, _, used = await self._act(number, step, memory, history_text)
            calls += used
            rounds.append(record)
            if record.tool == "finish":
                stop = "finish"
                break
        return await self.conclude(memory, history_text, rounds, stop, calls)
