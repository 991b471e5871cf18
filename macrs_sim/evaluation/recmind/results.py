"""Records of a run: each answer, and one row per (solver, prompting) in the paper's shape.

A row holds the task's metrics (Tables 1-4), how many answers could not be read or failed,
and the cost per question (Table 10: running time; here also model calls and tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from macrs_sim.evaluation.recmind.cases import TaskCase
from macrs_sim.evaluation.recmind.metrics import mean_or_nan
from macrs_sim.evaluation.recmind.questions import QuestionSettings
from macrs_sim.evaluation.recmind.scoring import Scored, summarize
from macrs_sim.evaluation.recmind.settings import EvalSettings
from macrs_sim.protocol import LLMCallRecord


@dataclass(frozen=True)
class Answer:
    case: TaskCase
    question: str
    answer: str
    # Set when the solver raised: the answer is then empty and scored as a miss.
    error: str | None
    seconds: float
    scored: Scored
    # The solver's model calls made under this question's id.
    calls: Sequence[LLMCallRecord]
    # The items the solver ranked apart from its text (RecMind's Finish items), best first.
    items: tuple[str, ...] = ()

    def record(self, solver: str, prompting: str) -> dict[str, Any]:
        s = self.scored
        out: dict[str, Any] = {
            "solver": solver, "prompting": prompting, "user_id": self.case.user_id,
            "target": self.case.target, "question": self.question, "answer": self.answer,
            "error": self.error, "parsed": s.parsed, "seconds": round(self.seconds, 4),
            "llm_calls": len(self.calls),
            "tokens": sum(c.prompt_tokens + c.completion_tokens for c in self.calls),
        }  # fmt: skip
        if self.case.candidates:
            out |= {"candidates": list(self.case.candidates), "items": list(self.items),
                    "ranked": list(s.ranked), "ranked_from": s.ranked_from,
                    "unmatched": list(s.unmatched), "position": s.position}  # fmt: skip
        if self.case.target_rating is not None:
            out |= {"rating": self.case.target_rating, "predicted": s.rating}
        if self.case.review is not None:
            out |= {"reference": self.case.review.summary, "summary": s.summary}
        if s.verdict is not None or s.judge_error is not None:
            verdict = s.verdict.model_dump() if s.verdict is not None else None
            out |= {"verdict": verdict, "judge_error": s.judge_error}
        return out


@dataclass(frozen=True)
class RunRow:
    solver: str
    prompting: str
    n: int
    metrics: dict[str, float]
    unparsable: int
    errors: int
    # Entries of ranking answers that named no candidate (prose, titles off the list).
    unmatched: int
    judge_errors: int
    seconds_per_question: float
    calls_per_question: float
    prompt_tokens_per_question: float
    completion_tokens_per_question: float
    tool_calls_per_question: float
    total_seconds: float
    judge_calls: int

    def flat(self) -> dict[str, Any]:
        return {
            "solver": self.solver, "prompting": self.prompting, "n": self.n, **self.metrics,
            "unparsable": self.unparsable, "errors": self.errors, "unmatched": self.unmatched,
            "judge_errors": self.judge_errors,
            "seconds_per_question": self.seconds_per_question,
            "llm_calls_per_question": self.calls_per_question,
            "prompt_tokens_per_question": self.prompt_tokens_per_question,
            "completion_tokens_per_question": self.completion_tokens_per_question,
            "tool_calls_per_question": self.tool_calls_per_question,
            "total_seconds": self.total_seconds, "judge_calls": self.judge_calls,
        }  # fmt: skip


def make_row(
    settings: EvalSettings,
    solver: str,
    prompting: str,
    cases: Sequence[TaskCase],
    answers: Sequence[Answer],
    questions: QuestionSettings,
    *,
    unattributed: Sequence[LLMCallRecord],
    tool_calls: int,
    judge_calls: int,
) -> RunRow:
    """`unattributed`: the run's calls made under no question's id (counted in the totals)."""
    calls = [c for a in answers for c in a.calls] + list(unattributed)
    n = len(answers)
    metrics = summarize(settings.task, cases, [a.scored for a in answers], ks=settings.ks)

    def per_q(total: float) -> float:
        return total / n if n else float("nan")

    return RunRow(
        solver=solver,
        prompting=prompting,
        n=n,
        metrics=metrics,
        unparsable=sum(1 for a in answers if not a.scored.parsed and a.error is None),
        errors=sum(1 for a in answers if a.error is not None),
        unmatched=sum(len(a.scored.unmatched) for a in answers),
        judge_errors=sum(1 for a in answers if a.scored.judge_error is not None),
        seconds_per_question=mean_or_nan([a.seconds for a in answers]),
        calls_per_question=per_q(len(calls)),
        prompt_tokens_per_question=per_q(sum(c.prompt_tokens for c in calls)),
        completion_tokens_per_question=per_q(sum(c.completion_tokens for c in calls)),
        tool_calls_per_question=per_q(tool_calls),
        total_seconds=sum(a.seconds for a in answers),
        judge_calls=judge_calls,
    )
