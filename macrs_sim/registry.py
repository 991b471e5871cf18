"""What the four registries of extension points share (systems, simulators, backends,
rankers: agents/registry.py, simulators/registry.py, llm/backends/registry.py,
rankers/registry.py).

Each registry keeps its own table (kind -> spec) and its own "loaded yet?" flag as module
globals, because callers and tests swap them (a fresh table, a copy to register into);
these functions take the table, so the logic is written once and the state stays where it
is read. Each registry keeps its own messages: they are passed in, never rebuilt here.
"""

from __future__ import annotations

import importlib
import inspect
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint
from typing import Any, TypeVar, cast

from pydantic import BaseModel, ValidationError

from macrs_sim.errors import ConfigError

SpecT = TypeVar("SpecT")
EntryPoints = Callable[..., Iterable[EntryPoint]]


def require_literal(options: type[BaseModel], field: str, value: str, what: str) -> None:
    """ValueError unless `options.<field>` is `Literal[value]` (each kind's options name it)."""
    found = options.model_fields.get(field)
    if found is None or getattr(found.annotation, "__args__", None) != (value,):
        raise ValueError(f"options of {what} {value!r} need `{field}: Literal[{value!r}]`")


def add(table: dict[str, SpecT], key: str, spec: SpecT, duplicate: str | None) -> None:
    """Put `spec` under `key`; a taken key is refused with ValueError(`duplicate`), or
    replaced where `duplicate` is None (the system registry's rule)."""
    if duplicate is not None and key in table:
        raise ValueError(duplicate)
    table[key] = spec


BUILT_IN = "macrs-sim"
# A deliberate replacement of a kind another package registers: comma-separated
# `<registry>.<kind>=<package>` (registry: systems, simulators, backends, rankers, datasets).
REPLACE_ENV = "MACRS_SIM_REPLACE"


@dataclass(frozen=True)
class _Loaded:
    """What `load_specs` learnt filling one table: the entry points not registered (a kind,
    or the entry point's name where no spec was had -> the line a scenario naming it gets),
    and who registered each kind (BUILT_IN, else the package) with the spec it gave."""

    table: dict[str, Any]
    refused: dict[str, str] = field(default_factory=dict)
    owners: dict[str, tuple[str, Any]] = field(default_factory=dict)


# Per (group, table): kept with the table it describes, so a table swapped in (tests do)
# never reads another's refusals.
_STATE: dict[tuple[str, int], _Loaded] = {}


def _state(table: dict[str, Any], group: str) -> _Loaded | None:
    found = _STATE.get((group, id(table)))
    return found if found is not None and found.table is table else None


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower().strip()


def _package(ep: EntryPoint) -> str:
    """The distribution an entry point comes from (else its module's top-level name)."""
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None) if dist is not None else None
    return str(name) if name else str(getattr(ep, "value", "?")).split(":")[0].split(".")[0]


def _chosen(group: str, key: str) -> str | None:
    """The package `REPLACE_ENV` says the kind `key` of `group` comes from, if it says."""
    wanted = f"{group.removeprefix('macrs_sim.')}.{key}"
    for part in os.environ.get(REPLACE_ENV, "").split(","):
        name, _, package = part.partition("=")
        if name.strip() == wanted and package.strip():
            return _normal(package)
    return None


def _one(ep: EntryPoint, spec_type: type[Any] | None) -> Any:
    """The spec an entry point names (or its function returns); raises what it raises."""
    found = ep.load()
    spec = found() if callable(found) and not isinstance(found, type) else found
    if spec_type is not None and not isinstance(spec, spec_type):
        raise TypeError(f"it gave a {type(spec).__name__}, not a {spec_type.__name__}")
    return spec


def _clash(group: str, key: str, owner: str, package: str) -> str | None:
    """The line for `package` registering the kind `key` that `owner` has; None where the
    setting chooses one of them (`package` replaces `owner`, or `owner` stays)."""
    if _chosen(group, key) in (_normal(package), _normal(owner)):
        return None
    short = group.removeprefix("macrs_sim.")
    return (
        f"{short[:-1]} kind {key!r} is registered by both {owner} and {package}; set "
        f"{REPLACE_ENV}={short}.{key}={package} to use {package}'s (or ={owner} to keep "
        f"{owner}'s), or uninstall one"
    )


def load_specs(
    register: Callable[[SpecT], None],
    builtins: Iterable[SpecT],
    group: str,
    entry_points: EntryPoints,
    *,
    table: dict[str, SpecT] | None = None,
    key: Callable[[SpecT], str] | None = None,
    spec_type: type[Any] | None = None,
) -> None:
    """The built-in specs, then each entry point of `group` (a spec, or a function returning
    one), through `register` (which applies the registry's checks and duplicate rule).

    An entry point that fails to load, raises, names no `spec_type` or fails `register` is
    left out, its line kept for a scenario that names it (`refusal`); so is one whose kind
    (`key`) is already in `table`, unless `REPLACE_ENV` chooses its package."""
    loaded = _Loaded(table if table is not None else {})
    _STATE[(group, id(loaded.table))] = loaded
    refused, owners = loaded.refused, loaded.owners
    for spec in builtins:
        register(spec)
        if key is not None:
            owners[key(spec)] = (BUILT_IN, spec)
    for ep in entry_points(group=group):
        package, name = _package(ep), str(getattr(ep, "name", "?"))
        plugin = f"{group.removeprefix('macrs_sim.')[:-1]} plugin {package} (entry point {name!r})"
        try:
            spec = _one(ep, spec_type)
        except Exception as exc:  # a plugin's import or function may raise anything
            line = f"{plugin} failed: {' '.join(f'{type(exc).__name__}: {exc}'.split())}"
            # An entry point named as a kind that is already registered (a built-in) leaves
            # that kind as it is: its failure is listed, and the kind keeps working.
            taken = table is not None and name in table
            refused[f"{name} ({package})" if taken else name] = line
            continue
        kind = key(spec) if key is not None else None
        if kind is not None and table is not None and kind in table:
            owner = owners.get(kind, ("another package", None))[0]
            clash = _clash(group, kind, owner, package)
            if clash is not None:
                refused[kind] = clash
            if clash is not None or _chosen(group, kind) != _normal(package):
                continue  # a clash, or the setting keeps the kind's owner
            table.pop(kind)
        try:
            register(spec)
        except (ValueError, TypeError) as exc:
            refused[kind or name] = f"{plugin}: {exc}"
            continue
        if kind is not None:
            owners[kind] = (package, spec)


def refusal(table: dict[str, Any], group: str, key: object) -> str | None:
    """The line for a kind of `group` an outside package could not register in `table`."""
    loaded = _state(table, group)
    return loaded.refused.get(key) if loaded is not None and isinstance(key, str) else None


def plugin_of(table: dict[str, Any], group: str, key: str) -> str | None:
    """The outside package that registered the kind `key` of `group` in `table` (None:
    built-in or registered in code)."""
    loaded = _state(table, group)
    owner, spec = loaded.owners.get(key, (None, None)) if loaded is not None else (None, None)
    if owner in (None, BUILT_IN) or table.get(key) is not spec:  # since replaced in code
        return None
    return owner


def builtin_specs(modules: Iterable[str], name: str = "SPEC") -> list[Any]:
    """`module.SPEC` of each module, imported now (a registry's built-ins, in order)."""
    return [getattr(importlib.import_module(module), name) for module in modules]


def lookup(table: dict[str, SpecT], key: str, unknown: str, group: str | None = None) -> SpecT:
    """`table[key]`, or ConfigError(one line): `unknown` formatted with `key`, `known` (the
    keys sorted) and `registered` (the keys in the order they were registered); the line of
    an outside package that could not register `key` in `group` (`refusal`) wins."""
    refused = refusal(table, group, key) if group is not None else None
    if refused is not None:
        raise ConfigError(refused)
    try:
        return table[key]
    except (KeyError, TypeError):  # TypeError: an unhashable key from an untyped caller
        known, registered = ", ".join(sorted(table)), ", ".join(table)
        message = unknown.format(key=key, known=known, registered=registered)
        raise ConfigError(message + (not_loaded(table, group) if group else "")) from None


def not_loaded(table: dict[str, Any], group: str) -> str:
    """A tail naming the entry points of `group` not registered in `table` ("" if none)."""
    loaded = _state(table, group)
    names = sorted(loaded.refused) if loaded is not None else []
    return f" (not loaded from outside packages: {', '.join(names)})" if names else ""


def field_error(err: ValidationError) -> str:
    """The first error of an options model as `unknown field "x"`, `required field "x" is
    missing` or `x: <message>`."""
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    if first["type"] == "extra_forbidden":
        return f'unknown field "{where}"'
    if first["type"] == "missing":
        return f'required field "{where}" is missing'
    msg = first["msg"].removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def import_ref(ref: str) -> Callable[..., Any]:
    """`module:function`, imported now; ImportError / AttributeError are the caller's to name."""
    module, _, attr = ref.partition(":")
    return cast(Callable[..., Any], getattr(importlib.import_module(module), attr))


def call_taking(fn: Callable[..., Any], *args: object, **optional: object) -> Any:
    """`fn(*args, **optional)`, leaving out each optional keyword `fn` has no parameter for:
    a plugin's function written before the keyword existed (a scripted-rules maker before
    `domain`) keeps working, in the words it always had."""
    params = inspect.signature(fn).parameters
    any_keyword = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    return fn(*args, **{k: v for k, v in optional.items() if any_keyword or k in params})
