"""In-process llama.cpp backend (llama-cpp-python), the zero-setup default."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from autogen_core.models import (
    AssistantMessage,
    CreateResult,
    LLMMessage,
    RequestUsage,
    SystemMessage,
    UserMessage,
)

from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.base import JsonOutput, SimpleChatClient, message_text
from macrs_sim.llm.prefix_cache import PrefixStateCache

if TYPE_CHECKING:
    from llama_cpp import Llama

MISSING_LLAMA_CPP = "embedded backend needs llama-cpp-python: pip install 'macrs-sim[embedded]'"


def load_llama(model_path: Path, *, n_ctx: int, n_threads: int | None, seed: int) -> Llama:
    try:
        from llama_cpp import Llama
    except ImportError:
        raise ModelUnavailableError(MISSING_LLAMA_CPP) from None
    from macrs_sim.llm.lazy_grammar import lazy_llama_class

    # chat_format is left unset so llama-cpp-python uses the GGUF's own chat template. The
    # prompt's threads too: llama-cpp-python reads prompts on every core unless told. Greedy
    # JSON replies check the grammar lazily (lazy_grammar.py): the same tokens, faster.
    return lazy_llama_class(Llama)(
        model_path=str(model_path),
        n_ctx=n_ctx,
        n_threads=n_threads,
        n_threads_batch=n_threads,
        seed=seed,
        verbose=False,
    )


def to_chat_dicts(messages: Sequence[LLMMessage]) -> list[dict[str, str]]:
    roles = {SystemMessage: "system", UserMessage: "user", AssistantMessage: "assistant"}
    out = []
    for m in messages:
        role = roles.get(type(m))
        if role is None:
            raise ValueError(f"embedded backend cannot send a {type(m).__name__}")
        out.append({"role": role, "content": message_text(m)})
    return out


def bounded_schema(schema: Any, max_chars: int, max_items: int = 20) -> Any:
    """Cap unbounded strings and arrays so a grammar-forced reply closes within max_tokens.

    Small models at temperature 0 can repeat themselves inside a string until the
    token budget runs out, leaving unterminated JSON; a bounded field always closes.
    """
    if isinstance(schema, list):
        return [bounded_schema(s, max_chars, max_items) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: bounded_schema(v, max_chars, max_items) for k, v in schema.items()}
    if out.get("type") == "string" and "maxLength" not in out and "enum" not in out:
        out["maxLength"] = max_chars
    if out.get("type") == "array" and "maxItems" not in out:
        out["maxItems"] = max_items
    return out


def string_leaves(schema: Any, defs: dict[str, Any], depth: int = 0) -> int:
    """How many free-text strings a reply to `schema` holds (arrays counted as up to 3 items)."""
    if not isinstance(schema, dict) or depth > 8:
        return 0
    if "$ref" in schema:
        return string_leaves(defs.get(str(schema["$ref"]).split("/")[-1], {}), defs, depth + 1)
    if schema.get("type") == "string":
        return 0 if "enum" in schema or "const" in schema else 1
    if schema.get("type") == "array":
        items = min(int(schema.get("maxItems", 3)), 3)
        return items * string_leaves(schema.get("items", {}), defs, depth + 1)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return max(string_leaves(s, defs, depth + 1) for s in schema[key])
    props = schema.get("properties", {})
    return sum(string_leaves(p, defs, depth + 1) for p in props.values())


def structure_chars(schema: Any, defs: dict[str, Any], depth: int = 0) -> int:
    """Characters a reply to `schema` spends outside its free text: each key with its quotes,
    colon and comma (6), enum values at their longest; arrays counted as up to 3 items."""
    if not isinstance(schema, dict) or depth > 8:
        return 0
    if "$ref" in schema:
        return structure_chars(defs.get(str(schema["$ref"]).split("/")[-1], {}), defs, depth + 1)
    if "enum" in schema:
        return max((len(str(v)) + 2 for v in schema["enum"]), default=0)
    if schema.get("type") == "array":
        items = min(int(schema.get("maxItems", 3)), 3)
        return 2 + items * structure_chars(schema.get("items", {}), defs, depth + 1)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return max(structure_chars(s, defs, depth + 1) for s in schema[key])
    props = schema.get("properties", {})
    inner = sum(len(name) + 6 + structure_chars(p, defs, depth + 1) for name, p in props.items())
    return inner + 2 if props else 0


def string_cap(schema: dict[str, Any], max_tokens: int, max_chars: int) -> int:
    """Characters per string so that the keys and all strings fit the token budget (~3 chars
    a token). Keys count too: with 5 long keys and 64 tokens they take half the budget, and a
    reply that ignores them is cut off before its JSON closes."""
    defs = schema.get("$defs", {})
    free = 3 * max_tokens - structure_chars(schema, defs)
    return max(16, min(max_chars, free // (string_leaves(schema, defs) + 1)))


def response_format(
    json_output: JsonOutput, max_chars: int = 240, max_tokens: int = 256
) -> dict[str, Any] | None:
    """llama-cpp-python's JSON mode; a schema is compiled into a grammar that forces it."""
    if isinstance(json_output, type):
        schema = json_output.model_json_schema()
        cap = string_cap(schema, max_tokens, max_chars)
        return {"type": "json_object", "schema": bounded_schema(schema, cap)}
    if json_output is True:
        return {"type": "json_object"}
    return None


class LlamaCppClient(SimpleChatClient):
    """One GGUF model loaded in this process; calls run one at a time in a worker thread."""

    def __init__(
        self,
        model_path: Path,
        *,
        n_ctx: int = 4096,
        n_threads: int | None = None,
        prompt_cache_mb: int = 0,
        max_tokens: int = 256,
        temperature: float = 0.0,
        seed: int = 0,
        max_string_chars: int = 240,
    ) -> None:
        super().__init__(n_ctx=n_ctx)
        self.max_string_chars = max_string_chars
        # llama-cpp-python defaults to half the cores; one process owns the machine here.
        n_threads = n_threads or os.cpu_count() or 1
        self.model_path = model_path
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.seed = seed
        self._llm = load_llama(model_path, n_ctx=n_ctx, n_threads=n_threads, seed=seed)
        if prompt_cache_mb > 0:
            self._llm.set_cache(PrefixStateCache(prompt_cache_mb * 2**20))  # type: ignore[arg-type]
        # llama.cpp's context is not thread-safe. The asyncio lock queues callers
        # without tying up executor threads; the thread lock keeps a call that was
        # cancelled on the async side (its thread still running) from overlapping the next.
        self._queue = asyncio.Lock()
        self._busy = threading.Lock()

    async def _complete(
        self,
        messages: Sequence[LLMMessage],
        *,
        json_output: JsonOutput,
        extra_create_args: Mapping[str, Any],
    ) -> CreateResult:
        max_tokens = int(extra_create_args.get("max_tokens", self.max_tokens))
        kwargs: dict[str, Any] = {
            "messages": to_chat_dicts(messages),
            "max_tokens": max_tokens,
            "temperature": self.temperature,
            "seed": self.seed,
            "response_format": response_format(json_output, self.max_string_chars, max_tokens),
            **extra_create_args,
        }
        async with self._queue:
            response = await asyncio.to_thread(self._run, kwargs)
        choice = response["choices"][0]
        usage = response.get("usage") or {}
        finish = choice.get("finish_reason")
        return CreateResult(
            finish_reason=finish if finish in ("stop", "length") else "unknown",
            content=choice["message"].get("content") or "",
            usage=RequestUsage(
                prompt_tokens=int(usage.get("prompt_tokens", 0)),
                completion_tokens=int(usage.get("completion_tokens", 0)),
            ),
            cached=False,
        )

    def _run(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        with self._busy:
            return cast(dict[str, Any], self._llm.create_chat_completion(**kwargs))

    async def close(self) -> None:
        async with self._queue:
            await asyncio.to_thread(self._close_llm)

    def _close_llm(self) -> None:
        with self._busy:
            self._llm.close()
