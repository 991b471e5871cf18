"""`data prepare` of each domain's loader at scale: rows per second and peak memory; JSON.

For each loader (Amazon 2014, 2018 and 2023, Yelp, Steam), synthetic files in the real
format are written (made-up ids and titles: no real row), then `macrs-sim data prepare
<kind>` runs in a subprocess whose peak resident memory is read from the kernel
(`wait4`'s ru_maxrss). The target: 10 million reviews under 1 GiB peak.

    python benchmarks/bench_prepare_domains.py [--rows 1000000 10000000] [--only amazon-2018]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

ITEMS_PER_ROW = 0.05  # one item per 20 reviews: Amazon 5-core categories are about so
USERS_PER_ROW = 0.1
WORDS = ["gel", "cream", "serum", "lamp", "cable", "pizza", "grill", "quest", "saga", "blue"]


def _title(rng: random.Random, n: int) -> str:
    return f"{rng.choice(WORDS).title()} {rng.choice(WORDS).title()} No. {n}"


def _amazon_2014(folder: Path, rows: int, rng: random.Random) -> tuple[str, Path]:
    items = max(1, int(rows * ITEMS_PER_ROW))
    with open(folder / "meta_Bench.json", "w") as f:
        for i in range(items):
            row = {
                "asin": f"A{i:09d}",
                "title": _title(rng, i),
                "brand": rng.choice(WORDS),
                "categories": [["Bench", rng.choice(WORDS)]],
                "price": round(rng.uniform(1, 200), 2),
            }
            f.write(repr(row) + "\n")  # a Python literal, as the 2014 release writes them
    _reviews(folder / "reviews_Bench_5.json", rows, rng, items, lambda u, i, r, t: {
        "reviewerID": u, "asin": i, "overall": r, "unixReviewTime": t, "reviewText": "fine",
        "summary": "ok"})  # fmt: skip
    return "amazon", folder / "reviews_Bench_5.json"


def _amazon_2018(folder: Path, rows: int, rng: random.Random) -> tuple[str, Path]:
    items = max(1, int(rows * ITEMS_PER_ROW))
    with open(folder / "meta_Bench.json", "w") as f:
        for i in range(items):
            row = {"asin": f"A{i:09d}", "title": _title(rng, i), "brand": rng.choice(WORDS),
                   "category": ["Bench", rng.choice(WORDS)], "price": f"${rng.uniform(1, 200):.2f}",
                   "feature": ["light"], "description": ["A thing."]}  # fmt: skip
            f.write(json.dumps(row) + "\n")
    _reviews(folder / "Bench_5.json", rows, rng, items, lambda u, i, r, t: {
        "overall": r, "verified": True, "reviewerID": u, "asin": i, "unixReviewTime": t,
        "reviewText": "fine", "summary": "ok"})  # fmt: skip
    return "amazon", folder / "Bench_5.json"


def _amazon_2023(folder: Path, rows: int, rng: random.Random) -> tuple[str, Path]:
    items = max(1, int(rows * ITEMS_PER_ROW))
    with open(folder / "meta_Bench.jsonl", "w") as f:
        for i in range(items):
            row = {"parent_asin": f"A{i:09d}", "title": _title(rng, i), "store": rng.choice(WORDS),
                   "main_category": "Bench", "categories": ["Bench", rng.choice(WORDS)],
                   "features": [], "description": [], "price": round(rng.uniform(1, 200), 2),
                   "details": {}}  # fmt: skip
            f.write(json.dumps(row) + "\n")
    _reviews(folder / "Bench.jsonl", rows, rng, items, lambda u, i, r, t: {
        "user_id": u, "parent_asin": i, "asin": i, "rating": r, "timestamp": t * 1000,
        "text": "fine", "title": "ok"})  # fmt: skip
    return "amazon", folder / "Bench.jsonl"


def _yelp(folder: Path, rows: int, rng: random.Random) -> tuple[str, Path]:
    items = max(1, int(rows * ITEMS_PER_ROW))
    with open(folder / "yelp_academic_dataset_business.json", "w") as f:
        for i in range(items):
            row = {"business_id": f"B{i:09d}", "name": _title(rng, i), "city": "Tempe",
                   "state": "AZ", "stars": 4.0, "review_count": 5, "is_open": 1,
                   "attributes": {"RestaurantsPriceRange2": "2"},
                   "categories": "Restaurants, Pizza"}  # fmt: skip
            f.write(json.dumps(row) + "\n")
    start = 1_500_000_000
    with open(folder / "yelp_academic_dataset_review.json", "w") as f:
        for n, (u, i, r, t) in enumerate(_rows(rows, rng, items, prefix="B")):
            date = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(start + t % 10**8))
            f.write(json.dumps({"review_id": f"R{n}", "user_id": u, "business_id": i,
                                "stars": r, "date": date, "text": "fine"}) + "\n")  # fmt: skip
    return "yelp", folder


def _steam(folder: Path, rows: int, rng: random.Random) -> tuple[str, Path]:
    items = max(1, int(rows * ITEMS_PER_ROW))
    with open(folder / "steam_games.json", "w") as f:
        for i in range(items):
            row = {"id": f"{i}", "app_name": _title(rng, i), "genres": ["Action"],
                   "tags": ["Indie"], "developer": "Dev", "release_date": "2016-05-01",
                   "price": 9.99}  # fmt: skip
            f.write(repr(row) + "\n")
    with open(folder / "steam_reviews.json", "w") as f:
        for u, i, _, t in _rows(rows, rng, items, prefix=""):
            date = time.strftime("%Y-%m-%d", time.gmtime(1_400_000_000 + t % 10**8))
            f.write(repr({"username": u, "product_id": i, "date": date, "hours": 1.5,
                          "text": "fun"}) + "\n")  # fmt: skip
    return "steam", folder


def _rows(rows: int, rng: random.Random, items: int, prefix: str = "A") -> Iterator[tuple]:
    users = max(1, int(rows * USERS_PER_ROW))
    for n in range(rows):
        item = rng.randrange(items)
        item_id = f"{prefix}{item:09d}" if prefix else str(item)
        yield f"U{rng.randrange(users)}", item_id, float(rng.randint(1, 5)), 1_300_000_000 + n


def _reviews(path: Path, rows: int, rng: random.Random, items: int,
             shape: Callable[[str, str, float, int], dict[str, object]]) -> None:  # fmt: skip
    with open(path, "w") as f:
        _write_rows(f, rows, rng, items, shape)


def _write_rows(f: TextIO, rows: int, rng: random.Random, items: int,
                shape: Callable[[str, str, float, int], dict[str, object]]) -> None:  # fmt: skip
    for u, i, r, t in _rows(rows, rng, items):
        f.write(json.dumps(shape(u, i, r, t)) + "\n")


FORMATS = {
    "amazon-2014": _amazon_2014, "amazon-2018": _amazon_2018, "amazon-2023": _amazon_2023,
    "yelp": _yelp, "steam": _steam,
}  # fmt: skip


def _prepare(kind: str, source: Path, out: Path) -> dict[str, object]:
    command = [sys.executable, "-m", "macrs_sim.cli", "data", "prepare", kind, str(source),
               "--out", str(out)]  # fmt: skip
    started = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    stdout, stderr = (
        proc.stdout.read() if proc.stdout else "",
        proc.stderr.read() if proc.stderr else "",
    )
    return {"rc": os.waitstatus_to_exitcode(status), "wall_s": round(wall, 1),
            "peak_rss_mib": round(usage.ru_maxrss / 1024, 1), "printed": stdout.splitlines()[:3],
            "error": stderr.strip()[-300:] or None}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--only", choices=sorted(FORMATS), nargs="+", default=sorted(FORMATS))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    results = []
    for name in args.only:
        for rows in args.rows:
            with tempfile.TemporaryDirectory(prefix="bench-prepare-") as tmp:
                folder = Path(tmp)
                written = time.perf_counter()
                kind, source = FORMATS[name](folder, rows, random.Random(args.seed))
                write_s = time.perf_counter() - written
                got = _prepare(kind, source, folder / "out.sqlite")
                got |= {"format": name, "rows": rows, "write_files_s": round(write_s, 1)}
                got["rows_per_s"] = round(rows / got["wall_s"]) if got["wall_s"] else None  # type: ignore[operator]
                results.append(got)
                print(json.dumps(got), file=sys.stderr, flush=True)
    print(json.dumps({"cpus": os.cpu_count(), "results": results}, indent=2))


if __name__ == "__main__":
    main()
