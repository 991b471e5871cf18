"""`rank_items`: order candidates by the user's predicted preference, popularity or similarity."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Literal, Protocol

from pydantic import BaseModel, Field

from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.items import ItemHits, ItemResolver, render_hits, top_k
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.scorer import Scorer


class ItemSimilarity(Protocol):
    def similarity(
        self, reference: Sequence[str], candidates: Sequence[str]
    ) -> Mapping[str, float]: ...

    def query_similarity(self, query: str, candidates: Sequence[str]) -> Mapping[str, float]: ...


class RankArgs(BaseModel):
    text_field: ClassVar[str] = "candidates"
    candidates: ItemList = Field(min_length=1, max_length=500, description="Ids or titles.")
    by: Literal["preference", "popularity", "similarity"] = Field(
        default="preference",
        description="preference: a recommender model scores them for the user's history; "
        "popularity: most-interacted first; similarity: closest to `query` text, else to "
        "the history items.",
    )
    history: ItemList = Field(default=[], description="Ids or titles the user liked "
                              "(default: the user's known history).")  # fmt: skip
    query: str | None = Field(default=None, description="Text to rank by similarity to.")
    k: int = Field(default=10, ge=1, le=100)


class RankTool(RecTool[RankArgs, ItemHits]):
    """Candidates in the history are dropped: the user has seen them."""

    def __init__(
        self,
        resolver: ItemResolver,
        popularity: Mapping[str, int],
        *,
        scorer: Scorer | None = None,
        similarity: ItemSimilarity | None = None,
        history: Sequence[str] = (),
        log: ToolCallLog | None = None,
        name: str = "rank_items",
    ) -> None:
        description = "Rank candidate items for this user by preference, popularity or similarity."
        super().__init__(RankArgs, name, description, log)
        self.resolver = resolver
        self.popularity = popularity
        self.scorer = scorer
        self.similarity = similarity
        self.default_history = tuple(history)

    def compute(self, args: RankArgs) -> ItemHits:
        candidates, unknown = self.resolver.resolve(args.candidates)
        history = self.resolver.resolve(args.history)[0] or list(self.default_history)
        seen = set(history)
        candidates = [c for c in candidates if c not in seen]
        scores = self._scores(args, candidates, history)
        ranked = top_k({c: scores.get(c, float("-inf")) for c in candidates}, candidates, args.k)
        hits = tuple(self.resolver.hit(i, _shown(s)) for i, s in ranked)
        return ItemHits(hits=hits, unknown=tuple(unknown))

    def _scores(
        self, args: RankArgs, candidates: list[str], history: list[str]
    ) -> Mapping[str, float]:
        if args.by == "popularity":
            return {c: float(self.popularity.get(c, 0)) for c in candidates}
        if args.by == "preference":
            if self.scorer is None:
                raise ToolInputError("ranking by preference is not available: no model configured")
            return self.scorer.score(history)
        if self.similarity is None:
            raise ToolInputError("ranking by similarity is not available: no text index")
        if args.query:
            return self.similarity.query_similarity(args.query, candidates)
        if not history:
            raise ToolInputError("ranking by similarity needs `query` or `history`")
        return self.similarity.similarity(history, candidates)

    def render(self, result: ItemHits) -> str:
        return render_hits(result, "No candidate left to rank.")


def _shown(score: float) -> float | None:
    return None if score == float("-inf") else round(score, 4)
