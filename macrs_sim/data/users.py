"""Synthetic users whose histories follow latent tastes (seeded, reproducible).

Each user prefers one to three genres and has a taste for popular or niche
films; items carry a latent popularity (Zipf over a seeded order). A history is
drawn item by item: a genre from the user's taste, then an unseen item of that
genre weighted by popularity ** propensity.

The draw is the same for the same catalog and seed, so a process keeps the last few it made:
a campaign opens the demo dataset for its samples, each system and its report, and drawing
12,000 interactions costs ~0.2 s each time.
"""

from __future__ import annotations

import hashlib
import random
import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass

from macrs_sim.data.catalog import Catalog


@dataclass(frozen=True)
class Interaction:
    user_id: str
    item_id: str
    timestamp: int


def item_popularity(catalog: Catalog, seed: int) -> dict[str, float]:
    """Latent popularity: Zipf weights 1/rank over a seeded shuffle of the catalog."""
    ids = [item.item_id for item in catalog]
    random.Random(seed).shuffle(ids)
    return {item_id: 1.0 / (rank + 1) ** 0.8 for rank, item_id in enumerate(ids)}


_DRAWN: OrderedDict[tuple[str, int, int, int, int], tuple[Interaction, ...]] = OrderedDict()
_DRAWN_KEPT = 8
_DRAWN_LOCK = threading.Lock()


def _catalog_key(catalog: Catalog) -> str:
    """What a draw reads of the catalog: its items' ids and genres, in order."""
    h = hashlib.sha256()
    for item in catalog:
        h.update(f"{item.item_id}\t{'|'.join(item.genres)}\n".encode())
    return h.hexdigest()


def synthesize_interactions(
    catalog: Catalog, *, n_users: int = 400, min_len: int = 22, max_len: int = 40, seed: int = 0
) -> list[Interaction]:
    key = (_catalog_key(catalog), n_users, min_len, max_len, seed)
    with _DRAWN_LOCK:
        if key in _DRAWN:
            _DRAWN.move_to_end(key)
            return list(_DRAWN[key])
    drawn = _draw(catalog, n_users=n_users, min_len=min_len, max_len=max_len, seed=seed)
    with _DRAWN_LOCK:
        _DRAWN[key] = tuple(drawn)
        while len(_DRAWN) > _DRAWN_KEPT:
            _DRAWN.popitem(last=False)
    return drawn


def _draw(
    catalog: Catalog, *, n_users: int, min_len: int, max_len: int, seed: int
) -> list[Interaction]:
    rng = random.Random(seed)
    popularity = item_popularity(catalog, seed)
    by_genre: dict[str, list[str]] = defaultdict(list)
    for item in catalog:
        for genre in item.genres:
            by_genre[genre].append(item.item_id)
    genres = sorted(by_genre)
    out: list[Interaction] = []
    for u in range(n_users):
        liked = rng.sample(genres, k=rng.randint(1, 3))
        weights = [rng.uniform(0.5, 1.0) for _ in liked]
        propensity = rng.uniform(0.3, 1.5)  # high: follows the crowd; low: niche taste
        length = min(rng.randint(min_len, max_len), len(catalog))
        seen: set[str] = set()
        for step in range(length):
            genre = rng.choices(liked, weights=weights)[0]
            pool = [i for i in by_genre[genre] if i not in seen]
            if not pool:  # taste exhausted: explore any unseen film
                pool = [i.item_id for i in catalog if i.item_id not in seen]
            item_id = rng.choices(pool, weights=[popularity[i] ** propensity for i in pool])[0]
            seen.add(item_id)
            out.append(Interaction(f"u{u:04d}", item_id, step))
    return out
