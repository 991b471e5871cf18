"""The request body the openai SDK sends for an autogen `create`, built directly.

Same bytes as OpenAIChatCompletionClient + AsyncOpenAI (tests compare them): `messages`
and `model` first, then the other fields in the SDK's order (alphabetical), then
`extra_body`'s fields; JSON as the SDK writes it. What it skips: the SDK's walk of every
message and the schema against its TypedDicts (a no-op for these bodies), and the strict
schema rebuilt on every structured call (cached here per class).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from typing import Any

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


def encode(body: Mapping[str, Any]) -> bytes:
    """JSON as the SDK (and httpx) write it."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def body_tail(fields: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
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
        out: list[dict[str, Any]] = []
        for message in messages:
            plain = self._plain(message) if self.fast else None
            if plain is None:
                out.extend(self._slow(message))
            else:
                out.append(plain)
        return out

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
