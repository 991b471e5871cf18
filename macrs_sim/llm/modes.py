"""How a request for a JSON schema is spelled for each kind of OpenAI-compatible server.

Servers disagree (`[model] structured_outputs`):
* "openai": `response_format: {type: json_schema, ...}`: OpenAI, vLLM, SGLang, llama.cpp's
  C++ server, Ollama. The openai SDK builds it from the pydantic model.
* "vllm": the same plus vLLM's native `structured_outputs.json` and neutral sampling.
* "json_object": `response_format: {type: json_object, schema: ...}`: llama-cpp-python's
  server (it rejects json_schema with a 500). The schema is the one the embedded backend
  sends the same llama.cpp, strings capped so a reply closes within max_tokens.
* "prompt": no server-side constraint; the schema is appended to the last user message.
In every mode the reply is validated and repaired by `complete_json`. Text requests are
the same in every mode except "vllm", which pins sampling on them too.
"""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from typing import Any, Literal, get_args

from autogen_core.models import LLMMessage, UserMessage
from openai.lib._pydantic import to_strict_json_schema
from pydantic import BaseModel

from macrs_sim.llm.base import CreateRequest, JsonOutput, message_text
from macrs_sim.llm.embedded import response_format

Mode = Literal["openai", "vllm", "json_object", "prompt"]
MODES: tuple[Mode, ...] = get_args(Mode)
# What `auto` tries, in order. Never "vllm": it changes text requests too (sampling), and
# no probe can tell vLLM apart reliably; `macrs-sim serve vllm` names it explicitly.
AUTO_ORDER: tuple[Mode, ...] = ("openai", "json_object", "prompt")
# How each mode carries the schema, for messages.
SPELLING: dict[Mode, str] = {
    "openai": "response_format json_schema",
    "vllm": "response_format json_schema and structured_outputs.json",
    "json_object": "response_format json_object with a schema",
    "prompt": "the schema in the prompt",
}

# vLLM fills every sampling field a request leaves out from the model's
# generation_config.json (e.g. Qwen2.5: repetition_penalty 1.05, top_k 20), so results
# would depend on the server's files and flags. These neutral values pin them.
# top_k=-1 means "off" in every vLLM version (newer ones prefer 0).
VLLM_SAMPLING: dict[str, Any] = {"top_p": 1.0, "top_k": -1, "min_p": 0.0, "repetition_penalty": 1.0}
PROMPT_SUFFIX = "\n\nReply with only a JSON object matching this JSON schema: "
# String cap per field in "json_object" mode: the embedded backend's default.
JSON_OBJECT_MAX_CHARS = 240


def schema_of(json_output: JsonOutput) -> type[BaseModel] | None:
    if isinstance(json_output, type) and issubclass(json_output, BaseModel):
        return json_output
    return None


def shape(request: CreateRequest, mode: Mode, *, max_tokens: int) -> CreateRequest:
    """`request` as `mode` sends it (text requests change only in "vllm")."""
    schema = schema_of(request.json_output)
    if mode == "vllm":
        return _with_extra_body(request, vllm_extra_body(schema))
    if schema is None or mode == "openai":
        return request
    if mode == "json_object":
        fmt = response_format(schema, JSON_OBJECT_MAX_CHARS, max_tokens)
        args = {**request.extra_create_args, "response_format": fmt}
        return replace(request, json_output=None, extra_create_args=args)
    return replace(request, json_output=None, messages=with_schema_prompt(request.messages, schema))


def vllm_extra_body(schema: type[BaseModel] | None) -> dict[str, Any]:
    """vLLM-only request fields: neutral sampling, and the schema in vLLM's own field.

    `structured_outputs.json` is vLLM >= 0.10.2's spelling (the only one from 0.12); older
    versions read the `response_format` sent alongside. `guided_json` is not sent: vLLM
    0.12+ ignores it with a warning per request, and `response_format` covers older ones.
    The schema is the strict one the SDK puts in `response_format`, so both agree.
    """
    body = dict(VLLM_SAMPLING)
    if schema is not None:
        body["structured_outputs"] = {"json": strict_schema(schema)}
    return body


@functools.lru_cache(maxsize=256)  # pydantic builds it anew on every call otherwise
def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    return to_strict_json_schema(model)


def with_schema_prompt(messages: Any, schema: type[BaseModel]) -> list[LLMMessage]:
    """The messages with the schema appended to the last one if it is the user's, else in a
    new user message (chat templates want user and assistant turns to alternate)."""
    schema_json = json.dumps(schema.model_json_schema(), separators=(",", ":"))
    out: list[LLMMessage] = list(messages)
    last = out[-1] if out else None
    if isinstance(last, UserMessage):
        out[-1] = UserMessage(
            content=message_text(last) + PROMPT_SUFFIX + schema_json, source=last.source
        )
    else:
        out.append(UserMessage(content=PROMPT_SUFFIX.lstrip() + schema_json, source="validator"))
    return out


def _with_extra_body(request: CreateRequest, fields: dict[str, Any]) -> CreateRequest:
    args = request.extra_create_args
    extra_body = {**fields, **args.get("extra_body", {})}
    return replace(request, extra_create_args={**args, "extra_body": extra_body})
