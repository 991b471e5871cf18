"""The one-turn task end to end: draw cases, generate requests, ask every system, score.

    result = await run_one_turn(settings, client, InteRecAgentOptions(), cache_dir=...)
    result.summary          # one row per system: cases, errors, Recall@k or NDCG@k ...

Each case's request is written once and every system answers that same request. Given a
request set (`request_set.py`, written once by a named model), the cases and requests are
the file's, so every brain evaluated with it answers the same questions; without one, the
model under test writes them (and `result.source` says so).
A case whose generation failed is left out for every system (the paper dropped the
conversations its model refused); a system that fails on a case scores 0 there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TypeVar

import pandas as pd
from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.interecagent.build import InteRecAgentPrepared
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset, open_dataset
from macrs_sim.data.grounding import grounder_for
from macrs_sim.data.splits import Interactions, Split, interactions_of, leave_one_out
from macrs_sim.errors import ConfigError, ModelUnavailableError
from macrs_sim.evaluation.interecagent import models
from macrs_sim.evaluation.interecagent.cases import draw_cases
from macrs_sim.evaluation.interecagent.chatrec import (
    CHAT_REC_HISTORY,
    CONVERSATION,
    ConversationRetriever,
    HistoryRetriever,
    Retriever,
)
from macrs_sim.evaluation.interecagent.llm_rows import LLM_ROWS, LLMRow
from macrs_sim.evaluation.interecagent.metrics import case_score, summary_frame
from macrs_sim.evaluation.interecagent.prompts import OneTurnPrompts
from macrs_sim.evaluation.interecagent.request_set import (
    Generator,
    RequestSet,
    RequestSetHeader,
    check_dataset,
)
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
    # Table 5's LLM rows ("llm-only", "chat-rec"), and what Chat-Rec retrieves with: the
    # conversation's text (the paper's), or a ranker over the user's history (its own row).
    llm_rows: tuple[str, ...] = ()
    chatrec_ranker: str = CONVERSATION


UNDER_TEST = "the model under test"


@dataclass(frozen=True)
class RequestSource:
    """Who wrote the requests the systems answered: a request set (its path and the SHA-256
    of its bytes) and its generator, or the model under test itself (no file)."""

    generator: str
    path: str | None = None
    sha256: str | None = None

    @property
    def shared(self) -> bool:
        return self.path is not None


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
    source: RequestSource = RequestSource(UNDER_TEST)

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


async def _ask_row(
    row: LLMRow, case: OneTurnCase, request: OneTurnRequest, task: Task, k: int
) -> tuple[Answer | None, str | None]:
    try:
        return await row.answer(case, request, task, k), None
    except ModelUnavailableError:
        raise
    except Exception as err:  # a fault costs this case, never the evaluation
        return None, describe_error(err)


async def _answer_case(
    settings: OneTurnSettings,
    case: OneTurnCase,
    request: OneTurnRequest,
    agent: InteRecAgentSystem,
    references: Sequence[RankerSystem],
    rows: Sequence[LLMRow] = (),
) -> list[SystemAnswer]:
    task, k = settings.task, settings.k
    answers = [(agent.name, *await _ask_agent(agent, case, request))]
    answers += [(row.name, *await _ask_row(row, case, request, task, k)) for row in rows]
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


@dataclass(frozen=True)
class OneTurnInputs:
    """The dataset of a one-turn run, its interactions and their leave-one-out split."""

    dataset: Dataset
    data: Interactions
    split: Split

    @property
    def identity(self) -> tuple[str, str]:
        return self.data.dataset_name, self.data.fingerprint


def open_inputs(dataset: str) -> OneTurnInputs:
    cfg = DataConfig(dataset=dataset)
    opened = open_dataset(cfg)
    data = interactions_of(opened, cfg)
    return OneTurnInputs(opened, data, leave_one_out(data))


def draw(settings: OneTurnSettings, inputs: OneTurnInputs) -> list[OneTurnCase]:
    s = settings
    return draw_cases(inputs.data, inputs.split, s.task, n=s.n, k=s.k, seed=s.seed,
                      history_len=s.history_len)  # fmt: skip


async def generate_requests(
    settings: OneTurnSettings,
    client: ChatCompletionClient,
    library: PromptLibrary,
    catalog: Catalog,
    cases: Sequence[OneTurnCase],
    *,
    retries: int = 2,
) -> list[OneTurnRequest]:
    """Each case's request, written by `client`, in the order of `cases`."""
    s = settings
    prompts = OneTurnPrompts.load(library, s.task)
    return await _bounded(s.concurrency, [
        generate_request(client, prompts, catalog, c, s.task, k=s.k, retries=retries)
        for c in cases
    ])  # fmt: skip


def check_request_set(
    settings: OneTurnSettings, request_set: RequestSet, inputs: OneTurnInputs
) -> None:
    """A request set must be this dataset's and made with the run's settings (one line if not)."""
    h = request_set.header
    check_dataset(request_set.path, h, inputs.identity)
    for flag, made, given in (
        ("--task", h.task, settings.task), ("--n", h.n, settings.n), ("--k", h.k, settings.k),
        ("--seed", h.seed, settings.seed), ("--history-len", h.history_len, settings.history_len),
    ):  # fmt: skip
        if made != given:
            raise ConfigError(
                f"{flag} {given}: the request set {request_set.path} was made with"
                f" {flag} {made}; leave {flag} out (the request set fixes it)"
            )


def settings_of(request_set: RequestSet, settings: OneTurnSettings) -> OneTurnSettings:
    """`settings` with the task, n, k, seed and history length the request set was made with."""
    h = request_set.header
    return replace(settings, task=h.task, n=h.n, k=h.k, seed=h.seed, history_len=h.history_len)


def request_set_header(
    settings: OneTurnSettings,
    inputs: OneTurnInputs,
    generator: Generator,
    requests: Sequence[OneTurnRequest],
) -> RequestSetHeader:
    """The header of the request set `generator` wrote for `settings` on this dataset."""
    s = settings
    name, fingerprint = inputs.identity
    return RequestSetHeader(
        generator=generator.name, generator_model=generator.model,
        temperature=generator.temperature, dataset=name, dataset_fingerprint=fingerprint,
        task=s.task, n=s.n, k=s.k, seed=s.seed, history_len=s.history_len,
        failed=sum(r.error is not None for r in requests),
    )  # fmt: skip


async def _requests_for(
    s: OneTurnSettings,
    client: ChatCompletionClient,
    library: PromptLibrary,
    catalog: Catalog,
    cases: Sequence[OneTurnCase],
    request_set: RequestSet | None,
    retries: int,
) -> tuple[list[OneTurnRequest], RequestSource]:
    if request_set is not None:
        source = RequestSource(request_set.header.generator, str(request_set.path),
                               request_set.sha256)  # fmt: skip
        return request_set.requests, source
    requests = await generate_requests(s, client, library, catalog, cases, retries=retries)
    return requests, RequestSource(UNDER_TEST)


def llm_rows(
    s: OneTurnSettings,
    client: ChatCompletionClient,
    library: PromptLibrary,
    inputs: OneTurnInputs,
    cache: Path,
    prepared: InteRecAgentPrepared,
) -> list[LLMRow]:
    """Table 5's LLM rows asked for, on the same model; Chat-Rec for retrieval only."""
    catalog = inputs.dataset.catalog
    seen = models.without_targets(inputs.dataset, inputs.data, inputs.split)
    grounder = grounder_for(catalog, inputs.dataset.domain, popularity=seen.popularity)
    out = []
    retriever: Retriever | None
    for key in s.llm_rows:
        if key == "chat-rec" and s.task == "ranking":
            continue  # the paper omits it: without its retrieval stage it is the LLM alone
        name, retriever = LLM_ROWS[key], None
        if key == "chat-rec" and s.chatrec_ranker == CONVERSATION:
            res = prepared.resources
            retriever = ConversationRetriever(
                [item.item_id for item in catalog], seen.popularity, res.text, res.bm25
            )  # fmt: skip
        elif key == "chat-rec":
            ranker = models.reference_systems([s.chatrec_ranker], inputs.data, inputs.split,
                                              cache, s.seed)[0]  # fmt: skip
            name, retriever = CHAT_REC_HISTORY, HistoryRetriever(ranker)
        out.append(LLMRow(name, client, library, catalog, grounder, retriever))
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
    inputs: OneTurnInputs | None = None,
    request_set: RequestSet | None = None,
) -> OneTurnResult:
    """`client` is InteRecAgent's model and, without `request_set`, writes the requests too;
    `options` its settings (`fetch_k` is set to k). Models train on the leave-one-out split,
    cached in `cache_dir` (default: beside the dataset, as `models train`). `request_set`:
    the requests every system answers, read for this dataset (its settings must be these)."""
    check_settings(settings)
    step = on_step or (lambda line: None)
    s = settings
    inputs = inputs or open_inputs(s.dataset)
    if request_set is not None:
        check_request_set(s, request_set, inputs)
    data, split = inputs.data, inputs.split
    cases = request_set.cases if request_set is not None else draw(s, inputs)
    cache = cache_dir or default_cache_dir(data)
    baselines = models.check_baselines(s.baselines)
    step(f"training (or loading) InteRecAgent's {options.ranker} and the reference rankers")
    options = options.model_copy(update={"fetch_k": s.k})
    prepared = models.prepare_interecagent(
        options, inputs.dataset, data, split, cache, use_text_model=use_text_model
    )
    references = models.reference_systems(baselines, data, split, cache, s.seed)
    library = (prompts or PromptLibrary()).for_domain(inputs.dataset.domain)
    agent = InteRecAgentSystem(options, prepared, client, library)
    rows = llm_rows(s, client, library, inputs, cache, prepared)
    step(f"generating {s.n} {s.task} requests" if request_set is None
         else f"using the {s.n} {s.task} requests of {request_set.path}")  # fmt: skip
    requests, source = await _requests_for(s, client, library, inputs.dataset.catalog, cases,
                                           request_set, options.retries)  # fmt: skip
    step("asking every system")
    usable = [(c, r) for c, r in zip(cases, requests, strict=True) if r.error is None]
    per_case = await _bounded(s.concurrency, [
        _answer_case(s, c, r, agent, references, rows) for c, r in usable
    ])  # fmt: skip
    answers = [a for group in per_case for a in group]
    frame = pd.DataFrame([a.model_dump() for a in answers], columns=list(SystemAnswer.model_fields))
    return OneTurnResult(
        settings=s, dataset_name=data.dataset_name, fingerprint=data.fingerprint,
        n_items=data.n_items, cases=cases, requests=requests, answers=answers,
        summary=summary_frame(frame, s.task, s.k), source=source,
    )  # fmt: skip
