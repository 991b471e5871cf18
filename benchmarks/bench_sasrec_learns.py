"""Does SASRec at its default settings learn? NDCG@10 beside popularity and item-CF; prints JSON.

Datasets: the demo (400 synthetic users, 332 films, genre tastes, no order) and
`drift`, a synthetic release of ml-latest-small's shape: ~610 users with a long-tailed
number of ratings (at least 20), a catalog with a Zipf head, tastes over topics that
drift session by session, and films of a topic often watched in their release order.
Who reads the last few films predicts the next topic and its neighbours; popularity
sees only the head; item-CF sees co-occurrence but not order. Each model is trained
by `evaluate_models` (what `eval sequential` runs) on the leave-one-out split and
ranks all items.

    nice -n 10 python benchmarks/bench_sasrec_learns.py [--datasets demo,drift] [--seeds 0,1]
        [--models sasrec,bert4rec] [--set patience=5 --set min_epochs=1 --set smoothing=1]
        (--set: SASRec overrides, e.g. the old early stopping; --successor: share of sequels)
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import macrs_sim.rankers  # noqa: F401  (sets OMP_WAIT_POLICY before torch loads)
from macrs_sim.data.splits import Interactions, from_pairs, load_interactions
from macrs_sim.rankers.sequential import evaluate_models
from macrs_sim.rankers.train import make_params


def _topic_items(rng: random.Random, n_items: int, topics: int) -> list[list[int]]:
    """Items split over topics of uneven size, each topic's list in release order."""
    sizes = [rng.gammavariate(1.0, 1.0) for _ in range(topics)]
    members: list[list[int]] = [[] for _ in range(topics)]
    for item in range(n_items):
        members[rng.choices(range(topics), sizes)[0]].append(item)
    return [m for m in members if m]


class _World:
    """Items: a global Zipf popularity, topics of uneven size in release order."""

    def __init__(self, rng: random.Random, items: int, topics: int, successor: float) -> None:
        self.successor_share = successor
        order = list(range(items))
        rng.shuffle(order)
        self.pop = [0.0] * items
        for rank, item in enumerate(order):
            self.pop[item] = 1.0 / (rank + 1)
        self.cum = list(itertools.accumulate(self.pop))
        self.topics = _topic_items(rng, items, topics)
        self.where = {item: (t, at) for t, m in enumerate(self.topics) for at, item in enumerate(m)}

    def successor(self, last: int, seen: set[int]) -> int | None:
        """The next unseen film of the last one's topic, up to 3 releases on."""
        t, at = self.where[last]
        return next((i for i in self.topics[t][at + 1 : at + 4] if i not in seen), None)

    def mainstream(self, rng: random.Random, seen: set[int]) -> int | None:
        """A film drawn by global popularity (what everyone watches)."""
        item = rng.choices(range(len(self.pop)), cum_weights=self.cum)[0]
        return None if item in seen else item

    def in_topic(self, rng: random.Random, topic: int, seen: set[int]) -> int | None:
        pool = [i for i in self.topics[topic] if i not in seen]
        return rng.choices(pool, [self.pop[i] for i in pool])[0] if pool else None


def _step(rng: random.Random, world: _World, topic: int, out: list[int], seen: set[int]) -> int:
    """One film: a successor of the last (often), else mainstream (40%), else in the topic."""
    follow = out and rng.random() < world.successor_share
    item = world.successor(out[-1], seen) if follow else None
    if item is None and rng.random() < 0.4:
        item = world.mainstream(rng, seen)
    if item is None:
        item = world.in_topic(rng, topic, seen)
    if item is None:  # topic exhausted: any unseen film
        item = next(i for i in range(len(world.pop)) if i not in seen)
    return item


def _user(rng: random.Random, world: _World) -> list[int]:
    """Sessions of ~5 films; a session keeps the last topic or (30%) draws one from the taste."""
    length = min(1000, 20 + int(rng.lognormvariate(math.log(50), 1.0)), len(world.pop))
    taste = [rng.gammavariate(0.3, 1.0) + 1e-9 for _ in world.topics]
    seen: set[int] = set()
    out: list[int] = []
    topic = rng.choices(range(len(taste)), taste)[0]
    while len(out) < length:
        if rng.random() < 0.3:
            topic = rng.choices(range(len(taste)), taste)[0]
        for _ in range(1 + int(rng.expovariate(1 / 4))):
            item = _step(rng, world, topic, out, seen)
            seen.add(item)
            out.append(item)
    return out[:length]


def drift_data(
    users: int, items: int, topics: int, seed: int, successor: float = 0.05
) -> Interactions:
    rng = random.Random(seed)
    world = _World(rng, items, topics, successor)
    ids = [f"m{i}" for i in range(items)]
    rows = [(f"u{u:04d}", ids[i]) for u in range(users) for i in _user(rng, world)]
    fingerprint = f"drift|{users}|{items}|{topics}|{seed}|{successor}"
    return from_pairs("drift", fingerprint, ids, rows)


TRAINED = ("sasrec", "bert4rec", "bpr")


def run_dataset(
    data: Interactions, seeds: list[int], sets: dict[str, str], cache: Path, kinds: list[str]
) -> Any:
    rows: dict[str, Any] = {}
    params = {"popularity": make_params("popularity", {}), "itemcf": make_params("itemcf", {})}
    for kind, row in _evaluated(data, params, cache).items():
        rows[kind] = row
    for kind in kinds:  # `sets` are SASRec's; the others train at their defaults
        for seed in seeds:
            given = {**(sets if kind == "sasrec" else {}), "seed": str(seed)}
            model = {kind: make_params(kind, given)}
            rows[f"{kind} seed {seed}"] = _evaluated(data, model, cache)[kind]
    lengths = sorted(len(s) for s in data.sequences.values())
    shape = {"users": len(lengths), "items": data.n_items, "interactions": sum(lengths),
             "median_length": lengths[len(lengths) // 2]}  # fmt: skip
    return {"dataset": shape, "models": rows}


def _evaluated(data: Interactions, params: dict[str, Any], cache: Path) -> dict[str, Any]:
    out = {}
    for row in evaluate_models(data, params, [10], cache):
        entry: dict[str, Any] = {k: round(v, 4) for k, v in row.metrics.items()}
        entry["train_seconds"] = round(row.train_seconds, 1)
        out[row.model] = entry
    for name, entry in out.items():
        ckpt = next(cache.glob(f"{name}-*.npz"), None) if name in TRAINED else None
        if ckpt is not None:
            entry |= _stopping(ckpt)
            ckpt.unlink()  # the next seed trains afresh
    return out


def _stopping(ckpt: Path) -> dict[str, Any]:
    from macrs_sim.rankers.cache import read_checkpoint

    loaded = read_checkpoint(ckpt)
    rec = loaded[1] if loaded else {}
    vals = [round(v, 4) for v in rec.get("val_ndcgs", [])]
    return {"best_epoch": rec.get("best_epoch"), "epochs_run": rec.get("epochs_run"),
            "best_val_ndcg10": round(rec.get("best_val_ndcg", math.nan), 4),
            "val_ndcg10_by_epoch": vals}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--datasets", default="demo,drift")
    parser.add_argument("--seeds", default="0,1")
    parser.add_argument("--users", type=int, default=610)
    parser.add_argument("--items", type=int, default=9000)
    parser.add_argument("--topics", type=int, default=40)
    parser.add_argument("--data-seed", type=int, default=0)
    parser.add_argument("--successor", type=float, default=0.05, help="share of sequels")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--models", default="sasrec", help="epoch-trained kinds, per seed")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s]
    sets = dict(pair.split("=", 1) for pair in args.set)
    out: dict[str, Any] = {"sasrec_overrides": sets, "cpu_count": os.cpu_count()}
    for name in args.datasets.split(","):
        started = time.perf_counter()
        shape = (args.users, args.items, args.topics, args.data_seed, args.successor)
        data = load_interactions("demo") if name == "demo" else drift_data(*shape)
        with tempfile.TemporaryDirectory() as tmp:
            out[name] = run_dataset(data, seeds, sets, Path(tmp), args.models.split(","))
        out[name]["seconds"] = round(time.perf_counter() - started, 1)
        out["loadavg_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
