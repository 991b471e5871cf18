"""A deterministic fake model, shipped so users can test their own agents offline.

Replies depend only on the request (role, dialogue, turn, messages) and the seed,
never on call order, so concurrent dialogues get the same answers as serial ones.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from autogen_core.models import CreateResult, LLMMessage, RequestUsage
from pydantic import BaseModel

from macrs_sim.llm.base import JsonOutput, SimpleChatClient, message_text
from macrs_sim.llm.context import CallContext, current_call
from macrs_sim.llm.synth import synthesize


@dataclass(frozen=True)
class ScriptedRequest:
    """What a rule sees: the messages, who is calling, and the requested schema (if any)."""

    messages: Sequence[LLMMessage]
    context: CallContext
    schema: type[BaseModel] | None


Rule = Callable[[ScriptedRequest], str | BaseModel]


class ScriptedChatCompletionClient(SimpleChatClient):
    """Answers by role: `rules[role]`, else `default`, else a synthesized reply.

    Without a rule, a `json_output` schema gets a valid synthesized instance,
    `json_output=True` gets "{}", and plain text requests get a short text naming
    the role. `calls` keeps every request for test assertions; a campaign passes
    `record_calls=False`, since it would otherwise hold every prompt of the run.
    """

    def __init__(
        self,
        rules: Mapping[str, Rule] | None = None,
        *,
        default: Rule | None = None,
        latency_s: float = 0.0,
        seed: int = 0,
        model: str = "scripted",
        record_calls: bool = True,
    ) -> None:
        super().__init__()
        self.rules = dict(rules or {})
        self.default = default
        self.latency_s = latency_s
        self.seed = seed
        self.model = model
        self.record_calls = record_calls
        self.calls: list[ScriptedRequest] = []

    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult:
        schema = json_output if isinstance(json_output, type) else None
        request = ScriptedRequest(messages=tuple(messages), context=current_call(), schema=schema)
        if self.record_calls:
            self.calls.append(request)
        if self.latency_s > 0:
            await asyncio.sleep(self.latency_s)
        text = self._reply(request, json_mode=json_output is True)
        usage = RequestUsage(
            prompt_tokens=sum(len(message_text(m).split()) for m in messages),
            completion_tokens=len(text.split()),
        )
        return CreateResult(finish_reason="stop", content=text, usage=usage, cached=False)

    def _reply(self, request: ScriptedRequest, *, json_mode: bool) -> str:
        ctx = request.context
        rule = self.rules.get(ctx.role, self.default)
        if rule is not None:
            out = rule(request)
            return out.model_dump_json(by_alias=True) if isinstance(out, BaseModel) else out
        if request.schema is not None:
            try:
                instance = synthesize(request.schema, self.request_key(request))
            except ValueError as err:
                raise ValueError(
                    f"scripted model: {err}; add a rule for role {ctx.role!r}"
                ) from None
            return instance.model_dump_json(by_alias=True)
        if json_mode:
            return "{}"
        turn = f" (turn {ctx.turn})" if ctx.turn is not None else ""
        return f"Scripted reply from the {ctx.role}{turn}."

    def request_key(self, request: ScriptedRequest) -> str:
        """What a synthesized choice depends on: never a call counter (dialogues interleave)."""
        ctx = request.context
        last = message_text(request.messages[-1]) if request.messages else ""
        return repr((self.seed, ctx.role, ctx.dialogue_id, ctx.turn, last))
