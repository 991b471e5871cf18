"""The user side of one dialogue, the same record from a run's simulated user and from a
corpus's seeker, so every measure is computed one way on both."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from macrs_sim.data.corpora import CorpusDialogue
from macrs_sim.protocol import DialogueResult, Item


@dataclass(frozen=True)
class UserSide:
    """`turns`: the user's texts, opening first; `marked`: which carry a title marker (a
    corpus annotation such as ReDial's @id; a run has none); `target`: the sought item in
    the catalog, when known; `answers`: one per recommended item; `first_accept`: the
    1-based user turn that first accepted (None: never)."""

    turns: tuple[str, ...]
    marked: tuple[bool, ...]
    target: Item | None
    answers: tuple[str, ...]
    first_accept: int | None


def from_result(result: DialogueResult, target: Item | None) -> UserSide:
    """A run's dialogue: every item shown is accepted if it is the target and the user
    accepted that turn, else rejected (the simulated user answers every turn)."""
    turns = (result.opening.text, *(e.user.text for e in result.exchanges))
    answers: list[str] = []
    first: int | None = None
    for i, exchange in enumerate(result.exchanges):
        took = exchange.user.accepted
        if took and first is None:
            first = i + 2  # the opening is user turn 1, exchange i's answer is turn i + 2
        for item in exchange.system.items:
            hit = took and item.item_id == result.target_id
            answers.append("accepted" if hit else "rejected")
    return UserSide(turns, (False,) * len(turns), target, tuple(answers), first)


def from_corpus(dialogue: CorpusDialogue, resolve: Callable[[str], Item | None]) -> UserSide:
    """A corpus dialogue's seeker: the first accept is the seeker turn after the recommender
    turn that first named an accepted item (the questionnaire says which were accepted)."""
    seeker = [(i, t) for i, t in enumerate(dialogue.turns) if t.speaker == "seeker"]
    accepted = [r.turn for r in dialogue.recommendations if r.answer == "accepted"]
    first = sum(i < min(accepted) for i, _ in seeker) + 1 if accepted else None
    sought = dialogue.sought
    return UserSide(
        tuple(t.text for _, t in seeker),
        tuple(bool(t.titles) for _, t in seeker),
        resolve(sought) if sought else None,
        tuple(r.answer for r in dialogue.recommendations),
        first,
    )
