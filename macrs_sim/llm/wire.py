"""What one OpenAI-compatible endpoint is sent beyond autogen's request, and what comes
back of its errors: vLLM's own structured-output and sampling fields, and errors with
the API key scrubbed out."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import openai
from autogen_core.models import ChatCompletionClient, CreateResult
from openai.lib._pydantic import to_strict_json_schema
from pydantic import BaseModel

from macrs_sim.llm.base import CreateRequest, JsonOutput, WrappingClient

# vLLM fills every sampling field a request leaves out from the model's
# generation_config.json (e.g. Qwen2.5: repetition_penalty 1.05, top_k 20), so results
# would depend on the server's files and flags. These neutral values pin them (plus
# top_p=1 in the body). top_k=-1 means "off" in every vLLM version (newer ones prefer 0).
VLLM_SAMPLING: dict[str, Any] = {"top_k": -1, "min_p": 0.0, "repetition_penalty": 1.0}


def vllm_extra_body(json_output: JsonOutput) -> dict[str, Any]:
    """vLLM-only request fields: neutral sampling, and the schema in vLLM's own fields.

    vLLM also reads `response_format` (sent in every mode); these are its native spelling.
    `structured_outputs.json`: vLLM >= 0.10.2, the only spelling from 0.12.
    `guided_json`: vLLM < 0.12 (deprecated from 0.10.2, where `structured_outputs` wins).
    vLLM ignores fields it does not know, with a warning in its log. The schema is the
    strict one the SDK puts in `response_format`, so all three agree.
    """
    body = dict(VLLM_SAMPLING)
    if isinstance(json_output, type) and issubclass(json_output, BaseModel):
        schema = _strict_schema(json_output)
        body["structured_outputs"] = {"json": schema}
        body["guided_json"] = schema
    return body


@functools.lru_cache(maxsize=256)  # pydantic builds it anew on every call otherwise
def _strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    return to_strict_json_schema(model)


class WireClient(WrappingClient):
    """One endpoint's extras around autogen's request, and its errors made safe to store.

    With `vllm`, adds `vllm_extra_body`. Always scrubs the API key from errors: some
    servers echo it in a 401, and an error's text lands in the run store and report.
    """

    def __init__(self, inner: ChatCompletionClient, *, key: str, vllm: bool) -> None:
        super().__init__(inner)
        self._key = key
        self.vllm = vllm

    async def _handle(self, request: CreateRequest) -> CreateResult:
        if self.vllm:
            args = request.extra_create_args
            extra_body = {**vllm_extra_body(request.json_output), **args.get("extra_body", {})}
            request = replace(request, extra_create_args={**args, "extra_body": extra_body})
        return await super()._handle(request)

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        try:
            return await call()
        except Exception as err:
            scrub_secret(err, self._key)
            raise


def scrub_secret(err: BaseException, secret: str) -> None:
    """Replace `secret` in the messages of `err` and its causes (in place)."""
    if secret == "EMPTY" or len(secret) < 4:  # the local placeholder is no secret
        return
    seen: BaseException | None = err
    for _ in range(8):  # a chain is short; the bound only guards against a cycle
        if seen is None:
            return
        # Some exception types refuse new args: keep the original error rather than fail.
        with contextlib.suppress(AttributeError, TypeError):
            seen.args = tuple(
                a.replace(secret, "[redacted]") if isinstance(a, str) else a for a in seen.args
            )
        if isinstance(seen, openai.APIError):
            seen.message = seen.message.replace(secret, "[redacted]")
            if secret in repr(seen.body):
                seen.body = None
        seen = seen.__cause__ or seen.__context__
