"""SQLite response cache in front of any client: a re-run, or an ablation that repeats
earlier calls, costs nothing (DESIGN §5).

The key covers the model's identity, its sampling parameters and the whole request.
autogen-ext's ChatCompletionCache leaves the model out of its key; here two models
never share an entry.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Awaitable, Callable, Mapping
from functools import cache, partial
from typing import Any

from autogen_core.models import ChatCompletionClient, CreateResult
from autogen_core.tools import Tool, ToolSchema
from pydantic import BaseModel

from macrs_sim.llm.base import CreateRequest, JsonOutput, WrappingClient
from macrs_sim.llm.cache_store import CACHE_FILE, ResponseCache

__all__ = ["CACHE_FILE", "CachingClient", "ResponseCache", "request_key"]


def request_key(model_identity: str, params: Mapping[str, Any], **request: Any) -> str:
    """sha256 of canonical JSON; `request` values must already be JSON-able."""
    payload = {"model": model_identity, "params": dict(params), **request}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@cache
def _json_schema(model: type[BaseModel]) -> dict[str, Any]:
    return model.model_json_schema()  # milliseconds per call: too slow to redo per request


def _schema(json_output: JsonOutput) -> Any:
    return _json_schema(json_output) if isinstance(json_output, type) else json_output


def _tool(tool: Tool | ToolSchema) -> Any:
    return tool if isinstance(tool, dict) else tool.schema


class CachingClient(WrappingClient):
    """Answers a repeated request from `cache`; identical concurrent requests are made once.

    `request_context` adds inputs a backend reads besides the request itself (the
    scripted fake reads the call context), so its cached replies stay faithful.
    """

    def __init__(
        self,
        inner: ChatCompletionClient,
        cache: ResponseCache,
        *,
        model_identity: str,
        params: Mapping[str, Any],
        request_context: Callable[[], Any] | None = None,
    ) -> None:
        super().__init__(inner)
        self.cache = cache
        self.model_identity = model_identity
        self.params = dict(params)
        self.request_context = request_context
        self._inflight: dict[str, asyncio.Future[CreateResult]] = {}

    async def _handle(self, request: CreateRequest) -> CreateResult:
        choice = request.tool_choice
        key = request_key(
            self.model_identity,
            self.params,
            messages=[m.model_dump(mode="json") for m in request.messages],
            json_output=_schema(request.json_output),
            tools=[_tool(t) for t in request.tools],
            tool_choice=choice if isinstance(choice, str) else choice.name,
            extra_create_args=dict(request.extra_create_args),
            context=self.request_context() if self.request_context else None,
        )
        return await self._answer(key, partial(request.send, self.inner))

    async def _answer(self, key: str, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        while (pending := self._inflight.get(key)) is not None:
            try:
                result = await asyncio.shield(pending)  # our cancellation leaves the leader be
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if pending.cancelled() and not (task and task.cancelling()):
                    continue  # the leader was cancelled, not us: make the call ourselves
                raise
            return result.model_copy(update={"cached": True})
        hit = self._lookup(key)
        if hit is not None:
            return hit
        # Registered with no await since the checks above, so a concurrent twin waits.
        future = self._inflight[key] = asyncio.get_running_loop().create_future()
        try:
            result = await call()
        except Exception as err:  # propagated to the waiters too; nothing is stored
            future.set_exception(err)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            raise
        except BaseException:
            future.cancel()
            raise
        finally:
            if self._inflight.get(key) is future:
                del self._inflight[key]
        future.set_result(result)
        self.cache.put(key, result)
        return result

    def _lookup(self, key: str) -> CreateResult | None:
        # The store warns once and answers None when its file is unusable.
        return self.cache.get(key)
