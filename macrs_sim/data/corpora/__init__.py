"""Human conversational-recommendation corpora, read as distributed (ReDial's
train_data.jsonl / test_data.jsonl) or in the project's own JSON-lines form (FORMAT.md
in docs/simulators.md), one dialogue at a time. Nothing ships: the user points to a file."""

from __future__ import annotations

from macrs_sim.data.corpora.reader import CorpusStats, read_corpus
from macrs_sim.data.corpora.records import Answer, CorpusDialogue, CorpusTurn, Recommendation

__all__ = [
    "Answer",
    "CorpusDialogue",
    "CorpusStats",
    "CorpusTurn",
    "Recommendation",
    "read_corpus",
]
