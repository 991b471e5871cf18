"""`macrs-sim data prepare <kind> PATH`: one subcommand per registered dataset kind.

Each kind's options model (data/registry.py) becomes its flags: a field `min_tag_users`
is `--min-tag-users`, a bool is a switch; values are checked by the model and a bad one
is one line naming the flag."""

from __future__ import annotations

import argparse
import typing
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from rich.console import Console

from macrs_sim.data.registry import DatasetSpec, PrepareOptions, dataset_kinds, dataset_spec
from macrs_sim.errors import DataError

console = Console(markup=False, highlight=False, soft_wrap=True)  # lines are data: never wrapped

_SUFFIXES = (".gz", ".zip", ".json", ".jsonl")


def _flag(field: str) -> str:
    return "--" + field.replace("_", "-")


def _is_bool(annotation: Any) -> bool:
    return annotation is bool


def _add_options(parser: argparse.ArgumentParser, options: type[PrepareOptions]) -> None:
    for name, field in options.model_fields.items():
        if _is_bool(field.annotation):
            parser.add_argument(_flag(name), dest=name, action="store_true", help=field.description)
            continue
        paths = field.annotation is Path or Path in typing.get_args(field.annotation)
        metavar = "PATH" if paths else "N" if field.annotation is int else name.upper()
        parser.add_argument(
            _flag(name), dest=name, default=None, metavar=metavar, help=field.description
        )


def _one_line(err: ValidationError, values: dict[str, Any]) -> str:
    first = err.errors()[0]
    name = str(first["loc"][0]) if first["loc"] else ""
    given = values.get(name)
    ctx = first.get("ctx") or {}
    if first["type"] == "greater_than_equal":
        expected = f"expected {ctx['ge']:g} or more"
    elif first["type"] == "less_than_equal":
        expected = f"expected {ctx['le']:g} or less"
    else:
        expected = first["msg"].removeprefix("Value error, ")
    return f"{_flag(name)} {given}: {expected}"


def options_from_args(spec: DatasetSpec, args: argparse.Namespace) -> PrepareOptions:
    values = {n: getattr(args, n) for n in spec.options.model_fields if hasattr(args, n)}
    given = {n: v for n, v in values.items() if v is not None and v is not False}
    try:
        return spec.options.model_validate(given)
    except ValidationError as err:
        raise DataError(_one_line(err, values)) from None


def default_out(source: Path, kind: str) -> Path:
    name = source.name
    while name.endswith(_SUFFIXES):
        name = name[: name.rindex(".")]
    return Path("data") / f"{name or kind}.sqlite"


def _prepare(args: argparse.Namespace) -> int:
    spec = dataset_spec(args.source_kind)
    options = options_from_args(spec, args)
    source = Path(args.path)
    out = Path(args.out) if args.out else default_out(source, spec.kind)
    result = spec.loader()(source, out, options, overwrite=args.overwrite)
    console.print(
        f"prepared {result.release}: {result.n_users} users, {result.n_items} items, "
        f"{result.n_interactions} interactions in {result.wall_s:.1f} s"
    )
    for line in result.lines:
        console.print(line)
    console.print(f"database: {result.database}")
    console.print(f'use it in a scenario: [data] dataset = "{result.database}"')
    return 0


def add_prepare_command(data: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    prep = data.add_parser("prepare", help="build a dataset database from a download")
    kinds = prep.add_subparsers(dest="source_kind", required=True)
    for kind in dataset_kinds():
        spec = dataset_spec(kind)
        parser = kinds.add_parser(kind, help=spec.help)
        parser.add_argument("path", help=spec.source_help)
        parser.add_argument("--out", help="database to write (default: data/<source>.sqlite)")
        parser.add_argument("--overwrite", action="store_true", help="replace an existing database")
        _add_options(parser, spec.options)
        parser.set_defaults(func=_prepare)
