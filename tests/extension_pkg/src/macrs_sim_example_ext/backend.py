"""`[model] backend = "canned"`: every call answered from a fixed table, by the caller's role.

`replies` maps a role (`single_llm.respond`, `final_list`, ...) to the text to return;
a role not in it gets `default`, or fails (a ValueError naming the role) when that is unset.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from autogen_core.models import ChatCompletionClient, CreateResult, LLMMessage, RequestUsage

from macrs_sim.config import ModelOptions
from macrs_sim.llm.backends.registry import BackendContext, BackendSpec
from macrs_sim.llm.base import JsonOutput, SimpleChatClient, message_text
from macrs_sim.llm.context import current_call


class CannedModel(ModelOptions):
    backend: Literal["canned"] = "canned"
    replies: dict[str, str] = {}
    default: str | None = None


class CannedClient(SimpleChatClient):
    """The small model-client interface every backend implements: `_complete` only."""

    def __init__(self, replies: Mapping[str, str], default: str | None) -> None:
        super().__init__()
        self._replies = dict(replies)
        self._default = default

    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult:
        role = current_call().role
        text = self._replies.get(role, self._default)
        if text is None:
            raise ValueError(f"canned model: no reply for role {role!r} and no default")
        usage = RequestUsage(
            prompt_tokens=sum(len(message_text(m).split()) for m in messages),
            completion_tokens=len(text.split()),
        )
        return CreateResult(finish_reason="stop", content=text, usage=usage, cached=False)


def build(options: CannedModel, ctx: BackendContext) -> ChatCompletionClient:
    return CannedClient(options.replies, options.default)


def identity(options: CannedModel, ctx: BackendContext) -> str:
    """The table itself names the model: another table, another cache key."""
    table = json.dumps([options.replies, options.default], sort_keys=True)
    return f"canned:{hashlib.sha256(table.encode()).hexdigest()[:12]}"


SPEC = BackendSpec(name="canned", options=CannedModel, build=build, identity=identity)
