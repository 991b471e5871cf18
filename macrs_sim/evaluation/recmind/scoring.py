"""One answer scored, and a run's answers summed up into the task's metrics.

Typed records all the way: a `Scored` keeps what was read from the answer (the ranked
candidates, the rating, the judge's verdict), and the row's metrics are computed from
those records, never from the answer text again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from macrs_sim.evaluation.recmind.answers import (
    RankedAnswer,
    parse_ranking,
    parse_rating,
    parse_summary,
)
from macrs_sim.evaluation.recmind.cases import TaskCase
from macrs_sim.evaluation.recmind.contract import SolverAnswer
from macrs_sim.evaluation.recmind.judge import ExplanationVerdict
from macrs_sim.evaluation.recmind.metrics import (
    mean_or_nan,
    ranking_metrics,
    rating_metrics,
    target_position,
)
from macrs_sim.evaluation.recmind.settings import Task
from macrs_sim.evaluation.recmind.text_metrics import text_metrics
from macrs_sim.protocol import Item


@dataclass(frozen=True)
class Scored:
    """What one answer came to. `parsed` False: the answer could not be read (a miss)."""

    parsed: bool
    ranked: tuple[str, ...] = ()
    unmatched: tuple[str, ...] = ()
    position: int | None = None
    rating: float | None = None
    verdict: ExplanationVerdict | None = None
    judge_error: str | None = None
    # Where the ranking was read from: "items" (the solver's typed list) or "text".
    ranked_from: str | None = None
    # Review summarisation: the summary read from the answer.
    summary: str | None = None


def read_ranking(
    answer: SolverAnswer, candidates: Sequence[str], items: Mapping[str, Item]
) -> tuple[RankedAnswer, str]:
    """The solver's typed items when they name a candidate, else its text; the entries
    that named none are counted from both."""
    listed = parse_ranking("\n".join(answer.items), candidates, items)
    if listed.parsed:
        return listed, "items"
    text = parse_ranking(answer.text, candidates, items)
    return RankedAnswer(text.ranked, listed.unmatched + text.unmatched), "text"


def score_ranking(answer: SolverAnswer, case: TaskCase, items: Mapping[str, Item]) -> Scored:
    read, source = read_ranking(answer, case.candidates, items)
    position = target_position(read.ranked, case.target)
    return Scored(read.parsed, read.ranked, read.unmatched, position, ranked_from=source)


def score_rating(answer: str, low: float, high: float) -> Scored:
    rating = parse_rating(answer, low, high)
    return Scored(rating is not None, rating=rating)


def score_summary(answer: str) -> Scored:
    summary = parse_summary(answer)
    return Scored(summary is not None, summary=summary)


def summarize(
    task: Task,
    cases: Sequence[TaskCase],
    scored: Sequence[Scored],
    *,
    ks: Sequence[int],
) -> dict[str, float]:
    """The task's metrics over all cases: a ranking's unparsable answers and errors are
    misses; an unparsable rating is left out of RMSE / MAE (the row counts it)."""
    if task == "rating":
        truth = [c.target_rating for c in cases]
        if any(t is None for t in truth):
            raise ValueError("rating cases need the held-out rating")
        return rating_metrics([s.rating for s in scored], [t for t in truth if t is not None])
    if task == "explanation":
        judged = [s.verdict for s in scored if s.verdict is not None]
        return {
            "quality": mean_or_nan([v.quality for v in judged]),
            "rationality": mean_or_nan([v.rationality for v in judged]),
        }
    if task == "summary":
        references = [c.review.summary if c.review is not None else None for c in cases]
        if any(r is None for r in references):
            raise ValueError("summary cases need the held-out review's summary")
        return text_metrics([r or "" for r in references], [s.summary or "" for s in scored])
    return ranking_metrics([s.position for s in scored], ks)
