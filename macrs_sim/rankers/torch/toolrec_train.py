"""Train ToolRec's retrieval tools (both stages) or load them from the checkpoint cache.

Stage 1 is `train_ranker("sasrec", ...)`, so the backbone is the very checkpoint
`models train sasrec` makes with the same settings. Stage 2's checkpoint holds only
the attribute encoders, keyed by the dataset fingerprint, a digest of the interactions,
the catalog's attribute values, the split and every hyperparameter (the backbone's
included).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, Split, leave_one_out
from macrs_sim.errors import ConfigError
from macrs_sim.rankers.attribute_values import available_tables, domain_patterns, tables_digest
from macrs_sim.rankers.cache import (
    cache_key,
    checkpoint_path,
    data_identity,
    interactions_digest,
    read_checkpoint,
    write_checkpoint,
)  # fmt: skip
from macrs_sim.rankers.memory import check_fits
from macrs_sim.rankers.torch.loop import ProgressHook, TrainSummary
from macrs_sim.rankers.torch.sasrec import SASRecRanker
from macrs_sim.rankers.torch.toolrec import ToolRecParams, ToolRecRetriever
from macrs_sim.rankers.train import TrainedRanker, train_ranker

KIND = "toolrec"


@dataclass(frozen=True)
class TrainedRetriever:
    retriever: ToolRecRetriever
    backbone: TrainedRanker
    checkpoint: Path
    cache_hit: bool
    # train_seconds (stage 2), and per attribute: best_epoch, best_val_ndcg, losses ...
    record: dict[str, Any]


def _tables(data: Interactions, dataset: Dataset, params: ToolRecParams) -> dict[str, Any]:
    missing = [i for i in data.item_ids if i not in dataset.catalog]
    if missing:
        raise ConfigError(f"toolrec: item {missing[0]!r} of the interactions is not in the catalog")
    domain, names = dataset.domain, tuple(domain_patterns(dataset.domain))
    unknown = [a for a in params.attributes or () if a not in names]
    if unknown:
        raise ConfigError(f"toolrec: {unknown[0]!r} is no attribute pattern of {domain.plural}; "
                          f"patterns: {', '.join(names)}")  # fmt: skip
    items = [dataset.catalog[i] for i in data.item_ids]
    tables = available_tables(items, params.attributes, params.min_items, domain)
    wanted = params.attributes or names
    if params.attributes is not None and len(tables) < len(wanted):
        lacking = [a for a in wanted if a not in tables]
        has = ", ".join(available_tables(items, None, params.min_items, domain)) or "none"
        raise ConfigError(
            f"toolrec: the catalog of {dataset.name!r} has no {'/'.join(lacking)} values "
            f"(shared by {params.min_items}+ items); patterns it has: {has}"
        )
    if not tables:
        raise ConfigError(f"toolrec: the catalog of {dataset.name!r} has no attribute values")
    return tables


def _summary_record(s: TrainSummary) -> dict[str, Any]:
    return {"best_epoch": s.best_epoch, "best_val_ndcg": s.best_val_ndcg,
            "epochs_run": s.epochs_run, "train_seconds": round(s.train_seconds, 3),
            "stopped": "early_stopping" if s.stopped_early else "epoch_limit",
            "losses": s.losses, "val_ndcgs": s.val_ndcgs, "epoch_ends": s.epoch_ends}  # fmt: skip


def train_toolrec(
    data: Interactions, dataset: Dataset, cache_dir: Path, params: ToolRecParams,
    split: Split | None = None, progress: Callable[[str], ProgressHook | None] | None = None,
) -> TrainedRetriever:  # fmt: skip
    """Stage 1 (cached SASRec) then stage 2 (cached attribute encoders), each trained if absent."""
    split = split or leave_one_out(data)
    tables = _tables(data, dataset, params)
    check_fits(KIND, params, len(data.item_ids))
    hook = progress or (lambda _name: None)
    backbone = train_ranker("sasrec", data, split, params.backbone(), cache_dir, hook("sasrec"))
    assert isinstance(backbone.ranker, SASRecRanker)
    digest = interactions_digest(data)
    identity = f"{data_identity(data, digest)}|attributes={tables_digest(tables)}"
    path = checkpoint_path(cache_dir, KIND, cache_key(KIND, params, identity, split.key))
    cached = read_checkpoint(path)
    if cached is not None:
        arrays, saved = cached
        loaded = ToolRecRetriever.from_arrays(backbone.ranker, tables, arrays, params)
        return TrainedRetriever(loaded, backbone, path, True, saved)
    started = time.perf_counter()
    hooks = {attr: hook(attr) for attr in tables}
    retriever = ToolRecRetriever.fit(
        backbone.ranker, tables, split.train, split.validation, params, hooks
    )
    record: dict[str, Any] = {"train_seconds": round(time.perf_counter() - started, 3)}
    record["attributes"] = {a: _summary_record(s) for a, s in retriever.summaries.items()}
    record["vocabulary_sizes"] = {a: len(t.vocabulary) for a, t in tables.items()}
    record |= {"kind": KIND, "dataset": data.fingerprint, "split": split.key,
               "interactions": digest,
               "params": params.model_dump(mode="json"),
               "backbone_checkpoint": backbone.checkpoint.name}  # fmt: skip
    write_checkpoint(path, retriever.arrays(), record)
    return TrainedRetriever(retriever, backbone, path, False, record)
