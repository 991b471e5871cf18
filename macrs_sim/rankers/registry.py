"""The ranker registry: every trainable item ranker is a `RankerSpec`, never an if/else.

A spec names its kind, its hyperparameter model (a `RankerParams` subclass: unknown
fields refused, errors one line via rankers/train.py `make_params`), how to train it and
how to rebuild it from a checkpoint. The checkpoint format is the same for every kind
(rankers/cache.py): the trained ranker's `arrays()` (`CheckpointedRanker`) and a JSON
record in one .npz; `load` turns those arrays back into a ranker.

As with systems (agents/registry.py), `train` and `load` are "module:function" strings
imported on first use, so a registered ranker costs nothing until it is trained, and a
kind whose module needs torch can be registered, listed and have its parameters
checked on a machine without torch. Built-in kinds are registered from their own
modules (rankers/builtin.py lists them); outside packages add theirs through the
`macrs_sim.rankers` entry-point group (an entry point names a spec, or a function
returning one), loaded on first use.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from macrs_sim import registry
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.params import RankerParams

ENTRY_POINT_GROUP = "macrs_sim.rankers"
_BUILTIN = "macrs_sim.rankers.builtin"
# A kind names its checkpoint files (`<kind>-<key>.npz`) and command-line values.
_KIND = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class RankerSpec:
    kind: str
    # Its hyperparameters; `extra="forbid"` (inherited from RankerParams).
    params: type[RankerParams]
    # "module:function": (item_ids, split: data.splits.Split, params, progress) ->
    # CheckpointedRanker; `arrays()` of what it returns is what the checkpoint stores.
    train: str
    # "module:function": (item_ids, arrays, params) -> ItemRanker, from a checkpoint.
    load: str
    # Modules its training imports ("torch"): checked before training, named when absent.
    requires: tuple[str, ...] = ()
    # The pip extra that provides them ("recsys" -> macrs-sim[recsys]).
    extra: str | None = None

    def __post_init__(self) -> None:
        if not _KIND.fullmatch(self.kind):
            raise ValueError(f"ranker kind {self.kind!r}: use lowercase letters, digits and _")
        if not (isinstance(self.params, type) and issubclass(self.params, RankerParams)):
            raise ValueError(f"ranker {self.kind!r}: params must subclass RankerParams")
        if self.params.model_config.get("extra") != "forbid":
            raise ValueError(f"ranker {self.kind!r}: params must refuse unknown fields")
        for ref in (self.train, self.load):
            if not re.fullmatch(r"[\w.]+:\w+", ref):
                raise ValueError(f"ranker {self.kind!r}: {ref!r} is not 'module:function'")

    @property
    def install_hint(self) -> str:
        return f"pip install 'macrs-sim[{self.extra}]'" if self.extra else "install it"

    def missing(self) -> list[str]:
        """The modules in `requires` that cannot be imported here."""
        return [m for m in self.requires if importlib.util.find_spec(m) is None]


_SPECS: dict[str, RankerSpec] = {}
_loaded = False


def _add(spec: RankerSpec) -> None:
    registry.add(_SPECS, spec.kind, spec, f"ranker kind {spec.kind!r} is already registered")


def _load() -> None:
    """Built-in rankers, then the entry-point group (each once per process)."""
    global _loaded
    if not _loaded:
        _loaded = True
        specs = importlib.import_module(_BUILTIN).BUILTIN_SPECS
        registry.load_specs(
            _add, specs, ENTRY_POINT_GROUP, entry_points,
            table=_SPECS, key=lambda s: s.kind, spec_type=RankerSpec,
        )  # fmt: skip


def register_ranker(spec: RankerSpec) -> None:
    """Add a ranker kind; ValueError when the kind is taken (built-in or registered)."""
    if not isinstance(spec, RankerSpec):
        raise TypeError(f"register_ranker takes a RankerSpec, got {type(spec).__name__}")
    _load()
    _add(spec)


def ranker_kinds() -> list[str]:
    """Every registered kind, built-in ones first, in the order they were registered."""
    _load()
    return list(_SPECS)


def ranker_spec(kind: str) -> RankerSpec:
    """The kind's spec; ConfigError (one line naming the known kinds) when unknown."""
    _load()
    unknown = "unknown model {key!r}; expected one of {registered}"
    return registry.lookup(_SPECS, kind, unknown, ENTRY_POINT_GROUP)


def ranker_ref(spec: RankerSpec, ref: str) -> Callable[..., Any]:
    """`module:function` of `spec`, imported now; a missing module names the extra."""
    try:
        return registry.import_ref(ref)
    except ImportError as err:
        raise ConfigError(
            f"model {spec.kind!r} cannot be loaded ({err}): {spec.install_hint}"
        ) from None
    except AttributeError:
        module, _, attr = ref.partition(":")
        raise ConfigError(f"model {spec.kind!r}: {module} has no {attr!r}") from None
