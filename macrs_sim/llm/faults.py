"""Chaos testing: a seeded share of model calls fails the way real endpoints fail.

Sits below the retry layer, so `exception`, `timeout` and `rate_limit` exercise
`RetryingClient`, and `empty` and `bad_json` exercise the JSON repair path.

Determinism: whether attempt n of a request is faulted, and how, is a pure
function of (seed, request, n). The request is its call context (role,
dialogue, system, turn), requested schema and message texts; n counts this
client's earlier *faulted* attempts at the identical request. Never a global
call counter: the same scenario injects the same faults into the same calls
however dialogues interleave, serially or 256 at a time.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import Counter, OrderedDict
from collections.abc import Sequence
from typing import Literal

import httpx
import openai
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage, RequestUsage

from macrs_sim.config import FaultsConfig
from macrs_sim.llm.base import CreateRequest, JsonOutput, WrappingClient, message_text
from macrs_sim.llm.context import current_call

FaultKind = Literal["exception", "timeout", "empty", "bad_json", "rate_limit"]
# The endpoint named in injected errors; nothing is ever sent to it.
FAKE_URL = "http://fault-injection.invalid/v1/chat/completions"


class InjectedTimeoutError(TimeoutError):
    """An injected timeout, told apart from a real one (a campaign redoes only real outages)."""


def request_digest(messages: Sequence[LLMMessage], json_output: JsonOutput) -> bytes:
    """What makes two calls "the same request": who asks, for what schema, with which text."""
    ctx = current_call()
    schema = json_output.__name__ if isinstance(json_output, type) else repr(json_output)
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((ctx.role, ctx.dialogue_id, ctx.system, ctx.turn, schema)).encode())
    for m in messages:
        h.update(b"\x00" + type(m).__name__.encode() + b"\x00" + message_text(m).encode())
    return h.digest()


class FaultInjectingClient(WrappingClient):
    """Wraps `inner`; injects `faults.rate` of calls as one of `faults.kinds` (see module doc)."""

    def __init__(
        self,
        inner: ChatCompletionClient,
        faults: FaultsConfig,
        *,
        timeout_after_s: float = 0.002,
        retry_after_ms: int = 5,
        max_tracked: int = 16384,
    ) -> None:
        super().__init__(inner)
        self.faults = faults
        self.timeout_after_s = timeout_after_s
        self.retry_after_ms = retry_after_ms
        self.requests = 0  # calls seen, faulted or not
        self.injected: Counter[FaultKind] = Counter()
        # Faulted attempts per request digest. Only faulted requests are tracked and a clean
        # attempt forgets its entry; the cap bounds what requests never repeated leave behind
        # (an empty reply is repaired with new text), so memory does not grow with a campaign.
        self._attempts: OrderedDict[bytes, int] = OrderedDict()
        self._max_tracked = max_tracked

    def decide(self, digest: bytes, attempt: int) -> FaultKind | None:
        """The fault for `attempt` (1-based) of the request with `digest`, or None."""
        if not self.faults.kinds or self.faults.rate <= 0:
            return None
        h = hashlib.blake2b(
            f"{self.faults.seed}|{attempt}|".encode() + digest, digest_size=16
        ).digest()
        if int.from_bytes(h[:8], "big") / 2**64 >= self.faults.rate:
            return None
        return self.faults.kinds[int.from_bytes(h[8:], "big") % len(self.faults.kinds)]

    async def _handle(self, request: CreateRequest) -> CreateResult:
        self.requests += 1
        kind = self._next_fault(request_digest(request.messages, request.json_output))
        if kind is not None:
            self.injected[kind] += 1
            await self._raise_if_error(kind)
            if kind == "empty":
                return _result("")
        result = await request.send(self.inner)
        if kind == "bad_json" and isinstance(result.content, str):
            # A reply cut off mid-object, as when a model hits max_tokens: the outer
            # object never closes, so it cannot parse whatever the schema.
            return result.model_copy(update={"content": result.content[: len(result.content) // 2]})
        return result

    def _next_fault(self, digest: bytes) -> FaultKind | None:
        attempt = self._attempts.pop(digest, 0) + 1
        kind = self.decide(digest, attempt)
        if kind is not None:
            self._attempts[digest] = attempt
            if len(self._attempts) > self._max_tracked:
                self._attempts.popitem(last=False)
        return kind

    async def _raise_if_error(self, kind: FaultKind) -> None:
        request = httpx.Request("POST", FAKE_URL)
        if kind == "exception":
            raise openai.APIConnectionError(
                message="injected fault: connection reset", request=request
            )
        if kind == "timeout":
            await asyncio.sleep(self.timeout_after_s)
            raise InjectedTimeoutError(f"injected fault: no reply within {self.timeout_after_s}s")
        if kind == "rate_limit":
            # RetryingClient honours retry-after-ms, so the pause stays a few milliseconds.
            headers = {"retry-after-ms": str(self.retry_after_ms)}
            response = httpx.Response(429, headers=headers, request=request)
            raise openai.RateLimitError(
                "injected fault: rate limited", response=response, body=None
            )


def _result(content: str) -> CreateResult:
    usage = RequestUsage(prompt_tokens=0, completion_tokens=0)
    return CreateResult(finish_reason="stop", content=content, usage=usage, cached=False)
