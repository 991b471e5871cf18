"""ToolRec's retrieval tools: training time of both stages and what conditioning does; prints JSON.

Datasets: the demo (332 films, 400 synthetic users) and the ~100k-interaction
synthetic MovieLens-format release of bench_rankers.py (its titles carry years,
so it has a decade pattern; every film is a Drama, so its genre pattern is one value).
Per stage: seconds, epochs, the epoch with the best validation NDCG@10; per
pattern: test HR@10 / NDCG@10 (leave-one-out, full ranking) beside the frozen
backbone's, and the share of each test user's top 10 that shares a value of the
pattern with their last item (conditioned vs the backbone alone).

    nice -n 10 python benchmarks/bench_toolrec.py [--datasets demo,synthetic] [--tune-epochs 50]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

import macrs_sim.rankers  # noqa: F401  (sets OMP_WAIT_POLICY before torch loads)
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.movielens import prepare_movielens
from macrs_sim.data.splits import EvalCase, interactions_of, leave_one_out
from macrs_sim.rankers.attribute_values import AttributeTable
from macrs_sim.rankers.base import ItemRanker
from macrs_sim.rankers.evaluate import ranking_metrics, target_ranks
from macrs_sim.rankers.torch.toolrec import ToolRecParams
from macrs_sim.rankers.torch.toolrec_train import train_toolrec

sys.path.insert(0, str(Path(__file__).parent))
from bench_rankers import write_release  # noqa: E402


def shared_value_share(ranker: ItemRanker, table: AttributeTable, cases: list[EvalCase]) -> float:
    """Mean share of the top 10 that has a (known) value in common with the last item."""
    scores = ranker.score([c.history for c in cases])
    top = np.argsort(-scores, axis=1, kind="stable")[:, :10]
    rows = table.rows  # catalog item i is row i + 1; 0 pad, 1 unknown
    hits = []
    for case, best in zip(cases, top, strict=True):
        last = {v for v in rows[case.history[-1] + 1] if v > 1}
        hits.append(np.mean([bool(last & set(rows[i + 1].tolist())) for i in best]))
    return round(float(np.mean(hits)), 4)


def _metrics(ranker: ItemRanker, cases: list[EvalCase]) -> dict[str, float]:
    found = ranking_metrics(target_ranks(ranker, cases), [10])
    return {k: round(v, 4) for k, v in found.items() if k != "MRR"}


def _stage(rec: dict[str, Any]) -> dict[str, Any]:
    return {"train_seconds": rec["train_seconds"], "epochs_run": rec["epochs_run"],
            "best_epoch": rec["best_epoch"],
            "seconds_to_best_epoch": rec["epoch_ends"][rec["best_epoch"] - 1],
            "best_val_ndcg10": round(rec["best_val_ndcg"], 4)}  # fmt: skip


def bench(dataset_arg: str, params: ToolRecParams, cache: Path) -> dict[str, Any]:
    cfg = DataConfig(dataset=dataset_arg)
    dataset = open_dataset(cfg)
    data = interactions_of(dataset, cfg)
    split = leave_one_out(data)
    started = time.perf_counter()
    t = train_toolrec(data, dataset, cache, params, split)
    total = round(time.perf_counter() - started, 3)
    cases = list(split.test)
    backbone = t.backbone.ranker
    out: dict[str, Any] = {
        "dataset": {"name": data.dataset_name, "users": len(data.sequences),
                    "items": data.n_items, "interactions": data.n_interactions},
        "wall_seconds_both_stages": total,
        "backbone_sasrec": {**_stage(t.backbone.record), "test": _metrics(backbone, cases)},
        "attribute_encoders_seconds": t.record["train_seconds"],
        "attributes": {},
    }  # fmt: skip
    for attr, rec in t.record["attributes"].items():
        table = t.retriever.tables[attr]
        view = t.retriever.view(attr)
        out["attributes"][attr] = {
            **_stage(rec), "values": len(table.vocabulary), "test": _metrics(view, cases),
            "top10_shares_last_items_value": shared_value_share(view, table, cases),
            "backbone_top10_shares_last_items_value": shared_value_share(backbone, table, cases),
        }  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--datasets", default="demo,synthetic")
    parser.add_argument("--tune-epochs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    params = ToolRecParams(seed=args.seed, tune_epochs=args.tune_epochs)
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in args.datasets.split(","):
            source = "demo"
            if name == "synthetic":
                n = write_release(work / "ml-synthetic", 600, 9000, 167, args.seed)
                prepare_movielens(work / "ml-synthetic", work / "synthetic.sqlite")
                source = str(work / "synthetic.sqlite")
                results["synthetic_interactions_written"] = n
            results[name] = bench(source, params, work / f"cache-{name}")
    import torch

    results["machine"] = {"cpu_count": os.cpu_count(), "torch_threads": torch.get_num_threads(),
                          "loadavg_1min": round(os.getloadavg()[0], 2)}  # fmt: skip
    results["params"] = params.model_dump(mode="json")
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
