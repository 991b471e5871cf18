"""CircuitBreaker: an outage makes calls wait for the server instead of failing them."""

from __future__ import annotations

import asyncio
import time

import pytest
from autogen_core.models import CreateResult, LLMMessage, RequestUsage, UserMessage

from macrs_sim.config import OpenAIModel
from macrs_sim.llm import build_openai_client
from macrs_sim.llm.base import CreateRequest, WrappingClient, message_text
from macrs_sim.llm.breaker import CircuitBreaker, OutageBoard
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer, Fault
from macrs_sim.llm.retry import RetryingClient


def prompt(text: str = "Hi") -> list[LLMMessage]:
    return [UserMessage(content=text, source="user")]


class Stub(WrappingClient):
    """Answers after `latency_s`; fails with ConnectionError while `down`, and always for
    messages containing "bad" (a request the server chokes on, not an outage)."""

    def __init__(self, latency_s: float = 0.01) -> None:
        super().__init__(None)  # type: ignore[arg-type]
        self.latency_s, self.down, self.attempts = latency_s, False, 0

    async def _handle(self, request: CreateRequest) -> CreateResult:
        self.attempts += 1
        await asyncio.sleep(self.latency_s)
        if self.down or "bad" in message_text(request.messages[0]):
            raise ConnectionError("connection refused")
        usage = RequestUsage(prompt_tokens=1, completion_tokens=1)
        return CreateResult(finish_reason="stop", content="ok", usage=usage, cached=False)


async def test_an_outage_makes_calls_wait_and_they_all_succeed() -> None:
    board = OutageBoard()
    async with FakeOpenAIServer() as srv:
        cfg = OpenAIModel(model="m", base_url=srv.base_url, api_key_env=None, timeout_s=2.0)
        inner = RetryingClient(build_openai_client(cfg, temperature=0.0), attempts=2, base_s=0.01)
        breaker = CircuitBreaker(inner, board=board, backoff_base_s=0.05, backoff_max_s=0.2)
        await breaker.create(prompt())  # the first call pays the client's start-up (seconds)
        srv.set_down(0, Fault("status", 503))
        seen: list[int] = []

        async def watch() -> None:
            while True:
                seen.append(board.waiting)
                await asyncio.sleep(0.02)

        watcher = asyncio.create_task(watch())
        calls = [asyncio.create_task(breaker.create(prompt())) for _ in range(8)]
        await asyncio.sleep(0.6)
        assert not any(c.done() for c in calls)  # waiting, not failed
        srv.set_down(0, None)
        replies = await asyncio.wait_for(asyncio.gather(*calls), 5)
        watcher.cancel()
        await breaker.close()
    assert [r.content for r in replies] == [srv.text] * 8
    assert breaker.opened == 1 and not breaker.is_open
    assert max(seen) == 8 and board.waiting == 0 and board.since is None


async def test_a_call_gives_up_after_outage_wait_s_with_its_last_error() -> None:
    stub = Stub()
    stub.down = True
    breaker = CircuitBreaker(stub, outage_wait_s=0.3, backoff_base_s=0.05, board=OutageBoard())
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="connection refused"):
        await breaker.create(prompt())
    assert 0.3 <= time.monotonic() - start < 0.5
    # Backoff 0.025-0.05, 0.05-0.1, 0.1-0.2 s...: a handful of probes, not a busy loop.
    assert 3 <= stub.attempts <= 8


async def test_a_request_that_fails_while_others_succeed_is_its_own_problem() -> None:
    stub = Stub(latency_s=0.02)
    breaker = CircuitBreaker(stub, outage_wait_s=30, backoff_base_s=0.01, board=OutageBoard())
    stop = asyncio.Event()

    async def traffic() -> None:
        while not stop.is_set():
            await breaker.create(prompt())

    others = [asyncio.create_task(traffic()) for _ in range(3)]
    start = time.monotonic()
    with pytest.raises(ConnectionError):
        await breaker.create(prompt("bad"))
    stop.set()
    await asyncio.gather(*others)
    # One more round (its first may have overlapped an outage's start), then it raises.
    assert time.monotonic() - start < 1.0 and not breaker.is_open


async def test_other_errors_are_never_waited_on() -> None:
    class Broken(Stub):
        async def _handle(self, request: CreateRequest) -> CreateResult:
            self.attempts += 1
            raise ValueError("schema broken")

    stub = Broken()
    breaker = CircuitBreaker(stub, board=OutageBoard())
    with pytest.raises(ValueError):
        await breaker.create(prompt())
    assert stub.attempts == 1 and breaker.opened == 0
