"""Prepare a synthetic MovieLens-format release, then open it and draw samples; prints JSON.

The release is made up at the requested size (ml-25m has 162k users, 62k movies, 25M ratings)
in ml-25m's CSV format, so loader speed and memory can be measured without the real data.

    python benchmarks/bench_movielens_prepare.py [--users 10000] [--movies 20000] [--per-user 100]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import tempfile
import time
from pathlib import Path

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import database_dataset
from macrs_sim.data.movielens import prepare_movielens
from macrs_sim.data.samples import build_samples

GENRES = ["Action", "Adventure", "Comedy", "Drama", "Horror", "Romance", "Sci-Fi", "Thriller"]


def write_release(folder: Path, users: int, movies: int, per_user: int, seed: int) -> int:
    rng = random.Random(seed)
    folder.mkdir(parents=True)
    with (folder / "movies.csv").open("w") as f:
        f.write("movieId,title,genres\n")
        for m in range(1, movies + 1):
            genres = "|".join(rng.sample(GENRES, rng.randint(1, 3)))
            f.write(f'{m},"Movie {m}, The ({1950 + m % 70})",{genres}\n')
    # Zipf-like popularity, as in real rating data.
    weights = [1 / (r + 1) ** 0.9 for r in range(movies)]
    n = 0
    with (folder / "ratings.csv").open("w") as f:
        f.write("userId,movieId,rating,timestamp\n")
        for u in range(1, users + 1):
            seen = sorted(set(rng.choices(range(1, movies + 1), weights, k=per_user)))
            for m in seen:
                f.write(f"{u},{m},{rng.randint(1, 10) / 2},{rng.randint(10**9, 2 * 10**9)}\n")
            n += len(seen)
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=10_000)
    ap.add_argument("--movies", type=int, default=20_000)
    ap.add_argument("--per-user", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "ml-25m"
        n = write_release(src, args.users, args.movies, args.per_user, seed=0)
        t0 = time.perf_counter()
        summary = prepare_movielens(src, Path(tmp) / "ml.sqlite")
        t1 = time.perf_counter()
        dataset = database_dataset(summary.database)
        t2 = time.perf_counter()
        random_draw = build_samples(dataset, DataConfig(dataset=str(summary.database)))
        t3 = time.perf_counter()
        cfg = DataConfig(dataset=str(summary.database), sampling="popularity")
        by_bucket = build_samples(dataset, cfg)
        t4 = time.perf_counter()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        json.dumps(
            {
                "ratings": n,
                "users": summary.n_users,
                "movies": summary.n_items,
                "prepare_s": round(t1 - t0, 2),
                "ratings_per_s": round(n / (t1 - t0)),
                "open_dataset_s": round(t2 - t1, 2),
                "draw_100_samples_s": round(t3 - t2, 2),
                "draw_5x20_popularity_s": round(t4 - t3, 2),
                "samples": [len(random_draw), len(by_bucket)],
                "peak_rss_mb": round(rss_mb),
            }
        )
    )


if __name__ == "__main__":
    main()
