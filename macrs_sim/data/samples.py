"""The paper's sample construction (§4.4): history of 20, target = 21st, same-category filter."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.users import Interaction
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample


def user_sequences(interactions: Sequence[Interaction]) -> dict[str, list[str]]:
    """Each user's items in chronological order (ties keep input order)."""
    by_user: dict[str, list[Interaction]] = defaultdict(list)
    for it in interactions:
        by_user[it.user_id].append(it)
    return {
        user: [it.item_id for it in sorted(rows, key=lambda r: r.timestamp)]
        for user, rows in by_user.items()
    }


def candidate_sample(
    user_id: str, items: Sequence[str], catalog: Catalog, cfg: DataConfig
) -> Sample | None:
    """History = first `history_len` items, target = the next; None if not eligible."""
    if len(items) <= cfg.history_len:
        return None
    history, target = list(items[: cfg.history_len]), items[cfg.history_len]
    if cfg.filter_by_category:
        target_genres = set(catalog[target].genres)
        history = [i for i in history if target_genres & set(catalog[i].genres)]
    if len(history) < cfg.min_history:
        return None
    return Sample(
        sample_id=f"s-{user_id}", user_id=user_id, history=tuple(history), target_id=target
    )


def build_samples(
    interactions: Sequence[Interaction], catalog: Catalog, cfg: DataConfig
) -> list[Sample]:
    """Eligible users' samples, then a seeded draw of `n_samples` of them."""
    eligible = [
        s
        for user, items in sorted(user_sequences(interactions).items())
        if (s := candidate_sample(user, items, catalog, cfg)) is not None
    ]
    if len(eligible) < cfg.n_samples:
        raise DataError(
            f"data.n_samples = {cfg.n_samples}: only {len(eligible)} users are eligible "
            f"(history_len {cfg.history_len}, min_history {cfg.min_history})"
        )
    return random.Random(cfg.seed).sample(eligible, cfg.n_samples)
