"""Per-call accounting: every model call becomes an `LLMCallRecord`.

The wrapper reads `current_call()` so records are attributed to the dialogue,
system, role and turn that made them without changing the client interface.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from autogen_core.models import ChatCompletionClient, CreateResult

from macrs_sim.llm.base import WrappingClient
from macrs_sim.llm.context import current_call
from macrs_sim.protocol import LLMCallRecord


class CallLog:
    """Collects call records until the dialogue that made them is finished and pops them."""

    def __init__(self) -> None:
        self._records: list[LLMCallRecord] = []

    def record(self, rec: LLMCallRecord) -> None:
        self._records.append(rec)

    def pop(self, dialogue_id: str | None) -> list[LLMCallRecord]:
        """Remove and return `dialogue_id`'s records, in call order."""
        mine = [r for r in self._records if r.dialogue_id == dialogue_id]
        self._records = [r for r in self._records if r.dialogue_id != dialogue_id]
        return mine

    def all(self) -> list[LLMCallRecord]:
        """Every record not popped yet, in call order."""
        return list(self._records)


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
