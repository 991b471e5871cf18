"""The explanation judge: an LLM scores each explanation for quality and rationality.

The paper scores explanations against the user's review (BLEU, ROUGE) and by people
(§4.4, B.2: "quality and rationality"). A MovieLens-format dataset has no reviews, so an
LLM judge gives both scores, 1 to 5, seeing what the user watched before, the catalog's
facts about the movie and the explanation. Its calls are evaluation cost, kept apart
from the solver's (system "(judge)").
"""

from __future__ import annotations

from collections.abc import Mapping

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel, ConfigDict, Field

from macrs_sim.evaluation.recmind.cases import TaskCase
from macrs_sim.evaluation.recmind.questions import PROMPT_DIR, render_history
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import Item

JUDGE_ROLE = "recmind_tasks.judge"
JUDGE_SYSTEM = "(judge)"


class ExplanationVerdict(BaseModel):
    model_config = ConfigDict(frozen=True)

    quality: int = Field(ge=1, le=5)
    rationality: int = Field(ge=1, le=5)


# What an empty explanation is scored: the lowest mark, without asking the judge.
LOWEST = ExplanationVerdict(quality=1, rationality=1)


def judge_template(prompts: PromptLibrary) -> PromptTemplate:
    return prompts.get(f"{PROMPT_DIR}/judge")


def item_facts(item: Item) -> str:
    parts = [f"genres: {', '.join(item.genres)}" if item.genres else ""]
    parts += [f"director: {item.director}" if item.director else ""]
    parts += [f"cast: {', '.join(item.cast[:3])}" if item.cast else ""]
    parts += [f"keywords: {', '.join(item.keywords[:5])}" if item.keywords else ""]
    return "; ".join(p for p in parts if p) or "(nothing)"


def judge_messages(
    template: PromptTemplate,
    case: TaskCase,
    items: Mapping[str, Item],
    explanation: str,
    history_len: int,
) -> list[LLMMessage]:
    item = items[case.target]
    user = template.render(
        "user",
        history=render_history(case.history, items, history_len),
        item=item.display_title,
        facts=item_facts(item),
        explanation=explanation,
    )
    return [
        SystemMessage(content=template.render("system")),
        UserMessage(content=user, source="user"),
    ]


async def judge_explanation(
    client: ChatCompletionClient,
    messages: list[LLMMessage],
    *,
    question_id: str,
    retries: int,
) -> ExplanationVerdict:
    with calling(CallContext(role=JUDGE_ROLE, dialogue_id=question_id, system=JUDGE_SYSTEM)):
        return await complete_json(client, messages, ExplanationVerdict, retries=retries)
