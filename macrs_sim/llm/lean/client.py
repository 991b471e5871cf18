"""An OpenAI-compatible chat client that costs little CPU per call.

autogen's OpenAIChatCompletionClient on the openai SDK spends about 1.9 ms of CPU per call
(the SDK's request transform, httpx layers, the strict schema rebuilt per call, pydantic
reply models); this client builds the same body directly (body.py), posts it on one
aiohttp session, and reads the reply with one orjson.loads. Errors, results and usage are
the SDK path's (errors.py, reply.py), so retry, the pool and WireClient see no difference,
with one exception: `timeout_s` bounds the whole call (deadlines.py), where the SDK applies
it to each read; the two agree for a reply that is not streamed, unless a server trickles
it out (or pads it with whitespace) for longer than `timeout_s`.
Requests it does not handle (tools, logprobs, a pydantic class as response_format, Claude's
message rules) go to `fallback`, the SDK client.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from urllib.parse import urlparse

import aiohttp
from autogen_core import CancellationToken
from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage, ModelInfo
from autogen_core.tools import Tool, ToolSchema
from autogen_ext.models.openai._openai_client import create_kwargs
from pydantic import BaseModel

from macrs_sim.llm.base import JsonOutput, SimpleChatClient, ToolChoice
from macrs_sim.llm.http_transport import LoopSession, _proxy_for
from macrs_sim.llm.lean.body import (
    MessageEncoder,
    Tail,
    body_tail,
    chat_body,
    encode,
    encode_plain,
    encode_tail,
    merge_system_messages,
)
from macrs_sim.llm.lean.body import response_format as schema_format
from macrs_sim.llm.lean.deadlines import Deadlines
from macrs_sim.llm.lean.errors import bad_reply, connection_error, status_error, timeout_error
from macrs_sim.llm.lean.reply import read_json, to_result
from macrs_sim.redact import split_userinfo

SDK_ONLY_ARGS = ("logprobs", "top_logprobs", "stream_options")


class LeanChatClient(SimpleChatClient):
    def __init__(
        self,
        *,
        model: str,
        base_url: str,
        api_key: str,
        create_args: Mapping[str, Any],
        timeout_s: float,
        model_info: ModelInfo,
        fallback: Callable[[], ChatCompletionClient],
    ) -> None:
        super().__init__(model_info=model_info)
        self.model = model
        # The URL's userinfo, if any, goes as Basic auth in place of the key (one
        # Authorization header; openai_backend._endpoint_client does the same).
        bare, basic = split_userinfo(base_url)
        self.url = bare.rstrip("/") + "/chat/completions"
        self._fields = {**create_args, "stream": False}
        # (fields, body tail) per json_output of calls without extra create args: the
        # campaign's few kinds of call, each worked out once.
        self._plain: dict[JsonOutput, tuple[dict[str, Any], Tail, bytes | None]] = {}
        self._headers = {
            "Authorization": basic or f"Bearer {api_key}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        self._timeout_s = timeout_s
        # Each call gets timeout_s from sending to the reply's last byte, on one shared
        # timer (deadlines.py); aiohttp only times connection attempts.
        self._deadlines = Deadlines()
        self._connect = aiohttp.ClientTimeout(total=None, sock_connect=timeout_s)
        where = urlparse(self.url)
        self._proxy = _proxy_for(where.scheme, where.hostname or "")
        self._family = model_info["family"]
        self._merge_system = not model_info.get("multiple_system_messages", False)
        self._messages = MessageEncoder(model, self._family)
        self._session = LoopSession()
        self._fallback = fallback
        self._sdk: ChatCompletionClient | None = None
        self._claude = model.startswith("claude-")  # autogen's message rules: the SDK's

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
        if tools or self._sdk_only(extra_create_args):
            if self._sdk is None:
                self._sdk = self._fallback()
            return await self._sdk.create(
                messages,
                tools=tools,
                tool_choice=tool_choice,
                json_output=json_output,
                extra_create_args=extra_create_args,
                cancellation_token=cancellation_token,
            )
        call = super().create(
            messages, json_output=json_output, extra_create_args=extra_create_args
        )
        if cancellation_token is None:
            return await call
        task = asyncio.ensure_future(call)  # as autogen's client: cancelling stops the call
        cancellation_token.link_future(task)
        return await task

    def _sdk_only(self, extra_create_args: Mapping[str, Any]) -> bool:
        if not extra_create_args:
            return self._claude
        return (
            any(name in extra_create_args for name in SDK_ONLY_ARGS)
            or isinstance(extra_create_args.get("response_format"), type)
            or self._claude
        )

    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult:
        fields, tail, tail_json = self._request(json_output, extra_create_args)
        if self._merge_system:
            messages = merge_system_messages(messages)
        encoded, plain = self._messages.encode_checked(messages)
        body = None
        if plain and tail_json is not None:
            body = encode_plain(encoded, self.model, tail_json)
        if body is None:
            body = encode(chat_body(encoded, self.model, tail))
        status, raw = await self._post(body, fields.get("timeout", self._timeout_s))
        try:
            reply = read_json(raw)
            schema = json_output if isinstance(json_output, type) else None
            return to_result(reply, schema, self._family)
        except (KeyError, IndexError, TypeError, AttributeError, UnicodeDecodeError) as err:
            why = f"not a chat completion ({type(err).__name__}: {err})"
            raise bad_reply(self.url, status, raw, why) from None
        except json.JSONDecodeError:
            raise bad_reply(self.url, status, raw, "reply is not JSON") from None

    def _request(
        self, json_output: JsonOutput, extra_create_args: Mapping[str, Any]
    ) -> tuple[dict[str, Any], Tail, bytes | None]:
        """This request's create args, the body fields they make, and those as JSON
        (None: they name `messages` or `model`)."""
        if extra_create_args or not (json_output is None or isinstance(json_output, bool | type)):
            return _prepared(self._request_fields(json_output, extra_create_args))
        known = self._plain.get(json_output)
        if known is None:
            known = self._plain[json_output] = _prepared(self._request_fields(json_output, {}))
        return known

    def _request_fields(
        self, json_output: JsonOutput, extra_create_args: Mapping[str, Any]
    ) -> dict[str, Any]:
        """autogen's create args for this request (same checks, same precedence)."""
        if not extra_create_args and json_output is None:
            return self._fields
        unknown = set(extra_create_args) - create_kwargs
        if unknown:
            raise ValueError(f"Extra create args are invalid: {unknown}")
        fields = {**self._fields, **extra_create_args}
        if json_output is True:
            fields["response_format"] = {"type": "json_object"}
        elif json_output is False:
            fields["response_format"] = {"type": "text"}
        elif isinstance(json_output, type) and issubclass(json_output, BaseModel):
            fields["response_format"] = schema_format(json_output)
        elif json_output is not None:
            raise ValueError(
                f"json_output must be a boolean or a Pydantic model class, got {type(json_output)}"
            )
        return fields

    async def _post(self, body: bytes, timeout_s: float | None) -> tuple[int, bytes]:
        """The reply's status and bytes, in `timeout_s` (None: no limit, as in the SDK)."""
        connect = self._connect
        if timeout_s != self._timeout_s:
            connect = aiohttp.ClientTimeout(total=None, sock_connect=timeout_s)
        try:
            with self._deadlines.within(timeout_s if timeout_s is not None else math.inf):
                async with self._session.get().post(
                    self.url,
                    data=body,
                    headers=self._headers,
                    timeout=connect,
                    allow_redirects=False,
                    proxy=self._proxy,
                ) as response:
                    raw = await response.read()
            if not 200 <= response.status < 300:
                raise status_error(self.url, response.status, response.raw_headers, raw)
            return response.status, raw
        except TimeoutError as err:  # before ClientError: aiohttp's timeouts are both
            raise timeout_error(self.url) from err
        except aiohttp.ClientError as err:
            raise connection_error(self.url) from err

    async def close(self) -> None:
        await self._session.close()
        if self._sdk is not None:
            await self._sdk.close()


def _prepared(fields: dict[str, Any]) -> tuple[dict[str, Any], Tail, bytes | None]:
    tail = body_tail(fields)
    return fields, tail, encode_tail(tail)
