"""`backend = "embedded"`: llama.cpp in this process (llm/embedded.py)."""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from macrs_sim.config import EmbeddedModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.backends.registry import BackendContext, BackendSpec, Notify
from macrs_sim.llm.gguf import resolve_gguf

if TYPE_CHECKING:
    from autogen_core.models import ChatCompletionClient


def build(cfg: EmbeddedModel, ctx: BackendContext) -> ChatCompletionClient:
    from macrs_sim.llm.embedded import LlamaCppClient  # the client stack, on first use

    return LlamaCppClient(
        ctx.located or resolve_gguf(cfg),
        n_ctx=cfg.n_ctx,
        n_threads=cfg.n_threads,
        prompt_cache_mb=cfg.prompt_cache_mb,
        max_tokens=cfg.max_tokens,
        temperature=ctx.temperature,
        seed=cfg.seed,
        max_string_chars=cfg.max_string_chars,
    )


def identity(cfg: EmbeddedModel, ctx: BackendContext) -> str:
    """The same file on another machine (another path) shares cache entries."""
    path = ctx.located or resolve_gguf(cfg)
    return f"gguf:{path.name}:{path.stat().st_size}"


def label(cfg: EmbeddedModel, ctx: BackendContext) -> str:
    return (ctx.located or resolve_gguf(cfg)).stem


async def preflight(cfg: EmbeddedModel, notify: Notify | None) -> EmbeddedModel:
    from macrs_sim.llm.embedded import MISSING_LLAMA_CPP

    if importlib.util.find_spec("llama_cpp") is None:
        raise ModelUnavailableError(MISSING_LLAMA_CPP)
    # May assemble the default model (~0.5 GB) on first use: keep the loop free.
    await asyncio.to_thread(resolve_gguf, cfg)
    return cfg


def describe(model: Mapping[str, Any]) -> str:
    """`embedded <path>`, else its Hugging Face repo/file, else `default` (the bundled GGUF)."""
    repo = "/".join(str(model[k]) for k in ("hf_repo", "hf_file") if model.get(k))
    return f"embedded {model.get('path') or repo or 'default'}"


SPEC = BackendSpec(
    name="embedded",
    options=EmbeddedModel,
    build=build,
    identity=identity,
    sampling_fields=frozenset({"max_tokens", "seed", "max_string_chars"}),
    label=label,
    preflight=preflight,
    locate=resolve_gguf,
    describe=describe,
)
