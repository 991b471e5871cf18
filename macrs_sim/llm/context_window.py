"""A served model's context window: what it is, where it was learned, and a prompt fit to it.

An OpenAI-compatible server does not say its window in a chat reply, and a prompt plus its
reply that overflow it end in HTTP 400. The window is the smallest of what is known:
`[model] n_ctx` (a setting that says it), the server's model list (vLLM's
`max_model_len`, read at preflight), and the first "maximum context length is N tokens"
refusal (vLLM, llama.cpp and llama-cpp-python word it so). Until one says, the window is a
guess (`GUESS_TOKENS`). Windows are kept per (endpoint, model) for the process: every
client of that endpoint, built before or after, sees what one learned.

A refused request is fit and sent again, once (llm/wire.py): the longest message loses
the middle of its text, marked where it was cut ("… 1,234 characters cut to fit …"), so
that the prompt plus the reply's `max_tokens` fit the window. Prompt builders that know
their structure (RecMind's budget) read the window from the client and cut first.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autogen_core.models import LLMMessage

from macrs_sim.llm.base import approx_tokens, message_text

# What an OpenAI-compatible client assumes until the server or a setting says.
GUESS_TOKENS = 32_768
_REFUSAL = re.compile(r"maximum context length is (\d[\d,]*) tokens", re.IGNORECASE)
# vLLM and llama-cpp-python: "(4192 in the messages, 512 in the completion)"; newer vLLM:
# "your request has 4192 input tokens".
_PROMPT = re.compile(r"(\d[\d,]*) in the messages|request has (\d[\d,]*) input tokens")
# Kept free beside the prompt and the reply: the server counts tokens its own way.
_SLACK = 0.05
CUT_NOTE = "\n… {n:,} characters cut to fit the model's context of {window:,} tokens …\n"


@dataclass(frozen=True)
class Window:
    tokens: int
    source: str  # where it was learned, for `models check` and errors

    def describe(self) -> str:
        return f"{self.tokens:,} tokens ({self.source})"


_LEARNED: dict[tuple[str, str], Window] = {}


def _key(url: str, model: str) -> tuple[str, str]:
    return url.rstrip("/"), model


def learn(url: str, model: str, tokens: int, source: str) -> Window:
    """Remember `tokens` for (url, model) unless a smaller window is known already."""
    known = _LEARNED.get(_key(url, model))
    if known is None or tokens < known.tokens:
        known = _LEARNED[_key(url, model)] = Window(tokens, source)
    return known


def forget_windows() -> None:
    """Forget every learned window (tests; a server restarted with another window)."""
    _LEARNED.clear()


def window_of(url: str, model: str, configured: int | None) -> Window:
    """The window to fit prompts to: the smallest of the setting and what was learned."""
    learned = _LEARNED.get(_key(url, model))
    setting = None if configured is None else Window(configured, "[model] n_ctx")
    known = [w for w in (setting, learned) if w is not None]
    if not known:
        return Window(GUESS_TOKENS, "a guess: neither the server nor [model] n_ctx says")
    return min(known, key=lambda w: w.tokens)


def listed_window(listing: Any, model: str) -> int | None:
    """`max_model_len` of `model` in a GET /models reply (vLLM lists it), else None."""
    data = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(data, list):
        return None
    for card in data:
        if isinstance(card, dict) and card.get("id") == model:
            value = card.get("max_model_len")
            if isinstance(value, int) and not isinstance(value, bool) and value > 0:
                return value
    return None


def refused_window(text: str) -> tuple[int, int | None] | None:
    """(window, prompt tokens if said) from a server's "maximum context length" refusal."""
    found = _REFUSAL.search(text)
    if found is None:
        return None
    prompt = _PROMPT.search(text)
    said = (prompt.group(1) or prompt.group(2)) if prompt else None
    return _number(found.group(1)), (_number(said) if said else None)


def _number(text: str) -> int:
    return int(text.replace(",", ""))


def fit_messages(
    messages: Sequence[LLMMessage], window: int, reply_tokens: int, prompt_tokens: int | None
) -> list[LLMMessage] | None:
    """`messages` with the middle of the longest text cut so that the prompt and
    `reply_tokens` fit `window` (None: cutting that message cannot make room).
    `prompt_tokens` is the server's count of the prompt sent, when it said."""
    texts = [m.content if isinstance(m.content, str) else None for m in messages]
    longest = max(range(len(texts)), key=lambda i: len(texts[i] or ""), default=None)
    if longest is None or not texts[longest]:
        return None
    chars = sum(len(message_text(m)) for m in messages)
    counted = prompt_tokens or approx_tokens(messages)
    room = math.floor(window * (1 - _SLACK)) - reply_tokens
    if room <= 0:
        return None
    chars_per_token = chars / max(1, counted)
    cut = math.ceil((counted - room) * chars_per_token) if counted > room else 0
    text = str(texts[longest])
    note = CUT_NOTE.format(n=max(cut, 1), window=window)
    keep = len(text) - cut - len(note)
    if cut <= 0 or keep <= 0:
        return None
    head, tail = keep // 2, keep - keep // 2
    fitted = text[:head] + CUT_NOTE.format(n=len(text) - keep, window=window) + text[-tail:]
    out = list(messages)
    out[longest] = messages[longest].model_copy(update={"content": fitted})
    return out
