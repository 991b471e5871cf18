"""Model calls of one RecMind instance: role-namespaced, counted (calls and tokens).

The counts feed `explain` and the task solver's trace (the paper's Table 10 compares
planners by running time; calls and tokens say where that time goes).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage
from pydantic import BaseModel

from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm.base import CreateRequest, WrappingClient
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, complete_text

T = TypeVar("T", bound=BaseModel)


@dataclass
class Usage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def as_dict(self) -> dict[str, int]:
        return {"llm_calls": self.calls, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens}  # fmt: skip


class CountingClient(WrappingClient):
    """Adds every call's tokens to `usage` (retries of a broken reply count too)."""

    def __init__(self, inner: ChatCompletionClient) -> None:
        super().__init__(inner)
        self.usage = Usage()

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        self.usage.calls += 1
        result = await call()
        self.usage.prompt_tokens += result.usage.prompt_tokens
        self.usage.completion_tokens += result.usage.completion_tokens
        return result


class WithCreateArgs(WrappingClient):
    """Adds create args to each request (a ballot's temperature and seed)."""

    def __init__(self, inner: ChatCompletionClient, args: Mapping[str, Any]) -> None:
        super().__init__(inner)
        self.args = dict(args)

    def _handle(self, request: CreateRequest) -> Awaitable[CreateResult]:
        extra = {**request.extra_create_args, **self.args}
        sent = dataclasses.replace(request, extra_create_args=extra)
        return self._around(partial(sent.send, self.inner))


class Caller:
    """Runs each call under `CallContext(role="recmind.<role>")`; failures come back as None."""

    def __init__(
        self,
        client: ChatCompletionClient,
        *,
        system: str,
        dialogue_id: str | None,
        retries: int = 2,
    ) -> None:
        self.client = CountingClient(client)
        self.system = system
        self.dialogue_id = dialogue_id
        self.retries = retries
        self.turn: int | None = None
        self.errors: list[str] = []

    @property
    def usage(self) -> Usage:
        return self.client.usage

    def reset(self, turn: int | None) -> None:
        self.turn = turn
        self.client.usage = Usage()
        self.errors = []

    def context(self, role: str) -> CallContext:
        return CallContext(
            role=f"recmind.{role}", dialogue_id=self.dialogue_id, system=self.system,
            turn=self.turn,
        )  # fmt: skip

    async def json(
        self,
        role: str,
        messages: list[LLMMessage],
        schema: type[T],
        *,
        create_args: Mapping[str, Any] | None = None,
    ) -> T | None:
        client = WithCreateArgs(self.client, create_args) if create_args else self.client
        try:
            with calling(self.context(role)):
                return await complete_json(client, messages, schema, retries=self.retries)
        except StructuredOutputError as err:
            self.errors.append(str(err))
            return None

    async def text(self, role: str, messages: list[LLMMessage]) -> str | None:
        try:
            with calling(self.context(role)):
                return await complete_text(self.client, messages)
        except StructuredOutputError as err:
            self.errors.append(str(err))
            return None
