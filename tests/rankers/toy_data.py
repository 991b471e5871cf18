"""Toy interaction data for the rankers, small enough to work scores out by hand."""

from __future__ import annotations

import random

from macrs_sim.data.splits import Interactions, from_pairs

TORCH_REASON = "needs the recsys extra: pip install 'macrs-sim[recsys]'"


def toy(seqs: dict[str, list[int]], n_items: int) -> Interactions:
    ids = tuple(f"i{n}" for n in range(n_items))
    return from_pairs("toy", "toy|fp", ids, [(u, ids[i]) for u, s in seqs.items() for i in s])


def chain_data(
    n_users: int = 60, n_items: int = 20, length: int = 12, seed: int = 1
) -> Interactions:
    """Planted pattern: every user walks item i -> i + 1 (mod n_items) from a random start."""
    rng = random.Random(seed)
    seqs = {}
    for u in range(n_users):
        start = rng.randrange(n_items)
        seqs[f"u{u:03d}"] = [(start + step) % n_items for step in range(length)]
    return toy(seqs, n_items)
