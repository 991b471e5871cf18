"""Hand-written stand-ins for trained models, so expected rankings can be worked out by hand."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from macrs_sim.tools.embedding import Vectors

NEIGHBOURS: dict[str, list[tuple[str, float]]] = {
    "1": [("7", 0.9), ("3", 0.2)],
    "3": [("4", 0.8), ("7", 0.3), ("1", 0.2)],
    "4": [("3", 0.8), ("99", 0.5)],  # "99" is in no catalog: never returned
}


class FakeItemCF:
    """The `Neighbours` protocol over a fixed table."""

    def neighbours(self, item_id: str, k: int) -> Sequence[tuple[str, float]]:
        return NEIGHBOURS.get(item_id, [])[:k]


class FakeIndexRanker:
    """The rankers' index-based shape: fixed scores per row, seen rows get -inf."""

    item_ids = ("1", "2", "3", "4")

    def score(self, histories: Sequence[Sequence[int]]) -> np.ndarray:
        out = np.tile(np.array([0.1, 0.4, 0.3, 0.2], dtype=np.float32), (len(histories), 1))
        for row, history in enumerate(histories):
            out[row, list(history)] = -np.inf
        return out


class FakeIndexCF:
    item_ids = ("1", "3", "4")

    def neighbours(self, item: int, k: int) -> Sequence[tuple[int, float]]:
        return [(2, 0.8), (0, 0.1)][:k] if item == 1 else []


VOCAB = ("space", "galaxy", "ghost", "heist", "love")


class BagOfWordsEncoder:
    """Counts of five words, unit length (all-zero when none occurs); counts its calls."""

    def __init__(self, model_key: str = "bag-of-words") -> None:
        self.model_key = model_key
        self.calls: list[int] = []

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), len(VOCAB)), dtype=np.float32)
        for row, text in enumerate(texts):
            words = re.findall(r"[a-z]+", text.lower())
            out[row] = [words.count(w) for w in VOCAB]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return (out / np.where(norms == 0, 1, norms)).astype(np.float32)
