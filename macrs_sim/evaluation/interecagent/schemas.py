"""Records of the one-turn task: what the model generates, the cases, and what each system did."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from macrs_sim.protocol import Record, Utterance

Task = Literal["retrieval", "ranking"]


class GeneratedMessage(BaseModel):
    """One message of a generated conversation (the paper's Figure C9 format)."""

    role: str
    text: str
    mentioned_items: list[str] = Field(default_factory=list)


class GeneratedConversation(BaseModel):
    messages: list[GeneratedMessage] = Field(min_length=1, max_length=20)


class OneTurnCase(Record):
    """A leave-one-out test case: the user's history, the held-out target, and (ranking)
    the candidates the user gives: the target and sampled negatives, shuffled."""

    case_id: str
    user_id: str
    history: tuple[str, ...]
    target_id: str
    candidates: tuple[str, ...] = ()


class OneTurnRequest(Record):
    """What every system is asked: the generated dialogue, the instruction appended to its
    last user message. `error` set: generation failed and the case is left out for all."""

    case_id: str
    utterances: tuple[Utterance, ...] = ()
    redacted: bool = False
    error: str | None = None


class SystemAnswer(Record):
    """What one system returned for one case, and how it scores."""

    case_id: str
    system: str
    items: tuple[str, ...] = ()
    rank: int | None = None  # 1-based position of the target in `items`, if there
    score: float = 0.0  # Recall@k or NDCG@k of this case
    llm_calls: int = 0
    error: str | None = None
