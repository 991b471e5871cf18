"""Rankers on a synthetic MovieLens-format release with a planted sequential pattern; prints JSON.

Items form chains (item k of a chain is followed by item k + 1); a user walks a
chain for a while, then jumps to another (chains drawn by Zipf popularity), with
some random items in between. Who follows a chain can predict the next item;
popularity cannot, and item-CF sees only co-occurrence, not order.

Measures: training time (and time to the best validation epoch) of every ranker
on the leave-one-out split, its test HR/NDCG/MRR (full ranking), and SASRec's
scoring time per user against a 60k-item catalog and against the dataset's items.

    python benchmarks/bench_rankers.py [--size ml-latest-small|ml-1m] [--users 600]
        [--items 9000] [--per-user 167] [--models sasrec] [--sasrec-epochs 30]

`--size` picks the user/item/interaction counts of a MovieLens release (ml-latest-small:
~600 users, ~9k items, ~100k interactions; ml-1m: 6,040 users, ~3,700 items, ~1M);
explicit counts override it. `--sasrec-epochs` caps SASRec's epochs: a run that reaches the
cap before early stopping says so ("stopped": "epoch_cap").
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import torch

from macrs_sim.data.movielens import prepare_movielens
from macrs_sim.data.splits import leave_one_out, load_interactions
from macrs_sim.rankers.evaluate import ranking_metrics, target_ranks
from macrs_sim.rankers.torch.sasrec import SASRecParams, SASRecRanker
from macrs_sim.rankers.train import MODEL_KINDS, make_params, train_ranker


def user_walk(
    rng: random.Random, chains: int, length: int, n: int, weights: list[float]
) -> list[int]:
    seen: set[int] = set()
    out: list[int] = []
    while len(out) < n:
        chain, pos = rng.choices(range(chains), weights)[0], rng.randrange(length)
        for _ in range(rng.randint(5, 20)):
            item = chain * length + pos
            if rng.random() < 0.1:  # noise: any item
                item = rng.randrange(chains * length)
            if item not in seen:
                seen.add(item)
                out.append(item)
            pos += 1
            if pos == length or len(out) == n:
                break
    return out


def write_release(folder: Path, users: int, items: int, per_user: int, seed: int) -> int:
    rng = random.Random(seed)
    length = 30
    chains = items // length
    weights = [1 / (c + 1) ** 0.7 for c in range(chains)]
    folder.mkdir(parents=True)
    with (folder / "movies.csv").open("w") as f:
        f.write("movieId,title,genres\n")
        for m in range(chains * length):
            f.write(f'{m + 1},"Film {m + 1} ({1950 + m % 70})",Drama\n')
    n = 0
    with (folder / "ratings.csv").open("w") as f:
        f.write("userId,movieId,rating,timestamp\n")
        for u in range(1, users + 1):
            walk = user_walk(
                rng, chains, length, rng.randint(per_user // 2, per_user * 3 // 2), weights
            )
            for t, m in enumerate(walk):
                f.write(f"{u},{m + 1},4.0,{1_000_000 + t}\n")
            n += len(walk)
    return n


def scoring_ms(n_items: int, batch: int, repeats: int = 5) -> dict[str, float]:
    """SASRec (default size, untrained weights) scoring users against n_items items."""
    params = SASRecParams()
    ids = tuple(str(i) for i in range(n_items))
    net = SASRecRanker.build(n_items, params).eval()
    ranker = SASRecRanker(ids, net, torch.device("cpu"))
    rng = random.Random(0)
    hists = [[rng.randrange(n_items) for _ in range(50)] for _ in range(batch)]
    ranker.score(hists[:2])  # warm-up
    started = time.perf_counter()
    for _ in range(repeats):
        ranker.score(hists)
    per_user = (time.perf_counter() - started) / repeats / batch * 1000
    started = time.perf_counter()
    for _ in range(repeats):
        ranker.score(hists[:1])
    single = (time.perf_counter() - started) / repeats * 1000
    return {"items": n_items, "batch": batch, "ms_per_user_in_batch": round(per_user, 3),
            "ms_single_user": round(single, 3)}  # fmt: skip


# (users, items, mean interactions per user) of MovieLens releases.
SIZES = {"ml-latest-small": (600, 9000, 167), "ml-1m": (6040, 3706, 166)}


def overrides(kind: str, args: argparse.Namespace) -> dict[str, str]:
    out = {"seed": str(args.seed)} if kind in ("bpr", "sasrec") else {}
    if kind == "sasrec" and args.sasrec_epochs:
        out["epochs"] = str(args.sasrec_epochs)
    return out


def epoch_facts(rec: dict[str, Any], params: Any) -> dict[str, Any]:
    """Per-epoch time and how training ended, from a torch ranker's training record."""
    ends = rec["epoch_ends"]
    stopped = "early_stopping" if rec["epochs_run"] - rec["best_epoch"] >= params.patience else (
        "epoch_cap")  # fmt: skip
    return {
        "best_epoch": rec["best_epoch"], "epochs_run": rec["epochs_run"], "stopped": stopped,
        "seconds_to_best_epoch": ends[rec["best_epoch"] - 1],
        "seconds_per_epoch": round(ends[-1] / len(ends), 2),
        "best_val_ndcg10": round(rec["best_val_ndcg"], 4),
        "val_ndcg10_by_epoch": [round(v, 4) for v in rec["val_ndcgs"]],
    }  # fmt: skip


def run(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    started = time.perf_counter()
    n = write_release(work / "ml-synthetic", args.users, args.items, args.per_user, args.seed)
    db = work / "synthetic.sqlite"
    prepare_movielens(work / "ml-synthetic", db)
    data = load_interactions(str(db))
    split = leave_one_out(data)
    prepared_s = round(time.perf_counter() - started, 1)
    results: dict[str, Any] = {}
    for kind in args.models.split(","):
        params = make_params(kind, overrides(kind, args))
        trained = train_ranker(kind, data, split, params, work / "cache")
        rec = trained.record
        metrics = ranking_metrics(target_ranks(trained.ranker, split.test), [10, 20])
        entry: dict[str, Any] = {k: round(v, 4) for k, v in metrics.items()}
        entry["train_seconds"] = rec["train_seconds"]
        if "best_epoch" in rec:
            entry |= epoch_facts(rec, params)
        results[kind] = entry
    return {
        "dataset": {
            "size": args.size,
            "users": len(data.sequences),
            "items": data.n_items,
            "interactions": n,
            "generate_and_prepare_seconds": prepared_s,
        },  # fmt: skip
        "machine": {
            "cpu_count": os.cpu_count(),
            "torch_threads": torch.get_num_threads(),
            "loadavg_1min": round(os.getloadavg()[0], 2),
        },  # fmt: skip
        "models": results,
        "scoring": scoring_ms(args.score_items, 256),
        "scoring_at_dataset_items": scoring_ms(data.n_items, 256),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", choices=sorted(SIZES), default="ml-latest-small")
    parser.add_argument("--users", type=int)
    parser.add_argument("--items", type=int)
    parser.add_argument("--per-user", type=int)
    parser.add_argument("--models", default=",".join(MODEL_KINDS))
    parser.add_argument("--sasrec-epochs", type=int, help="cap SASRec's epochs")
    parser.add_argument("--score-items", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    users, items, per_user = SIZES[args.size]
    args.users, args.items = args.users or users, args.items or items
    args.per_user = args.per_user or per_user
    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(run(args, Path(tmp)), indent=2))


if __name__ == "__main__":
    main()
