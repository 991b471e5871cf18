from typing import Any

import pytest
from autogen_core.models import AssistantMessage, LLMMessage, SystemMessage, UserMessage

from macrs_sim.llm.lean.body import MessageEncoder, merge_system_messages

USER = UserMessage(content="hi", source="u")
REPLY = AssistantMessage(content="yes", source="a")


def encoded(messages: list[LLMMessage]) -> list[dict[str, Any]]:
    return MessageEncoder("fake-model", "unknown").encode(merge_system_messages(messages))


def test_one_clean_system_message_is_sent_as_it_is() -> None:
    messages: list[LLMMessage] = [USER, SystemMessage(content="Be brief."), REPLY]
    assert merge_system_messages(messages) is messages
    assert encoded(messages)[1] == {"content": "Be brief.", "role": "system"}


@pytest.mark.parametrize(
    ("systems", "expected"),
    [
        (["Be brief. \r\n"], "Be brief."),
        (["A ", "B\t"], "A \nB"),
        (["  "], None),
        ([""], None),
    ],
)
def test_system_messages_that_need_merging_or_stripping_are_rebuilt(
    systems: list[str], expected: str | None
) -> None:
    messages: list[LLMMessage] = [*(SystemMessage(content=s) for s in systems), USER]
    sent = encoded(messages)
    if expected is None:
        assert sent == [{"role": "user", "content": "hi"}]
    else:
        assert sent == [{"content": expected, "role": "system"}, {"role": "user", "content": "hi"}]


def test_system_messages_apart_are_refused() -> None:
    with pytest.raises(ValueError, match="Not continuous"):
        merge_system_messages([SystemMessage(content="a"), USER, SystemMessage(content="b")])
