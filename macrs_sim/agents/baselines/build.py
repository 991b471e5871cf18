"""Builders and the campaign-scoped `prepare` of the non-LLM baselines (their SystemSpecs)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from macrs_sim.agents.baselines.options import RandomSystemOptions, RankerSystemOptions
from macrs_sim.agents.baselines.system import RankedRecommender
from macrs_sim.agents.context import PrepareContext, SystemContext
from macrs_sim.data.splits import campaign_split, interactions_of
from macrs_sim.rankers.base import ItemRanker, Scores, mask_seen
from macrs_sim.rankers.cache import default_cache_dir
from macrs_sim.rankers.train import make_params, train_ranker


def prepare(options: RankerSystemOptions, ctx: PrepareContext) -> ItemRanker:
    """The ranker trained on the campaign split (no sample's target), or its cached checkpoint."""
    data = interactions_of(ctx.dataset, ctx.data)
    split = campaign_split(data, ctx.samples)
    kind = options.ranker_kind()
    params = make_params(kind, cast(Any, options.params))
    return train_ranker(kind, data, split, params, default_cache_dir(data)).ranker


def build_ranked(options: RankerSystemOptions, ctx: SystemContext) -> RankedRecommender:
    ranker: ItemRanker = ctx.prepared

    def score(history: Sequence[int]) -> Scores:
        row: Scores = ranker.score([history])[0]
        return row

    return RankedRecommender(ctx.name, score, ranker.item_ids, ctx.dataset.catalog, ctx.history)


def build_random(options: RandomSystemOptions, ctx: SystemContext) -> RankedRecommender:
    """A seeded random order per dialogue (same seed and dialogue, same order)."""
    item_ids = tuple(item.item_id for item in ctx.dataset.catalog)
    key = f"{options.seed}|{ctx.dialogue_id}".encode()
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
    order = rng.random(len(item_ids)).astype(np.float32)

    def score(history: Sequence[int]) -> Scores:
        row: Scores = mask_seen(order[None, :].copy(), [history])[0]
        return row

    return RankedRecommender(ctx.name, score, item_ids, ctx.dataset.catalog, ctx.history)
