"""A chat.completion reply as autogen's OpenAI client returns it, from one orjson.loads."""

from __future__ import annotations

import json
from typing import Any

import openai
import orjson
from autogen_core.models import CreateResult, ModelFamily, RequestUsage
from autogen_ext.models._utils.normalize_stop_reason import normalize_stop_reason
from autogen_ext.models._utils.parse_r1_content import parse_r1_content
from pydantic import BaseModel

from macrs_sim.llm.lean.errors import length_error


def to_result(reply: dict[str, Any], schema: type[BaseModel] | None, family: str) -> CreateResult:
    """The CreateResult of `reply` (KeyError, TypeError or IndexError if it is no
    completion). For a schema request, the SDK's checks first: a truncated reply raises
    LengthFinishReasonError, a filtered one ContentFilterFinishReasonError, a reply that does
    not fit the schema pydantic's ValidationError."""
    choice = reply["choices"][0]
    message = choice["message"]
    finish_reason = choice.get("finish_reason")
    content = message.get("content")
    if schema is not None:
        if finish_reason == "length":
            raise length_error(reply)
        if finish_reason == "content_filter":
            raise openai.ContentFilterFinishReasonError()
        if content and not message.get("refusal"):
            schema.model_validate_json(content)
    text = content or ""
    thought = message.get("reasoning_content")
    if family == ModelFamily.R1 and thought is None:
        thought, text = parse_r1_content(text)
    usage = reply.get("usage") or {}
    return CreateResult(
        finish_reason=normalize_stop_reason(finish_reason),
        content=text,
        usage=RequestUsage(
            prompt_tokens=usage.get("prompt_tokens") or 0,
            completion_tokens=usage.get("completion_tokens") or 0,
        ),
        cached=False,
        logprobs=None,
        thought=thought,
    )


def read_json(raw: bytes) -> Any:
    """json.loads(raw) as far as to_result reads it, by orjson (a third of the CPU). What
    orjson refuses (UTF-16, NaN, bad UTF-8) goes to json for its result or its error, as
    does a reply whose usage holds a float: orjson reads an integer past 64 bits as one,
    where json keeps the integer (elsewhere in a reply such a number is never read)."""
    try:
        reply = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)
    usage = reply.get("usage") if type(reply) is dict else None
    if type(usage) is dict and any(type(value) is float for value in usage.values()):
        return json.loads(raw)
    return reply
