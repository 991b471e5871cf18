"""What the fake OpenAI server answers: completions, scripted faults, error bodies."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from macrs_sim.llm.synth import _Synth

TEXT = "Hello from the fake server."
PROMPT_MARKER = "JSON schema: "  # what llm/modes.py's "prompt" mode writes before the schema


@dataclass(frozen=True)
class Fault:
    """What a chat request gets instead of a completion.

    kind "status": HTTP `status` (401's message echoes the bearer token, as careless servers
    do, so leak tests see the worst case); "drop": the connection closes without a reply;
    "hang": the reply comes after `delay_s`, past a client's timeout.
    """

    kind: str = "status"
    status: int = 500
    retry_after: str | None = None
    delay_s: float = 0.0


DROP = Fault("drop")


@dataclass(frozen=True)
class Recorded:
    method: str
    path: str
    port: int
    headers: dict[str, str]  # lower-case names
    body: Any


def completion(body: dict[str, Any], text: str) -> dict[str, Any]:
    """A chat.completion for `body`: a valid instance of its JSON schema if it asks for one
    (the same one for the same messages), else `text`."""
    messages = body.get("messages", [])
    schema = request_schema(body)
    content = text
    if schema is not None:
        key = hashlib.sha256(json.dumps(messages, sort_keys=True).encode()).hexdigest()
        content = json.dumps(_Synth(schema, key).value(schema, "$", "value", 0))
    prompt = prompt_tokens(body)
    reply = len(content) // 4 + 1
    message = {"role": "assistant", "content": content}
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake"),
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": reply,
            "total_tokens": prompt + reply,
        },
    }


def request_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema a request asks for, in OpenAI's, vLLM's or llama-cpp-python's
    spelling, or in the prompt (as an obedient model would read it)."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        schema: dict[str, Any] = fmt["json_schema"]["schema"]
        return schema
    if fmt.get("type") == "json_object" and isinstance(fmt.get("schema"), dict):
        return dict(fmt["schema"])
    if isinstance(body.get("structured_outputs"), dict) and "json" in body["structured_outputs"]:
        return dict(body["structured_outputs"]["json"])
    if isinstance(body.get("guided_json"), dict):
        return dict(body["guided_json"])
    return schema_in_prompt(body.get("messages") or [])


def schema_in_prompt(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The schema after "JSON schema: " at the end of the last message, if any."""
    text = str(messages[-1].get("content", "")) if messages else ""
    _, found, tail = text.rpartition(PROMPT_MARKER)
    if not found:
        return None
    try:
        schema = json.loads(tail)
    except ValueError:
        return None
    return schema if isinstance(schema, dict) else None


def rejects_format(body: dict[str, Any], accepted: frozenset[str] | None) -> web.Response | None:
    """llama-cpp-python's answer (HTTP 500, FastAPI's validation error as text) to a
    `response_format` type it does not take; None when `accepted` takes it."""
    kind = (body.get("response_format") or {}).get("type")
    if accepted is None or kind is None or kind in accepted:
        return None
    expected = " or ".join(f"'{k}'" for k in sorted(accepted))
    error = {
        "type": "literal_error",
        "loc": ("body", "response_format", "type"),
        "msg": f"Input should be {expected}",
        "input": kind,
        "ctx": {"expected": expected},
    }
    message = f'1 validation error:\n  {error!r}\n\n  File "app.py", line 376, in create'
    payload = {"error": {"message": message, "type": "internal_server_error", "code": None}}
    return web.json_response(payload, status=500)


def error_reply(fault: Fault, authorization: str) -> web.Response:
    message = "fake failure"
    if fault.status == 401:
        message = f"Incorrect API key provided: {authorization.removeprefix('Bearer ')}"
    headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else None
    payload = {"error": {"message": message, "type": "fake_error", "code": fault.status}}
    return web.json_response(payload, status=fault.status, headers=headers)


def prompt_tokens(body: dict[str, Any]) -> int:
    """The fake's token count of a request's messages (four characters a token)."""
    return sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4 + 1


def overflow(body: dict[str, Any], window: int | None) -> web.Response | None:
    """vLLM's and llama-cpp-python's answer (HTTP 400, their very words) to a prompt plus
    `max_tokens` longer than `window`; None when it fits (or no window is set)."""
    prompt, reply = prompt_tokens(body), int(body.get("max_tokens") or 16)
    if window is None or prompt + reply <= window:
        return None
    message = (
        f"This model's maximum context length is {window} tokens. However, you requested"
        f" {prompt + reply} tokens ({prompt} in the messages, {reply} in the completion)."
        " Please reduce the length of the messages or completion."
    )
    error = {"message": message, "type": "invalid_request_error", "param": "messages",
             "code": "context_length_exceeded"}  # fmt: skip
    return web.json_response({"error": error}, status=400)
