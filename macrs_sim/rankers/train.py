"""Train a ranker on a split, or load it from the checkpoint cache (`models train`)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from macrs_sim.data.splits import Interactions, Split
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.base import Arrays, CheckpointedRanker, ItemRanker
from macrs_sim.rankers.cache import (
    cache_key,
    checkpoint_path,
    data_identity,
    interactions_digest,
    read_checkpoint,
    write_checkpoint,
)  # fmt: skip
from macrs_sim.rankers.itemcf import ItemCFParams, ItemCFRanker
from macrs_sim.rankers.popularity import PopularityRanker

MODEL_KINDS = ("popularity", "itemcf", "bpr", "sasrec", "bert4rec")
TORCH_KINDS = ("bpr", "sasrec", "bert4rec")
RECSYS_HINT = "pip install 'macrs-sim[recsys]'"


class PopularityParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class TrainedRanker:
    ranker: ItemRanker
    checkpoint: Path
    cache_hit: bool
    # How the checkpoint was made: train_seconds, best_epoch, best_val_ndcg, epochs_run ...
    record: dict[str, Any]


def check_kind(kind: str) -> str:
    if kind not in MODEL_KINDS:
        raise ConfigError(f"unknown model {kind!r}; expected one of {', '.join(MODEL_KINDS)}")
    return kind


def params_model(kind: str) -> type[BaseModel]:
    if check_kind(kind) == "popularity":
        return PopularityParams
    if kind == "itemcf":
        return ItemCFParams
    try:
        if kind == "bpr":
            from macrs_sim.rankers.bpr import BPRParams

            return BPRParams
        if kind == "bert4rec":
            from macrs_sim.rankers.torch.bert4rec import BERT4RecParams

            return BERT4RecParams
        from macrs_sim.rankers.torch.sasrec import SASRecParams

        return SASRecParams
    except ImportError:
        raise ConfigError(f"model {kind!r} needs torch: {RECSYS_HINT}") from None


def make_params(kind: str, overrides: Mapping[str, str]) -> BaseModel:
    """Hyperparameters: the model's defaults with `overrides` (strings, validated)."""
    model = params_model(kind)
    try:
        return model.model_validate(dict(overrides), strict=False)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "params"
        raise ConfigError(f"{kind} parameter {where}: {first['msg']}") from None


def _fit(
    kind: str, data: Interactions, split: Split, params: Any, progress: Any
) -> CheckpointedRanker:
    if kind == "popularity":
        return PopularityRanker.fit(data.item_ids, split.train)
    if kind == "itemcf":
        return ItemCFRanker.fit(data.item_ids, split.train, params)
    if kind == "bpr":
        from macrs_sim.rankers.bpr import BPRRanker

        return BPRRanker.fit(data.item_ids, split.train, split.validation, params, progress)
    if kind == "bert4rec":
        from macrs_sim.rankers.torch.bert4rec import BERT4RecRanker

        return BERT4RecRanker.fit(data.item_ids, split.train, split.validation, params, progress)
    from macrs_sim.rankers.torch.sasrec import SASRecRanker

    return SASRecRanker.fit(data.item_ids, split.train, split.validation, params, progress)


def _load(kind: str, item_ids: tuple[str, ...], arrays: Arrays, params: Any) -> ItemRanker:
    if kind == "popularity":
        return PopularityRanker.from_arrays(item_ids, arrays)
    if kind == "itemcf":
        return ItemCFRanker.from_arrays(item_ids, arrays)
    if kind == "bpr":
        from macrs_sim.rankers.bpr import BPRRanker

        return BPRRanker.from_arrays(item_ids, arrays, params)
    if kind == "bert4rec":
        from macrs_sim.rankers.torch.bert4rec import BERT4RecRanker

        return BERT4RecRanker.from_arrays(item_ids, arrays, params)
    from macrs_sim.rankers.torch.sasrec import SASRecRanker

    return SASRecRanker.from_arrays(item_ids, arrays, params)


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
    started = time.perf_counter()
    ranker = _fit(kind, data, split, params, progress)
    record = _record(ranker, time.perf_counter() - started)
    record |= {"kind": kind, "dataset": data.fingerprint, "split": split.key}
    record["interactions"] = digest
    record["params"] = params.model_dump(mode="json")
    write_checkpoint(path, ranker.arrays(), record)
    return TrainedRanker(ranker, path, False, record)
