"""The lean client against fake servers on 127.0.0.1, beside the SDK path it replaces:
the same bytes on the wire, the same results, the same errors."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import openai
import pytest
from autogen_core import CancellationToken
from autogen_core.models import AssistantMessage, LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel, ValidationError

from macrs_sim.llm import RetryingClient
from macrs_sim.llm.lean import build_lean_client
from macrs_sim.llm.rejection import is_malformed
from macrs_sim.llm.retry import is_transient, retry_after_s
from tests.llm.lean_twins import SECRET, RawServer, both, config

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

# Hostile on purpose: two adjacent system messages (autogen merges them, trailing newline
# stripped), quotes, non-ASCII (the SDK sends UTF-8, not \u escapes), an assistant turn.
PROMPT: list[LLMMessage] = [
    SystemMessage(content='Be brief. "Amélie" ✓ '),
    SystemMessage(content="Second rule.\n"),
    UserMessage(content="Hi ☃\r\n", source="user"),
    AssistantMessage(content="Hello.", source="assistant"),
    UserMessage(content="A heist film?", source="user"),
]


class Answer(BaseModel):
    answer: str
    year: int = 1995


@pytest.fixture
async def srv() -> AsyncIterator[RawServer]:
    async with RawServer() as server:
        yield server


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


@pytest.mark.parametrize("mode", ["openai", "vllm", "json_object", "prompt"])
@pytest.mark.parametrize("json_output", [None, Answer, True, False])
async def test_same_bytes_and_result_as_the_sdk(
    srv: RawServer, mode: str, json_output: Any
) -> None:
    clients = both(config(srv.base_url, structured_outputs=mode), temperature=0.3)
    lean = await clients["lean"].create(PROMPT, json_output=json_output)
    sdk = await clients["sdk"].create(PROMPT, json_output=json_output)
    lean_body, sdk_body = srv.raw
    assert lean_body == sdk_body
    assert "é".encode() in lean_body and b'"model":"m"' in lean_body
    assert lean == sdk
    assert lean.usage.completion_tokens > 0 and lean.finish_reason == "stop"
    for client in clients.values():
        await client.close()


async def test_extra_create_args_in_the_sdk_order(srv: RawServer) -> None:
    extra = {"stop": ["\n"], "top_p": 0.5, "extra_body": {"top_k": 3, "seed": 9}}
    for client in both(config(srv.base_url)).values():
        await client.create(PROMPT, json_output=Answer, extra_create_args=extra)
    lean_body, sdk_body = srv.raw
    assert lean_body == sdk_body
    # extra_body's fields last, but one the body has already stays where it was.
    assert lean_body.endswith(b'"top_p":0.5,"top_k":3}')
    assert b'"seed":9,"stop"' in lean_body


async def test_system_messages_apart_are_refused_alike(srv: RawServer) -> None:
    apart: list[LLMMessage] = [SystemMessage(content="a"), UserMessage(content="b", source="u")]
    apart *= 2
    errors = []
    for client in both(config(srv.base_url)).values():
        with pytest.raises(ValueError) as info:
            await client.create(apart)
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "Not continuous system messages" in errors[0]
    assert srv.raw == []


async def test_429_retry_after_reaches_retry_and_pool(srv: RawServer) -> None:
    srv.fail(429, retry_after="7", times=2)
    errors = []
    for client in both(config(srv.base_url)).values():
        with pytest.raises(openai.RateLimitError) as info:
            await client.create(PROMPT)
        errors.append(info.value)
    lean, sdk = errors
    assert (lean.message, lean.body, lean.status_code) == (sdk.message, sdk.body, 429)
    assert retry_after_s(lean) == 7.0 and is_transient(lean) and not is_malformed(lean)
    srv.fail(429, retry_after="7")
    sleeps = Sleeps()
    retrying = RetryingClient(
        build_lean_client(config(srv.base_url), temperature=0.0), sleep=sleeps
    )
    assert (await retrying.create(PROMPT)).content == srv.text
    assert sleeps.delays == [7.0]


async def test_5xx_is_transient_and_retried(srv: RawServer) -> None:
    srv.fail(503, times=2)
    errors = []
    for client in both(config(srv.base_url)).values():
        with pytest.raises(openai.InternalServerError) as info:
            await client.create(PROMPT)
        errors.append(info.value)
    assert (
        errors[0].message
        == errors[1].message
        == (
            "Error code: 503 - {'error': {'message': 'fake failure', 'type': 'fake_error', "
            "'code': 503}}"
        )
    )
    assert is_transient(errors[0]) and retry_after_s(errors[0]) is None
    srv.fail(500)
    sleeps = Sleeps()
    inner = build_lean_client(config(srv.base_url), temperature=0.0)
    result = await RetryingClient(inner, base_s=0.5, sleep=sleeps).create(PROMPT)
    assert result.content == srv.text and len(sleeps.delays) == 1


async def test_a_refused_spelling_is_explained_alike() -> None:
    async with RawServer(response_formats=frozenset({"text", "json_object"})) as srv:
        messages = []
        for client in both(config(srv.base_url)).values():
            with pytest.raises(openai.InternalServerError) as info:
                await client.create(PROMPT, json_output=Answer)
            assert is_malformed(info.value) and not is_transient(info.value)
            messages.append(info.value.message)
    assert messages[0] == messages[1]
    assert messages[0].startswith(f"{srv.base_url} rejected the request as malformed (HTTP 500")
    assert 'set [model] structured_outputs to "json_object" or "prompt" or "auto"' in messages[0]


async def test_timeout_and_lost_connection_are_transient(srv: RawServer) -> None:
    client = build_lean_client(config(srv.base_url, timeout_s=0.2), temperature=0.0)
    srv.hang(1.0)
    with pytest.raises(openai.APITimeoutError) as timed_out:
        await client.create(PROMPT)
    srv.drop()
    with pytest.raises(openai.APIConnectionError) as dropped:
        await client.create(PROMPT)
    assert is_transient(timed_out.value) and is_transient(dropped.value)
    assert str(dropped.value) == "Connection error."
    assert (await client.create(PROMPT)).content == srv.text  # the session recovers
    await client.close()


async def test_a_calls_own_timeout_overrides_the_clients(srv: RawServer) -> None:
    client = build_lean_client(config(srv.base_url, timeout_s=30.0), temperature=0.0)
    srv.hang(1.0)
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(openai.APITimeoutError):
        await client.create(PROMPT, extra_create_args={"timeout": 0.2})
    assert loop.time() - start < 0.9  # its own 0.2 s (+ one sweep), not the client's 30 s
    assert (await client.create(PROMPT)).content == srv.text
    await client.close()


async def test_connection_refused() -> None:
    async with RawServer() as gone:
        url = gone.base_url
    with pytest.raises(openai.APIConnectionError) as info:
        await build_lean_client(config(url), temperature=0.0).create(PROMPT)
    assert is_transient(info.value)


async def test_an_echoed_key_never_reaches_an_error(
    srv: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LEAN_TEST_KEY", SECRET)
    srv.fail(401)
    client = build_lean_client(config(srv.base_url, api_key_env="LEAN_TEST_KEY"), temperature=0)
    with pytest.raises(openai.AuthenticationError) as info:
        await client.create(PROMPT)
    assert srv.requests[-1].headers["authorization"] == f"Bearer {SECRET}"  # it was echoed
    err = info.value
    seen = [str(err), err.message, repr(err.body), repr(err.args)]
    assert all(SECRET not in text for text in seen)
    assert "[redacted]" in err.message


def truncated(content: str, **message: Any) -> dict[str, Any]:
    choice = {"index": 0, "message": {"role": "assistant", "content": content, **message}}
    return {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [{**choice, "finish_reason": "length"}],
        "usage": {"prompt_tokens": 5, "completion_tokens": 64, "total_tokens": 69},
    }


async def test_a_truncated_reply(fake_openai: Any) -> None:
    """Structured: the SDK's LengthFinishReasonError (complete_json repairs on it); text: a
    result with finish_reason "length"."""
    clients = both(config(fake_openai.url))
    errors = []
    for client in clients.values():
        fake_openai.queue(200, truncated('{"answer": "Hea'))
        with pytest.raises(openai.LengthFinishReasonError) as info:
            await client.create(PROMPT, json_output=Answer)
        errors.append(str(info.value))
    assert errors[0] == errors[1] and "completion_tokens=64" in errors[0]
    results = []
    for client in clients.values():
        fake_openai.queue(200, truncated("Heat is a", reasoning_content="think"))
        results.append(await client.create(PROMPT))
    assert results[0] == results[1]
    assert (results[0].finish_reason, results[0].content, results[0].thought) == (
        "length",
        "Heat is a",
        "think",
    )


async def test_a_reply_off_the_schema_fails_as_in_the_sdk(fake_openai: Any) -> None:
    fake_openai.content = '{"answer": 3}'
    for client in both(config(fake_openai.url)).values():
        with pytest.raises(ValidationError):
            await client.create(PROMPT, json_output=Answer)


async def test_a_reply_that_is_no_completion(fake_openai: Any) -> None:
    fake_openai.queue(200, {"object": "error", "detail": "busy"})
    client = build_lean_client(config(fake_openai.url), temperature=0.0)
    with pytest.raises(openai.APIResponseValidationError) as info:
        await client.create(PROMPT)
    assert "not a chat completion (KeyError" in str(info.value)
    assert not is_transient(info.value)


async def test_tool_requests_go_to_the_sdk_client(srv: RawServer) -> None:
    tool = {"name": "lookup", "description": "d", "parameters": {"type": "object"}}
    errors = []
    for client in both(config(srv.base_url)).values():
        with pytest.raises(ValueError) as info:
            await client.create(PROMPT, tools=[tool])  # type: ignore[list-item]
        errors.append(str(info.value))
    assert errors == ["Model does not support function calling"] * 2


def test_one_client_serves_two_event_loops() -> None:
    """A session is bound to its loop: a second asyncio.run (Ray actors, the CLI) gets its own."""
    with RawServer() as server:
        client = build_lean_client(config(server.base_url), temperature=0.0)
        replies = [asyncio.run(client.create(PROMPT)).content for _ in range(2)]
        asyncio.run(client.close())
    assert replies == [server.text] * 2 and len(server.raw) == 2


async def test_usage_adds_up(srv: RawServer) -> None:
    client = build_lean_client(config(srv.base_url), temperature=0.0)
    first = await client.create(PROMPT)
    second = await client.create(PROMPT, json_output=Answer)
    total = client.total_usage()
    assert total.prompt_tokens == first.usage.prompt_tokens + second.usage.prompt_tokens
    assert total.completion_tokens == first.usage.completion_tokens + second.usage.completion_tokens


async def test_a_cancelled_call_stops(srv: RawServer) -> None:
    client = build_lean_client(config(srv.base_url), temperature=0.0)
    token = CancellationToken()
    srv.hang(5.0)
    call = asyncio.ensure_future(client.create(PROMPT, cancellation_token=token))
    while not srv.raw:  # the request is on the wire
        await asyncio.sleep(0.01)
    token.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(call, timeout=2.0)
    await client.close()
