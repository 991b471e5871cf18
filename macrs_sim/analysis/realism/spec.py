"""The measures the realism table reports: each one's unit, kind and values per dialogue.

`number` measures are compared by the Wasserstein distance (in the measure's unit),
`category` measures by total variation (0-1), `diversity` ones (distinct-n, a single value
per side) by the absolute difference.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from macrs_sim.analysis.realism.measures import DialogueMeasures
from macrs_sim.data.corpora.records import ANSWERS

Kind = Literal["number", "category", "diversity"]


@dataclass(frozen=True)
class MeasureSpec:
    name: str
    label: str
    kind: Kind
    values: Callable[[DialogueMeasures], Sequence[int]]
    categories: tuple[str, ...] = ()
    order: int = 1  # distinct-n's n


def _attributes(m: DialogueMeasures) -> Sequence[int]:
    return m.attributes or ()


def _titles(m: DialogueMeasures) -> Sequence[int]:
    return [int(t) for t in m.titles]


def _opening(m: DialogueMeasures) -> Sequence[int]:
    return m.attributes[:1] if m.attributes else ()


def _accept(m: DialogueMeasures) -> Sequence[int]:
    return () if m.first_accept is None else (m.first_accept,)


MEASURES: tuple[MeasureSpec, ...] = (
    MeasureSpec("words", "turn length (words)", "number", lambda m: m.words),
    MeasureSpec("attributes", "target attributes named a turn", "number", _attributes),
    MeasureSpec("opening", "attributes named in the opening", "number", _opening),
    MeasureSpec("questions", "questions a turn", "number", lambda m: m.questions),
    MeasureSpec("titles", "turns naming a title", "category", _titles, ("no", "yes")),
    MeasureSpec(
        "answers", "answers to recommendations", "category",
        lambda m: [ANSWERS.index(a) for a in m.answers if a in ANSWERS], ANSWERS,
    ),
    MeasureSpec("first_accept", "turn of the first accept", "number", _accept),
    MeasureSpec("distinct1", "distinct-1", "diversity", lambda m: (), order=1),
    MeasureSpec("distinct2", "distinct-2", "diversity", lambda m: (), order=2),
)  # fmt: skip
