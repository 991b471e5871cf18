"""Model access: every backend and concern is an autogen `ChatCompletionClient`.

Backends: `LlamaCppClient` (embedded llama.cpp), `build_openai_client` (any
OpenAI-compatible endpoint), `ScriptedChatCompletionClient` (deterministic fake).
Wrappers: `AccountingClient`, `RetryingClient`, `ConcurrencyLimitedClient`.
Agents call `complete_json` / `complete_text` inside `calling(CallContext(...))`.
"""

from macrs_sim.llm.accounting import AccountingClient, CallLog
from macrs_sim.llm.base import SimpleChatClient, WrappingClient
from macrs_sim.llm.context import CallContext, calling, current_call
from macrs_sim.llm.embedded import LlamaCppClient
from macrs_sim.llm.factory import build_client, preflight
from macrs_sim.llm.gguf import default_gguf_path, resolve_gguf
from macrs_sim.llm.openai_backend import (
    ConcurrencyLimitedClient,
    build_openai_client,
    check_endpoint,
)
from macrs_sim.llm.retry import RetryingClient
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient, ScriptedRequest
from macrs_sim.llm.structured import complete_json, complete_text

__all__ = [
    "AccountingClient",
    "CallContext",
    "CallLog",
    "ConcurrencyLimitedClient",
    "LlamaCppClient",
    "RetryingClient",
    "Rule",
    "ScriptedChatCompletionClient",
    "ScriptedRequest",
    "SimpleChatClient",
    "WrappingClient",
    "build_client",
    "build_openai_client",
    "calling",
    "check_endpoint",
    "complete_json",
    "complete_text",
    "current_call",
    "default_gguf_path",
    "preflight",
    "resolve_gguf",
]
