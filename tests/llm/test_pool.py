"""EndpointPool against real HTTP endpoints: balance, limits, failover, cooldown, recovery."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import openai
import pytest
from autogen_core.models import LLMMessage, UserMessage

from macrs_sim.config import OpenAIModel
from macrs_sim.llm import build_openai_client
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer, Fault
from macrs_sim.llm.pool import EndpointPool, NoHealthyEndpointError

PROMPT: list[LLMMessage] = [UserMessage(content="Hi", source="user")]


def pool(srv: FakeOpenAIServer, **kw: Any) -> EndpointPool:
    fields = {"model": "m", "base_urls": srv.base_urls, "timeout_s": 5.0, **kw}
    client = build_openai_client(OpenAIModel.model_validate(fields), temperature=0.0)
    assert isinstance(client, EndpointPool)
    return client


def calls_per_endpoint(p: EndpointPool) -> list[int]:
    return [s.calls for s in p.stats()]


async def test_sequential_calls_go_round_robin() -> None:
    async with FakeOpenAIServer(endpoints=3) as srv:
        p = pool(srv)
        for _ in range(9):
            await p.create(PROMPT)
        assert calls_per_endpoint(p) == [3, 3, 3]
        assert [len(srv.chat_bodies(port)) for port in srv.ports] == [3, 3, 3]
        await p.close()


async def test_concurrent_calls_are_balanced_and_limited_per_endpoint() -> None:
    async with FakeOpenAIServer(endpoints=2, latency_s=0.05) as srv:
        p = pool(srv, max_concurrency=3)
        await asyncio.gather(*(p.create(PROMPT) for _ in range(24)))
        # Measured at the server, per port: never more than the limit, and it was reached.
        assert [srv.max_in_flight[port] for port in srv.ports] == [3, 3]
        assert calls_per_endpoint(p) == [12, 12]
        assert [s.in_flight for s in p.stats()] == [0, 0]
        await p.close()


async def test_least_busy_endpoint_gets_the_call() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        srv.hang(1.0)  # the first call occupies endpoint 0 for a while
        p = pool(srv)
        slow = asyncio.create_task(p.create(PROMPT))
        await asyncio.sleep(0.05)
        for _ in range(3):
            await p.create(PROMPT)
        assert calls_per_endpoint(p) == [1, 3]
        await slow
        await p.close()


async def test_failover_cooldown_and_recovery() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        srv.set_down(0)  # endpoint 0 drops every connection
        p = pool(srv, endpoint_cooldown_s=1.0)
        assert (await p.create(PROMPT)).content == srv.text  # re-sent to endpoint 1
        first, second = p.stats()
        assert (first.calls, first.failures, first.cooldowns) == (1, 1, 1)
        for _ in range(4):  # while it cools down, endpoint 0 gets nothing
            await p.create(PROMPT)
        assert calls_per_endpoint(p) == [1, 5]
        srv.set_down(0, None)
        await asyncio.sleep(1.05)
        for _ in range(4):  # back: the least busy again, so ties alternate
            await p.create(PROMPT)
        assert calls_per_endpoint(p) == [3, 7]
        await p.close()


async def test_5xx_and_429_are_resent_elsewhere_once() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        p = pool(srv, endpoint_cooldown_s=10.0)
        srv.fail(503)
        await p.create(PROMPT)
        assert [r.port for r in srv.requests] == srv.ports  # tried 0, then 1
        # Endpoint 0 is away for 10 s, so endpoint 1 twice: set aside for the 0.05 s its
        # Retry-After asks (shorter than the cooldown), the re-sent call waits for it.
        srv.fail(429, retry_after="0.05", times=2)
        with pytest.raises(openai.RateLimitError):
            await p.create(PROMPT)  # failed twice: the error goes to the retry layer
        assert [r.port for r in srv.requests[2:]] == [srv.ports[1]] * 2
        await asyncio.sleep(0.06)  # Retry-After (shorter than the cooldown) has passed
        assert (await p.create(PROMPT)).content == srv.text
        await p.close()


async def test_other_4xx_is_not_an_endpoint_fault() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        p = pool(srv)
        srv.fail(400)
        with pytest.raises(openai.BadRequestError):
            await p.create(PROMPT)
        assert len(srv.chat_bodies()) == 1
        assert [(s.failures, s.down_until) for s in p.stats()] == [(0, 0.0), (0, 0.0)]
        await p.close()


async def test_all_down_waits_for_the_earliest_to_come_back() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        for i in range(2):
            srv.set_down(i, Fault("status", 502))
        p = pool(srv, endpoint_cooldown_s=0.5, timeout_s=2.0)
        with pytest.raises(openai.APIStatusError):
            await p.create(PROMPT)  # both tried, both set aside
        srv.set_down(0, None)
        srv.set_down(1, None)
        start = time.monotonic()
        assert (await p.create(PROMPT)).content == srv.text  # waits, not fails
        assert 0.3 < time.monotonic() - start < 1.5
        await p.close()


async def test_all_down_past_the_call_timeout_fails_fast() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        srv.set_down(0)
        srv.set_down(1)
        p = pool(srv, endpoint_cooldown_s=30.0, timeout_s=0.5)
        with pytest.raises(openai.APIConnectionError):
            await p.create(PROMPT)
        start = time.monotonic()
        with pytest.raises(NoHealthyEndpointError) as info:
            await p.create(PROMPT)
        assert time.monotonic() - start < 0.1  # nobody is back before the deadline
        assert srv.base_urls[0] in str(info.value) and srv.base_urls[1] in str(info.value)
        assert isinstance(info.value, ConnectionError)  # so RetryingClient retries it
        await p.close()


async def test_all_down_waits_at_most_the_call_timeout() -> None:
    async with FakeOpenAIServer(endpoints=2) as srv:
        p = pool(srv, max_concurrency=1, endpoint_cooldown_s=0.3, timeout_s=0.5)
        for i in range(2):
            srv.set_down(i, Fault("status", 500))
        with pytest.raises(openai.InternalServerError):
            await p.create(PROMPT)  # both set aside for 0.3 s
        srv.set_down(0, None)
        srv.set_down(1, None)
        srv.latency_s = 0.4  # within the HTTP timeout (also timeout_s)
        # Three callers wait; at 0.3 s two take the returning endpoints until 0.7 s, and
        # the third gives up at its deadline (0.5 s) rather than waiting on.
        start = time.monotonic()
        calls = [asyncio.create_task(p.create(PROMPT)) for _ in range(3)]
        done, _ = await asyncio.wait(calls, return_when=asyncio.FIRST_COMPLETED)
        (third,) = done
        assert isinstance(third.exception(), NoHealthyEndpointError)
        assert 0.45 < time.monotonic() - start < 0.7
        await asyncio.gather(*calls, return_exceptions=True)
        assert sum(1 for c in calls if c.exception() is None) == 2
        await p.close()


async def test_cancelled_calls_give_their_slots_back() -> None:
    async with FakeOpenAIServer(endpoints=2, latency_s=0.5) as srv:
        p = pool(srv, max_concurrency=1)
        tasks = [asyncio.create_task(p.create(PROMPT)) for _ in range(4)]  # two wait
        await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        assert [s.in_flight for s in p.stats()] == [0, 0]
        srv.latency_s = 0.0
        await asyncio.wait_for(p.create(PROMPT), 2.0)
        await p.close()
