"""One guarded generation of the simulated user: regenerate while it names the target,
redact only when the retries are spent. Shared by the opening and every reply."""

from __future__ import annotations

from dataclasses import dataclass

from autogen_core.models import AssistantMessage, ChatCompletionClient, LLMMessage, UserMessage

from macrs_sim.llm.structured import complete_text
from macrs_sim.simulators.leak_guard import LeakGuard


@dataclass(frozen=True)
class GuardedText:
    text: str
    # Generations thrown away because they named the target.
    leak_retries: int = 0
    # True when the kept generation still named it and was redacted.
    redacted: bool = False


async def generate_guarded(
    client: ChatCompletionClient,
    messages: list[LLMMessage],
    guard: LeakGuard | None,
    *,
    retry_note: str,
    max_retries: int,
) -> GuardedText:
    """`guard` None: no check (an accepting reply may name the target the system named)."""
    text = await complete_text(client, messages)
    retries = 0
    while guard is not None and guard.leaks(text) and retries < max_retries:
        retries += 1
        # The leaking reply stays in the conversation, so each retry is a new request:
        # at temperature 0 (or through the cache) a repeated request repeats the leak.
        note = UserMessage(content=retry_note, source="user")
        messages = [*messages, AssistantMessage(content=text, source="user"), note]
        text = await complete_text(client, messages)
    if guard is not None and guard.leaks(text):
        return GuardedText(guard.redact(text), retries, True)
    return GuardedText(text, retries, False)
