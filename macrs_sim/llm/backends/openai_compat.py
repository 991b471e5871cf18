"""`backend = "openai"`: any OpenAI-compatible endpoint (llm/openai_backend.py, llm/lean/)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from macrs_sim.config import OpenAIModel
from macrs_sim.llm.backends.registry import BackendContext, BackendSpec, Notify
from macrs_sim.redact import redact_url

if TYPE_CHECKING:  # the client stack (openai, aiohttp: about 1 s) is imported on first use
    from autogen_core.models import ChatCompletionClient


def build(cfg: OpenAIModel, ctx: BackendContext) -> ChatCompletionClient:
    from macrs_sim.llm.lean import build_lean_client
    from macrs_sim.llm.openai_backend import build_openai_client

    make = build_lean_client if cfg.client == "lean" else build_openai_client
    return make(cfg, temperature=ctx.temperature)


def identity(cfg: OpenAIModel, ctx: BackendContext) -> str:
    """Replicas of one model (other base URLs) share cache entries."""
    return f"openai:{cfg.model}"


def label(cfg: OpenAIModel, ctx: BackendContext) -> str:
    return cfg.model


def retry_policy(cfg: OpenAIModel, faulty: bool) -> dict[str, Any]:
    return {
        "attempts": cfg.max_retries + 1,
        "base_delay_s": cfg.backoff_base_s,
        "max_delay_s": cfg.backoff_max_s,
        "seed": cfg.seed or 0,
    }


async def preflight(cfg: OpenAIModel, notify: Notify | None) -> OpenAIModel:
    """The endpoint answers, and `structured_outputs = "auto"` becomes the mode it accepts."""
    from macrs_sim.llm.lean.build import lean_probe_client
    from macrs_sim.llm.openai_backend import (
        check_endpoint,
        resolve_structured_outputs,
        sdk_probe_client,
    )

    await check_endpoint(cfg)
    probe = lean_probe_client if cfg.client == "lean" else sdk_probe_client
    return await resolve_structured_outputs(cfg, notify, probe_client=probe)


def describe(model: Mapping[str, Any]) -> str:
    """`openai <model> at <redacted base URLs>`: the server's address, never a key."""
    urls = [model["base_url"]] if model.get("base_url") else list(model.get("base_urls", ()))
    where = f" at {', '.join(redact_url(str(u)) for u in urls)}" if urls else ""
    return f"openai {model.get('model', '?')}{where}"


SPEC = BackendSpec(
    name="openai",
    options=OpenAIModel,
    build=build,
    identity=identity,
    sampling_fields=frozenset({"max_tokens", "seed", "structured_outputs"}),
    label=label,
    retry_policy=retry_policy,
    preflight=preflight,
    remote=True,
    connection_fields=frozenset({"structured_outputs"}),
    describe=describe,
)
