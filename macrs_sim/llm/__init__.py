"""Model access: every backend and concern is an autogen `ChatCompletionClient`.

Backends: `LlamaCppClient` (embedded llama.cpp), `build_openai_client` (any
OpenAI-compatible endpoint), `ScriptedChatCompletionClient` (deterministic fake).
Wrappers: `AccountingClient`, `RetryingClient`, `CachingClient`, `FaultInjectingClient`,
`ConcurrencyLimitedClient`, `EndpointPool`. Fakes: `ScriptedChatCompletionClient` and
`FakeOpenAIServer` (an OpenAI-compatible server on 127.0.0.1).
Agents call `complete_json` / `complete_text` inside `calling(CallContext(...))`.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from macrs_sim.llm.accounting import AccountingClient, CallLog
    from macrs_sim.llm.base import SimpleChatClient, WrappingClient
    from macrs_sim.llm.cache import CachingClient
    from macrs_sim.llm.cache_store import ResponseCache
    from macrs_sim.llm.context import CallContext, calling, current_call
    from macrs_sim.llm.embedded import LlamaCppClient
    from macrs_sim.llm.factory import build_client, preflight, preflight_scenario
    from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
    from macrs_sim.llm.faults import FaultInjectingClient
    from macrs_sim.llm.gguf import default_gguf_path, resolve_gguf
    from macrs_sim.llm.openai_backend import (
        ConcurrencyLimitedClient,
        build_openai_client,
        check_endpoint,
    )
    from macrs_sim.llm.pool import EndpointPool
    from macrs_sim.llm.retry import RetryingClient
    from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient, ScriptedRequest
    from macrs_sim.llm.structured import complete_json, complete_text

# Each name from its module on first use: importing one light part (llm.context, for a
# prompt's call context) must not load openai and every backend (a second of start-up for
# `report`). FakeOpenAIServer especially: imported eagerly, `python -m
# macrs_sim.llm.fake_openai_server` would find its module already loaded (runpy warns).
_HOMES = {
    "AccountingClient": "accounting", "CallLog": "accounting",
    "SimpleChatClient": "base", "WrappingClient": "base",
    "CachingClient": "cache", "ResponseCache": "cache_store",
    "CallContext": "context", "calling": "context", "current_call": "context",
    "LlamaCppClient": "embedded",
    "build_client": "factory", "preflight": "factory", "preflight_scenario": "factory",
    "FakeOpenAIServer": "fake_openai_server", "FaultInjectingClient": "faults",
    "default_gguf_path": "gguf", "resolve_gguf": "gguf",
    "ConcurrencyLimitedClient": "openai_backend", "build_openai_client": "openai_backend",
    "check_endpoint": "openai_backend", "EndpointPool": "pool", "RetryingClient": "retry",
    "Rule": "scripted", "ScriptedChatCompletionClient": "scripted",
    "ScriptedRequest": "scripted", "complete_json": "structured", "complete_text": "structured",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # found once
    return value


__all__ = [
    "AccountingClient",
    "CachingClient",
    "CallContext",
    "CallLog",
    "ConcurrencyLimitedClient",
    "EndpointPool",
    "FakeOpenAIServer",
    "FaultInjectingClient",
    "LlamaCppClient",
    "ResponseCache",
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
    "preflight_scenario",
    "resolve_gguf",
]
