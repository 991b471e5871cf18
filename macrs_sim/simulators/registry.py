"""The simulator registry: every `[simulator] kind = ...` is a `SimulatorSpec`, never an if/else.

Layering (DESIGN.md §1, config < simulators): config/ keeps the `[simulator]` table as
given (`SimulatorConfig`: a kind and fields); this module owns the kinds. `resolve_simulator`
turns the table into its kind's options model (a subclass of `SimulatorOptions`, unknown
fields forbidden) with a one-line error, when a campaign starts (campaign/setup.py).

A spec builds one dialogue's user from its options and a `SimulatorContext`; its optional
`prepare` gives a drawn sample what every system then meets alike (target profile,
opening: §4.2); its optional `scripted_rules` answer its roles on the scripted backend.
Built-in kinds (the LLM user, the agenda user, the person in `macrs-sim chat`, whose module
sits in a higher layer and is imported by name), then the entry-point group
`macrs_sim.simulators` (each a spec, or a function returning one), load on first use.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, ValidationError

from macrs_sim import registry
from macrs_sim.config import SimulatorConfig
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import ConfigError

if TYPE_CHECKING:  # light at import: a report asks a spec what its kind is, nothing more
    from autogen_core.models import ChatCompletionClient

    from macrs_sim.data.catalog import Catalog
    from macrs_sim.llm.scripted import Rule
    from macrs_sim.prompts import PromptLibrary
    from macrs_sim.protocol import Sample
    from macrs_sim.simulators.base import UserSimulator

ENTRY_POINT_GROUP = "macrs_sim.simulators"
_BUILTIN = (
    "macrs_sim.simulators.llm_spec",
    "macrs_sim.simulators.agenda_spec",
    "macrs_sim.interactive.person_spec",
)


class SimulatorOptions(SimulatorConfig):
    """Base of every kind's options: `kind` (a Literal in each subclass) and the table's
    fields; unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class SimulatorContext:
    """What building one dialogue's user may use besides its options."""

    sample: Sample
    catalog: Catalog
    # The simulator's model client; None for a kind that calls no model.
    client: ChatCompletionClient | None
    prompts: PromptLibrary
    dialogue_id: str
    system_name: str
    # What the caller hands a kind outside the scenario (the person's line reader in chat).
    extras: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SampleContext:
    """What preparing a drawn sample may use (once per sample, shared by every system)."""

    catalog: Catalog
    client: ChatCompletionClient | None
    prompts: PromptLibrary
    # protocol.max_structured_retries.
    retries: int


@dataclass(frozen=True)
class SimulatorSpec:
    kind: str
    options: type[SimulatorOptions]
    # (options, ctx) -> a fresh user for one dialogue.
    build: Callable[[Any, SimulatorContext], UserSimulator]
    # async (options, ctx, sample) -> the sample as every system meets it; None: as drawn.
    prepare: Callable[[Any, SampleContext, Sample], Awaitable[Sample]] | None = None
    # (catalog titles, *, domain) -> {role: Rule} for the scripted backend (roles the
    # campaign's default rules lack are added); `domain`, its canned texts' words, optional.
    scripted_rules: Callable[[Sequence[str]], Mapping[str, Rule]] | None = None
    # Whether it calls the simulator's model (`[simulator] model`, else `[model]`).
    uses_llm: bool = True
    # What a report's protocol comparison says of its model when it has none to compare
    # (the rule-based user: "none (rule-based)"); None: the model's own description.
    no_model: str | None = None


_SPECS: dict[str, SimulatorSpec] = {}
_loaded = False


def register_simulator(spec: SimulatorSpec) -> None:
    """Add a simulator kind; its options' `kind` must be Literal[spec.kind]. A kind already
    registered is refused (unregister_simulator first to replace it)."""
    registry.require_literal(spec.options, "kind", spec.kind, "simulator")
    duplicate = f"simulator kind {spec.kind!r} is already registered"
    registry.add(_SPECS, spec.kind, spec, duplicate)


def unregister_simulator(kind: str) -> None:
    _load()
    _SPECS.pop(kind, None)


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        specs = registry.builtin_specs(_BUILTIN)
        registry.load_specs(
            register_simulator, specs, ENTRY_POINT_GROUP, entry_points,
            table=_SPECS, key=lambda s: s.kind, spec_type=SimulatorSpec,
        )  # fmt: skip


def known_simulator_kinds() -> list[str]:
    _load()
    return sorted(_SPECS)


def stored_simulator(kind: str) -> SimulatorSpec | None:
    """The spec registered as `kind`, to describe a stored run (None where no package
    registers it); a kind two packages clash on is the first one's, never an error."""
    _load()
    return _SPECS.get(kind)


def simulator_spec(kind: str) -> SimulatorSpec:
    _load()
    unknown = 'simulator: unknown kind "{key}"; known: {known}'
    return registry.lookup(_SPECS, kind, unknown, ENTRY_POINT_GROUP)


def resolve_simulator(table: SimulatorConfig) -> SimulatorOptions:
    """The `[simulator]` table as its kind's options; ConfigError (one line) when it does
    not fit: `simulator (kind "llm"): unknown field "instructon"`."""
    spec = simulator_spec(table.kind)
    if isinstance(table, spec.options):
        return table
    data = table.model_dump(exclude_none=True) | {"model": table.model}
    try:
        return spec.options.model_validate(data)
    except ValidationError as err:
        raise ConfigError(f'simulator (kind "{table.kind}"): {registry.field_error(err)}') from None


def scripted_rules_of_simulators(titles: Sequence[str], domain: Domain = MOVIES) -> dict[str, Rule]:
    """Every registered kind's scripted rules, merged (first registered wins a role), in
    `domain`'s words where a kind's maker takes them."""
    merged: dict[str, Rule] = {}
    for kind in known_simulator_kinds():
        make = _SPECS[kind].scripted_rules
        if make is not None:
            merged = {**registry.call_taking(make, titles, domain=domain), **merged}
    return merged
