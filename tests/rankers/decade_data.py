"""A toy catalog and users where the next item always shares the last item's decade.

Users move through runs of 3-6 films of one decade, each run's decade drawn at
random, so which decade comes next is in the last item, not in the user's taste.
A user's last three films are one run: the validation and test targets share the
decade of the item before them. Item ids are shuffled so they say nothing of the decade.
"""

from __future__ import annotations

import functools
import random

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, from_pairs
from macrs_sim.protocol import Item

DECADES = (1950, 1960, 1970, 1980, 1990, 2000)
GENRES = ("Drama", "Comedy", "Horror", "Western")


def decade_catalog(per_decade: int, seed: int) -> Catalog:
    rng = random.Random(seed)
    slots = [d for d in DECADES for _ in range(per_decade)]
    rng.shuffle(slots)
    items = [
        Item(item_id=f"f{n:03d}", title=f"Film {n}", year=decade + rng.randrange(10),
             genres=(rng.choice(GENRES),))
        for n, decade in enumerate(slots)
    ]  # fmt: skip
    return Catalog(items)


def _run_lengths(rng: random.Random, length: int) -> list[int]:
    """Runs of 3-6 items summing to `length` (>= 3): every run, the last included, has 3+."""
    runs: list[int] = []
    left = length
    while left > 6:
        run = rng.randint(3, min(6, left - 3))
        runs.append(run)
        left -= run
    return [*runs, left]


def _walk(rng: random.Random, by_decade: dict[int, list[str]], length: int) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for run in _run_lengths(rng, length):
        pool = [i for i in by_decade[rng.choice(DECADES)] if i not in seen]
        for item in rng.sample(pool, run):
            seen.add(item)
            out.append(item)
    return out


@functools.cache
def decade_data(
    n_users: int = 240, per_decade: int = 30, length: int = 24, seed: int = 7
) -> tuple[Interactions, Dataset]:
    catalog = decade_catalog(per_decade, seed)
    by_decade: dict[int, list[str]] = {d: [] for d in DECADES}
    for item in catalog:
        assert item.year is not None
        by_decade[item.year - item.year % 10].append(item.item_id)
    rng = random.Random(seed + 1)
    rows = [(f"u{u:03d}", i) for u in range(n_users) for i in _walk(rng, by_decade, length)]
    ids = [item.item_id for item in catalog]
    data = from_pairs("decades", "decades|fp", ids, rows)
    dataset = Dataset("decades", "decades|fp", catalog, {i: 0 for i in ids}, n_users, len(rows),
                      lambda n: {})  # fmt: skip
    return data, dataset
