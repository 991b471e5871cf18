"""The SQLite response cache: keys, hits, persistence, in-flight sharing, failures."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from autogen_core.models import CreateResult, LLMMessage, RequestUsage, UserMessage
from pydantic import BaseModel

from macrs_sim.config import FaultsConfig, ScriptedModel
from macrs_sim.llm import CallContext, CallLog, SimpleChatClient, calling
from macrs_sim.llm.base import JsonOutput, message_text
from macrs_sim.llm.cache import CachingClient, ResponseCache
from macrs_sim.llm.factory import build_client

PROMPT = [UserMessage(content="recommend a film", source="user")]


class Fake(SimpleChatClient):
    """Counts calls; optionally slow, optionally failing."""

    def __init__(self, delay_s: float = 0.0, error: Exception | None = None) -> None:
        super().__init__()
        self.calls = 0
        self.delay_s = delay_s
        self.error = error

    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult:
        self.calls += 1
        await asyncio.sleep(self.delay_s)
        if self.error is not None:
            raise self.error
        usage = RequestUsage(prompt_tokens=3, completion_tokens=2)
        text = f"reply {self.calls} to {message_text(messages[-1])}"
        return CreateResult(finish_reason="stop", content=text, usage=usage, cached=False)


class A(BaseModel):
    x: int


class B(BaseModel):
    y: str


@pytest.fixture
async def cache(tmp_path: Path) -> AsyncIterator[ResponseCache]:
    c = ResponseCache(tmp_path / "sub" / "cache.sqlite")
    yield c
    c.close()


def rows(cache: ResponseCache) -> int:
    cache.flush()
    with sqlite3.connect(cache.path) as db:
        return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])


def caching(inner: Fake, cache: ResponseCache, model: str = "m", **params: Any) -> CachingClient:
    return CachingClient(inner, cache, model_identity=model, params=params or {"temperature": 0})


async def test_a_repeated_request_is_a_hit(cache: ResponseCache) -> None:
    inner = Fake()
    client = caching(inner, cache)
    first = await client.create(PROMPT)
    second = await client.create(PROMPT)
    assert not first.cached and second.cached and inner.calls == 1
    assert (second.content, second.usage, second.finish_reason) == (
        first.content,
        first.usage,
        first.finish_reason,
    )
    other = await client.create([UserMessage(content="something else", source="user")])
    assert not other.cached and inner.calls == 2 and rows(cache) == 2


async def test_streams_go_through_the_cache(cache: ResponseCache) -> None:
    inner = Fake()
    client = caching(inner, cache)
    await client.create(PROMPT)
    items = [item async for item in client.create_stream(PROMPT)]
    assert len(items) == 1 and isinstance(items[0], CreateResult) and items[0].cached
    assert inner.calls == 1


async def test_two_models_never_share_an_entry(cache: ResponseCache) -> None:
    inner = Fake()
    a, b = caching(inner, cache, "openai:model-a"), caching(inner, cache, "openai:model-b")
    assert not (await a.create(PROMPT)).cached
    assert not (await b.create(PROMPT)).cached
    assert (await b.create(PROMPT)).cached
    assert inner.calls == 2 and rows(cache) == 2


@pytest.mark.parametrize(
    ("change", "kwargs"),
    [
        ({"temperature": 0.7}, {}),
        ({"temperature": 0, "max_tokens": 64}, {}),
        ({}, {"json_output": B}),
        ({}, {"json_output": True}),
        ({}, {"extra_create_args": {"top_p": 0.5}}),
    ],
)
async def test_params_schema_and_args_are_in_the_key(
    cache: ResponseCache, change: dict[str, Any], kwargs: dict[str, Any]
) -> None:
    inner = Fake()
    base = caching(inner, cache, temperature=0)
    await base.create(PROMPT, json_output=A)
    changed = caching(inner, cache, **change) if change else base
    result = await changed.create(PROMPT, **({"json_output": A} | kwargs))
    assert not result.cached and inner.calls == 2


async def test_entries_persist_across_cache_objects(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    first = ResponseCache(path)
    reply = await caching(Fake(), first).create(PROMPT, json_output=A)
    first.close()
    first.close()  # idempotent
    again, inner = ResponseCache(path), Fake()  # as a new process would open it
    try:
        hit = await caching(inner, again).create(PROMPT, json_output=A)
    finally:
        again.close()
    assert hit.cached and hit.content == reply.content and inner.calls == 0


async def test_identical_concurrent_requests_are_made_once(cache: ResponseCache) -> None:
    inner = Fake(delay_s=0.05)
    client = caching(inner, cache)
    results = await asyncio.gather(*(client.create(PROMPT) for _ in range(5)))
    assert inner.calls == 1
    assert [r.cached for r in results] == [False, True, True, True, True]
    assert len({r.content for r in results}) == 1


async def test_a_failure_reaches_every_waiter_and_is_not_stored(cache: ResponseCache) -> None:
    boom = RuntimeError("endpoint exploded")
    inner = Fake(delay_s=0.05, error=boom)
    client = caching(inner, cache)
    results = await asyncio.gather(
        *(client.create(PROMPT) for _ in range(3)), return_exceptions=True
    )
    assert results == [boom, boom, boom] and inner.calls == 1 and rows(cache) == 0
    inner.error = None
    assert not (await client.create(PROMPT)).cached and inner.calls == 2


async def test_a_waiter_calls_itself_when_the_first_caller_is_cancelled(
    cache: ResponseCache,
) -> None:
    inner = Fake(delay_s=0.05)
    client = caching(inner, cache)
    leader = asyncio.ensure_future(client.create(PROMPT))
    while inner.calls == 0:  # the leader is inside the backend call
        await asyncio.sleep(0.001)
    waiter = asyncio.ensure_future(client.create(PROMPT))
    await asyncio.sleep(0.01)
    leader.cancel()
    result = await waiter
    assert leader.cancelled() and not result.cached and inner.calls == 2


async def test_a_hit_is_recorded_as_cached_by_accounting(cache: ResponseCache) -> None:
    log = CallLog()
    client = build_client(ScriptedModel(), temperature=0.0, log=log, cache=cache)
    with calling(CallContext(role="user", dialogue_id="d", turn=1)):
        await client.create(PROMPT)
        await client.create(PROMPT)
    assert [r.cached for r in log.pop("d")] == [False, True]


async def test_scripted_replies_are_keyed_by_who_calls(cache: ResponseCache) -> None:
    # The scripted fake answers by dialogue and turn; the same messages from another
    # dialogue must not get this dialogue's reply.
    client = build_client(ScriptedModel(), temperature=0.0, log=CallLog(), cache=cache)
    for dialogue in ("d1", "d2", "d1"):
        with calling(CallContext(role="user", dialogue_id=dialogue, turn=1)):
            await client.create(PROMPT)
    assert rows(cache) == 2


async def test_a_faulty_reply_is_never_stored(cache: ResponseCache) -> None:
    faults = FaultsConfig(rate=1.0, kinds=("bad_json",))
    client = build_client(
        ScriptedModel(), temperature=0.0, log=CallLog(), cache=cache, faults=faults
    )
    with calling(CallContext(role="planner", dialogue_id="d")):
        bad = await client.create(PROMPT, json_output=A)
    clean = build_client(ScriptedModel(), temperature=0.0, log=CallLog(), cache=cache)
    with calling(CallContext(role="planner", dialogue_id="d")):
        good = await clean.create(PROMPT, json_output=A)
    assert good.cached and A.model_validate_json(str(good.content))
    assert str(good.content).startswith(str(bad.content)) and bad.content != good.content
