"""FaultInjectingClient: each kind fails as the layer above expects, reproducibly."""

from __future__ import annotations

import asyncio

import openai
import pytest
from autogen_core.models import UserMessage
from pydantic import BaseModel

from macrs_sim.config import FaultsConfig
from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm import CallContext, RetryingClient, ScriptedChatCompletionClient, calling
from macrs_sim.llm.faults import FaultInjectingClient, FaultKind
from macrs_sim.llm.retry import is_transient, retry_after_s
from macrs_sim.llm.structured import complete_json, complete_text


class Answer(BaseModel):
    title: str
    score: int


def faulty(rate: float, *kinds: FaultKind, seed: int = 0) -> FaultInjectingClient:
    cfg = FaultsConfig(rate=rate, kinds=kinds or FaultsConfig().kinds, seed=seed)
    return FaultInjectingClient(ScriptedChatCompletionClient(), cfg)


async def ask(client: FaultInjectingClient, text: str, dialogue: str = "d") -> str:
    with calling(CallContext(role="user", dialogue_id=dialogue, turn=1)):
        result = await client.create([UserMessage(content=text, source="u")])
    assert isinstance(result.content, str)
    return result.content


async def outcome(client: FaultInjectingClient, text: str) -> str:
    """The reply, or the name of the error raised instead."""
    try:
        return await ask(client, text)
    except Exception as err:
        return type(err).__name__


async def test_rate_zero_passes_everything_through() -> None:
    client = faulty(0.0)
    assert await ask(client, "hi") == "Scripted reply from the user (turn 1)."
    assert client.requests == 1 and sum(client.injected.values()) == 0


@pytest.mark.parametrize(
    ("kind", "error"),
    [
        ("exception", openai.APIConnectionError),
        ("timeout", TimeoutError),
        ("rate_limit", openai.RateLimitError),
    ],
)
async def test_error_kinds_are_what_the_retry_layer_retries(
    kind: FaultKind, error: type[Exception]
) -> None:
    client = faulty(1.0, kind)
    with pytest.raises(error) as info:
        await ask(client, "hi")
    assert is_transient(info.value) and "injected fault" in str(info.value)
    assert client.injected == {kind: 1}


async def test_rate_limit_asks_for_a_few_milliseconds() -> None:
    with pytest.raises(openai.RateLimitError) as info:
        await ask(faulty(1.0, "rate_limit"), "hi")
    assert info.value.status_code == 429 and retry_after_s(info.value) == 0.005
    assert RetryingClient(ScriptedChatCompletionClient()).delay_s(info.value, 1) == 0.005


async def test_empty_and_bad_json_break_the_reply_not_the_call() -> None:
    assert await ask(faulty(1.0, "empty"), "hi") == ""
    with calling(CallContext(role="critic")), pytest.raises(StructuredOutputError) as info:
        await complete_json(faulty(1.0, "bad_json"), [UserMessage(content="x", source="u")], Answer)
    assert "no valid reply after 3 attempt(s)" in str(info.value)
    with calling(CallContext(role="user")), pytest.raises(StructuredOutputError):
        await complete_text(faulty(1.0, "empty"), [UserMessage(content="x", source="u")])


async def test_faults_depend_on_seed_and_request_not_call_order() -> None:
    texts = [f"request {i}" for i in range(200)]
    forward = [await outcome(faulty(0.3, seed=1), t) for t in texts]
    fresh = faulty(0.3, seed=1)
    backward = [await outcome(fresh, t) for t in reversed(texts)]
    assert forward == backward[::-1]
    assert forward != [await outcome(faulty(0.3, seed=2), t) for t in texts]


async def test_rate_and_kinds_are_honoured() -> None:
    client = faulty(0.2)
    for i in range(3000):
        await outcome(client, f"request {i}")
    assert 0.17 < sum(client.injected.values()) / client.requests < 0.23
    assert set(client.injected) == set(FaultsConfig().kinds)


async def test_a_retried_request_gets_a_fresh_draw_so_retries_recover() -> None:
    pauses: list[float] = []

    async def no_wait(s: float) -> None:
        pauses.append(s)

    inner = faulty(0.5, "exception", "timeout", "rate_limit")
    client = RetryingClient(inner, attempts=30, sleep=no_wait)
    with calling(CallContext(role="user", dialogue_id="d")):
        results = await asyncio.gather(
            *(client.create([UserMessage(content=f"q{i}", source="u")]) for i in range(50))
        )
    assert all(r.content for r in results)
    assert len(pauses) == sum(inner.injected.values()) > 10
    assert not inner._attempts  # every request ended clean: nothing left tracked


async def test_tracked_requests_are_capped() -> None:
    cfg = FaultsConfig(rate=1.0, kinds=("empty",))
    client = FaultInjectingClient(ScriptedChatCompletionClient(), cfg, max_tracked=10)
    for i in range(100):
        await ask(client, f"never repeated {i}")
    assert len(client._attempts) == 10
