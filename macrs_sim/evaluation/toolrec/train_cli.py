"""`macrs-sim models train toolrec`: ToolRec's retrieval tools, both stages, each from the
cache or trained (the SASRec backbone, then each attribute encoder). The toolrec system's
spec names this as its `train_command`."""

from __future__ import annotations

import argparse
from typing import Any

from macrs_sim.errors import ConfigError
from macrs_sim.rankers.cli_options import cache_dir, check_seed, progress_bars, split_of


def _toolrec_params(overrides: dict[str, str], seed: int | None) -> Any:
    import importlib.util

    from pydantic import ValidationError

    from macrs_sim.rankers.params import ToolRecParams
    from macrs_sim.rankers.train import RECSYS_HINT, params_error

    if importlib.util.find_spec("torch") is None:
        raise ConfigError(f"model 'toolrec' needs torch: {RECSYS_HINT}")
    check_seed(seed)
    values = {"seed": str(seed), **overrides} if seed is not None else overrides
    try:
        return ToolRecParams.model_validate(values, strict=False)
    except ValidationError as err:
        raise params_error("toolrec parameter", err) from None


def _toolrec_stage_line(name: str, rec: dict[str, Any]) -> str:
    return (f"  {name}: best validation NDCG@10 {rec['best_val_ndcg']:.4f} at epoch "
            f"{rec['best_epoch']} of {rec['epochs_run']}")  # fmt: skip


def train_toolrec_command(args: argparse.Namespace, overrides: dict[str, str]) -> int:
    """Both stages, each from the cache or trained: the SASRec backbone, then each attribute."""
    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import open_dataset
    from macrs_sim.data.splits import interactions_of
    from macrs_sim.rankers.torch.toolrec_train import train_toolrec

    params = _toolrec_params(overrides, args.seed)
    cfg = DataConfig(dataset=args.dataset)
    dataset = open_dataset(cfg)
    data = interactions_of(dataset, cfg)
    split = split_of(args, data)
    with progress_bars(not args.no_progress) as factory:
        hooks = (lambda name: factory(f"toolrec {name}")) if factory is not None else None
        trained = train_toolrec(data, dataset, cache_dir(args, data), params, split, hooks)
    backbone, rec = trained.backbone.record, trained.record
    seconds = round(backbone["train_seconds"] + rec["train_seconds"], 3)
    how = "cached (trained" if trained.cache_hit else "trained"
    line = f"{how} toolrec on {data.dataset_name}, {split.name} split, in {seconds} s"
    line += ")" if trained.cache_hit else ""
    cached = ", cached" if trained.backbone.cache_hit else ""
    line += f": sasrec backbone {backbone['train_seconds']} s{cached}"
    line += f", attribute encoders {rec['train_seconds']} s"
    print(line)  # plain print: one unwrapped line whatever the terminal width
    print(_toolrec_stage_line("sasrec (frozen)", backbone))
    for attr in trained.retriever.attributes:  # the record's keys come back sorted
        print(_toolrec_stage_line(attr, rec["attributes"][attr]))
    print(f"checkpoint: {trained.checkpoint}")
    print(f"backbone checkpoint: {trained.backbone.checkpoint}")
    return 0
