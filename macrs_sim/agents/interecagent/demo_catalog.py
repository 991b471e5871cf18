"""The demonstrations' SQL in the columns of the catalog the tools read (tools/schema.py).

The demonstrations were written against the films' tables ("SELECT title, genres,
director FROM items ..."). Another catalog has categories and description where films have
genres and overview, and none of a film's people: a query is rewritten to its columns, and
a demonstration that would ask only for what the catalog lacks ("Who directed ITEM?") is
left out, since shown it the model would learn to query a column that is not there.
Films' demonstrations are kept as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from macrs_sim.agents.interecagent.demos import Demonstration
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.tools.schema import CatalogSchema

# Film columns with a same-meaning column in every other catalog (tools/schema.py _fixed).
_RENAMED = {"genres": "categories", "overview": "description"}
_SELECT = re.compile(r"^\s*SELECT\s+(.+?)\s+FROM\s+items\b", re.IGNORECASE | re.DOTALL)
# What a query asks besides: naming an item is not what the demonstration is about.
_NAMING = frozenset({"title", "year"})


def _query(sql: str, known: frozenset[str]) -> str | None:
    """`sql` over the catalog's columns, or None when what it asks for is not there."""
    found = _SELECT.match(sql)
    if found is None:
        return sql
    asked = [_RENAMED.get(c.strip().strip('"'), c.strip().strip('"'))
             for c in found.group(1).split(",")]  # fmt: skip
    kept = [c for c in asked if c in known]
    if len(kept) < len(asked) and not set(kept) - _NAMING:
        return None
    return f"SELECT {', '.join(kept)}{sql[found.end(1) :]}"


# Film columns a hard condition may name that another catalog lacks (its people).
_FILM_ONLY = re.compile(r"\b(director|cast)\b", re.IGNORECASE)


def _condition(text: str, known: frozenset[str]) -> str | None:
    """A hard condition in the catalog's columns, or None when it needs a film's people."""
    for film, other in _RENAMED.items():
        text = re.sub(rf"\b{film}\b", other, text)
    missing = {m.lower() for m in _FILM_ONLY.findall(text)} - known
    return None if missing else text


def _step(step: PlanStep, known: frozenset[str]) -> PlanStep | None:
    condition = step.input.get("condition") if isinstance(step.input, dict) else None
    if step.tool == "hard_filter" and isinstance(condition, str):
        written = _condition(condition, known)
        if written is None:
            return None
        assert isinstance(step.input, dict)
        return step.model_copy(update={"input": {**step.input, "condition": written}})
    sql = step.input.get("sql") if isinstance(step.input, dict) else None
    if step.tool != "query_info" or not isinstance(sql, str):
        return step
    query = _query(sql, known)
    if query is None:
        return None
    assert isinstance(step.input, dict)
    return step.model_copy(update={"input": {**step.input, "sql": query}})


def in_catalog(demos: Sequence[Demonstration], schema: CatalogSchema) -> list[Demonstration]:
    """`demos` whose queries read the catalog's own columns (films: all, as written)."""
    if schema.film:
        return list(demos)
    known = frozenset(c.name for c in schema.columns)
    out = []
    for demo in demos:
        steps = [_step(s, known) for s in demo.plan]
        if all(s is not None for s in steps):
            out.append(demo.model_copy(update={"plan": tuple(s for s in steps if s)}))
    return out
