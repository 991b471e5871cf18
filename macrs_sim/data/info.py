"""What a dataset holds: sizes, genres, popularity quantiles and bucket sizes (`data info`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.popularity import assign_buckets, bucket_labels

QUANTILES = (0.25, 0.5, 0.75, 0.9, 0.99)
DEFAULT_EDGES = (0.1, 0.2, 0.3, 0.5, 1.0)


@dataclass(frozen=True)
class DatasetInfo:
    name: str
    n_users: int
    n_items: int
    n_interactions: int
    n_rated_items: int
    genres: list[tuple[str, int]]
    # Interactions per rated item at each quantile, plus the max.
    popularity_quantiles: dict[str, float]
    # Bucket label -> (items in it, fewest and most interactions of its items).
    buckets: dict[str, tuple[int, int, int]]
    users_with_21: int

    def lines(self) -> list[str]:
        q = ", ".join(f"{k} {v:g}" for k, v in self.popularity_quantiles.items())
        out = [
            f"dataset {self.name}: {self.n_users} users, {self.n_items} items "
            f"({self.n_rated_items} with interactions), {self.n_interactions} interactions",
            f"users with at least 21 interactions (history 20 + target): {self.users_with_21}",
            "genres: " + ", ".join(f"{g} ({n})" for g, n in self.genres),
            f"interactions per item: {q}",
            "popularity buckets:",
        ]
        for label, (n, lo, hi) in self.buckets.items():
            out.append(f"  {label:<11} {n:>7} items, {lo}-{hi} interactions each")
        return out


def dataset_info(dataset: Dataset) -> DatasetInfo:
    counts = dataset.popularity
    rated = np.array([c for c in counts.values() if c > 0], dtype=float)
    quantiles: dict[str, float] = {}
    if rated.size:
        quantiles = {f"p{round(q * 100)}": float(np.quantile(rated, q)) for q in QUANTILES}
        quantiles["max"] = float(rated.max())
    genres = Counter(g for item in dataset.catalog for g in item.genres)
    assigned = assign_buckets(counts, DEFAULT_EDGES)
    buckets: dict[str, tuple[int, int, int]] = {}
    for label in bucket_labels(DEFAULT_EDGES):
        members = [counts[i] for i, b in assigned.items() if b == label]
        buckets[label] = (len(members), min(members, default=0), max(members, default=0))
    return DatasetInfo(
        name=dataset.name,
        n_users=dataset.n_users,
        n_items=len(dataset.catalog),
        n_interactions=dataset.n_interactions,
        n_rated_items=int(rated.size),
        genres=sorted(genres.items(), key=lambda kv: (-kv[1], kv[0])),
        popularity_quantiles=quantiles,
        buckets=buckets,
        users_with_21=len(dataset.prefixes(21)),
    )
