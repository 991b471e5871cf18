"""One entry point from a `ModelConfig` to a ready, accounted `ChatCompletionClient`."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from autogen_core.models import ChatCompletionClient

from macrs_sim.config import (
    EmbeddedModel,
    FaultsConfig,
    ModelConfig,
    OpenAIModel,
    Scenario,
    ScriptedModel,
)
from macrs_sim.errors import ConfigError, ModelUnavailableError
from macrs_sim.llm.accounting import AccountingClient, CallLog
from macrs_sim.llm.cache import CachingClient, ResponseCache
from macrs_sim.llm.context import current_call
from macrs_sim.llm.embedded import MISSING_LLAMA_CPP, LlamaCppClient
from macrs_sim.llm.gguf import resolve_gguf
from macrs_sim.llm.lean import build_lean_client
from macrs_sim.llm.lean.build import lean_probe_client
from macrs_sim.llm.openai_backend import (
    build_openai_client,
    check_endpoint,
    resolve_structured_outputs,
    sdk_probe_client,
)
from macrs_sim.llm.retry import RetryingClient
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient

# Config fields that change what a model answers (cache key); the rest (timeouts,
# concurrency, retries, URLs, simulated latency) only change how the answer is fetched.
SAMPLING_FIELDS: dict[type, set[str]] = {
    EmbeddedModel: {"max_tokens", "seed", "max_string_chars"},
    OpenAIModel: {"max_tokens", "seed", "structured_outputs"},
    ScriptedModel: {"seed"},
}
# An in-process model fails only by injected faults; these retries exercise the retry path.
EMBEDDED_FAULT_RETRIES = 3


def build_client(
    cfg: ModelConfig,
    *,
    temperature: float,
    log: CallLog,
    scripted_rules: Mapping[str, Rule] | None = None,
    cache: ResponseCache | None = None,
    faults: FaultsConfig | None = None,
) -> ChatCompletionClient:
    """The backend for `cfg`, wrapped so every call lands in `log`.

    Layers, outermost first: accounting -> retries -> fault injection -> cache -> backend.
    Accounting is outermost so one record covers a call with its retries, and a cache
    hit is recorded with cached=True. Retries sit above faults so injected faults are
    retried. The cache sits below faults so a faulty reply is never stored, and above
    the backend (and an endpoint's concurrency limit) so a hit costs no call and no slot.
    """
    gguf = resolve_gguf(cfg) if isinstance(cfg, EmbeddedModel) else None
    client = _backend(cfg, temperature=temperature, scripted_rules=scripted_rules, gguf=gguf)
    if cache is not None:
        client = CachingClient(
            client,
            cache,
            model_identity=model_identity(cfg, gguf=gguf, scripted_rules=scripted_rules),
            params=sampling_params(cfg, temperature),
            # The scripted fake's reply depends on who calls (role, dialogue, turn), not
            # only on the messages; keying on it keeps cached campaigns order-independent.
            request_context=_context if isinstance(cfg, ScriptedModel) else None,
        )
    faulty = faults if faults is not None and faults.rate > 0 else None
    if faulty is not None:
        client = _fault_injecting(client, faulty)
    client = RetryingClient(client, **_retry_policy(cfg, faulty=faulty is not None))
    name = cfg.model if isinstance(cfg, OpenAIModel) else gguf.stem if gguf else "scripted"
    return AccountingClient(client, log, name)


def _backend(
    cfg: ModelConfig,
    *,
    temperature: float,
    scripted_rules: Mapping[str, Rule] | None,
    gguf: Path | None,
) -> ChatCompletionClient:
    if isinstance(cfg, EmbeddedModel):
        assert gguf is not None
        return LlamaCppClient(
            gguf,
            n_ctx=cfg.n_ctx,
            n_threads=cfg.n_threads,
            max_tokens=cfg.max_tokens,
            temperature=temperature,
            seed=cfg.seed,
            max_string_chars=cfg.max_string_chars,
        )
    if isinstance(cfg, OpenAIModel):
        build = build_lean_client if cfg.client == "lean" else build_openai_client
        return build(cfg, temperature=temperature)
    # A campaign never reads `.calls`; keeping every request would grow with the campaign.
    return ScriptedChatCompletionClient(
        scripted_rules, latency_s=cfg.latency_s, seed=cfg.seed, record_calls=False
    )


def _retry_policy(cfg: ModelConfig, *, faulty: bool) -> dict[str, Any]:
    if isinstance(cfg, OpenAIModel):
        return {
            "attempts": cfg.max_retries + 1,
            "base_delay_s": cfg.backoff_base_s,
            "max_delay_s": cfg.backoff_max_s,
            "seed": cfg.seed or 0,
        }
    if isinstance(cfg, ScriptedModel):
        # A fake endpoint needs no real backoff: pause about one simulated call.
        return {"attempts": cfg.max_retries + 1, "base_delay_s": cfg.latency_s, "seed": cfg.seed}
    attempts = 1 + (EMBEDDED_FAULT_RETRIES if faulty else 0)
    return {"attempts": attempts, "base_delay_s": 0.0, "seed": cfg.seed}


def _fault_injecting(inner: ChatCompletionClient, faults: FaultsConfig) -> ChatCompletionClient:
    try:
        from macrs_sim.llm.faults import FaultInjectingClient
    except ImportError as err:
        raise ConfigError(f"faults.rate > 0 but fault injection is unavailable: {err}") from None
    return FaultInjectingClient(inner, faults)


def _context() -> tuple[Any, ...]:
    ctx = current_call()  # every field, without astuple's deep copy (hot path)
    return tuple(getattr(ctx, f.name) for f in dataclasses.fields(ctx))


def model_identity(
    cfg: ModelConfig,
    *,
    gguf: Path | None = None,
    scripted_rules: Mapping[str, Rule] | None = None,
) -> str:
    """What names the model in cache keys: the same model on another machine or replica
    (different path, base URL) shares entries; two different models never do."""
    if isinstance(cfg, EmbeddedModel):
        path = gguf or resolve_gguf(cfg)
        return f"gguf:{path.name}:{path.stat().st_size}"
    if isinstance(cfg, OpenAIModel):
        return f"openai:{cfg.model}"
    # Which rule answers each role (by name: a rule's code or captured state is not seen).
    rules = sorted(
        f"{role}={getattr(rule, '__module__', '')}.{getattr(rule, '__qualname__', type(rule))}"
        for role, rule in (scripted_rules or {}).items()
    )
    digest = hashlib.sha256("\n".join(rules).encode()).hexdigest()[:12]
    return f"scripted:seed={cfg.seed}:rules={digest}"


def sampling_params(cfg: ModelConfig, temperature: float) -> dict[str, Any]:
    """The parameters that shape a reply, for the cache key."""
    return {"temperature": temperature, **cfg.model_dump(include=SAMPLING_FIELDS[type(cfg)])}


async def preflight(cfg: ModelConfig, notify: Callable[[str], None] | None = None) -> ModelConfig:
    """Fail fast, with one line, before a campaign starts any dialogue.

    Returns `cfg` as the campaign should use it: with `structured_outputs = "auto"`
    replaced by the mode the endpoint accepts (`notify` hears which).
    """
    if isinstance(cfg, EmbeddedModel):
        if importlib.util.find_spec("llama_cpp") is None:
            raise ModelUnavailableError(MISSING_LLAMA_CPP)
        # May assemble the default model (~0.5 GB) on first use: keep the loop free.
        await asyncio.to_thread(resolve_gguf, cfg)
    elif isinstance(cfg, OpenAIModel):
        await check_endpoint(cfg)
        probe = lean_probe_client if cfg.client == "lean" else sdk_probe_client
        return await resolve_structured_outputs(cfg, notify, probe_client=probe)
    elif not isinstance(cfg, ScriptedModel):
        raise TypeError(f"unknown model config {type(cfg).__name__}")
    return cfg


async def preflight_scenario(
    scenario: Scenario,
    configs: Sequence[ModelConfig],
    notify: Callable[[str], None] | None = None,
) -> Scenario:
    """`preflight` every config in `configs` (the models the campaign calls), and return
    `scenario` with each of them as preflight resolved it, wherever it appears."""
    resolved = [(cfg, await preflight(cfg, notify)) for cfg in configs]

    def swap(cfg: ModelConfig | None) -> ModelConfig | None:
        return next((new for old, new in resolved if old == cfg), cfg)

    systems = [s.model_copy(update={"model": swap(s.model)}) for s in scenario.systems]
    return scenario.model_copy(
        update={
            "model": swap(scenario.model),
            "simulator": scenario.simulator.model_copy(
                update={"model": swap(scenario.simulator.model)}
            ),
            "judge": scenario.judge.model_copy(update={"model": swap(scenario.judge.model)}),
            "systems": systems,
        }
    )
