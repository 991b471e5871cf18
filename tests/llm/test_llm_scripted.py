from __future__ import annotations

import asyncio
import time
from enum import StrEnum
from typing import Literal

from autogen_core.models import CreateResult, SystemMessage, UserMessage
from pydantic import BaseModel, Field

from macrs_sim.llm import CallContext, ScriptedChatCompletionClient, ScriptedRequest, calling


class Mood(StrEnum):
    HAPPY = "happy"
    SAD = "sad"


class Inner(BaseModel):
    name: str
    score: int = Field(ge=3)


class Plan(BaseModel):
    act: Literal["ask", "chat", "recommend"]
    items: list[Inner]
    inner: Inner
    note: str | None = None
    tags: list[str] = Field(min_length=2)
    flag: bool
    ratio: float
    mood: Mood
    children: list[Plan] = []


def msgs(text: str = "I like sci-fi movies") -> list[SystemMessage | UserMessage]:
    return [SystemMessage(content="You are a planner."), UserMessage(content=text, source="u")]


async def ask(
    client: ScriptedChatCompletionClient, ctx: CallContext, schema: type[BaseModel] | None = None
) -> str:
    with calling(ctx):
        result = await client.create(msgs(), json_output=schema)
    assert isinstance(result.content, str)
    return result.content


async def test_same_inputs_same_output_across_clients() -> None:
    ctx = CallContext(role="planner", dialogue_id="d1", system="macrs", turn=2)
    a, b = ScriptedChatCompletionClient(seed=7), ScriptedChatCompletionClient(seed=7)
    assert await ask(a, ctx, Plan) == await ask(b, ctx, Plan)
    assert await ask(a, ctx) == await ask(b, ctx)


async def test_choices_do_not_depend_on_call_order() -> None:
    ctx = CallContext(role="planner", dialogue_id="d1", turn=1)
    alone = await ask(ScriptedChatCompletionClient(), ctx, Plan)
    busy = ScriptedChatCompletionClient()
    for i in range(5):  # other dialogues' calls interleave before ours
        await ask(busy, CallContext(role="planner", dialogue_id=f"other{i}", turn=1), Plan)
    assert await ask(busy, ctx, Plan) == alone


async def test_literal_choice_varies_with_the_request() -> None:
    client = ScriptedChatCompletionClient()
    acts = set()
    for i in range(30):
        text = await ask(client, CallContext(role="planner", dialogue_id=f"d{i}"), Plan)
        acts.add(Plan.model_validate_json(text).act)
    assert len(acts) > 1  # picks from the hash, not always the first member


async def test_synthesized_instance_is_valid_for_nested_schema() -> None:
    client = ScriptedChatCompletionClient()
    plan = Plan.model_validate_json(await ask(client, CallContext(role="planner"), Plan))
    assert len(plan.items) == 1 and plan.items[0].score >= 3
    assert plan.inner.name == "scripted name"
    assert len(plan.tags) >= 2
    assert plan.note is not None  # optional fields are filled, so consumers see them
    assert plan.flag is False and plan.mood in set(Mood)


async def test_rules_by_role_then_default_then_builtin() -> None:
    client = ScriptedChatCompletionClient(
        {"user": lambda req: f"user saw {len(req.messages)} messages"},
        default=lambda req: Inner(name=req.context.role, score=5),
    )
    assert await ask(client, CallContext(role="user")) == "user saw 2 messages"
    assert Inner.model_validate_json(await ask(client, CallContext(role="critic"))).name == "critic"
    plain = ScriptedChatCompletionClient()
    assert "critic" in await ask(plain, CallContext(role="critic"))
    with calling(CallContext(role="x")):
        result = await plain.create(msgs(), json_output=True)
    assert result.content == "{}"


async def test_calls_are_recorded_with_context_and_schema() -> None:
    client = ScriptedChatCompletionClient()
    ctx = CallContext(role="planner", dialogue_id="d9", turn=3)
    await ask(client, ctx, Plan)
    assert client.calls == [ScriptedRequest(messages=tuple(msgs()), context=ctx, schema=Plan)]


async def test_latency_overlaps_across_concurrent_calls() -> None:
    client = ScriptedChatCompletionClient(latency_s=0.2)
    start = time.perf_counter()
    await asyncio.gather(*(ask(client, CallContext(role=f"r{i}")) for i in range(10)))
    assert time.perf_counter() - start < 0.6


async def test_usage_counts_words() -> None:
    client = ScriptedChatCompletionClient({"user": lambda req: "one two three"})
    with calling(CallContext(role="user")):
        result = await client.create(msgs("a b c d"))
    # "You are a planner." (4 words) + "a b c d" (4 words)
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (8, 3)
    assert client.total_usage().prompt_tokens == 8


async def test_stream_yields_the_create_result() -> None:
    client = ScriptedChatCompletionClient()
    with calling(CallContext(role="user")):
        items = [item async for item in client.create_stream(msgs())]
    assert len(items) == 1 and isinstance(items[0], CreateResult)


async def test_calls_can_go_unrecorded_so_long_campaigns_do_not_grow() -> None:
    client = ScriptedChatCompletionClient(record_calls=False)
    for turn in range(5):
        await ask(client, CallContext(role="planner", dialogue_id="d", turn=turn), Plan)
    assert client.calls == []
