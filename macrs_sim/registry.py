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
from collections.abc import Callable, Iterable
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


def load_specs(
    register: Callable[[SpecT], None],
    builtins: Iterable[SpecT],
    group: str,
    entry_points: EntryPoints,
) -> None:
    """The built-in specs, then each entry point of `group` (a spec, or a function returning
    one), through `register` (which applies the registry's checks and duplicate rule)."""
    for spec in builtins:
        register(spec)
    for ep in entry_points(group=group):
        found = ep.load()
        register(found() if callable(found) else found)


def builtin_specs(modules: Iterable[str], name: str = "SPEC") -> list[Any]:
    """`module.SPEC` of each module, imported now (a registry's built-ins, in order)."""
    return [getattr(importlib.import_module(module), name) for module in modules]


def lookup(table: dict[str, SpecT], key: str, unknown: str) -> SpecT:
    """`table[key]`, or ConfigError(one line): `unknown` formatted with `key`, `known` (the
    keys sorted) and `registered` (the keys in the order they were registered)."""
    try:
        return table[key]
    except (KeyError, TypeError):  # TypeError: an unhashable key from an untyped caller
        known, registered = ", ".join(sorted(table)), ", ".join(table)
        message = unknown.format(key=key, known=known, registered=registered)
        raise ConfigError(message) from None


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
