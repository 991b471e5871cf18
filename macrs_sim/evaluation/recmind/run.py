"""One (solver, prompting) run over every case: answers, scores, time, calls and tokens.

The solver's model calls are counted by an accounting wrapper of its own per run (the
paper's Table 10 compares running time per question; calls and tokens say where it goes).
A solver that raises costs that question (scored as a miss), never the run.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from autogen_core.models import ChatCompletionClient

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions
from macrs_sim.evaluation.recmind.answers import parse_explanation
from macrs_sim.evaluation.recmind.cases import TaskCase
from macrs_sim.evaluation.recmind.contract import SolverAnswer, SolverContext, TaskSolver
from macrs_sim.evaluation.recmind.judge import (
    LOWEST,
    judge_explanation,
    judge_messages,
    judge_template,
)
from macrs_sim.evaluation.recmind.questions import QuestionSettings, build_question
from macrs_sim.evaluation.recmind.results import Answer, RunRow, make_row
from macrs_sim.evaluation.recmind.scoring import (
    Scored,
    score_ranking,
    score_rating,
    score_summary,
)
from macrs_sim.evaluation.recmind.settings import EvalSettings, Prompting
from macrs_sim.evaluation.recmind.solvers import solver_factory
from macrs_sim.llm.accounting import AccountingClient, CallLog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item
from macrs_sim.tools import ToolCallLog


@dataclass(frozen=True)
class TaskEnv:
    """What every run of one task shares."""

    settings: EvalSettings
    dataset: Dataset
    items: Mapping[str, Item]
    cases: Sequence[TaskCase]
    prompts: PromptLibrary
    client: ChatCompletionClient
    judge_client: ChatCompletionClient
    model_name: str
    questions: QuestionSettings
    # Every user's visible interactions (item id, rating or None), oldest first: what a
    # solver's memory may hold (RecMind's user_ratings); no test target is in it.
    memory: Mapping[str, Sequence[tuple[str, float | None]]]
    # The interactions the cases come from (a trained ranker fits their split).
    interactions: Interactions | None = None


def describe(err: BaseException) -> str:
    first = (str(err).strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {first}" if first else type(err).__name__


@dataclass
class _Run:
    env: TaskEnv
    label: str
    solver: TaskSolver
    judge: ChatCompletionClient
    log: CallLog

    async def score(self, case: TaskCase, answer: SolverAnswer, question_id: str) -> Scored:
        task, q = self.env.settings.task, self.env.questions
        if task == "rating":
            return score_rating(answer.text, q.low, q.high)
        if task == "summary":
            return score_summary(answer.text)
        if task != "explanation":
            return score_ranking(answer, case, self.env.items)
        text = parse_explanation(answer.text)
        if text is None:
            return Scored(False, verdict=LOWEST)
        template = judge_template(self.env.prompts)
        messages = judge_messages(template, case, self.env.items, text, q.history_len)
        try:
            verdict = await judge_explanation(
                self.judge, messages, question_id=question_id, retries=self.env.settings.retries
            )
        except Exception as err:  # one bad verdict is recorded, the others go on
            return Scored(True, judge_error=describe(err))
        return Scored(True, verdict=verdict)

    async def ask(self, case: TaskCase, prompting: Prompting) -> Answer:
        env = self.env
        question = build_question(env.settings.task, prompting, case, env.items, env.prompts,
                                  env.questions)  # fmt: skip
        question_id = f"{self.label}|{case.user_id}"
        role = f"recmind_tasks.{env.settings.task}"
        error = None
        start = time.perf_counter()
        try:
            with calling(CallContext(role=role, dialogue_id=question_id, system=self.label)):
                answer = await self.solver.solve(
                    question, user_id=case.user_id, candidates=case.candidates
                )
        except Exception as err:  # the question is lost (a miss), the run goes on
            answer, error = SolverAnswer(""), describe(err)
        seconds = time.perf_counter() - start
        calls = self.log.pop(question_id)
        scored = await self.score(case, answer, question_id)
        return Answer(case, question, answer.text, error, seconds, scored, calls, answer.items)


async def run_one(
    env: TaskEnv,
    solver_name: str,
    prompting: Prompting,
    on_answer: Callable[[], None] | None = None,
) -> tuple[RunRow, list[Answer]]:
    """Every case asked of a fresh solver; the row sums them up. `on_answer`: progress."""
    log, judge_log, tool_log = CallLog(), CallLog(), ToolCallLog()
    client = AccountingClient(env.client, log, env.model_name)
    judge = AccountingClient(env.judge_client, judge_log, env.model_name)
    ctx = SolverContext(
        client, env.dataset, env.memory, env.prompts, env.settings.max_steps, tool_log,
        recmind_options=env.settings.recmind, temperature=env.settings.temperature,
        interactions=env.interactions, top_n=env.questions.top_n,
    )  # fmt: skip
    solver = solver_factory(solver_name)(ctx)
    run = _Run(env, f"{solver_name}|{prompting}", solver, judge, log)
    limit = asyncio.Semaphore(env.settings.concurrency)

    async def one(case: TaskCase) -> Answer:
        async with limit:
            answer = await run.ask(case, prompting)
        if on_answer is not None:
            on_answer()
        return answer

    answers = list(await asyncio.gather(*(one(c) for c in env.cases)))
    row = make_row(env.settings, solver_name, prompting, env.cases, answers, env.questions,
                   unattributed=log.all(), tool_calls=len(tool_log.all()),
                   judge_calls=len(judge_log.all()))  # fmt: skip
    return row, answers
