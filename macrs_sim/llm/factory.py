"""One entry point from a `ModelConfig` to a ready, accounted `ChatCompletionClient`."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Mapping

from autogen_core.models import ChatCompletionClient

from macrs_sim.config import EmbeddedModel, ModelConfig, OpenAIModel, ScriptedModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.accounting import AccountingClient, CallLog
from macrs_sim.llm.embedded import MISSING_LLAMA_CPP, LlamaCppClient
from macrs_sim.llm.gguf import resolve_gguf
from macrs_sim.llm.openai_backend import build_openai_client, check_endpoint
from macrs_sim.llm.retry import RetryingClient
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient


def build_client(
    cfg: ModelConfig,
    *,
    temperature: float,
    log: CallLog,
    scripted_rules: Mapping[str, Rule] | None = None,
) -> ChatCompletionClient:
    """The backend for `cfg`, wrapped so every call lands in `log`.

    Layers (outermost first): accounting -> retries -> concurrency limit -> backend,
    so one record covers a call with its retries, and a call waiting to retry
    does not hold a concurrency slot.
    """
    inner: ChatCompletionClient
    if isinstance(cfg, EmbeddedModel):
        path = resolve_gguf(cfg)
        inner = LlamaCppClient(
            path,
            n_ctx=cfg.n_ctx,
            n_threads=cfg.n_threads,
            max_tokens=cfg.max_tokens,
            temperature=temperature,
            seed=cfg.seed,
            max_string_chars=cfg.max_string_chars,
        )
        name = path.stem
    elif isinstance(cfg, OpenAIModel):
        inner = RetryingClient(
            build_openai_client(cfg, temperature=temperature),
            attempts=cfg.max_retries + 1,
            seed=cfg.seed or 0,
        )
        name = cfg.model
    else:
        inner = ScriptedChatCompletionClient(scripted_rules, latency_s=cfg.latency_s, seed=cfg.seed)
        name = "scripted"
    return AccountingClient(inner, log, name)


async def preflight(cfg: ModelConfig) -> None:
    """Fail fast, with one line, before a campaign starts any dialogue."""
    if isinstance(cfg, EmbeddedModel):
        if importlib.util.find_spec("llama_cpp") is None:
            raise ModelUnavailableError(MISSING_LLAMA_CPP)
        # May assemble the default model (~0.5 GB) on first use: keep the loop free.
        await asyncio.to_thread(resolve_gguf, cfg)
    elif isinstance(cfg, OpenAIModel):
        await check_endpoint(cfg)
    elif not isinstance(cfg, ScriptedModel):
        raise TypeError(f"unknown model config {type(cfg).__name__}")
