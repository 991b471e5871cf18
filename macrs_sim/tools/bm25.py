"""`search_items`: BM25 keyword search over each item's text (needs the recsys extra)."""

from __future__ import annotations

import functools
import threading
from typing import Any, ClassVar

import numpy as np
from pydantic import BaseModel, Field, create_model

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.item_text import document_words, item_document
from macrs_sim.tools.items import ItemHits, ItemResolver, render_hits, top_k
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.schema import is_film

EXTRA_HINT = "needs the recsys extra: pip install 'macrs-sim[recsys]'"


class Bm25Index:
    """Built once per catalog (lazily, on the first search); searches are read-only."""

    def __init__(self, catalog: Catalog, domain: Domain = MOVIES) -> None:
        self.item_ids = [item.item_id for item in catalog]
        self.domain = domain
        self._texts = [item_document(item, domain) for item in catalog]
        self._row = {item_id: i for i, item_id in enumerate(self.item_ids)}
        self._lock = threading.Lock()
        self._built: tuple[Any, Any] | None = None

    def build(self) -> tuple[Any, Any]:
        with self._lock:
            if self._built is None:
                try:
                    import bm25s
                    from bm25s.tokenization import Tokenizer
                except ImportError:
                    raise ToolInputError(f"BM25 search is not available ({EXTRA_HINT})") from None
                tokenizer = Tokenizer(stopwords="en", stemmer=None)
                ids = tokenizer.tokenize(
                    self._texts, update_vocab=True, return_as="ids", show_progress=False
                )
                retriever = bm25s.BM25()
                retriever.index(ids, show_progress=False)
                self._built = (tokenizer, retriever)
            return self._built

    def document(self, item_id: str) -> str:
        """The text the index searched for `item_id` (a search result's snippet)."""
        return self._texts[self._row[item_id]]

    def scores(self, query: str) -> dict[str, float]:
        """Positive BM25 scores by item id (words outside the corpus count for nothing)."""
        tokenizer, retriever = self.build()
        tokens = tokenizer.tokenize(
            [query], update_vocab=False, return_as="ids", show_progress=False
        )[0]
        values = np.asarray(retriever.get_scores(tokens), dtype=np.float64)
        return {self.item_ids[i]: float(values[i]) for i in np.flatnonzero(values > 0)}


class SearchArgs(BaseModel):
    text_field: ClassVar[str] = "query"
    query: str = Field(min_length=1, description="Words to look for in titles, genres, "
                       "keywords, plots, directors and cast.")  # fmt: skip
    k: int = Field(default=10, ge=1, le=100, description="How many items to return.")
    within: ItemList | None = Field(default=None, description="Only among these ids or titles.")


def search_args(domain: Domain) -> type[SearchArgs]:
    """SearchArgs whose query says what the domain's item texts hold."""
    return SearchArgs if is_film(domain) else _search_args(document_words(domain))


@functools.cache
def _search_args(words: str) -> type[SearchArgs]:
    query = Field(min_length=1, description=f"Words to look for in {words}.")
    return create_model("SearchArgs", __base__=SearchArgs, query=(str, query))


class Bm25SearchTool(RecTool[SearchArgs, ItemHits]):
    def __init__(
        self,
        index: Bm25Index,
        resolver: ItemResolver,
        *,
        log: ToolCallLog | None = None,
        name: str = "search_items",
    ) -> None:
        description = "Keyword search (BM25) over titles, genres, keywords, plots and people."
        if not is_film(index.domain):
            description = f"Keyword search (BM25) over {document_words(index.domain)}."
        super().__init__(search_args(index.domain), name, description, log)
        self.index = index
        self.resolver = resolver

    def compute(self, args: SearchArgs) -> ItemHits:
        return search_hits(self.index.scores(args.query), args, self.resolver, self.index.item_ids)

    def render(self, result: ItemHits) -> str:
        return render_hits(result, "No item matches these words.")


def search_hits(
    scores: dict[str, float], args: SearchArgs, resolver: ItemResolver, order: list[str]
) -> ItemHits:
    """The top-k of `scores`, limited to `args.within` when given (shared by text search)."""
    unknown: list[str] = []
    if args.within is not None:
        allowed, unknown = resolver.resolve(args.within)
        keep = set(allowed)
        scores = {i: s for i, s in scores.items() if i in keep}
    best = top_k(scores, order, args.k)
    hits = tuple(resolver.hit(i, round(s, 4)) for i, s in best)
    return ItemHits(hits=hits, unknown=tuple(unknown))
