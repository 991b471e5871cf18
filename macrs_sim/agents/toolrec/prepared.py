"""What ToolRec's campaign-scoped `prepare` makes: the retriever and the plain ranker."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from macrs_sim.agents.toolrec.retrieval import AttributeRetriever
from macrs_sim.data.catalog import Catalog
from macrs_sim.rankers.base import ItemRanker, top_items


@dataclass(frozen=True)
class ToolRecPrepared:
    retriever: AttributeRetriever
    # The plain ranker (SASRec by default): tops up a list shorter than asked for.
    base: ItemRanker
    catalog: Catalog

    def plain(self, history: Sequence[str], k: int) -> list[str]:
        return [i for i, _ in top_items(self.base, history, k)]
