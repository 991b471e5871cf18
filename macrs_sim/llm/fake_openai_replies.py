"""What the fake OpenAI server answers: completions, scripted faults, error bodies."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from macrs_sim.llm.synth import _Synth

TEXT = "Hello from the fake server."


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
    prompt = sum(len(str(m.get("content", ""))) for m in messages) // 4 + 1
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
    """The JSON schema a request asks for, in OpenAI's or vLLM's spelling."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        schema: dict[str, Any] = fmt["json_schema"]["schema"]
        return schema
    if isinstance(body.get("structured_outputs"), dict) and "json" in body["structured_outputs"]:
        return dict(body["structured_outputs"]["json"])
    return dict(body["guided_json"]) if isinstance(body.get("guided_json"), dict) else None


def error_reply(fault: Fault, authorization: str) -> web.Response:
    message = "fake failure"
    if fault.status == 401:
        message = f"Incorrect API key provided: {authorization.removeprefix('Bearer ')}"
    headers = {"Retry-After": fault.retry_after} if fault.retry_after is not None else None
    payload = {"error": {"message": message, "type": "fake_error", "code": fault.status}}
    return web.json_response(payload, status=fault.status, headers=headers)
