"""`eval recmind TASK DATASET`: every (solver, prompting) run of one task, end to end.

Everything that can be wrong (dataset, ratings, review text, candidate list size, solver
names, the RecMind agent's presence, the models) is checked before the first question, and
files are written only after the last run: bad input costs nothing and leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.recmind.memory import leave_one_out_visible, memory_histories
from macrs_sim.config import DataConfig, ModelConfig, OpenAIModel, ScriptedModel
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.domain import Domain
from macrs_sim.data.splits import Interactions, interactions_of, with_visible_popularity
from macrs_sim.errors import DataError
from macrs_sim.evaluation.recmind.cases import TaskCase, build_cases
from macrs_sim.evaluation.recmind.output import write_outputs
from macrs_sim.evaluation.recmind.questions import QuestionSettings
from macrs_sim.evaluation.recmind.ratings import Ratings, load_ratings
from macrs_sim.evaluation.recmind.results import Answer, RunRow
from macrs_sim.evaluation.recmind.reviews import read_reviews
from macrs_sim.evaluation.recmind.run import TaskEnv, run_one
from macrs_sim.evaluation.recmind.scripted import task_scripted_rules
from macrs_sim.evaluation.recmind.settings import RANKING_TASKS, EvalSettings
from macrs_sim.evaluation.recmind.solvers import check_solver
from macrs_sim.llm.accounting import CallLog
from macrs_sim.llm.factory import build_client, preflight
from macrs_sim.llm.scripted import Rule
from macrs_sim.prompts import PromptLibrary


@dataclass(frozen=True)
class EvalResult:
    settings: EvalSettings
    data: Interactions
    rows: list[RunRow]
    files: list[Path]


def _ratings(settings: EvalSettings, data: Interactions) -> Ratings | None:
    """Needed by rating prediction; kept for the others when the dataset has them (memory)."""
    if settings.task == "rating" or data.database is not None:
        return load_ratings(data)
    return None


def _rules(cfg: ModelConfig, titles: list[str], domain: Domain) -> dict[str, Rule] | None:
    if not isinstance(cfg, ScriptedModel):
        return None
    from macrs_sim.agents.registry import scripted_rules_of_all

    return {**scripted_rules_of_all(titles, domain),
            **task_scripted_rules(titles, seed=cfg.seed, domain=domain)}  # fmt: skip


# What a task's held-out interaction needs, for the line that says no user has it.
_NEEDS = {"rating": "a rated last interaction and ",
          "summary": "a last review with a summary of its own (not an automatic one such as "
                     "'Five Stars') and "}  # fmt: skip


def _cases(settings: EvalSettings, data: Interactions, ratings: Ratings | None) -> list[TaskCase]:
    """The run's test cases; DataError (one line) when the data gives none."""
    reviews = read_reviews(data) if settings.task == "summary" else None
    cases = build_cases(
        data, n_users=settings.users, seed=settings.seed,
        n_candidates=settings.candidates if settings.task in RANKING_TASKS else 0,
        ratings=ratings.by_user if ratings else None, need_rating=settings.task == "rating",
        reviews=reviews,
    )  # fmt: skip
    if not cases:
        what = _NEEDS.get(settings.task, "")
        raise DataError(f"{data.dataset_name}: no user has {what}3 or more interactions")
    return cases


def model_name(cfg: ModelConfig) -> str:
    return cfg.model if isinstance(cfg, OpenAIModel) else cfg.backend


async def _clients(
    settings: EvalSettings, titles: list[str], domain: Domain
) -> tuple[ChatCompletionClient, ChatCompletionClient]:
    """The solvers' model and the judge's (one client when they are the same model)."""
    made: dict[str, ChatCompletionClient] = {}
    out = []
    for cfg in (settings.model, settings.judge_model):
        key = cfg.model_dump_json()
        if key not in made:
            resolved = await preflight(cfg)
            made[key] = build_client(resolved, temperature=settings.temperature, log=CallLog(),
                                     scripted_rules=_rules(resolved, titles, domain))  # fmt: skip
        out.append(made[key])
    return out[0], out[1]


def _quiet(_: str) -> None:
    return None


async def evaluate(
    settings: EvalSettings,
    out: Path,
    notify: Callable[[str], None] = _quiet,
    progress: Callable[[int], Callable[[], None]] | None = None,
) -> EvalResult:
    """`progress(total questions)` returns what to call after each answer."""
    for name in settings.solvers:
        check_solver(name, settings.task)
    cfg = DataConfig(dataset=settings.dataset)
    dataset = open_dataset(cfg)
    data = interactions_of(dataset, cfg)
    # Every user's last item is held out, asked or not: memory and the SQL tool's
    # interaction counts never hold one, and do not change with --users.
    visible = leave_one_out_visible(data)
    dataset = with_visible_popularity(dataset, data, visible)
    ratings = _ratings(settings, data)
    memory = memory_histories(data, visible, ratings.by_user if ratings else {})
    cases = _cases(settings, data, ratings)
    scale = (ratings.low, ratings.high) if ratings else (1.0, 5.0)
    questions = QuestionSettings(settings.top_n, settings.history_len, settings.shots, *scale)
    if out.exists() and not out.is_dir():
        raise DataError(f"--out {out}: not a folder (expected where the results go)")
    items = {item.item_id: item for item in dataset.catalog}
    titles = [i.display_title for i in dataset.catalog]
    client, judge = await _clients(settings, titles, dataset.domain)
    try:
        prompts = PromptLibrary(domain=dataset.domain)
        env = TaskEnv(settings, dataset, items, cases, prompts, client, judge,
                      model_name(settings.model), questions, memory, data)  # fmt: skip
        step = (
            progress(len(cases) * len(settings.solvers) * len(settings.prompting))
            if progress
            else None
        )
        rows: list[RunRow] = []
        answers: list[tuple[str, str, list[Answer]]] = []
        for solver in settings.solvers:
            for prompting in settings.prompting:
                row, run = await run_one(env, solver, prompting, step)
                rows.append(row)
                answers.append((solver, prompting, run))
                notify(f"{solver} {prompting}: {row.n} questions in {row.total_seconds:.1f} s")
    finally:
        await client.close()
        if judge is not client:
            await judge.close()
    files = write_outputs(out, settings, data, rows, answers)
    return EvalResult(settings, data, rows, files)
