"""Structured and plain-text completions with validation and repair.

Small models often wrap JSON in prose or code fences, or miss a field. Instead
of failing the dialogue, the bad reply is shown back to the model together with
what was wrong, a bounded number of times.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypeVar

from autogen_core.models import AssistantMessage, ChatCompletionClient, LLMMessage, UserMessage
from openai import LengthFinishReasonError
from pydantic import BaseModel, ValidationError

from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm.context import current_call

T = TypeVar("T", bound=BaseModel)


def extract_json(text: str) -> str:
    """The outermost {...} of a reply, so fences and surrounding prose are tolerated."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object found in the reply")
    return text[start : end + 1]


def describe_error(err: Exception) -> str:
    """One line naming the first few problems, e.g. "act: Field required; items.0: ..."."""
    if isinstance(err, ValidationError):
        parts = []
        for e in err.errors()[:3]:
            where = ".".join(str(p) for p in e["loc"]) or "(top level)"
            parts.append(f"{where}: {e['msg']}")
        more = f" (and {err.error_count() - 3} more)" if err.error_count() > 3 else ""
        return "; ".join(parts) + more
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def _repair_prompt(error: str, schema: type[BaseModel]) -> UserMessage:
    schema_json = json.dumps(schema.model_json_schema(), separators=(",", ":"))
    return UserMessage(
        content=(
            f"Your reply was not valid JSON for the schema: {error}. "
            f"Reply with only a JSON object matching: {schema_json}"
        ),
        source="validator",
    )


async def complete_json(
    client: ChatCompletionClient,
    messages: Sequence[LLMMessage],
    schema: type[T],
    *,
    retries: int = 2,
) -> T:
    """Ask for `schema`; on a bad reply, show it back with the error and retry `retries` times."""
    convo = list(messages)
    last_error = "no attempt made"
    for _ in range(retries + 1):
        text = ""
        try:
            result = await client.create(convo, json_output=schema)
            text = result.content if isinstance(result.content, str) else ""
            return schema.model_validate_json(extract_json(text))
        # OpenAI-style clients validate structured output themselves and raise
        # ValidationError / LengthFinishReasonError; treat those as a bad reply too.
        except (ValueError, LengthFinishReasonError) as err:
            last_error = describe_error(err)
        if text:  # empty when the client itself rejected the reply: nothing to show back
            convo.append(AssistantMessage(content=text, source="assistant"))
        convo.append(_repair_prompt(last_error, schema))
    raise StructuredOutputError(
        f"{schema.__name__} ({current_call().role}): no valid reply after "
        f"{retries + 1} attempt(s); last error: {last_error}"
    )


async def complete_text(client: ChatCompletionClient, messages: Sequence[LLMMessage]) -> str:
    """The stripped text reply; one retry with a nudge when the model says nothing."""
    convo = list(messages)
    for attempt in range(2):
        result = await client.create(convo)
        if isinstance(result.content, str) and result.content.strip():
            return result.content.strip()
        if attempt == 0:
            nudge = "Your reply was empty. Reply with a short text."
            convo += [UserMessage(content=nudge, source="validator")]
    raise StructuredOutputError(f"{current_call().role}: the model returned an empty reply twice")
