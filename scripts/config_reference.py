"""Generate docs/scenario_reference.md from the scenario's pydantic models, so it cannot drift.

Walks the root model's fields recursively: a field holding a model is a sub-table, a union of
models one sub-table per variant (named by its discriminator), a list of models an array of
tables; the registered system kinds' options models follow `[[systems]]`. A field's meaning is
its `description`, else the comment right above it in the source, else blank.

    python scripts/config_reference.py --write   # regenerate the page
    python scripts/config_reference.py --check   # exit 1 when the page is stale
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
import textwrap
import types
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

PAGE = Path(__file__).resolve().parents[1] / "docs" / "scenario_reference.md"
COMMAND = "python scripts/config_reference.py --write"
_SCALARS = {str: "string", int: "integer", float: "float", bool: "boolean", type(None): "none"}
_BOUNDS = (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"))
_LENGTHS = (("min_length", "length ≥"), ("max_length", "length ≤"))
_HEAD = "| field | type | default | bounds | meaning |\n|---|---|---|---|---|"


def _strip(tp: Any) -> Any:
    """The type without Annotated wrappers (SerializeAsAny, discriminators)."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def _members(tp: Any) -> list[Any]:
    """A union's members (Optional included), else [tp]."""
    tp = _strip(tp)
    if get_origin(tp) in (Union, types.UnionType):
        return [m for arg in get_args(tp) for m in _members(arg)]
    return [tp]


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _models_in(tp: Any) -> list[type[BaseModel]]:
    """The models a field's values are tables of: itself, a union's, a list's or dict's items."""
    found: list[type[BaseModel]] = []
    for member in _members(tp):
        if get_origin(member) in (list, tuple, dict):
            found += [m for arg in get_args(member) for m in _models_in(arg)]
        elif _is_model(member):
            found.append(member)
    return found


def type_name(tp: Any) -> str:
    """A TOML-minded name: `integer`, `"a" / "b"`, `list of float`, `string or none`."""
    names = []
    for member in _members(tp):
        origin, args = get_origin(member), get_args(member)
        if origin is Literal:
            names.append(" / ".join(f'"{a}"' if isinstance(a, str) else str(a) for a in args))
        elif origin in (list, tuple):
            names.append(f"list of {type_name(args[0])}")
        elif origin is dict:
            names.append(f"table of {type_name(args[1])}")
        elif _is_model(member):
            names.append("table")
        else:
            names.append(_SCALARS.get(member, getattr(member, "__name__", str(member))))
    return " or ".join(dict.fromkeys(names))


def toml_value(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, BaseModel):
        return "its table's defaults"
    return str(value)


def default_text(info: FieldInfo) -> str:
    if info.is_required():
        return "required"
    if info.default_factory is not None:
        return toml_value(info.default_factory())  # type: ignore[call-arg]
    return toml_value(info.default)


def bounds_text(info: FieldInfo) -> str:
    found: list[str] = []
    for item in info.metadata:
        found += [f"{sign} {getattr(item, key)}" for key, sign in _BOUNDS if hasattr(item, key)]
        found += [f"{word} {getattr(item, k)}" for k, word in _LENGTHS if hasattr(item, k)]
        if getattr(item, "pattern", None) is not None:
            found.append(f"matches `{item.pattern}`")
    return ", ".join(found)


def comment_above(model: type[BaseModel], field: str) -> str:
    """The comment block right above `field: ...` in the class that declares it, as one line."""
    owner = next((c for c in model.__mro__ if field in c.__dict__.get("__annotations__", {})), None)
    try:
        lines = textwrap.dedent(inspect.getsource(owner)).splitlines() if owner else []
    except (OSError, TypeError):
        return ""
    body = ast.parse("\n".join(lines)).body if lines else []
    fields = [n for c in body if isinstance(c, ast.ClassDef) for n in c.body]
    for node in fields:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == field:
            above: list[str] = []
            row = node.lineno - 2
            while row >= 0 and lines[row].strip().startswith("#"):
                above.insert(0, lines[row].strip().lstrip("#").strip())
                row -= 1
            return " ".join(above)
    return ""


def meaning(model: type[BaseModel], field: str, info: FieldInfo) -> str:
    return " ".join((info.description or comment_above(model, field)).split())


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table_rows(model: type[BaseModel], skip: frozenset[str] = frozenset()) -> str:
    """The field table; "No fields of its own." when every field is skipped."""
    rows = [_HEAD]
    for name, info in model.model_fields.items():
        if name in skip:
            continue
        cells = (f"`{name}`", type_name(info.annotation), default_text(info), bounds_text(info))
        rows.append(
            "| " + " | ".join(_cell(c) for c in (*cells, meaning(model, name, info))) + " |"
        )
    return "\n".join(rows) if len(rows) > 1 else "No fields of its own."


def _one_line_doc(model: type[BaseModel]) -> str:
    doc = model.__dict__.get("__doc__")
    return " ".join(inspect.cleandoc(doc).split("\n\n")[0].split()) if doc else ""


def _fixed_value(model: type[BaseModel], name: str) -> Any:
    """The one value a field's `Literal[value]` type allows; None otherwise."""
    info = model.model_fields.get(name)
    tp = _strip(info.annotation) if info else None
    fixed = get_origin(tp) is Literal and len(get_args(tp)) == 1
    return get_args(tp)[0] if fixed else None


def _discriminator(models: list[type[BaseModel]]) -> str | None:
    """The field (backend, kind) that every variant has and some fix to a Literal value."""
    names = [n for n in models[0].model_fields if all(n in m.model_fields for m in models)]
    return next((n for n in names if any(_fixed_value(m, n) for m in models)), None)


def _sub_label(path: str, annotation: Any) -> str:
    origin = next((get_origin(m) for m in _members(annotation) if get_origin(m)), None)
    if origin is list:
        return f"[[{path}]]"
    return f"[{path}.NAME]" if origin is dict else f"[{path}]"


class _Walk:
    """Sections in field order, depth first; a model seen before is named, not repeated."""

    def __init__(self) -> None:
        self.sections: list[str] = []
        self.seen: dict[type[BaseModel], str] = {}

    def table(self, model: type[BaseModel], path: str, title: str, skip: frozenset[str]) -> None:
        subs: list[tuple[str, str, list[type[BaseModel]]]] = []
        notes: list[str] = []
        for name, info in model.model_fields.items():
            models = _models_in(info.annotation)
            if not models or name in skip:
                continue
            sub = f"{path}.{name}" if path else name
            label = _sub_label(sub, info.annotation)
            if all(m in self.seen for m in models):
                where = " and ".join(dict.fromkeys(f"`{self.seen[m]}`" for m in models))
                notes.append(f"`{name}` takes the fields of {where}.")
                continue
            self.seen |= {m: label for m in models if m not in self.seen}
            subs.append((sub, label, models))
        parts = [f"## {title}", _one_line_doc(model), table_rows(model, skip), " ".join(notes)]
        self.sections.append("\n\n".join(p for p in parts if p))
        for sub, label, models in subs:
            self.variants(models, sub, label)

    def variants(self, models: list[type[BaseModel]], path: str, label: str) -> None:
        key = _discriminator(models) if len(models) > 1 else None
        for model in models:
            value = _fixed_value(model, key) if key else None
            title = f"`{label}`"
            if key:
                title += f" with {key} = {toml_value(value)}" if value else f" with any other {key}"
            self.table(model, path, title, frozenset())


def render_reference(
    root: type[BaseModel],
    kinds: Mapping[str, type[BaseModel]],
    kinds_at: str = "systems",
    tables: Sequence[tuple[str, Mapping[str, type[BaseModel]]]] = (),
) -> str:
    """The Markdown page: the root's tables, then each kind's own fields under `[[kinds_at]]`,
    then under each of `tables` (a `[table]` with a kind: (its field, kind -> options))."""
    walk = _Walk()
    walk.table(root, "", "Top level", frozenset())
    entry = _models_in(root.model_fields[kinds_at].annotation)[0]
    for kind, options in kinds.items():
        title = f'`[[{kinds_at}]]` with kind = "{kind}"'
        walk.table(options, kinds_at, title, frozenset(entry.model_fields))
    for at, registered in tables:
        shared = frozenset(_models_in(root.model_fields[at].annotation)[0].model_fields)
        for kind, options in registered.items():
            walk.table(options, at, f'`[{at}]` with kind = "{kind}"', shared)
    head = (
        "# Scenario reference (generated)\n\n"
        f"Every table and field of a scenario file. Generated from the models by `{COMMAND}`;"
        " do not edit by hand. Bounds are inclusive (≥, ≤) or strict (>, <)."
    )
    return "\n\n".join([head, *walk.sections]) + "\n"


def current_page() -> str:
    from macrs_sim.agents.registry import registered_specs
    from macrs_sim.config import Scenario
    from macrs_sim.simulators.registry import known_simulator_kinds, simulator_spec

    simulators = {k: simulator_spec(k).options for k in known_simulator_kinds()}
    systems = {spec.kind: spec.options for spec in registered_specs()}
    return render_reference(Scenario, systems, tables=[("simulator", simulators)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help=f"write {PAGE.name}")
    mode.add_argument("--check", action="store_true", help="exit 1 when the page is stale")
    args = parser.parse_args(argv)
    page = current_page()
    if args.write:
        PAGE.write_text(page, encoding="utf-8")
        return 0
    if not PAGE.is_file() or PAGE.read_text(encoding="utf-8") != page:
        print(f"docs/{PAGE.name} is stale: run `{COMMAND}`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
