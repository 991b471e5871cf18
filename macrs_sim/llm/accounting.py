"""Per-call accounting: every model call becomes an `LLMCallRecord`.

The wrapper reads `current_call()` so records are attributed to the dialogue,
system, role and turn that made them without changing the client interface.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Awaitable, Callable
from typing import Any

from autogen_core.models import ChatCompletionClient, CreateResult

from macrs_sim.llm.base import WrappingClient
from macrs_sim.llm.context import current_call
from macrs_sim.protocol import LLMCallRecord


class CallLog:
    """Collects call records until the dialogue that made them is finished and pops them.

    Records are grouped per dialogue, so popping one finished dialogue costs only its own
    calls however many dialogues are in flight (a scan of everything was quadratic over
    a campaign). A running sequence number keeps the global call order for `all()`.
    """

    def __init__(self) -> None:
        self._by_dialogue: dict[str | None, list[tuple[int, LLMCallRecord]]] = {}
        self._seq = 0

    def record(self, rec: LLMCallRecord) -> None:
        self._seq += 1
        self._by_dialogue.setdefault(rec.dialogue_id, []).append((self._seq, rec))

    def pop(self, dialogue_id: str | None) -> list[LLMCallRecord]:
        """Remove and return `dialogue_id`'s records, in call order."""
        return [rec for _, rec in self._by_dialogue.pop(dialogue_id, [])]

    def all(self) -> list[LLMCallRecord]:
        """Every record not popped yet, in call order."""
        merged = heapq.merge(*self._by_dialogue.values(), key=lambda pair: pair[0])
        return [rec for _, rec in merged]

    def pending(self) -> int:
        """How many records are not popped yet (a finished campaign leaves none)."""
        return sum(len(recs) for recs in self._by_dialogue.values())


class AccountingClient(WrappingClient):
    """Times each `create` and records tokens, cache hits and failures into `log`."""

    def __init__(self, inner: ChatCompletionClient, log: CallLog, model_name: str) -> None:
        super().__init__(inner)
        self.log = log
        self.model_name = model_name

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        ctx = current_call()
        base: dict[str, Any] = {
            "dialogue_id": ctx.dialogue_id,
            "system": ctx.system,
            "role": ctx.role,
            "turn": ctx.turn,
            "model": self.model_name,
        }
        start = time.perf_counter()
        try:
            result = await call()
        except Exception as err:
            latency = time.perf_counter() - start
            error = f"{type(err).__name__}: {err}".splitlines()[0]
            self.log.record(LLMCallRecord(**base, latency_s=latency, ok=False, error=error))
            raise
        self.log.record(
            LLMCallRecord(
                **base,
                prompt_tokens=result.usage.prompt_tokens,
                completion_tokens=result.usage.completion_tokens,
                latency_s=time.perf_counter() - start,
                cached=result.cached,
            )
        )
        return result
