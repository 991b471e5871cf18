"""The backend registry: every `[model] backend = ...` is a `BackendSpec`, never an if/else.

Layering (DESIGN.md §1, config < llm): config/ types the built-in backends' options at
load and keeps any other backend's table raw (`ModelEntry`); this module owns which
backends exist. `resolve_model` turns a raw table into its backend's options model (a
subclass of `ModelOptions`, unknown fields forbidden) with a one-line error. factory.py
wraps what a spec builds in the same layers for every backend (accounting -> retries ->
faults -> cache -> backend).

Built-in backends, then the entry-point group `macrs_sim.backends` (each entry point a
spec, or a function returning one), are registered on first use.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from macrs_sim import registry
from macrs_sim.config import ModelEntry, ModelOptions
from macrs_sim.errors import ConfigError

if TYPE_CHECKING:  # a report describes stored model tables without the client stack
    from autogen_core.models import ChatCompletionClient

    from macrs_sim.llm.scripted import Rule

ENTRY_POINT_GROUP = "macrs_sim.backends"
_BUILTIN = (
    "macrs_sim.llm.backends.embedded",
    "macrs_sim.llm.backends.openai_compat",
    "macrs_sim.llm.backends.scripted",
)
# An in-process model fails only by injected faults; these retries exercise the retry path.
FAULT_RETRIES = 3

Notify = Callable[[str], None]


@dataclass(frozen=True)
class BackendContext:
    """What building a backend's client may use besides its options."""

    temperature: float
    scripted_rules: Mapping[str, Rule] | None = None
    # What the spec's `locate` found for these options (the embedded model's GGUF file).
    located: Path | None = None


def in_process_retries(options: Any, faulty: bool) -> dict[str, Any]:
    """No retries for a model in this process, unless faults are injected."""
    attempts = 1 + (FAULT_RETRIES if faulty else 0)
    return {"attempts": attempts, "base_delay_s": 0.0, "seed": getattr(options, "seed", 0) or 0}


@dataclass(frozen=True)
class BackendSpec:
    name: str
    options: type[ModelOptions]
    # (options, ctx) -> the bare client; factory.build_client adds the shared layers.
    build: Callable[[Any, BackendContext], ChatCompletionClient]
    # (options, ctx) -> what names the model in cache keys (same model, same identity).
    identity: Callable[[Any, BackendContext], str]
    # Option fields that change what the model answers (the cache key holds them).
    sampling_fields: frozenset[str] = frozenset()
    # (options, ctx) -> the model's name in the call log; default: the backend's name.
    label: Callable[[Any, BackendContext], str] | None = None
    # (options, faults injected?) -> RetryingClient keyword arguments.
    retry_policy: Callable[[Any, bool], dict[str, Any]] = in_process_retries
    # (options, notify) -> options as the campaign should use them, or ConfigError /
    # ModelUnavailableError in one line, before any dialogue starts.
    preflight: Callable[[Any, Notify | None], Awaitable[ModelOptions]] | None = None
    # (options) -> a local file the model is (resolved once per client).
    locate: Callable[[Any], Path] | None = None
    # The reply depends on who calls (role, dialogue, turn): the cache key holds the caller.
    keyed_on_caller: bool = False
    # A server that can go away: calls wait for it (campaign's circuit breaker).
    remote: bool = False
    # Option fields that say how to talk to the server, not what a dialogue does: left out
    # of a run's identity when a run is resumed (campaign/rundir.py).
    connection_fields: frozenset[str] = frozenset()
    # (a stored `[model]` table, unchecked) -> how comparing runs names the model, never a
    # key (analysis/report/alike.py); default: the backend's name.
    describe: Callable[[Mapping[str, Any]], str] | None = None

    def context(self, options: Any, temperature: float, **kwargs: Any) -> BackendContext:
        located = self.locate(options) if self.locate is not None else None
        return BackendContext(temperature, located=located, **kwargs)


_SPECS: dict[str, BackendSpec] = {}
_loaded = False


def register_backend(spec: BackendSpec) -> None:
    """Add a backend; its options' `backend` field must be Literal[spec.name]. A name
    already registered is refused (unregister_backend first to replace it)."""
    registry.require_literal(spec.options, "backend", spec.name, "backend")
    registry.add(_SPECS, spec.name, spec, f"backend {spec.name!r} is already registered")


def unregister_backend(name: str) -> None:
    _load()
    _SPECS.pop(name, None)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        specs = registry.builtin_specs(_BUILTIN)
        registry.load_specs(
            register_backend, specs, ENTRY_POINT_GROUP, entry_points,
            table=_SPECS, key=lambda s: s.name, spec_type=BackendSpec,
        )  # fmt: skip


def known_backends() -> list[str]:
    _load()
    return sorted(_SPECS)


def stored_backend(name: str) -> BackendSpec | None:
    """The spec registered as `name`, to describe a stored run's model table (None where no
    package registers it); a kind two packages clash on is the first one's, never an error:
    reading a run runs none of its code."""
    _load()
    return _SPECS.get(name)


def backend_spec(name: str) -> BackendSpec:
    _load()
    unknown = "unknown backend {key!r}; known: {known}"
    return registry.lookup(_SPECS, name, unknown, ENTRY_POINT_GROUP)


def resolve_model(cfg: ModelEntry, where: str = "model") -> ModelOptions:
    """`cfg` as its backend's options; ConfigError (one line, naming `where`) when it does
    not fit: `model: unknown backend "x"; known: ...`, `model (backend "x"): unknown field "y"`."""
    _load()
    spec = _SPECS.get(cfg.backend)
    refused = registry.refusal(_SPECS, ENTRY_POINT_GROUP, cfg.backend)
    if refused is not None:
        raise ConfigError(f"{where}: {refused}")
    if spec is None:
        known = ", ".join(known_backends()) + registry.not_loaded(_SPECS, ENTRY_POINT_GROUP)
        raise ConfigError(f'{where}: unknown backend "{cfg.backend}"; known: {known}')
    if isinstance(cfg, spec.options):
        return cfg
    try:
        return spec.options.model_validate(cfg.model_dump())
    except ValidationError as err:
        raise ConfigError(
            f'{where} (backend "{cfg.backend}"): {registry.field_error(err)}'
        ) from None
