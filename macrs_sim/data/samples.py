"""The paper's sample construction (§4.4) and popularity study draw (§5.3.2).

Per user: interactions in time order, history = the first `history_len`, target
= the next; history filtered to items sharing a genre with the target; users
with fewer than `min_history` items left are not eligible. Then a seeded draw:
`n_samples` from all eligible users, or `per_bucket` from each popularity bucket.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.popularity import assign_buckets, bucket_labels
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample


def candidate_sample(
    user_id: str, items: Sequence[str], catalog: Catalog, cfg: DataConfig
) -> Sample | None:
    """History = first `history_len` items, target = the next; None if not eligible (too
    few items left after the filter, or a target the window already holds)."""
    if len(items) <= cfg.history_len:
        return None
    window, target = tuple(items[: cfg.history_len]), items[cfg.history_len]
    if target in window:  # a re-rating (`data prepare` keeps them): not a held-out item
        return None
    history = list(window)
    if cfg.filter_by_category:
        target_genres = set(catalog[target].genres)
        history = [i for i in history if target_genres & set(catalog[i].genres)]
    if len(history) < cfg.min_history:
        return None
    return Sample(
        sample_id=f"s-{user_id}",
        user_id=user_id,
        history=tuple(history),
        target_id=target,
        pre_target=window,
    )


def eligible_samples(
    prefixes: Mapping[str, Sequence[str]],
    catalog: Catalog,
    cfg: DataConfig,
    buckets: Mapping[str, str],
) -> list[Sample]:
    """Every eligible user's sample, in user-id order, labelled with its target's bucket."""
    out = []
    for user in sorted(prefixes):
        s = candidate_sample(user, prefixes[user], catalog, cfg)
        if s is not None:
            out.append(s.model_copy(update={"bucket": buckets.get(s.target_id)}))
    return out


def _rules(cfg: DataConfig) -> str:
    return f"history_len {cfg.history_len}, min_history {cfg.min_history}"


def draw_random(eligible: list[Sample], cfg: DataConfig) -> list[Sample]:
    if len(eligible) < cfg.n_samples:
        raise DataError(
            f"data.n_samples = {cfg.n_samples}: only {len(eligible)} users are eligible "
            f"({_rules(cfg)})"
        )
    return random.Random(cfg.seed).sample(eligible, cfg.n_samples)


def draw_per_bucket(eligible: list[Sample], cfg: DataConfig) -> list[Sample]:
    by_bucket: dict[str | None, list[Sample]] = defaultdict(list)
    for s in eligible:
        by_bucket[s.bucket].append(s)
    rng = random.Random(cfg.seed)
    out: list[Sample] = []
    for label in bucket_labels(cfg.popularity_buckets):
        pool = by_bucket[label]
        if len(pool) < cfg.per_bucket:
            raise DataError(
                f"data.per_bucket = {cfg.per_bucket}: popularity bucket '{label}' has only "
                f"{len(pool)} eligible users ({_rules(cfg)})"
            )
        out += rng.sample(pool, cfg.per_bucket)
    return out


def build_samples(dataset: Dataset, cfg: DataConfig) -> list[Sample]:
    """The scenario's sample set (targets labelled with their popularity bucket)."""
    buckets = assign_buckets(dataset.popularity, cfg.popularity_buckets)
    prefixes = dataset.prefixes(cfg.history_len + 1)
    eligible = eligible_samples(prefixes, dataset.catalog, cfg, buckets)
    if cfg.sampling == "popularity":
        return draw_per_bucket(eligible, cfg)
    return draw_random(eligible, cfg)


def with_pre_target(samples: Sequence[Sample], dataset: Dataset, cfg: DataConfig) -> list[Sample]:
    """Samples read from a sample set written before `pre_target` was recorded, given the
    window from the dataset: the user's first `history_len` items when the next one is the
    sample's target. DataError when a sample's user record does not show that, or shows a
    target the window already holds (a re-rating): such a set must be built again."""
    if all(s.pre_target is not None for s in samples):
        return list(samples)
    prefixes = dataset.prefixes(cfg.history_len + 1)
    out = []
    for s in samples:
        if s.pre_target is None:
            items = prefixes.get(s.user_id, ())
            window = tuple(items[: cfg.history_len])
            shows = len(items) > cfg.history_len and items[cfg.history_len] == s.target_id
            if not shows or s.target_id in window:
                raise DataError(
                    f"sample {s.sample_id}: user {s.user_id!r}'s first {cfg.history_len} "
                    f"items are not followed by target {s.target_id!r}"
                    + (" (the window already holds it)" if shows else "")
                    + "; build the sample set again with `macrs-sim samples build`"
                )
            s = s.model_copy(update={"pre_target": window})
        out.append(s)
    return out
