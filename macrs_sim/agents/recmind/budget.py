"""What goes back into a prompt, bounded by the model's context.

Tool rows, observations and the explored tree grow with the data and the search; the
model's context does not (the embedded model's is 4,096 tokens: the step that turns SQL
rows into sentences was once sent 4,192). Each prompt is built with its variable part
empty, and that part gets whatever room is left of the prompt budget; what is cut is said
where it was cut ("… 120 more rows not shown", "… 3 earlier steps not shown").

The context comes from the options (`context_tokens`), else from the client:
`remaining_tokens([])` is the embedded model's n_ctx (EmbeddedModel.n_ctx) and an
OpenAI-compatible server's window as far as it is known (llm/context_window.py: `[model]
n_ctx`, the server's model list, or its first refusal, which the client learns and answers
by cutting that one prompt; a guess of 32,768 until then); a client that cannot tell gives
DEFAULT_CONTEXT_TOKENS. A quarter of it is kept for the reply and a repair
round of a broken one (its text and the repair prompt).

Tokens are estimated without the tokenizer: a digit or a punctuation mark is a token, four
letters or spaces are one. On the catalog's SQL rows and the prompts, Qwen2.5's tokenizer
counted 0.82-1.16 tokens per estimated one; the quarter kept back covers the rest.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from autogen_core.models import ChatCompletionClient, LLMMessage

from macrs_sim.llm.base import message_text

# When neither the options nor the client know the context.
DEFAULT_CONTEXT_TOKENS = 8192
_COUNTED_ALONE = re.compile(r"[^\w\s]|\d")
# Per message: the chat template's role markers.
_PER_MESSAGE = 4


def estimate_tokens(text: str) -> int:
    alone = len(_COUNTED_ALONE.findall(text))
    return alone + math.ceil((len(text) - alone) / 4)


def message_tokens(messages: Sequence[LLMMessage]) -> int:
    return sum(estimate_tokens(message_text(m)) + _PER_MESSAGE for m in messages)


def context_of(client: ChatCompletionClient, configured: int | None) -> int:
    """The model's context in tokens: `configured`, else what the client reports."""
    if configured is not None:
        return configured
    try:
        reported = client.remaining_tokens([])
    except Exception:  # a client that cannot tell (an unknown model name)
        return DEFAULT_CONTEXT_TOKENS
    return reported if reported > 0 else DEFAULT_CONTEXT_TOKENS


@dataclass(frozen=True)
class Budget:
    context_tokens: int

    @property
    def prompt_tokens(self) -> int:
        """What one prompt may take: the context less a quarter for the reply."""
        return self.context_tokens - self.context_tokens // 4

    @property
    def observation_tokens(self) -> int:
        """What one observation may keep: a sixth of a prompt, so several steps fit."""
        return self.prompt_tokens // 6

    def room(self, messages: Sequence[LLMMessage]) -> int:
        """What is left of the prompt budget after `messages` (built with nothing variable)."""
        return max(0, self.prompt_tokens - message_tokens(messages))


def cut_text(text: str, tokens: int) -> str:
    """`text`, or as much of its start as fits `tokens` with a note of what was cut."""
    if estimate_tokens(text) <= tokens:
        return text
    note = "… ({} more characters not shown)"
    keep = max(0, tokens - estimate_tokens(note.format(len(text))))
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits
        mid = (low + high + 1) // 2
        low, high = (mid, high) if estimate_tokens(text[:mid]) <= keep else (low, mid - 1)
    return text[:low].rstrip() + " " + note.format(len(text) - low)


def cut_lines(head: Sequence[str], lines: Sequence[str], tokens: int, what: str) -> str:
    """`head` and as many of `lines` as fit `tokens`, then "… N more <what> not shown"."""
    used = sum(estimate_tokens(line) + 1 for line in head)
    if used + sum(estimate_tokens(line) + 1 for line in lines) <= tokens:
        return "\n".join([*head, *lines])
    note = estimate_tokens(f"… {len(lines)} more {what} not shown")
    kept: list[str] = []
    for line in lines:
        cost = estimate_tokens(line) + 1
        if used + cost + note > tokens:
            break
        kept.append(line)
        used += cost
    out = [*head, *kept]
    if len(kept) < len(lines):
        out.append(f"… {len(lines) - len(kept)} more {what} not shown")
    return "\n".join(out)
