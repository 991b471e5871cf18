"""The one-turn task end to end: draw cases, generate requests, ask every system, score.

    result = await run_one_turn(settings, client, InteRecAgentOptions(), cache_dir=...)
    result.summary          # one row per system: cases, errors, Recall@k or NDCG@k ...

The model writes each case's request once; every system answers that same request.
A case whose generation failed is left out for every system (the paper dropped the
conversations its model refused); a system that fails on a case scores 0 there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pandas as pd
from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.splits import interactions_of, leave_one_out
from macrs_sim.errors import ConfigError, ModelUnavailableError
from macrs_sim.evaluation.interecagent import models
from macrs_sim.evaluation.interecagent.cases import draw_cases
from macrs_sim.evaluation.interecagent.metrics import case_score, summary_frame
from macrs_sim.evaluation.interecagent.prompts import OneTurnPrompts
from macrs_sim.evaluation.interecagent.requests import dialogue_state, generate_request
from macrs_sim.evaluation.interecagent.schemas import (
    OneTurnCase,
    OneTurnRequest,
    SystemAnswer,
    Task,
)
from macrs_sim.evaluation.interecagent.systems import Answer, InteRecAgentSystem, RankerSystem
from macrs_sim.llm.structured import describe_error
from macrs_sim.prompts import PromptLibrary
from macrs_sim.rankers.cache import default_cache_dir

T = TypeVar("T")
# The fetch tool shows at most this many items: the largest k InteRecAgent can answer.
MAX_K = 20


@dataclass(frozen=True)
class OneTurnSettings:
    dataset: str
    task: Task
    n: int
    k: int
    seed: int = 0
    history_len: int = 20
    baselines: tuple[str, ...] = ("popularity", "sasrec")
    concurrency: int = 4


@dataclass
class OneTurnResult:
    settings: OneTurnSettings
    dataset_name: str
    fingerprint: str
    n_items: int
    cases: list[OneTurnCase]
    requests: list[OneTurnRequest]
    answers: list[SystemAnswer]
    summary: pd.DataFrame = field(repr=False)

    @property
    def failed_requests(self) -> int:
        return sum(r.error is not None for r in self.requests)


def check_settings(s: OneTurnSettings) -> None:
    """One line for a setting no run could use."""
    lowest = 2 if s.task == "ranking" else 1
    if not lowest <= s.k <= MAX_K:
        what = "candidates to rank" if s.task == "ranking" else "items to retrieve"
        raise ConfigError(f"--k {s.k}: expected {lowest} to {MAX_K} ({what})")
    for flag, value in (
        ("--n", s.n),
        ("--history-len", s.history_len),
        ("--concurrency", s.concurrency),
    ):
        if value < 1:
            raise ConfigError(f"{flag} {value}: expected a positive integer")


async def _bounded(limit: int, jobs: Sequence[Awaitable[T]]) -> list[T]:
    """Await `jobs` (coroutines not started yet), at most `limit` at a time, results in order."""
    gate = asyncio.Semaphore(limit)

    async def one(job: Awaitable[T]) -> T:
        async with gate:
            return await job

    return list(await asyncio.gather(*(one(j) for j in jobs)))


async def _ask_agent(
    agent: InteRecAgentSystem, case: OneTurnCase, request: OneTurnRequest
) -> tuple[Answer | None, str | None]:
    try:
        return await agent.answer(case, dialogue_state(case.case_id, request.utterances)), None
    except ModelUnavailableError:
        raise  # the endpoint is gone: every case would fail; stop with its one line
    except Exception as err:  # a fault costs this case, never the evaluation
        return None, describe_error(err)


async def _answer_case(
    settings: OneTurnSettings,
    case: OneTurnCase,
    request: OneTurnRequest,
    agent: InteRecAgentSystem,
    references: Sequence[RankerSystem],
) -> list[SystemAnswer]:
    task, k = settings.task, settings.k
    answers = [(agent.name, *await _ask_agent(agent, case, request))]
    answers += [(r.name, r.answer(case, task, k), None) for r in references]
    out = []
    for name, answer, error in answers:
        items = answer.items if answer else ()
        rank, score = case_score(task, items, case.target_id, k)
        out.append(SystemAnswer(
            case_id=case.case_id, system=name, items=items, rank=rank, score=score,
            llm_calls=answer.llm_calls if answer else 0, error=error,
        ))  # fmt: skip
    return out


async def run_one_turn(
    settings: OneTurnSettings,
    client: ChatCompletionClient,
    options: InteRecAgentOptions,
    *,
    cache_dir: Path | None = None,
    prompts: PromptLibrary | None = None,
    use_text_model: bool = True,
    on_step: Callable[[str], None] | None = None,
) -> OneTurnResult:
    """`client` writes the requests and is InteRecAgent's model; `options` its settings
    (`fetch_k` is set to k). Models train on the leave-one-out split, cached in `cache_dir`
    (default: beside the dataset, as `models train`)."""
    check_settings(settings)
    step = on_step or (lambda line: None)
    s = settings
    cfg = DataConfig(dataset=s.dataset)
    dataset = open_dataset(cfg)
    data = interactions_of(dataset, cfg)
    split = leave_one_out(data)
    cases = draw_cases(data, split, s.task, n=s.n, k=s.k, seed=s.seed, history_len=s.history_len)
    cache = cache_dir or default_cache_dir(data)
    baselines = models.check_baselines(s.baselines)
    step(f"training (or loading) InteRecAgent's {options.ranker} and the reference rankers")
    options = options.model_copy(update={"fetch_k": s.k})
    prepared = models.prepare_interecagent(
        options, dataset, data, split, cache, use_text_model=use_text_model
    )
    references = models.reference_systems(baselines, data, split, cache, s.seed)
    library = prompts or PromptLibrary()
    agent = InteRecAgentSystem(options, prepared, client, library)
    one_turn = OneTurnPrompts.load(library, s.task)
    step(f"generating {len(cases)} {s.task} requests")
    requests = await _bounded(s.concurrency, [
        generate_request(client, one_turn, dataset.catalog, c, s.task, k=s.k,
                         retries=options.retries)
        for c in cases
    ])  # fmt: skip
    step("asking every system")
    usable = [(c, r) for c, r in zip(cases, requests, strict=True) if r.error is None]
    per_case = await _bounded(s.concurrency, [
        _answer_case(s, c, r, agent, references) for c, r in usable
    ])  # fmt: skip
    answers = [a for group in per_case for a in group]
    frame = pd.DataFrame([a.model_dump() for a in answers], columns=list(SystemAnswer.model_fields))
    return OneTurnResult(
        settings=s, dataset_name=data.dataset_name, fingerprint=data.fingerprint,
        n_items=data.n_items, cases=cases, requests=requests, answers=answers,
        summary=summary_frame(frame, s.task, s.k),
    )  # fmt: skip
