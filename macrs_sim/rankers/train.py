"""Train a ranker on a split, or load it from the checkpoint cache (`models train`)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from macrs_sim.data.splits import Interactions, Split
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.base import Arrays, CheckpointedRanker, ItemRanker
from macrs_sim.rankers.builtin import BUILTIN_SPECS
from macrs_sim.rankers.cache import (
    cache_key,
    checkpoint_path,
    data_identity,
    interactions_digest,
    read_checkpoint,
    write_checkpoint,
)  # fmt: skip
from macrs_sim.rankers.memory import check_fits
from macrs_sim.rankers.params import RankerParams
from macrs_sim.rankers.registry import ranker_ref, ranker_spec

# The built-in kinds; `registry.ranker_kinds()` adds those registered by code or entry point.
MODEL_KINDS = tuple(spec.kind for spec in BUILTIN_SPECS)
RECSYS_HINT = "pip install 'macrs-sim[recsys]'"


@dataclass(frozen=True)
class TrainedRanker:
    ranker: ItemRanker
    checkpoint: Path
    cache_hit: bool
    # How the checkpoint was made: train_seconds, best_epoch, best_val_ndcg, epochs_run ...
    record: dict[str, Any]


def check_kind(kind: str) -> str:
    """A registered ranker kind; ConfigError (one line naming the known kinds) otherwise."""
    return ranker_spec(kind).kind


def params_model(kind: str) -> type[RankerParams]:
    """The kind's hyperparameter model; a kind whose `requires` are absent (torch) fails."""
    spec = ranker_spec(kind)
    missing = spec.missing()
    if missing:
        raise ConfigError(f"model {kind!r} needs {', '.join(missing)}: {spec.install_hint}")
    return spec.params


def params_error(what: str, err: ValidationError, sep: str = " ") -> ConfigError:
    """A validation error as one line, `WHAT FIELD: message`; a check across fields (no
    location) names its field first in its own message ("heads: 3 does not divide ...")."""
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    if not where:
        return ConfigError(f"{what}{sep}{first['msg'].removeprefix('Value error, ')}")
    return ConfigError(f"{what}{sep}{where}: {first['msg']}")


def option_params(model: type[RankerParams] | str, values: Mapping[str, Any]) -> RankerParams:
    """A system option holding ranker parameters (`ranker_params`), checked when the
    scenario is read: ValueError `FIELD: message` for the option's field validator. Needs
    no torch (a missing torch is the system's `extra`, named when it is built)."""
    if isinstance(model, str):
        model = ranker_spec(model).params
    try:
        return model.model_validate(dict(values), strict=False)
    except ValidationError as err:
        raise ValueError(str(params_error("", err, sep=""))) from None


def make_params(kind: str, overrides: Mapping[str, str]) -> RankerParams:
    """Hyperparameters: the model's defaults with `overrides` (strings, validated)."""
    model = params_model(kind)
    try:
        return model.model_validate(dict(overrides), strict=False)
    except ValidationError as err:
        raise params_error(f"{kind} parameter", err) from None


def _fit(
    kind: str, data: Interactions, split: Split, params: Any, progress: Any
) -> CheckpointedRanker:
    spec = ranker_spec(kind)
    ranker = ranker_ref(spec, spec.train)(data.item_ids, split, params, progress)
    if not isinstance(ranker, CheckpointedRanker):
        raise TypeError(f"ranker {kind!r}: {spec.train} returned {type(ranker).__name__},"
                        " not a CheckpointedRanker (kind, item_ids, score, arrays)")  # fmt: skip
    return ranker


def _load(kind: str, item_ids: tuple[str, ...], arrays: Arrays, params: Any) -> ItemRanker:
    spec = ranker_spec(kind)
    ranker: ItemRanker = ranker_ref(spec, spec.load)(item_ids, arrays, params)
    return ranker


def stop_reason(record: Mapping[str, Any], params: BaseModel) -> str | None:
    """How an epoch-trained model's training ended: "early_stopping", "epoch_limit" or None.

    Records written before the reason was stored: the epoch limit when every epoch ran.
    """
    if "stopped" in record:
        return str(record["stopped"])
    if "epochs_run" not in record:
        return None
    limit = getattr(params, "epochs", None)
    return "epoch_limit" if record["epochs_run"] == limit else "early_stopping"


def _record(ranker: ItemRanker, seconds: float) -> dict[str, Any]:
    summary = getattr(ranker, "summary", None)
    out: dict[str, Any] = {"train_seconds": round(seconds, 3)}
    if summary is not None:
        out |= {
            "best_epoch": summary.best_epoch,
            "best_val_ndcg": summary.best_val_ndcg,
            "epochs_run": summary.epochs_run,
            "stopped": "early_stopping" if summary.stopped_early else "epoch_limit",
            "losses": summary.losses,
            "val_ndcgs": summary.val_ndcgs,
            "epoch_ends": summary.epoch_ends,
        }
    return out


def train_ranker(
    kind: str, data: Interactions, split: Split, params: BaseModel, cache_dir: Path,
    progress: Any = None,
) -> TrainedRanker:  # fmt: skip
    """Load the cached checkpoint for these inputs, or train, save and return it."""
    digest = interactions_digest(data)
    identity = data_identity(data, digest)
    path = checkpoint_path(cache_dir, kind, cache_key(kind, params, identity, split.key))
    cached = read_checkpoint(path)
    if cached is not None:
        arrays, record = cached
        return TrainedRanker(_load(kind, data.item_ids, arrays, params), path, True, record)
    check_fits(kind, params, len(data.item_ids))
    started = time.perf_counter()
    ranker = _fit(kind, data, split, params, progress)
    record = _record(ranker, time.perf_counter() - started)
    record |= {"kind": kind, "dataset": data.fingerprint, "split": split.key}
    record["interactions"] = digest
    record["params"] = params.model_dump(mode="json")
    write_checkpoint(path, ranker.arrays(), record)
    return TrainedRanker(ranker, path, False, record)
