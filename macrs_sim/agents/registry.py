"""The system registry: every system under test is a `SystemSpec`, never an if/else.

Layering (DESIGN.md §1, config < agents): config/ knows only a generic `SystemEntry`
(name, kind, model, the kind's own fields kept unchecked). This module owns the kinds:
`resolve_entries` turns each entry into its kind's typed options model (a subclass of
SystemEntry with unknown fields forbidden), which is a discriminated union over the
registered kinds checked by hand so the error is one line naming entry, kind and field:
`systems[2] (kind "macrs"): unknown field "informaton_reflection"`. The campaign
resolves its scenario once, before any file is written (campaign/setup.py), and the
resolved scenario it saves holds each system's full options. Why not a union inside
config: the union must include systems registered by outside packages (entry points),
and config may not import agents, not even inside a function.

Builders, `check` and `prepare` are "module:function" strings imported on first use, so
a registered system costs nothing until a campaign uses it; an import that fails names
the pip extra the system needs.

Before a campaign makes its run folder, every system's options pass three gates, each a
ConfigError of one line naming the entry (`systems[0] (kind "recmind"): ...`): its
options model (fields and what they hold, at scenario load), its spec's `check` (what
depends on the machine or the dataset and costs nothing: an environment variable, a
model's memory on this catalog; agents/checks.py), then its `prepare`
(campaign/system_checks.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Literal

from pydantic import ConfigDict, ValidationError

from macrs_sim import registry
from macrs_sim.config import SystemEntry
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import ConfigError

ENTRY_POINT_GROUP = "macrs_sim.systems"
_BUILTIN = "macrs_sim.agents.builtin"


class SystemOptions(SystemEntry):
    """Base of every kind's options: name, kind (a Literal in each subclass), model."""

    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class CallsInFlight:
    """What one dialogue of a system costs a model server: the most calls it has in flight at
    once, and how many on average (calls x mean call time / dialogue wall time), measured
    with `benchmarks/bench_calls_in_flight.py`. Campaign sizing fills servers from these."""

    peak: int = 1
    mean: float = 1.0

    def __post_init__(self) -> None:
        if self.peak < 1 or not 0 < self.mean <= self.peak:
            raise ValueError(f"calls in flight: need peak >= 1 and 0 < mean <= peak, got {self}")


# What a system is given of the user's past (DESIGN.md §3 "A fair contest"): nothing, or
# the user's own interactions before the target, unfiltered, in time order.
HistoryAccess = Literal["none", "pre-target"]


@dataclass(frozen=True)
class SystemSpec:
    kind: str
    options: type[SystemOptions]
    # "module:function": (options, ctx: SystemContext) -> Recommender.
    build: str
    # "module:function": (options, ctx: PrepareContext) -> resources, once per process.
    prepare: str | None = None
    # "module:function": (options, ctx: agents.checks.CheckContext) -> None, raising ConfigError or
    # ValueError whose message starts with the field at fault; run before the campaign
    # probes its models or makes its run folder (cheap checks only: no training).
    check: str | None = None
    # "module:function": (catalog titles, *, domain) -> {role: Rule} for the scripted
    # backend; `domain` (data/domain.py: the words its canned texts use) may be left out.
    scripted_rules: str | None = None
    # The pip extra its imports need, named when they fail ("recsys" -> macrs-sim[recsys]).
    extra: str | None = None
    uses_llm: bool = True
    # A kind that declares nothing is taken as one call at a time (a sequential agent).
    calls_in_flight: CallsInFlight = CallsInFlight()
    # "none" unless the system's paper uses the user's past; SystemContext.history is empty then.
    history: HistoryAccess = "none"
    # The name people know it by (tables, the built-in chat scenario); default: the kind.
    label: str | None = None
    # In `macrs-sim chat`'s built-in scenario (no scenario file given).
    in_default_chat: bool = False
    # "module:function": (the stored options as a dict) -> the variant's label in tables
    # (MACRS's ablations: "w/o IR"); default: the kind.
    variant_label: str | None = None
    # "module:function": (the `eval` group's subparsers) -> None, adding `eval <kind>`: the
    # system's own offline protocol. Imported when `macrs-sim eval` is parsed, never when
    # another command runs; so a system with a protocol needs no edit outside its folders.
    eval_command: str | None = None
    # "module:function": (parsed `models train` arguments, its --set pairs as a dict) -> exit
    # status, run by `macrs-sim models train <kind>` for a system that trains models of its own
    # (ToolRec's retrieval tools); imported only then.
    train_command: str | None = None

    @property
    def display_name(self) -> str:
        return self.label or self.kind


_SPECS: dict[str, SystemSpec] = {}
_loaded = False


def register_system(spec: SystemSpec) -> None:
    """Add (or replace) a system kind; its options' `kind` field must be Literal[spec.kind]."""
    registry.require_literal(spec.options, "kind", spec.kind, "system")
    registry.add(_SPECS, spec.kind, spec, duplicate=None)


def _load() -> None:
    """Built-in systems, then the entry-point group (each once per process)."""
    global _loaded
    if not _loaded:
        _loaded = True
        specs = importlib.import_module(_BUILTIN).BUILTIN_SPECS
        registry.load_specs(
            register_system, specs, ENTRY_POINT_GROUP, entry_points,
            table=_SPECS, key=lambda s: s.kind, spec_type=SystemSpec,
        )  # fmt: skip


def registered_specs() -> list[SystemSpec]:
    """Every registered spec, built-in ones first, in the order they were registered."""
    _load()
    return list(_SPECS.values())


def variant_label(system: Mapping[str, Any]) -> str:
    """A stored system entry's variant label (its spec's `variant_label`, else its kind); a
    kind no longer registered (an outside package gone) is labelled by its kind."""
    kind = str(system.get("kind", ""))
    _load()
    spec = _SPECS.get(kind)
    if spec is None or spec.variant_label is None:
        return kind
    try:
        return str(import_ref(spec.variant_label, spec)(system))
    except Exception:  # an outside package's labeller that fails: a report still gets made
        if plugin_package(kind) is None:
            raise
        return kind


def plugin_package(kind: str) -> str | None:
    """The outside package whose entry point registered `kind` (None: built-in, or
    registered in code): a failure of its own parts costs only its kind."""
    _load()
    return registry.plugin_of(_SPECS, ENTRY_POINT_GROUP, kind)


def known_kinds() -> list[str]:
    _load()
    return sorted(_SPECS)


def system_spec(kind: str) -> SystemSpec:
    _load()
    unknown = "unknown system kind {key!r}; known: {known}"
    return registry.lookup(_SPECS, kind, unknown, ENTRY_POINT_GROUP)


def resolve_entry(index: int, entry: SystemEntry) -> SystemOptions:
    """The entry as its kind's options; ConfigError (one line) when it does not fit."""
    if isinstance(entry, SystemOptions):
        return entry
    _load()
    spec = _SPECS.get(entry.kind)
    refused = registry.refusal(_SPECS, ENTRY_POINT_GROUP, entry.kind)
    if refused is not None:
        raise ConfigError(f"{entry_label(index, entry.kind)}: {refused}")
    if spec is None:
        known = ", ".join(known_kinds()) + registry.not_loaded(_SPECS, ENTRY_POINT_GROUP)
        raise ConfigError(f'systems[{index}]: unknown kind "{entry.kind}"; known: {known}')
    data = entry.model_dump(exclude_none=True) | {"model": entry.model}
    try:
        return spec.options.model_validate(data)
    except ValidationError as err:
        raise ConfigError(
            f"{entry_label(index, entry.kind)}: {registry.field_error(err)}"
        ) from None


def resolve_entries(entries: Sequence[SystemEntry]) -> list[SystemOptions]:
    return [resolve_entry(i, e) for i, e in enumerate(entries)]


def entry_label(index: int, kind: str) -> str:
    """How an error names a `[[systems]]` entry: `systems[2] (kind "macrs")`."""
    return f'systems[{index}] (kind "{kind}")'


def import_ref(ref: str, spec: SystemSpec) -> Callable[..., Any]:
    """`module:function`, imported now; a missing dependency names the extra to install."""
    try:
        return registry.import_ref(ref)
    except ImportError as err:
        hint = f": pip install 'macrs-sim[{spec.extra}]'" if spec.extra else ""
        raise ConfigError(f"system kind {spec.kind!r} cannot be loaded ({err}){hint}") from None


def scripted_rules_of_all(titles: Sequence[str], domain: Domain = MOVIES) -> dict[str, Any]:
    """Every registered system's scripted rules, merged, speaking `domain`'s words. A
    system's roles are namespaced by its kind ("macrs.planner"), so two kinds never claim
    one role; shared roles (the fallback list, the simulated user, the judge) are the
    campaign's (campaign.scripted)."""
    merged: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for kind in known_kinds():
        spec = _SPECS[kind]
        if spec.scripted_rules is None:
            continue
        try:
            make = import_ref(spec.scripted_rules, spec)
            rules: Mapping[str, Any] = registry.call_taking(make, titles, domain=domain)
        except Exception:  # an outside package's rules that fail cost only its own kind
            if plugin_package(kind) is None:
                raise
            continue
        for role in rules:
            if not role.startswith(f"{kind}."):
                raise ValueError(
                    f"scripted role {role!r} of system {kind!r}: name it {kind}.<role>"
                )
            if role in owner:
                raise ValueError(f"scripted role {role!r} claimed by {owner[role]!r} and {kind!r}")
            owner[role] = kind
        merged |= rules
    return merged
