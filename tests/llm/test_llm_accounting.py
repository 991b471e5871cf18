from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from autogen_core.models import CreateResult, LLMMessage, RequestUsage, UserMessage

from macrs_sim.llm import (
    AccountingClient,
    CallContext,
    CallLog,
    ScriptedChatCompletionClient,
    SimpleChatClient,
    calling,
)
from macrs_sim.llm.base import JsonOutput

PROMPT = [UserMessage(content="one two three", source="user")]


class CachedClient(SimpleChatClient):
    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult:
        usage = RequestUsage(prompt_tokens=5, completion_tokens=2)
        return CreateResult(finish_reason="stop", content="hit", usage=usage, cached=True)


class FailingClient(CachedClient):
    async def _complete(self, *args: Any, **kwargs: Any) -> CreateResult:
        raise RuntimeError("backend exploded")


async def test_records_carry_context_and_tokens() -> None:
    log = CallLog()
    client = AccountingClient(ScriptedChatCompletionClient(), log, "scripted")
    ctx = CallContext(role="planner", dialogue_id="d1", system="macrs", turn=2)
    with calling(ctx):
        result = await client.create(PROMPT)
    (rec,) = log.all()
    assert (rec.role, rec.dialogue_id, rec.system, rec.turn) == ("planner", "d1", "macrs", 2)
    assert rec.model == "scripted" and rec.ok and rec.error is None and not rec.cached
    assert rec.prompt_tokens == 3 and rec.completion_tokens == result.usage.completion_tokens
    assert rec.latency_s >= 0


async def test_cached_flag_is_recorded() -> None:
    log = CallLog()
    with calling(CallContext(role="user", dialogue_id="d")):
        await AccountingClient(CachedClient(), log, "m").create(PROMPT)
    (rec,) = log.pop("d")
    assert rec.cached and (rec.prompt_tokens, rec.completion_tokens) == (5, 2)


async def test_failures_are_recorded_then_reraised() -> None:
    log = CallLog()
    client = AccountingClient(FailingClient(), log, "m")
    with calling(CallContext(role="user", dialogue_id="d")), pytest.raises(RuntimeError):
        await client.create(PROMPT)
    (rec,) = log.all()
    assert not rec.ok and rec.error == "RuntimeError: backend exploded"


async def test_pop_returns_one_dialogue_in_order_and_removes_it() -> None:
    log = CallLog()
    client = AccountingClient(ScriptedChatCompletionClient(latency_s=0.01), log, "scripted")

    async def dialogue(did: str) -> None:
        for turn in (1, 2, 3):
            with calling(CallContext(role="user", dialogue_id=did, turn=turn)):
                await client.create(PROMPT)

    await asyncio.gather(dialogue("a"), dialogue("b"))  # calls interleave
    with calling(CallContext(role="setup")):
        await client.create(PROMPT)
    assert [r.turn for r in log.pop("a")] == [1, 2, 3]
    assert log.pop("a") == []
    assert [r.dialogue_id for r in log.all()] == ["b", "b", "b", None]
    assert [r.role for r in log.pop(None)] == ["setup"]
    assert len(log.all()) == 3


async def test_stream_through_wrapper_is_accounted() -> None:
    log = CallLog()
    client = AccountingClient(ScriptedChatCompletionClient(), log, "scripted")
    with calling(CallContext(role="user")):
        items = [i async for i in client.create_stream(PROMPT)]
    assert len(items) == 1 and len(log.all()) == 1


async def test_popping_every_dialogue_leaves_nothing_behind() -> None:
    log = CallLog()
    client = AccountingClient(ScriptedChatCompletionClient(record_calls=False), log, "scripted")
    for did in ("a", "b", "a", None, "c"):
        with calling(CallContext(role="user", dialogue_id=did)):
            await client.create(PROMPT)
    assert log.pending() == 5
    assert [len(log.pop(d)) for d in ("a", "b", None, "c")] == [2, 1, 1, 1]
    assert log.pending() == 0 and log.all() == []
