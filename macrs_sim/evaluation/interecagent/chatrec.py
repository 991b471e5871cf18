"""Chat-Rec's retrieval stage: the candidates its model picks from (RecAI: 20).

The paper and RecAI retrieve by the conversation's text (its embedding against the items'),
so by default Chat-Rec knows what InteRecAgent and the LLM-only row know: the dialogue,
no history (DESIGN.md §3, "A fair contest"). Text embeddings when the text model is
installed, else BM25 over the item texts, ties (and no index) by popularity.

`chatrec_ranker = RANKER` retrieves with a trained recommender over the user's true history
instead: a different setting, so its row is named apart (`Chat-Rec (history)`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from macrs_sim.evaluation.interecagent.schemas import OneTurnCase
from macrs_sim.evaluation.interecagent.systems import RankerSystem
from macrs_sim.tools.bm25 import Bm25Index
from macrs_sim.tools.embedding import TextEmbeddingIndex

CONVERSATION = "conversation"
CHAT_REC_HISTORY = "Chat-Rec (history)"


class Retriever(Protocol):
    def candidates(self, case: OneTurnCase, conversation: str, n: int) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class ConversationRetriever:
    """The n items closest to the conversation's text; no history."""

    item_ids: Sequence[str]
    popularity: Mapping[str, int]
    text: TextEmbeddingIndex | None = None
    bm25: Bm25Index | None = None

    def candidates(self, case: OneTurnCase, conversation: str, n: int) -> tuple[str, ...]:
        if self.text is not None:
            scores: Mapping[str, float] = self.text.query_similarity(conversation, [])
        elif self.bm25 is not None:
            scores = self.bm25.scores(conversation)
        else:
            scores = {}
        order = {item_id: i for i, item_id in enumerate(self.item_ids)}
        ranked = sorted(self.item_ids, key=lambda i: (
            -scores.get(i, float("-inf")), -self.popularity.get(i, 0), order[i]
        ))  # fmt: skip
        return tuple(ranked[:n])


@dataclass(frozen=True)
class HistoryRetriever:
    """A trained recommender's top n for the user's history (a different setting)."""

    ranker: RankerSystem

    def candidates(self, case: OneTurnCase, conversation: str, n: int) -> tuple[str, ...]:
        return self.ranker.answer(case, "retrieval", n).items
