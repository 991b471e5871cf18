"""Boilerplate for `ChatCompletionClient` implementations and wrappers.

Everything in macrs-sim talks to one interface, autogen's `ChatCompletionClient`.
`SimpleChatClient` lets a backend implement only `_complete`; `WrappingClient`
lets a cross-cutting concern (accounting, retries, concurrency) override only
`create` while delegating everything else to the client it wraps.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal

from autogen_core import CancellationToken
from autogen_core.models import (
    ChatCompletionClient,
    CreateResult,
    LLMMessage,
    ModelCapabilities,
    ModelInfo,
    RequestUsage,
)
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

JsonOutput = bool | type[BaseModel] | None
ToolChoice = Tool | Literal["auto", "required", "none"]

# Local models (llama.cpp, scripted) have no tools and understand JSON mode.
LOCAL_MODEL_INFO = ModelInfo(
    vision=False,
    function_calling=False,
    json_output=True,
    structured_output=True,
    family="unknown",
)


def message_text(message: LLMMessage) -> str:
    """The text of a message; non-text parts (images, function calls) are rendered with str()."""
    content = message.content
    if isinstance(content, str):
        return content
    return " ".join(part if isinstance(part, str) else str(part) for part in content)


def approx_tokens(messages: Sequence[LLMMessage]) -> int:
    """~4 characters per token plus a few per message for the chat template."""
    return sum(len(message_text(m)) // 4 + 4 for m in messages)


class StreamsViaCreate(ChatCompletionClient):
    """`create_stream` as one final item from `self.create`: no token streaming here, and a
    wrapper's concern (retry, accounting) applies to streams too."""

    async def create_stream(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = [],
        tool_choice: ToolChoice = "auto",
        json_output: JsonOutput = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> AsyncGenerator[str | CreateResult, None]:
        yield await self.create(
            messages,
            tools=tools,
            tool_choice=tool_choice,
            json_output=json_output,
            extra_create_args=extra_create_args,
            cancellation_token=cancellation_token,
        )


class SimpleChatClient(StreamsViaCreate, ABC):
    """A client that answers one request at a time; subclasses implement `_complete`."""

    def __init__(self, *, model_info: ModelInfo = LOCAL_MODEL_INFO, n_ctx: int = 32768) -> None:
        self._model_info = model_info.copy()  # callers may mutate what we return
        self._n_ctx = n_ctx
        self._actual = RequestUsage(prompt_tokens=0, completion_tokens=0)
        self._total = RequestUsage(prompt_tokens=0, completion_tokens=0)

    @abstractmethod
    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult: ...

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = [],
        tool_choice: ToolChoice = "auto",
        json_output: JsonOutput = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> CreateResult:
        if tools:
            raise ValueError(f"{type(self).__name__} does not support tool calls")
        result = await self._complete(
            messages, json_output=json_output, extra_create_args=extra_create_args
        )
        for usage in (self._actual, self._total):
            usage.prompt_tokens += result.usage.prompt_tokens
            usage.completion_tokens += result.usage.completion_tokens
        return result

    async def close(self) -> None:
        return None

    def actual_usage(self) -> RequestUsage:
        return self._actual

    def total_usage(self) -> RequestUsage:
        return self._total

    def count_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []
    ) -> int:
        return approx_tokens(messages)

    def remaining_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []
    ) -> int:
        return max(0, self._n_ctx - self.count_tokens(messages, tools=tools))

    @property
    def capabilities(self) -> ModelCapabilities:
        return ModelCapabilities(
            vision=self._model_info["vision"],
            function_calling=self._model_info["function_calling"],
            json_output=self._model_info["json_output"],
        )

    @property
    def model_info(self) -> ModelInfo:
        return self._model_info


@dataclass(frozen=True)
class CreateRequest:
    """One `create` call's arguments, so a wrapper can read them and pass them on unchanged."""

    messages: Sequence[LLMMessage]
    tools: Sequence[Tool | ToolSchema] = ()
    tool_choice: ToolChoice = "auto"
    json_output: JsonOutput = None
    extra_create_args: Mapping[str, Any] = field(default_factory=dict)
    cancellation_token: CancellationToken | None = None

    def send(self, client: ChatCompletionClient) -> Awaitable[CreateResult]:
        # A wrapper's own `create` would only rebuild this (frozen) request: hand it over.
        if (
            isinstance(client, WrappingClient)
            and type(client).create is WrappingClient.create
            and "create" not in vars(client)
        ):
            return client._handle(self)
        return client.create(
            self.messages,
            tools=self.tools,
            tool_choice=self.tool_choice,
            json_output=self.json_output,
            extra_create_args=self.extra_create_args,
            cancellation_token=self.cancellation_token,
        )


class WrappingClient(StreamsViaCreate):
    """Delegates everything to `inner`. A wrapper overrides `_around` when its concern needs
    only the call (retry, timing, a slot), or `_handle` when it needs the request too."""

    def __init__(self, inner: ChatCompletionClient) -> None:
        self.inner = inner

    async def create(
        self,
        messages: Sequence[LLMMessage],
        *,
        tools: Sequence[Tool | ToolSchema] = [],
        tool_choice: ToolChoice = "auto",
        json_output: JsonOutput = None,
        extra_create_args: Mapping[str, Any] = {},
        cancellation_token: CancellationToken | None = None,
    ) -> CreateResult:
        request = CreateRequest(
            messages, tools, tool_choice, json_output, extra_create_args, cancellation_token
        )
        return await self._handle(request)

    def _handle(self, request: CreateRequest) -> Awaitable[CreateResult]:
        # `_around`'s coroutine itself, not one awaiting it: a frame fewer per wrapper for
        # the call to pass through each time it resumes. Overrides may be coroutines.
        return self._around(partial(request.send, self.inner))

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        """A wrapper's one concern around the inner call (retry, timing, a slot...)."""
        return await call()

    async def close(self) -> None:
        await self.inner.close()

    def actual_usage(self) -> RequestUsage:
        return self.inner.actual_usage()

    def total_usage(self) -> RequestUsage:
        return self.inner.total_usage()

    def count_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []
    ) -> int:
        return self.inner.count_tokens(messages, tools=tools)

    def remaining_tokens(
        self, messages: Sequence[LLMMessage], *, tools: Sequence[Tool | ToolSchema] = []
    ) -> int:
        return self.inner.remaining_tokens(messages, tools=tools)

    @property
    def capabilities(self) -> ModelCapabilities:
        return self.inner.capabilities

    @property
    def model_info(self) -> ModelInfo:
        return self.inner.model_info
