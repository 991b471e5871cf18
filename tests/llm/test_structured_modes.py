"""Each `structured_outputs` mode over HTTP: what the server is sent, and what a server
that rejects a spelling answers (one line, not retried)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import openai
import pytest
from autogen_core.models import AssistantMessage, LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.config import OpenAIModel
from macrs_sim.llm import RetryingClient, build_openai_client, complete_json
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.modes import with_schema_prompt

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

PROMPT: list[LLMMessage] = [
    SystemMessage(content="Be brief."),
    UserMessage(content="Hi  ", source="user"),  # trailing spaces stay as they are
]
LLAMA_CPP_PYTHON = frozenset({"text", "json_object"})
# pydantic's schema for Answer, compact, as the "prompt" mode writes it.
ANSWER_SCHEMA = (
    '{"properties":{"answer":{"title":"Answer","type":"string"}},'
    '"required":["answer"],"title":"Answer","type":"object"}'
)


class Answer(BaseModel):
    answer: str


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


@pytest.fixture
async def srv() -> AsyncIterator[FakeOpenAIServer]:
    async with FakeOpenAIServer() as server:
        yield server


def cfg(srv: FakeOpenAIServer, mode: str, **kw: Any) -> OpenAIModel:
    fields = {"model": "m", "base_url": srv.base_url, "max_tokens": 60, "structured_outputs": mode}
    return OpenAIModel.model_validate({**fields, **kw})


async def test_json_object_mode_puts_a_capped_schema_in_response_format(
    srv: FakeOpenAIServer,
) -> None:
    srv.response_formats = LLAMA_CPP_PYTHON
    client = build_openai_client(cfg(srv, "json_object"), temperature=0.0)
    reply = await client.create(PROMPT, json_output=Answer)
    assert Answer.model_validate_json(str(reply.content))  # synthesized from that schema
    (body,) = srv.chat_bodies()
    # The embedded backend's spelling: the key "answer" costs 6 + 6 chars and the braces 2, so
    # (3 * 60 tokens - 14) / (1 string + 1) = 83 chars a string.
    assert body["response_format"] == {
        "type": "json_object",
        "schema": {
            "properties": {"answer": {"title": "Answer", "type": "string", "maxLength": 83}},
            "required": ["answer"],
            "title": "Answer",
            "type": "object",
        },
    }
    assert body["messages"][-1] == {"role": "user", "content": "Hi  "}
    await client.close()


async def test_prompt_mode_sends_no_format_and_the_schema_in_the_last_message(
    srv: FakeOpenAIServer,
) -> None:
    srv.response_formats = frozenset({"text"})  # a server with no JSON mode at all
    client = build_openai_client(cfg(srv, "prompt"), temperature=0.0)
    answer = await complete_json(client, PROMPT, Answer)
    assert isinstance(answer, Answer)  # the fake, like an obedient model, read the prompt
    (body,) = srv.chat_bodies()
    assert "response_format" not in body
    assert body["messages"] == [
        {"role": "system", "content": "Be brief."},
        {
            "role": "user",
            "content": "Hi  \n\nReply with only a JSON object matching this JSON schema: "
            + ANSWER_SCHEMA,
        },
    ]
    await client.close()


def test_prompt_mode_adds_a_user_message_after_an_assistant_one() -> None:
    convo: list[LLMMessage] = [*PROMPT, AssistantMessage(content="{", source="assistant")]
    out = with_schema_prompt(convo, Answer)
    assert out[:3] == convo
    assert out[3] == UserMessage(
        content="Reply with only a JSON object matching this JSON schema: " + ANSWER_SCHEMA,
        source="validator",
    )


@pytest.mark.parametrize("mode", ["openai", "json_object", "prompt"])
async def test_text_requests_are_the_same_in_every_mode(srv: FakeOpenAIServer, mode: str) -> None:
    client = build_openai_client(cfg(srv, mode), temperature=0.0)
    assert (await client.create(PROMPT)).content == srv.text
    (body,) = srv.chat_bodies()
    assert set(body) == {"messages", "model", "max_tokens", "seed", "stream", "temperature"}
    await client.close()


async def test_a_rejected_spelling_is_one_line_and_not_retried(srv: FakeOpenAIServer) -> None:
    srv.response_formats = LLAMA_CPP_PYTHON
    sleeps = Sleeps()
    inner = build_openai_client(cfg(srv, "openai"), temperature=0.0)
    client = RetryingClient(inner, attempts=4, sleep=sleeps)
    with pytest.raises(openai.InternalServerError) as info:
        await client.create(PROMPT, json_output=Answer)
    assert sleeps.delays == [] and len(srv.chat_bodies()) == 1
    assert str(info.value) == (
        f"{srv.base_url} rejected the request as malformed (HTTP 500: response_format.type: "
        "Input should be 'json_object' or 'text'); if it does not take response_format "
        'json_schema, set [model] structured_outputs to "json_object" or "prompt" or "auto"'
    )
    await inner.close()


async def test_a_rejected_text_request_names_no_mode(srv: FakeOpenAIServer) -> None:
    srv.fail(422)
    client = build_openai_client(cfg(srv, "json_object"), temperature=0.0)
    with pytest.raises(openai.UnprocessableEntityError) as info:
        await client.create(PROMPT)
    assert str(info.value) == (
        f"{srv.base_url} rejected the request as malformed (HTTP 422: fake failure)"
    )
    await client.close()


@pytest.mark.parametrize(
    ("status", "error", "said"),
    [
        (401, openai.AuthenticationError, "Incorrect API key provided: EMPTY"),
        (404, openai.NotFoundError, "fake failure"),
    ],
)
async def test_a_refusal_not_about_the_request_body_names_no_mode(
    srv: FakeOpenAIServer, status: int, error: type[openai.APIStatusError], said: str
) -> None:
    # An expired key or a wrong model name is no malformed request, and no other
    # structured_outputs would help: the line says who refused and why, nothing more.
    srv.fail(status)
    client = build_openai_client(cfg(srv, "openai"), temperature=0.0)
    with pytest.raises(error) as info:
        await client.create(PROMPT, json_output=Answer)
    assert str(info.value) == f"{srv.base_url} refused the request (HTTP {status}: {said})"
    await client.close()
