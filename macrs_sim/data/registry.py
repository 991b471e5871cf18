"""The dataset registry, the fifth extension point: every dataset kind is a `DatasetSpec`.

A spec names its kind (`data prepare <kind> PATH`), its domain (the items' noun and the
attributes people name: data/domain.py), its options (a pydantic model: each field is a
`--flag` of `data prepare <kind>`, checked with one-line errors) and its loader, a
"module:function" imported on first use:

    prepare(source: Path, out: Path, options, *, overwrite: bool) -> PrepareResult

Built-in kinds are registered from their own modules (data/builtin.py lists them);
outside packages add theirs through the `macrs_sim.datasets` entry-point group (an entry
point names a spec, or a function returning one), loaded on first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from macrs_sim import registry
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import ConfigError

ENTRY_POINT_GROUP = "macrs_sim.datasets"
_BUILTIN = "macrs_sim.data.builtin"
_KIND = re.compile(r"[a-z][a-z0-9_]*")


class PrepareOptions(BaseModel):
    """A dataset kind's options; subclass it. `strict` is every kind's: refuse a bad row
    (one line naming file and line) instead of dropping and counting it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    strict: bool = Field(
        default=False,
        description="refuse a row naming an item the release lacks, or one that cannot be "
        "read (default: drop and count it)",
    )


class ReviewOptions(PrepareOptions):
    """Options of every kind whose interactions are reviews (Amazon, Yelp, Steam)."""

    core: int = Field(
        default=0,
        ge=0,
        description="keep only users and items with at least N interactions, dropping again "
        "until none is short (the k-core filter: InteRecAgent's 5; default: none)",
    )
    keep_text: bool = Field(default=False, description="keep each review's text")


@dataclass(frozen=True)
class DatasetSpec:
    kind: str
    domain: Domain
    options: type[PrepareOptions]
    prepare: str  # "module:function"
    help: str  # one line for `data prepare --help`
    source_help: str  # what PATH is

    def __post_init__(self) -> None:
        if not _KIND.fullmatch(self.kind):
            raise ValueError(f"dataset kind {self.kind!r}: use lowercase letters, digits and _")
        if not (isinstance(self.options, type) and issubclass(self.options, PrepareOptions)):
            raise ValueError(f"dataset {self.kind!r}: options must subclass PrepareOptions")
        if not re.fullmatch(r"[\w.]+:\w+", self.prepare):
            raise ValueError(f"dataset {self.kind!r}: {self.prepare!r} is not 'module:function'")

    def loader(self) -> Callable[..., Any]:
        try:
            return registry.import_ref(self.prepare)
        except (ImportError, AttributeError) as err:
            raise ConfigError(f"dataset {self.kind!r} cannot be loaded ({err})") from None


_SPECS: dict[str, DatasetSpec] = {}
_loaded = False


def _add(spec: DatasetSpec) -> None:
    registry.add(_SPECS, spec.kind, spec, f"dataset kind {spec.kind!r} is already registered")


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        specs = registry.builtin_specs([_BUILTIN], "BUILTIN_SPECS")[0]
        registry.load_specs(
            _add, specs, ENTRY_POINT_GROUP, entry_points,
            table=_SPECS, key=lambda s: s.kind, spec_type=DatasetSpec,
        )  # fmt: skip


def register_dataset(spec: DatasetSpec) -> None:
    """Add a dataset kind; ValueError when the kind is taken (built-in or registered)."""
    if not isinstance(spec, DatasetSpec):
        raise TypeError(f"register_dataset takes a DatasetSpec, got {type(spec).__name__}")
    _load()
    _add(spec)


def dataset_kinds() -> list[str]:
    """Every registered kind, built-in ones first, in the order they were registered."""
    _load()
    return list(_SPECS)


def dataset_spec(kind: str) -> DatasetSpec:
    """The kind's spec; ConfigError (one line naming the known kinds) when unknown."""
    _load()
    unknown = "unknown dataset kind {key!r}; expected one of {registered}"
    return registry.lookup(_SPECS, kind, unknown, ENTRY_POINT_GROUP)


def domain_of(kind: str | None) -> Domain:
    """The domain of a prepared database's kind (`meta`); films for format 1 and the demo."""
    if kind is None:
        return MOVIES
    return dataset_spec(kind).domain


# A run's domain no registered kind has (its plugin is not installed here): plain words.
UNKNOWN_DOMAIN = Domain(name="items", noun="item", plural="items", category_label="category")


def domain_named(name: str | None) -> Domain:
    """The domain a run recorded by name (its store meta); films for none (a run from
    before runs recorded it, when every run was of films)."""
    if not name:
        return MOVIES
    known = [MOVIES, *(dataset_spec(kind).domain for kind in dataset_kinds())]
    return next((d for d in known if d.name == name), UNKNOWN_DOMAIN)
