"""What goes over the wire to an OpenAI-compatible server, and how failures are retried."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from email.utils import format_datetime
from typing import Any

import httpx
import openai
import pytest
from autogen_core.models import LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.config import OpenAIModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm import RetryingClient, build_openai_client, check_endpoint
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

PROMPT: list[LLMMessage] = [
    SystemMessage(content="Be brief."),
    UserMessage(content="Hi", source="user"),
]
MESSAGES = [{"content": "Be brief.", "role": "system"}, {"role": "user", "content": "Hi"}]
# What the openai SDK makes of `Answer` (strict: closed objects, every field required).
STRICT_SCHEMA = {
    "properties": {"answer": {"title": "Answer", "type": "string"}},
    "required": ["answer"],
    "title": "Answer",
    "type": "object",
    "additionalProperties": False,
}
RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {"schema": STRICT_SCHEMA, "name": "Answer", "strict": True},
}
COMMON = {"model": "m", "max_tokens": 64, "seed": 7, "stream": False, "temperature": 0.0}
VLLM = {"top_p": 1.0, "top_k": -1, "min_p": 0.0, "repetition_penalty": 1.0}


class Answer(BaseModel):
    answer: str


@pytest.fixture
async def srv() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer() as server:
        yield server


def cfg(srv: FakeOpenAIServer, **kw: Any) -> OpenAIModel:
    # "openai" spelled out: with a base_url the default is "auto", which probes first.
    fields = {"model": "m", "base_url": srv.base_url, "max_tokens": 64, "seed": 7}
    fields["structured_outputs"] = "openai"
    return OpenAIModel.model_validate({**fields, **kw})


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


async def test_openai_mode_bodies(srv: FakeOpenAIServer) -> None:
    client = build_openai_client(cfg(srv), temperature=0.0)
    result = await client.create(PROMPT, json_output=Answer)
    assert Answer.model_validate_json(str(result.content))  # the server synthesized one
    await client.create(PROMPT)
    structured, text = srv.chat_bodies()
    assert structured == {"messages": MESSAGES, **COMMON, "response_format": RESPONSE_FORMAT}
    assert text == {"messages": MESSAGES, **COMMON}
    await client.close()


async def test_vllm_mode_bodies(srv: FakeOpenAIServer) -> None:
    client = build_openai_client(cfg(srv, structured_outputs="vllm"), temperature=0.0)
    await client.create(PROMPT, json_output=Answer)
    await client.create(PROMPT)
    structured, text = srv.chat_bodies()
    assert structured == {
        "messages": MESSAGES,
        **COMMON,
        "response_format": RESPONSE_FORMAT,
        **VLLM,
        "structured_outputs": {"json": STRICT_SCHEMA},
    }  # no guided_json: vLLM 0.12+ ignores it with a warning, older ones read response_format
    assert text == {"messages": MESSAGES, **COMMON, **VLLM}
    await client.close()


async def test_no_seed_means_none_sent(srv: FakeOpenAIServer) -> None:
    client = build_openai_client(cfg(srv, seed=None), temperature=0.3)
    await client.create(PROMPT)
    (body,) = srv.chat_bodies()
    assert "seed" not in body and body["temperature"] == 0.3
    await client.close()


async def test_retry_after_seconds_is_honoured(srv: FakeOpenAIServer) -> None:
    srv.fail(429, retry_after="0.05")
    sleeps = Sleeps()
    client = RetryingClient(build_openai_client(cfg(srv), temperature=0.0), sleep=sleeps)
    await client.create(PROMPT)
    assert sleeps.delays == [0.05] and len(srv.chat_bodies()) == 2


async def test_retry_after_http_date_is_honoured(srv: FakeOpenAIServer) -> None:
    when = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=3)
    srv.fail(429, retry_after=format_datetime(when, usegmt=True))
    sleeps = Sleeps()
    client = RetryingClient(build_openai_client(cfg(srv), temperature=0.0), sleep=sleeps)
    await client.create(PROMPT)
    assert len(sleeps.delays) == 1 and 1.0 < sleeps.delays[0] <= 3.0


async def test_5xx_dropped_connections_and_timeouts_are_retried(srv: FakeOpenAIServer) -> None:
    srv.fail(500)
    srv.fail(503)
    srv.drop()
    srv.hang(1.0)
    sleeps = Sleeps()
    inner = build_openai_client(cfg(srv, timeout_s=0.2), temperature=0.0)
    client = RetryingClient(inner, attempts=5, base_s=0.01, max_s=0.03, seed=1, sleep=sleeps)
    assert (await client.create(PROMPT)).content == srv.text
    assert len(srv.chat_bodies()) == 5
    # Capped exponential backoff (0.01, 0.02, 0.03, 0.03) times a jitter in [0.5, 1).
    caps = [0.01, 0.02, 0.03, 0.03]
    assert all(cap / 2 <= d < cap for d, cap in zip(sleeps.delays, caps, strict=True))


async def test_jitter_is_seeded(srv: FakeOpenAIServer) -> None:
    err = openai.APIConnectionError(request=httpx.Request("GET", "http://127.0.0.1/"))
    a, b = (RetryingClient(build_openai_client(cfg(srv), temperature=0.0), seed=3) for _ in "ab")
    assert [a.delay_s(err, n) for n in (1, 2, 3)] == [b.delay_s(err, n) for n in (1, 2, 3)]


async def test_400_is_not_retried(srv: FakeOpenAIServer) -> None:
    srv.fail(400)
    sleeps = Sleeps()
    client = RetryingClient(build_openai_client(cfg(srv), temperature=0.0), sleep=sleeps)
    with pytest.raises(openai.BadRequestError):
        await client.create(PROMPT)
    assert sleeps.delays == [] and len(srv.chat_bodies()) == 1


async def test_key_is_scrubbed_from_errors(
    srv: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WIRE_TEST_KEY", "sk-wire-secret-123")
    srv.fail(401)  # the fake echoes the bearer token, as careless servers do
    client = build_openai_client(cfg(srv, api_key_env="WIRE_TEST_KEY"), temperature=0.0)
    with pytest.raises(openai.AuthenticationError) as info:
        await client.create(PROMPT)
    assert srv.requests[-1].headers["authorization"] == "Bearer sk-wire-secret-123"
    assert "sk-wire-secret-123" not in str(info.value) + repr(info.value.body)
    assert "[redacted]" in str(info.value)


async def test_check_endpoint_names_the_failing_pool_member() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        urls = srv.base_urls
        good = OpenAIModel(model="m", base_urls=tuple(urls))
        await check_endpoint(good)
        assert sorted(r.port for r in srv.requests) == sorted(srv.ports)
    with pytest.raises(ModelUnavailableError) as info:  # both down now; the first is named
        await check_endpoint(good)
    assert str(info.value).startswith(f"model.base_urls[0] {urls[0]}: endpoint unreachable (")
    async with FakeOpenAIServer() as up:
        mixed = OpenAIModel(model="m", base_urls=(up.base_url, urls[1]))
        with pytest.raises(ModelUnavailableError) as info:
            await check_endpoint(mixed)
    assert str(info.value) == (
        f"model.base_urls[1] {urls[1]}: endpoint unreachable (Connection refused)"
    )
