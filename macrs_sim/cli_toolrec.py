"""`macrs-sim models train toolrec DATASET`: the SASRec backbone, then one attribute encoder each."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from macrs_sim.errors import ConfigError


def _params(overrides: dict[str, str], seed: int | None) -> Any:
    from pydantic import ValidationError

    from macrs_sim.rankers.train import RECSYS_HINT

    try:
        from macrs_sim.rankers.torch.toolrec import ToolRecParams
    except ImportError:
        raise ConfigError(f"model 'toolrec' needs torch: {RECSYS_HINT}") from None
    values = {"seed": str(seed), **overrides} if seed is not None else overrides
    try:
        return ToolRecParams.model_validate(values, strict=False)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "params"
        raise ConfigError(f"toolrec parameter {where}: {first['msg']}") from None


def _stage_line(name: str, rec: dict[str, Any]) -> str:
    return (f"  {name}: best validation NDCG@10 {rec['best_val_ndcg']:.4f} at epoch "
            f"{rec['best_epoch']} of {rec['epochs_run']}")  # fmt: skip


def train_toolrec_command(
    args: argparse.Namespace, overrides: dict[str, str],
    progress: Callable[[bool], AbstractContextManager[Any]],
) -> int:  # fmt: skip
    from macrs_sim.cli_models import _cache_dir, _split
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import open_dataset
    from macrs_sim.data.splits import interactions_of
    from macrs_sim.rankers.torch.toolrec_train import train_toolrec

    params = _params(overrides, args.seed)
    cfg = DataConfig(dataset=args.dataset)
    dataset = open_dataset(cfg)
    data = interactions_of(dataset, cfg)
    split = _split(args, data)
    with progress(not args.no_progress) as factory:
        hooks = (lambda name: factory(f"toolrec {name}")) if factory is not None else None
        trained = train_toolrec(data, dataset, _cache_dir(args, data), params, split, hooks)
    backbone, rec = trained.backbone.record, trained.record
    seconds = round(backbone["train_seconds"] + rec["train_seconds"], 3)
    how = "cached (trained" if trained.cache_hit else "trained"
    line = f"{how} toolrec on {data.dataset_name}, {split.name} split, in {seconds} s"
    line += ")" if trained.cache_hit else ""
    cached = ", cached" if trained.backbone.cache_hit else ""
    line += f": sasrec backbone {backbone['train_seconds']} s{cached}"
    line += f", attribute encoders {rec['train_seconds']} s"
    print(line)  # plain print: one unwrapped line whatever the terminal width
    print(_stage_line("sasrec (frozen)", backbone))
    for attr, summary in rec["attributes"].items():
        print(_stage_line(attr, summary))
    print(f"checkpoint: {trained.checkpoint}")
    print(f"backbone checkpoint: {trained.backbone.checkpoint}")
    return 0
