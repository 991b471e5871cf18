"""One entry point from a `ModelConfig` to a ready, accounted `ChatCompletionClient`.

Which backend answers is a registry lookup (llm/backends/registry.py); the layers around
it are the same for every backend.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from autogen_core.models import ChatCompletionClient

from macrs_sim.config import FaultsConfig, ModelConfig, ModelEntry, ModelOptions, Scenario
from macrs_sim.errors import ConfigError
from macrs_sim.llm.accounting import AccountingClient, CallLog
from macrs_sim.llm.backends.registry import (
    BackendContext,
    BackendSpec,
    backend_spec,
    resolve_model,
)
from macrs_sim.llm.cache import CachingClient, ResponseCache
from macrs_sim.llm.context import current_call
from macrs_sim.llm.retry import RetryingClient
from macrs_sim.llm.scripted import Rule


def build_client(
    cfg: ModelConfig,
    *,
    temperature: float,
    log: CallLog,
    scripted_rules: Mapping[str, Rule] | None = None,
    cache: ResponseCache | None = None,
    faults: FaultsConfig | None = None,
) -> ChatCompletionClient:
    """The backend for `cfg` (its registered spec's client), wrapped so every call lands in
    `log`; a backend no spec names is a ConfigError of one line.

    Layers, outermost first: accounting -> retries -> fault injection -> cache -> backend.
    Accounting is outermost so one record covers a call with its retries, and a cache
    hit is recorded with cached=True. Retries sit above faults so injected faults are
    retried. The cache sits below faults so a faulty reply is never stored, and above
    the backend (and an endpoint's concurrency limit) so a hit costs no call and no slot.
    """
    options, spec = _typed(cfg)
    ctx = spec.context(options, temperature, scripted_rules=scripted_rules)
    client = spec.build(options, ctx)
    if cache is not None:
        client = CachingClient(
            client,
            cache,
            model_identity=spec.identity(options, ctx),
            params=sampling_params(options, temperature),
            # The scripted fake's reply depends on who calls (role, dialogue, turn), not
            # only on the messages; keying on it keeps cached campaigns order-independent.
            request_context=_context if spec.keyed_on_caller else None,
        )
    faulty = faults if faults is not None and faults.rate > 0 else None
    if faulty is not None:
        client = _fault_injecting(client, faulty)
    client = RetryingClient(client, **spec.retry_policy(options, faulty is not None))
    name = spec.label(options, ctx) if spec.label is not None else spec.name
    return AccountingClient(client, log, name)


def _typed(cfg: ModelEntry) -> tuple[ModelOptions, BackendSpec]:
    options = resolve_model(cfg)
    return options, backend_spec(options.backend)


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
    (different path, base URL) shares entries; two different models never do. `gguf`: the
    file the backend's `locate` would find, when already known."""
    options, spec = _typed(cfg)
    if gguf is None:
        ctx = spec.context(options, 0.0, scripted_rules=scripted_rules)
    else:
        ctx = BackendContext(0.0, scripted_rules=scripted_rules, located=gguf)
    return spec.identity(options, ctx)


def sampling_params(cfg: ModelConfig, temperature: float) -> dict[str, Any]:
    """The parameters that shape a reply, for the cache key."""
    options, spec = _typed(cfg)
    return {"temperature": temperature, **options.model_dump(include=set(spec.sampling_fields))}


async def preflight(cfg: ModelConfig, notify: Callable[[str], None] | None = None) -> ModelConfig:
    """Fail fast, with one line, before a campaign starts any dialogue (the backend's own
    check: the embedded model's file, the endpoint answering).

    Returns `cfg` as the campaign should use it: with `structured_outputs = "auto"`
    replaced by the mode the endpoint accepts (`notify` hears which).
    """
    options, spec = _typed(cfg)
    if spec.preflight is None:
        return cfg
    checked = await spec.preflight(options, notify)
    return cfg if checked == options else checked


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
