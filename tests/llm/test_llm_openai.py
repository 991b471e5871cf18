from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import openai
import pytest
from autogen_core.models import LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.config import OpenAIModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm import (
    CallContext,
    CallLog,
    ConcurrencyLimitedClient,
    RetryingClient,
    ScriptedChatCompletionClient,
    build_client,
    build_openai_client,
    calling,
    check_endpoint,
    complete_json,
    preflight,
)

# autogen-ext logs ParsedChatCompletion.model_dump(), which makes pydantic warn about `parsed`.
pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

PROMPT: list[LLMMessage] = [
    SystemMessage(content="Be brief."),
    UserMessage(content="Hi", source="user"),
]
SERVER_ERROR = {"error": {"message": "overloaded", "type": "server_error"}}


class Answer(BaseModel):
    answer: str


def cfg(server: Any, **kw: object) -> OpenAIModel:
    # "openai" spelled out: with a base_url the default is "auto", which probes first.
    fields = {"model": "fake-model", "base_url": server.url, "structured_outputs": "openai"}
    return OpenAIModel.model_validate({**fields, **kw})


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


async def test_wire_body_for_text(fake_openai: Any) -> None:
    client = build_openai_client(cfg(fake_openai, max_tokens=77), temperature=0.0)
    result = await client.create(PROMPT)
    assert result.content == fake_openai.content
    assert (result.usage.prompt_tokens, result.usage.completion_tokens) == (11, 7)
    (body,) = fake_openai.chat_bodies()
    assert body["model"] == "fake-model"
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Hi"},
    ]
    assert body["temperature"] == 0 and body["max_tokens"] == 77 and body["seed"] == 0
    assert "response_format" not in body
    assert fake_openai.requests[0]["headers"]["authorization"] == "Bearer EMPTY"


async def test_wire_body_for_json_schema(fake_openai: Any) -> None:
    fake_openai.content = '{"answer": "yes"}'
    client = build_openai_client(cfg(fake_openai), temperature=0.0)
    result = await client.create(PROMPT, json_output=Answer)
    assert Answer.model_validate_json(str(result.content)) == Answer(answer="yes")
    (body,) = fake_openai.chat_bodies()
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["schema"]["properties"] == {
        "answer": {"title": "Answer", "type": "string"}
    }


async def test_key_comes_from_the_named_variable(
    fake_openai: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_TEST_KEY", "sk-test-123")
    client = build_openai_client(cfg(fake_openai, api_key_env="MY_TEST_KEY"), temperature=0.0)
    await client.create(PROMPT)
    assert fake_openai.requests[0]["headers"]["authorization"] == "Bearer sk-test-123"


def test_missing_key_for_a_remote_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelUnavailableError) as info:
        build_openai_client(OpenAIModel(model="gpt-4o-mini"), temperature=0.0)
    assert str(info.value) == "model.api_key_env: environment variable OPENAI_API_KEY is not set"


async def test_check_endpoint_ok_and_unreachable(fake_openai: Any) -> None:
    await check_endpoint(cfg(fake_openai))
    assert fake_openai.requests[0]["path"] == "/v1/models"
    await preflight(cfg(fake_openai))
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    closed = OpenAIModel(model="m", base_url=f"http://127.0.0.1:{port}/v1")
    with pytest.raises(ModelUnavailableError) as info:
        await check_endpoint(closed)
    assert str(info.value) == (
        f"model.base_url http://127.0.0.1:{port}/v1: endpoint unreachable (Connection refused)"
    )


async def test_retries_a_500_then_succeeds(fake_openai: Any) -> None:
    fake_openai.queue(500, SERVER_ERROR)
    sleeps = Sleeps()
    client = RetryingClient(
        build_openai_client(cfg(fake_openai), temperature=0.0), base_s=0.5, sleep=sleeps
    )
    result = await client.create(PROMPT)
    assert result.content == fake_openai.content
    assert len(fake_openai.chat_bodies()) == 2
    assert len(sleeps.delays) == 1 and 0.25 <= sleeps.delays[0] <= 0.5


async def test_honours_retry_after_on_429(fake_openai: Any) -> None:
    limited = {"error": {"message": "slow down", "type": "rate_limit"}}
    fake_openai.queue(429, limited, headers={"Retry-After": "3"})
    sleeps = Sleeps()
    client = RetryingClient(build_openai_client(cfg(fake_openai), temperature=0.0), sleep=sleeps)
    await client.create(PROMPT)
    assert sleeps.delays == [3.0]


async def test_retries_a_timeout(fake_openai: Any) -> None:
    fake_openai.queue(200, {}, delay_s=1.0)
    inner = build_openai_client(cfg(fake_openai, timeout_s=0.2), temperature=0.0)
    client = RetryingClient(inner, sleep=Sleeps())
    assert (await client.create(PROMPT)).content == fake_openai.content
    assert len(fake_openai.chat_bodies()) == 2  # the first one timed out


async def test_client_errors_are_not_retried(fake_openai: Any) -> None:
    fake_openai.queue(400, {"error": {"message": "bad request"}})
    sleeps = Sleeps()
    client = RetryingClient(build_openai_client(cfg(fake_openai), temperature=0.0), sleep=sleeps)
    with pytest.raises(openai.BadRequestError):
        await client.create(PROMPT)
    assert sleeps.delays == [] and len(fake_openai.chat_bodies()) == 1


async def test_gives_up_after_attempts(fake_openai: Any) -> None:
    for _ in range(3):
        fake_openai.queue(503, SERVER_ERROR)
    client = RetryingClient(
        build_openai_client(cfg(fake_openai), temperature=0.0), attempts=3, sleep=Sleeps()
    )
    with pytest.raises(openai.InternalServerError):
        await client.create(PROMPT)
    assert len(fake_openai.chat_bodies()) == 3


async def test_factory_client_is_accounted(fake_openai: Any) -> None:
    log = CallLog()
    client = build_client(cfg(fake_openai), temperature=0.0, log=log)
    with calling(CallContext(role="planner", dialogue_id="d1", turn=1)):
        await client.create(PROMPT)
    (rec,) = log.pop("d1")
    assert (rec.model, rec.role, rec.prompt_tokens, rec.completion_tokens) == (
        "fake-model",
        "planner",
        11,
        7,
    )


async def test_concurrency_limit() -> None:
    client = ConcurrencyLimitedClient(ScriptedChatCompletionClient(latency_s=0.1), limit=2)
    start = time.perf_counter()
    await asyncio.gather(*(client.create(PROMPT) for _ in range(6)))
    assert time.perf_counter() - start >= 0.29  # 3 waves of 2


async def test_complete_json_repairs_over_the_wire(fake_openai: Any) -> None:
    bad = {
        "id": "x",
        "object": "chat.completion",
        "created": 0,
        "model": "fake-model",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "{}"}, "finish_reason": "stop"}
        ],
    }
    fake_openai.queue(200, bad)  # valid JSON, missing the required field
    fake_openai.content = '{"answer": "ok"}'
    client = build_openai_client(cfg(fake_openai), temperature=0.0)
    with calling(CallContext(role="planner")):
        assert await complete_json(client, PROMPT, Answer) == Answer(answer="ok")
    first, second = fake_openai.chat_bodies()
    assert "answer: Field required" in second["messages"][-1]["content"]
