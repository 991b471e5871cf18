"""The bus tools' names, their inputs, and plan repair (aliases, a missing fetch)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.tools.args import ItemList

STORE, QUERY, HARD, SOFT, RANK, FETCH = (
    "store_candidates", "query_info", "hard_filter", "soft_filter", "rank_candidates",
    "fetch_candidates",
)  # fmt: skip
TOOL_NAMES = (STORE, QUERY, HARD, SOFT, RANK, FETCH)
# Tools that change the bus: a plan with one of them should end by fetching.
NARROWING = frozenset({STORE, HARD, SOFT, RANK})
# Names models tend to write (the toolkit's own names, the paper's wording).
ALIASES = {
    "candidates_storing": STORE, "candidate_storing": STORE, "store": STORE,
    "sql_query": QUERY, "query": QUERY, "sql": QUERY, "item_info": QUERY,
    "filter_items": HARD, "sql_retrieval": HARD, "hard_condition_retrieval": HARD,
    "similar_items": SOFT, "itemcf_retrieval": SOFT, "item_cf_retrieval": SOFT,
    "similar_to_description": SOFT, "soft_condition_retrieval": SOFT,
    "rank_items": RANK, "rank": RANK, "ranking": RANK,
    "fetch": FETCH, "candidate_fetching": FETCH, "fetch_items": FETCH,
}  # fmt: skip


class StoreInput(BaseModel):
    text_field: ClassVar[str] = "items"
    items: ItemList = Field(min_length=1, max_length=50)


class QueryInput(BaseModel):
    text_field: ClassVar[str] = "sql"
    sql: str = Field(min_length=1)


class SoftInput(BaseModel):
    text_field: ClassVar[str] = "description"
    items: ItemList = Field(default=[], max_length=50)
    description: str = ""


class RankInput(BaseModel):
    text_field: ClassVar[str] = "by"
    by: Literal["preference", "popularity", "similarity"] = "preference"
    query: str | None = None


class FetchInput(BaseModel):
    text_field: ClassVar[str] = "k"
    k: int | None = Field(default=None, ge=1, le=20)


def tool_name(raw: str) -> str | None:
    """The bus tool a written name means (case, spaces, hyphens and aliases forgiven)."""
    key = re.sub(r"[\s\-]+", "_", raw.strip().lower())
    if key in TOOL_NAMES:
        return key
    return ALIASES.get(key)


def repair_plan(steps: Sequence[PlanStep]) -> tuple[list[PlanStep], list[str]]:
    """Known aliases renamed; a plan that changed the bus but shows nothing gets a fetch."""
    out: list[PlanStep] = []
    notes: list[str] = []
    for step in steps:
        name = tool_name(step.tool)
        if name is not None and name != step.tool:
            notes.append(f"renamed tool {step.tool!r} to {name!r}")
            step = PlanStep(tool=name, input=step.input)
        out.append(step)
    names = [tool_name(s.tool) for s in out]
    if any(n in NARROWING for n in names) and FETCH not in names:
        out.append(PlanStep(tool=FETCH, input={}))
        notes.append("appended fetch_candidates: the plan changed the bus but showed nothing")
    return out, notes


def input_dict(raw: dict[str, Any] | str, model: type[BaseModel]) -> dict[str, Any]:
    """A text input goes to the tool's main argument."""
    if isinstance(raw, dict):
        return raw
    field = getattr(model, "text_field", None)
    return {field: raw.strip()} if isinstance(field, str) else {"": raw}
