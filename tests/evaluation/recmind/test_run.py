"""One (solver, prompting) run with scripted fakes: scores, misses, errors, calls, tokens."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from macrs_sim.agents.recmind.scripted import recmind_scripted_rules
from macrs_sim.config import DataConfig, ScriptedModel
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import open_dataset
from macrs_sim.evaluation.recmind.cases import TaskCase
from macrs_sim.evaluation.recmind.contract import SolverAnswer, SolverContext, TaskSolver
from macrs_sim.evaluation.recmind.questions import QuestionSettings
from macrs_sim.evaluation.recmind.run import TaskEnv, run_one
from macrs_sim.evaluation.recmind.scripted import task_scripted_rules
from macrs_sim.evaluation.recmind.settings import EvalSettings, Task
from macrs_sim.evaluation.recmind.solvers import SOLVERS
from macrs_sim.llm.scripted import ScriptedChatCompletionClient, ScriptedRequest
from macrs_sim.prompts import PromptLibrary


def case(user: str, target: str, candidates: tuple[str, ...] = ()) -> TaskCase:
    return TaskCase(user, ("m1", "m4", "m5"), (4.0, 2.0, None), target, 3.0, candidates)


CANDIDATES = ("m2", "m3", "m6", "m8")
CASES = [case(u, "m3", CANDIDATES) for u in ("u1", "u2", "u3", "u4")]


class FakeSolver:
    """Answers from a table by user; raises for users it has no answer for."""

    def __init__(self, answers: Mapping[str, str]) -> None:
        self.answers = answers
        self.seen: list[tuple[str, str]] = []

    async def solve(
        self, question: str, *, user_id: str, candidates: Sequence[str] = ()
    ) -> SolverAnswer:
        self.seen.append((user_id, question))
        if user_id not in self.answers:
            raise RuntimeError("tool failed\nsecond line")
        return SolverAnswer(self.answers[user_id])


def env(
    catalog: Catalog,
    prompts: PromptLibrary,
    task: Task,
    cases: list[TaskCase],
    client: ScriptedChatCompletionClient,
    **settings: object,
) -> TaskEnv:
    model = ScriptedModel()
    cfg = EvalSettings(task=task, dataset="demo", model=model, judge_model=model, **settings)  # type: ignore[arg-type]
    memory = {c.user_id: tuple(zip(c.history, c.history_ratings, strict=True)) for c in cases}
    return TaskEnv(cfg, open_dataset(DataConfig()), {i.item_id: i for i in catalog}, cases,
                   prompts, client, client, "scripted", QuestionSettings(top_n=3),
                   memory)  # fmt: skip


def register(monkeypatch: pytest.MonkeyPatch, solver: TaskSolver) -> Callable[..., TaskSolver]:
    made: list[SolverContext] = []

    def factory(ctx: SolverContext) -> TaskSolver:
        made.append(ctx)
        return solver

    monkeypatch.setitem(SOLVERS, "fake", factory)
    return factory


async def test_ranking_scores_misses_and_errors(
    catalog: Catalog, prompts: PromptLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeSolver({
        "u1": "m3 Up (2009)\nm2 The Matrix (1999)",  # target first
        "u2": "1. m2\n2. m8\n3. m3",  # target third
        "u3": "I would rather not say.",  # unparsable: a miss
    })  # u4 raises: an error, a miss  # fmt: skip
    register(monkeypatch, fake)
    the_env = env(catalog, prompts, "sequential", CASES, ScriptedChatCompletionClient())
    row, answers = await run_one(the_env, "fake", "zero-shot")
    assert row.metrics == pytest.approx(
        {"HR@5": 2 / 4, "HR@10": 2 / 4, "NDCG@5": 1.5 / 4, "NDCG@10": 1.5 / 4}
    )
    assert (row.n, row.unparsable, row.errors) == (4, 1, 1)
    assert [a.scored.position for a in answers] == [1, 3, None, None]
    assert answers[3].error == "RuntimeError: tool failed" and answers[3].answer == ""
    assert [u for u, _ in fake.seen] == ["u1", "u2", "u3", "u4"]
    assert all("Up (2009)" in q for _, q in fake.seen)  # the target is among the candidates
    assert row.calls_per_question == 0.0  # the fake made no model call


class ListingSolver:
    """Answers in prose and ranks in its items, as RecMind's Finish step does."""

    def __init__(self, items: Mapping[str, tuple[str, ...]]) -> None:
        self.items = items

    async def solve(
        self, question: str, *, user_id: str, candidates: Sequence[str] = ()
    ) -> SolverAnswer:
        return SolverAnswer("You will like these.", self.items.get(user_id, ()))


async def test_a_ranking_is_read_from_the_solvers_items_before_its_text(
    catalog: Catalog, prompts: PromptLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(monkeypatch, ListingSolver({
        "u1": ("The Matrix (1999)", "Up (2009)"),  # target second
        "u2": ("Up (2009); Amélie (2001)",),  # one item holding two titles: target first
        "u3": ("Fargo (1996)",),  # names no candidate: the text is read (names none)
    }))  # u4: no items, the text names none  # fmt: skip
    the_env = env(catalog, prompts, "direct", CASES, ScriptedChatCompletionClient())
    row, answers = await run_one(the_env, "fake", "zero-shot")
    assert [a.scored.position for a in answers] == [2, 1, None, None]
    assert [a.scored.ranked_from for a in answers] == ["items", "items", "text", "text"]
    # NDCG: 1/log2(3) for u1, 1 for u2
    assert row.metrics["NDCG@5"] == pytest.approx((1 / math.log2(3) + 1) / 4)
    # u3: "Fargo (1996)" and the text; u4: the text
    assert answers[2].scored.unmatched == ("Fargo (1996)", "You will like these.")
    assert (row.unparsable, row.unmatched) == (2, 3)
    record = answers[0].record("fake", "zero-shot")
    assert record["items"] == ["The Matrix (1999)", "Up (2009)"]
    assert record["ranked"] == ["m2", "m3"] and record["answer"] == "You will like these."


async def test_direct_solver_makes_one_call_and_tokens_add_up(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    client = ScriptedChatCompletionClient(task_scripted_rules(seed=1))
    the_env = env(catalog, prompts, "direct", CASES, client)
    row, answers = await run_one(the_env, "direct", "few-shot")
    assert row.calls_per_question == 1.0 and row.errors == row.unparsable == 0
    system = prompts.get("recmind_tasks/solver").render("system")
    # the scripted backend counts words: system + question in, the answer out
    prompt = [len(system.split()) + len(a.question.split()) for a in answers]
    assert row.prompt_tokens_per_question == pytest.approx(sum(prompt) / 4)
    completion = [len(a.answer.split()) for a in answers]
    assert row.completion_tokens_per_question == pytest.approx(sum(completion) / 4)
    assert [c.role for a in answers for c in a.calls] == ["recmind_tasks.direct"] * 4
    assert all(len(a.scored.ranked) == 3 for a in answers)  # top_n = 3 of 4 candidates


async def test_recmind_calls_and_tokens_are_counted_per_question(
    catalog: Catalog, prompts: PromptLibrary, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the memory database goes there
    client = ScriptedChatCompletionClient(recmind_scripted_rules())
    the_env = env(catalog, prompts, "direct", CASES[:2], client)
    row, answers = await run_one(the_env, "recmind-cot", "zero-shot")
    # Scripted CoT: thought, Search (the question's first line, the task's wording with no
    # history since the question names the user only, finds demo films: worded), thought,
    # SQL (the user's best-rated films: m1, m4, m5 are no demo film, so no rows and no
    # wording), thought = Finish.
    roles = ["thought", "search", "thought", "sql", "thought"]
    for a in answers:
        assert [c.role for c in a.calls] == [f"recmind.{r}" for r in roles]
        record = a.record("recmind-cot", "zero-shot")
        assert record["llm_calls"] == 5
        assert record["tokens"] == sum(c.prompt_tokens + c.completion_tokens for c in a.calls) > 0
    assert row.calls_per_question == 5.0  # nothing unattributed


async def test_same_numbers_with_questions_in_parallel(
    catalog: Catalog, prompts: PromptLibrary
) -> None:
    rows = []
    for concurrency in (1, 3):
        client = ScriptedChatCompletionClient(task_scripted_rules(seed=2))
        the_env = env(catalog, prompts, "direct", CASES, client, concurrency=concurrency)
        rows.append((await run_one(the_env, "direct", "zero-shot"))[0])
    assert rows[0].metrics == rows[1].metrics


def verdict_rule(fail_on: str) -> Callable[[ScriptedRequest], object]:
    judge = task_scripted_rules()["recmind_tasks.judge"]

    def rule(req: ScriptedRequest) -> object:
        if any(fail_on in str(m.content) for m in req.messages):
            return "not json at all"
        return judge(req)

    return rule


async def test_explanations_judged_empty_ones_lowest_judge_failures_apart(
    catalog: Catalog, prompts: PromptLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    fake = FakeSolver({
        "u1": f"Up, like Heat (1995) and Alien (1979): {words} fifteen sixteen.",
        "u2": "   ",  # empty: unparsable, scored 1 and 1 without a judge call
        "u3": "Up. BROKEN",  # the judge never answers in JSON: a judge error
    })  # fmt: skip
    register(monkeypatch, fake)
    client = ScriptedChatCompletionClient({"recmind_tasks.judge": verdict_rule("BROKEN")})  # type: ignore[dict-item]
    cases = [case(u, "m3") for u in ("u1", "u2", "u3")]
    row, answers = await run_one(
        env(catalog, prompts, "explanation", cases, client), "fake", "zero-shot"
    )
    # u1: 23 words -> quality 1 + 23 // 8 = 3; names Heat (1995) and Alien (1979) -> 3
    assert answers[0].scored.verdict is not None
    assert answers[0].scored.verdict.model_dump() == {"quality": 3, "rationality": 3}
    assert row.metrics == {"quality": (3 + 1) / 2, "rationality": (3 + 1) / 2}
    assert (row.unparsable, row.errors, row.judge_errors) == (1, 0, 1)
    assert answers[2].scored.judge_error is not None
    assert answers[2].scored.judge_error.startswith("StructuredOutputError: ExplanationVerdict")
    assert row.judge_calls == 1 + 3  # u1 once; u3 three attempts (two repairs)


async def test_rating_unparsable_is_counted_not_scored(
    catalog: Catalog, prompts: PromptLibrary, monkeypatch: pytest.MonkeyPatch
) -> None:
    register(monkeypatch, FakeSolver({"u1": "5", "u2": "ten", "u3": "3"}))
    cases = [case(u, "m3") for u in ("u1", "u2", "u3")]  # every held-out rating is 3.0
    row, _ = await run_one(env(catalog, prompts, "rating", cases, ScriptedChatCompletionClient()),
                           "fake", "zero-shot")  # fmt: skip
    # QuestionSettings' default scale 1-5: "ten" is left out -> errors 2, 0
    assert row.metrics == pytest.approx({"RMSE": math.sqrt(4 / 2), "MAE": 2 / 2})
    assert row.unparsable == 1
