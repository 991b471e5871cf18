"""The paper's sample construction (§4.4) and popularity study draw (§5.3.2).

Per user: interactions in time order, history = the first `history_len`, target
= the next (`data.target = "after_history"`, MACRS §4.4), or target = the user's last
item and history = the `history_len` before it (`"last"`, InteRecAgent §4.1); history
filtered to items sharing a genre with the target; users with fewer than `min_history`
items left are not eligible. Then a seeded draw: `n_samples` from all eligible users, or
`per_bucket` from each popularity bucket.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.popularity import assign_buckets, bucket_labels
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample


def window_and_target(items: Sequence[str], cfg: DataConfig) -> tuple[tuple[str, ...], str] | None:
    """The pre-target window and the target of a user's items (the first `history_len + 1`
    for "after_history", all of them for "last"); None when there are too few."""
    if cfg.target == "last":
        if len(items) < 2:
            return None
        return tuple(items[-1 - cfg.history_len : -1]), items[-1]
    if len(items) <= cfg.history_len:
        return None
    return tuple(items[: cfg.history_len]), items[cfg.history_len]


def candidate_sample(
    user_id: str, items: Sequence[str], catalog: Catalog, cfg: DataConfig
) -> Sample | None:
    """The user's sample (`window_and_target`); None if not eligible (too few items left
    after the filter, or a target the window already holds)."""
    found = window_and_target(items, cfg)
    if found is None:
        return None
    window, target = found
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
    eligible = eligible_samples(user_items(dataset, cfg), dataset.catalog, cfg, buckets)
    if cfg.sampling == "popularity":
        return draw_per_bucket(eligible, cfg)
    return draw_random(eligible, cfg)


def user_items(dataset: Dataset, cfg: DataConfig) -> dict[str, list[str]]:
    """What sample construction reads of each user: a prefix, or the whole sequence."""
    if cfg.target == "last":
        return dataset.sequences()
    return dataset.prefixes(cfg.history_len + 1)


def with_pre_target(
    samples: Sequence[Sample],
    dataset: Dataset,
    cfg: DataConfig,
    users: Callable[[], Mapping[str, Sequence[str]]] | None = None,
) -> list[Sample]:
    """Samples read from a sample set written before `pre_target` was recorded, given the
    window from the dataset: the user's first `history_len` items when the next one is the
    sample's target. DataError when a sample's user record does not show that, or shows a
    target the window already holds (a re-rating): such a set must be built again.
    `users`: the dataset's user_items, worked out once for a set read in chunks."""
    if all(s.pre_target is not None for s in samples):
        return list(samples)
    items = users() if users is not None else user_items(dataset, cfg)
    out = []
    for s in samples:
        if s.pre_target is None:
            found = window_and_target(items.get(s.user_id, ()), cfg)
            window = found[0] if found else ()
            shows = found is not None and found[1] == s.target_id
            if not shows or s.target_id in window:
                where = (
                    "last item is not"
                    if cfg.target == "last"
                    else (f"first {cfg.history_len} items are not followed by")
                )
                raise DataError(
                    f"sample {s.sample_id}: user {s.user_id!r}'s {where} "
                    f"target {s.target_id!r}"
                    + (" (the window already holds it)" if shows else "")
                    + "; build the sample set again with `macrs-sim samples build`"
                )
            s = s.model_copy(update={"pre_target": window})
        out.append(s)
    return out
