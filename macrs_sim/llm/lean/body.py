"""The request body the openai SDK sends for an autogen `create`, built directly.

Same bytes as OpenAIChatCompletionClient + AsyncOpenAI (tests compare them): `messages`
and `model` first, then the other fields in the SDK's order (alphabetical), then
`extra_body`'s fields; JSON as the SDK writes it. What it skips: the SDK's walk of every
message and the schema against its TypedDicts (a no-op for these bodies), and the strict
schema rebuilt on every structured call (cached here per class).

Plain text messages (role and content strings) are written by orjson: for strings its
bytes are json.dumps(ensure_ascii=False)'s, escapes included (a test checks every code
point), at a fifteenth of the CPU; a body is mostly prompt text. The other fields
(numbers among them, where the two differ: 1e-05 against 1e-5) stay with json.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from autogen_core.models import AssistantMessage, LLMMessage, SystemMessage, UserMessage
from autogen_ext.models.openai._openai_client import to_oai_type
from pydantic import BaseModel

from macrs_sim.llm.modes import strict_schema

# Request options the SDK takes beside the body (autogen passes them through create).
NOT_BODY = ("extra_body", "timeout")


@functools.lru_cache(maxsize=256)
def response_format(model: type[BaseModel]) -> dict[str, Any]:
    """openai's type_to_response_format_param(model), once per class."""
    return {
        "type": "json_schema",
        "json_schema": {"schema": strict_schema(model), "name": model.__name__, "strict": True},
    }


# Made once: json.dumps with options builds an encoder per call.
_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
# Body fields the plain path writes itself, ahead of the tail.
HEAD_FIELDS = ("messages", "model")


def encode(body: Mapping[str, Any]) -> bytes:
    """JSON as the SDK (and httpx) write it."""
    return _JSON.encode(body).encode()


def encode_tail(tail: Sequence[tuple[str, Any]]) -> bytes | None:
    """The tail's fields as they follow `"model":...` in the body (`,"name":value...`);
    None if the tail names a head field (extra_body can: the body is then built whole)."""
    if any(name in HEAD_FIELDS for name, _ in tail):
        return None
    fields = dict(tail)
    return b"," + encode(fields)[1:-1] if fields else b""


def encode_plain(messages: list[dict[str, str]], model: str, tail: bytes) -> bytes | None:
    """The body of plain text messages, `tail` from encode_tail; None if orjson cannot
    write them (a lone surrogate: json's path raises its own error for it)."""
    try:
        head = orjson.dumps({"messages": messages, "model": model})
    except orjson.JSONEncodeError:
        return None
    return head[:-1] + tail + b"}"


Tail = tuple[tuple[str, Any], ...]


def body_tail(fields: Mapping[str, Any]) -> Tail:
    """`fields` (create args, "stream" included) as the body's fields after `messages` and
    `model`: in the SDK's order, then extra_body's (a name already there keeps its place)."""
    tail = [(name, fields[name]) for name in sorted(fields) if name not in NOT_BODY]
    tail.extend((fields.get("extra_body") or {}).items())
    return tuple(tail)


def chat_body(
    messages: list[dict[str, Any]], model: str, tail: Sequence[tuple[str, Any]]
) -> dict[str, Any]:
    body: dict[str, Any] = {"messages": messages, "model": model}
    body.update(tail)
    return body


class MessageEncoder:
    """autogen's `to_oai_type` for a model, with a fast path for plain text messages.

    The fast path is checked against `to_oai_type` once, at construction: a model family
    whose transformer spells messages otherwise always goes the slow way.
    """

    def __init__(self, model: str, family: str) -> None:
        self._model = model
        self._family = family
        samples: list[LLMMessage] = [
            SystemMessage(content="s"),
            UserMessage(content="u", source="x"),
            AssistantMessage(content="a", source="y"),
        ]
        self.fast = all([self._plain(m)] == self._slow(m) for m in samples)

    def encode(self, messages: Sequence[LLMMessage]) -> list[dict[str, Any]]:
        return self.encode_checked(messages)[0]

    def encode_checked(self, messages: Sequence[LLMMessage]) -> tuple[list[dict[str, Any]], bool]:
        """The messages, and whether each is plain text (role and content strings)."""
        out: list[dict[str, Any]] = []
        all_plain = True
        for message in messages:
            plain = self._plain(message) if self.fast else None
            if plain is None:
                out.extend(self._slow(message))
                all_plain = False
            else:
                out.append(plain)
        return out, all_plain

    @staticmethod
    def _plain(message: LLMMessage) -> dict[str, Any] | None:
        content = message.content
        if not isinstance(content, str):
            return None
        if isinstance(message, UserMessage):
            return {"role": "user", "content": content}
        if isinstance(message, SystemMessage):
            return {"content": content, "role": "system"}
        if isinstance(message, AssistantMessage) and message.thought is None:
            return {"role": "assistant", "content": content}
        return None

    def _slow(self, message: LLMMessage) -> list[dict[str, Any]]:
        return [
            dict(m)
            for m in to_oai_type(
                message,
                model=self._model,
                model_family=self._family,
                include_name_in_message=False,
            )
        ]


def merge_system_messages(messages: Sequence[LLMMessage]) -> Sequence[LLMMessage]:
    """autogen's rule for models without `multiple_system_messages`: adjacent system
    messages become one (joined by newlines, trailing space stripped, dropped if empty),
    at the first one's place; apart, an error."""
    if _one_clean_system_message(messages):
        return messages  # what the merge would rebuild, message for message
    joined = ""
    rest: list[LLMMessage] = []
    first = last = -1
    for i, message in enumerate(messages):
        if isinstance(message, SystemMessage):
            if first == -1:
                first = i
            elif last + 1 != i:
                raise ValueError(
                    "Multiple and Not continuous system messages are not supported if "
                    "model_info['multiple_system_messages'] is False"
                )
            joined += message.content + "\n"
            last = i
        else:
            rest.append(message)
    joined = joined.rstrip()
    if joined:
        rest.insert(first, SystemMessage(content=joined))
    return rest


def _one_clean_system_message(messages: Sequence[LLMMessage]) -> bool:
    """One system message, non-empty and without trailing whitespace: nothing to merge."""
    found: SystemMessage | None = None
    for message in messages:
        if isinstance(message, SystemMessage):
            if found is not None:
                return False
            found = message
    if found is None:
        return False
    content = found.content
    return bool(content) and not content[-1].isspace()
