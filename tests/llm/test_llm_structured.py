from __future__ import annotations

import pytest
from autogen_core.models import AssistantMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.errors import StructuredOutputError
from macrs_sim.llm import (
    CallContext,
    ScriptedChatCompletionClient,
    ScriptedRequest,
    calling,
    complete_json,
    complete_text,
)
from macrs_sim.llm.structured import extract_json


class Answer(BaseModel):
    act: str
    count: int


PROMPT = [UserMessage(content="What now?", source="user")]


def first_broken_then_valid(req: ScriptedRequest) -> str:
    return '{"act": "ask", "count":' if len(req.messages) == 1 else '{"act": "ask", "count": 2}'


async def test_repairs_a_broken_reply() -> None:
    client = ScriptedChatCompletionClient({"planner": first_broken_then_valid})
    with calling(CallContext(role="planner")):
        answer = await complete_json(client, PROMPT, Answer)
    assert answer == Answer(act="ask", count=2)
    assert len(client.calls) == 2 and client.calls[1].schema is Answer
    *_, echoed, repair = client.calls[1].messages
    assert isinstance(echoed, AssistantMessage) and echoed.content == '{"act": "ask", "count":'
    assert isinstance(repair, UserMessage) and isinstance(repair.content, str)
    assert repair.content.startswith("Your reply was not valid JSON for the schema: ")
    assert "Reply with only a JSON object matching: {" in repair.content


async def test_missing_field_is_named_in_the_repair_message() -> None:
    client = ScriptedChatCompletionClient(
        {"p": lambda r: '{"act": "x"}' if len(r.messages) == 1 else '{"act": "x", "count": 1}'}
    )
    with calling(CallContext(role="p")):
        await complete_json(client, PROMPT, Answer)
    repair = client.calls[1].messages[-1]
    assert isinstance(repair.content, str) and "count: Field required" in repair.content


async def test_gives_up_after_retries() -> None:
    client = ScriptedChatCompletionClient({"planner": lambda req: "I cannot answer that."})
    with calling(CallContext(role="planner")), pytest.raises(StructuredOutputError) as info:
        await complete_json(client, PROMPT, Answer, retries=2)
    assert len(client.calls) == 3
    message = str(info.value)
    assert "Answer" in message and "no JSON object found" in message and "\n" not in message


async def test_fenced_json_with_prose_is_accepted() -> None:
    reply = 'Sure!\n```json\n{"act": "chat", "count": 1}\n```\nHope that helps.'
    client = ScriptedChatCompletionClient({"planner": lambda req: reply})
    with calling(CallContext(role="planner")):
        assert await complete_json(client, PROMPT, Answer) == Answer(act="chat", count=1)
    assert len(client.calls) == 1


def test_extract_json_takes_the_outermost_object() -> None:
    assert extract_json('x {"a": {"b": 1}} y') == '{"a": {"b": 1}}'
    with pytest.raises(ValueError):
        extract_json("no braces")


async def test_synthesized_reply_validates_without_rules() -> None:
    with calling(CallContext(role="anyone")):
        answer = await complete_json(ScriptedChatCompletionClient(), PROMPT, Answer)
    assert answer.count == 1


async def test_complete_text_strips_and_retries_once_on_empty() -> None:
    client = ScriptedChatCompletionClient({"u": lambda r: "  hi there \n"})
    with calling(CallContext(role="u")):
        assert await complete_text(client, PROMPT) == "hi there"
    flaky = ScriptedChatCompletionClient({"u": lambda r: "" if len(r.messages) == 1 else "ok"})
    with calling(CallContext(role="u")):
        assert await complete_text(flaky, PROMPT) == "ok"
    silent = ScriptedChatCompletionClient({"u": lambda r: "   "})
    with calling(CallContext(role="u")), pytest.raises(StructuredOutputError):
        await complete_text(silent, PROMPT)
    assert len(silent.calls) == 2
