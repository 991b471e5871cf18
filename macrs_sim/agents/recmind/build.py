"""Building RecMind's parts: campaign- or task-scoped resources, then one reasoner per use.

Plain arguments, so the system registry and the offline task solver each wrap it in a few
lines.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.recmind.actions import RecMindTools
from macrs_sim.agents.recmind.budget import Budget, context_of
from macrs_sim.agents.recmind.calls import Caller
from macrs_sim.agents.recmind.memory import History, database_info, memory_database
from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.prompts import RecMindPrompts
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.recmind.search import Bm25Search, SearchBackend, WebSearch
from macrs_sim.data.dataset import Dataset
from macrs_sim.errors import ConfigError
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import Bm25Index, ItemResolver, SqlQueryTool, ToolCallLog

# The search tool is never dropped in silence: the model would plan without it unaware.
BM25_MISSING = (
    'search_tool: the "bm25" search needs the bm25s package (pip install bm25s, or the '
    "recsys extra), which is not installed; set search_tool = false to run without search"
)


@dataclass(frozen=True)
class RecMindResources:
    dataset: Dataset
    # The memory database: the catalog and the visible histories (memory.py).
    database: Path
    resolver: ItemResolver
    bm25: Bm25Index | None
    # Campaign: a sample's history -> its user id (SystemContext gives the history only).
    users: Mapping[tuple[str, ...], str] = field(default_factory=dict)


def resources(
    dataset: Dataset,
    histories: Mapping[str, History],
    cache_dir: Path,
    *,
    users: Mapping[tuple[str, ...], str] | None = None,
) -> RecMindResources:
    """The memory database written and the BM25 index built (when bm25s is installed)."""
    bm25 = Bm25Index(dataset.catalog, dataset.domain) if has_bm25() else None
    if bm25 is not None:
        bm25.build()
    db = memory_database(dataset, histories, cache_dir)
    return RecMindResources(dataset, db, ItemResolver(dataset.catalog), bm25, dict(users or {}))


def search_backend(
    options: RecMindOptions, res: RecMindResources, log: ToolCallLog | None
) -> SearchBackend | None:
    """None when the options turn search off; a missing bm25s is a ConfigError."""
    if not options.search_tool:
        return None
    if options.search_backend == "web":
        return WebSearch.from_env(options.web_api_key_env, log=log)
    if res.bm25 is None:
        raise ConfigError(BM25_MISSING)
    return Bm25Search(res.bm25, res.resolver, log=log)


def has_bm25() -> bool:
    return importlib.util.find_spec("bm25s") is not None


def reasoner(
    options: RecMindOptions,
    res: RecMindResources,
    *,
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    system: str,
    dialogue_id: str | None,
    log: ToolCallLog | None,
    temperature: float = 0.0,
) -> Reasoner:
    """`temperature`: the model's (the run's); ToT's ballots follow it unless
    `options.vote_temperature` names one."""
    caller = Caller(client, system=system, dialogue_id=dialogue_id, retries=options.retries)
    loaded = RecMindPrompts.load(prompts)
    sql = SqlQueryTool(res.database, log=log, name="sql") if options.sql_tool else None
    tools = RecMindTools(
        caller, loaded, sql=sql, search=search_backend(options, res, log),
        summarize=options.summarize_tool, result_to_text=options.result_to_text,
        database_info=database_info(res.database),
        budget=Budget(context_of(client, options.context_tokens)),
    )  # fmt: skip
    return Reasoner(caller, loaded, tools, temperature=temperature,
                    vote_temperature=options.vote_temperature)  # fmt: skip
