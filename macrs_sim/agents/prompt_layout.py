"""Where a prompt's dialogue goes: the paper's layout or the chat layout.

`paper`: the dialogue is flattened into a transcript inside one user message, after the
instructions, as the MACRS paper lays its prompts out. `chat`: the same words, but the
instructions (the template's system and user text, the transcript replaced by a note) form
the system message and the dialogue follows as alternating chat messages, the speaker's
own turns as the assistant's. Small chat-tuned models repeat the last line of a flattened
transcript; given the turns as messages they answer them (docs/simulators.md, "Prompt layout").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from autogen_core.models import AssistantMessage, LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.rendering import render_history
from macrs_sim.prompts import PromptLayout
from macrs_sim.protocol import Utterance

Speaker = Literal["user", "system"]

# What stands where the transcript stood, in the chat layout.
IN_MESSAGES = "(the conversation so far is in the messages that follow)"


def dialogue_messages(
    layout: PromptLayout,
    system: str,
    render_user: Callable[[str], str],
    history: Sequence[Utterance],
    me: Speaker,
) -> list[LLMMessage]:
    """The messages for a role that speaks as `me` in a dialogue.

    `render_user(transcript)` renders the template's user text with the dialogue in it.
    An empty dialogue has no turns to lay out, so both layouts send the paper's messages.
    """
    if layout == "paper" or not history:
        user = render_user(render_history(history))
        return [SystemMessage(content=system), UserMessage(content=user, source="user")]
    instructions = f"{system}\n\n{render_user(IN_MESSAGES)}"
    return [SystemMessage(content=instructions), *turn_messages(history, me)]


def turn_messages(history: Sequence[Utterance], me: Speaker) -> list[LLMMessage]:
    """One chat message per turn: `me`'s as the assistant's, the other side's as the user's."""
    return [
        AssistantMessage(content=u.text, source="assistant")
        if u.speaker == me
        else UserMessage(content=u.text, source="user")
        for u in history
    ]
