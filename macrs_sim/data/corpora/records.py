"""One human dialogue as both corpus formats read into it (plain frozen dataclasses: a
corpus of 100,000 conversations is read one at a time, each dropped after its measures)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Speaker = Literal["seeker", "recommender"]
Answer = Literal["accepted", "rejected", "unanswered"]
ANSWERS: tuple[Answer, ...] = ("accepted", "rejected", "unanswered")


@dataclass(frozen=True)
class CorpusTurn:
    """A speaker's consecutive messages joined by a space; `text` has every `@id` marker
    replaced by its title without the year (kept as `@id` when the corpus has no title for
    it); `titles` holds each marker's title ("" for an unknown id), in order."""

    speaker: Speaker
    text: str
    titles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Recommendation:
    """An item the recommender suggested, the turn (index into `turns`) where it was first
    named, and the seeker's answer."""

    title: str
    turn: int
    answer: Answer


@dataclass(frozen=True)
class CorpusDialogue:
    dialogue_id: str
    turns: tuple[CorpusTurn, ...]
    recommendations: tuple[Recommendation, ...] = ()
    # The item the seeker was after, when the corpus says; else the first accepted one.
    target: str | None = None

    @property
    def seeker_turns(self) -> list[CorpusTurn]:
        return [t for t in self.turns if t.speaker == "seeker"]

    @property
    def sought(self) -> str | None:
        if self.target:
            return self.target
        return next((r.title for r in self.recommendations if r.answer == "accepted"), None)
