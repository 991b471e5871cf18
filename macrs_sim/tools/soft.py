"""Soft-condition retrieval: items like given items (item-CF) or like a description (text)."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, Field

from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.bm25 import SearchArgs, search_args, search_hits
from macrs_sim.tools.embedding import TextEmbeddingIndex
from macrs_sim.tools.items import ItemHits, ItemResolver, render_hits, top_k
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.schema import is_film
from macrs_sim.tools.scorer import Neighbours


class SimilarArgs(BaseModel):
    text_field: ClassVar[str] = "items"
    items: ItemList = Field(min_length=1, max_length=50, description="Ids or titles of items "
                            "the user likes.")  # fmt: skip
    k: int = Field(default=10, ge=1, le=100, description="How many items to return.")


class SimilarItemsTool(RecTool[SimilarArgs, ItemHits]):
    """Sums each seed's neighbour similarities; seeds themselves are never returned."""

    def __init__(
        self,
        neighbours: Neighbours,
        resolver: ItemResolver,
        *,
        fan_out: int = 50,
        log: ToolCallLog | None = None,
        name: str = "similar_items",
    ) -> None:
        description = "Items that users who liked the given items also liked (item-to-item CF)."
        super().__init__(SimilarArgs, name, description, log)
        self.model = neighbours
        self.resolver = resolver
        self.fan_out = fan_out

    def compute(self, args: SimilarArgs) -> ItemHits:
        seeds, unknown = self.resolver.resolve(args.items)
        if not seeds:
            raise ToolInputError("no item matched: " + "; ".join(unknown))
        totals: dict[str, float] = {}
        for seed in seeds:
            for item_id, sim in self.model.neighbours(seed, max(self.fan_out, args.k)):
                if item_id not in seeds and item_id in self.resolver.catalog:
                    totals[item_id] = totals.get(item_id, 0.0) + sim
        order = [item.item_id for item in self.resolver.catalog]
        best = top_k(totals, order, args.k)
        hits = tuple(self.resolver.hit(i, round(s, 4)) for i, s in best)
        return ItemHits(hits=hits, unknown=tuple(unknown))

    def render(self, result: ItemHits) -> str:
        return render_hits(result, "No similar items known.")


class TextSimilarityTool(RecTool[SearchArgs, ItemHits]):
    def __init__(
        self,
        index: TextEmbeddingIndex,
        resolver: ItemResolver,
        *,
        log: ToolCallLog | None = None,
        name: str = "similar_to_description",
    ) -> None:
        # Films keep the paper-era example; other domains' wishes are worded by their users.
        example = " (e.g. 'a slow, sad film about growing old')" if is_film(index.domain) else ""
        description = (
            f"Items whose description is closest in meaning to a free-text wish{example}; "
            "scores are cosine similarities."
        )
        super().__init__(search_args(index.domain), name, description, log)
        self.index = index
        self.resolver = resolver

    def compute(self, args: SearchArgs) -> ItemHits:
        scores = self.index.query_similarity(args.query, [])
        return search_hits(scores, args, self.resolver, self.index.item_ids)

    def render(self, result: ItemHits) -> str:
        return render_hits(result)
