"""`filter_items`: hard conditions as parameterised SQL, and (`sql_condition=True`) a
model-written SQL condition over the items table (the paper's SQL retrieval tool).

A written condition runs read-only (`readonly_db`: authorizer, row and time limits), after
`check_condition` (tools/condition.py) has made sure it is one boolean expression.

Categories: the typed fields keep their film names (`genres`, `exclude_genres`: the
InteRecAgent plans and demonstrations use them) in every domain; they read the database's
category table (item_genres for films, item_categories otherwise), and the description
and errors use the domain's word ("cuisines"). The condition's example names the
catalog's own columns (tools/schema.py).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from macrs_sim.data.domain_words import plural_of
from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.condition import check_condition
from macrs_sim.tools.items import ItemHit, ItemHits, render_hits
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.readonly_db import query
from macrs_sim.tools.schema import FILM_SCHEMA, CatalogSchema, read_schema
from macrs_sim.tools.sql import DEFAULT_HIDDEN

_ORDER = {
    "popularity": "n_interactions DESC, rowid",
    "year": "year DESC, rowid",
    "title": "title COLLATE NOCASE, rowid",
}


class HardFilterArgs(BaseModel):
    genres: ItemList = Field(default=[], description="The item must have every one of these.")
    exclude_genres: ItemList = Field(default=[], description="The item has none of these.")
    year_min: int | None = Field(default=None, description="Released in or after this year.")
    year_max: int | None = Field(default=None, description="Released in or before this year.")
    min_interactions: int | None = Field(default=None, description="At least this many users.")
    max_interactions: int | None = Field(default=None, description="At most this many users.")
    within: ItemList | None = Field(default=None, description="Only among these item ids.")
    order_by: Literal["popularity", "year", "title"] = "popularity"
    limit: int = Field(default=20, ge=1, le=200)


def _condition_text(example: str) -> str:
    return f"A SQL condition over the items table (what follows WHERE), e.g. {example}."


class HardConditionArgs(HardFilterArgs):
    text_field: ClassVar[str] = "condition"
    condition: str | None = Field(
        default=None, max_length=2000, description=_condition_text(FILM_SCHEMA.example)
    )


@functools.cache
def condition_args(example: str) -> type[HardConditionArgs]:
    """HardConditionArgs whose condition's example is `example` (a catalog's columns)."""
    if example == FILM_SCHEMA.example:
        return HardConditionArgs

    class DomainConditionArgs(HardConditionArgs):
        condition: str | None = Field(
            default=None, max_length=2000, description=_condition_text(example)
        )

    return DomainConditionArgs


class HardHits(ItemHits):
    # More items met the conditions than `limit` let through.
    more: bool = False


def _where(args: HardFilterArgs, schema: CatalogSchema) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    table, column = schema.category_table, schema.category_column
    genre_sql = f"SELECT item_id FROM {table} WHERE {column} = ? COLLATE NOCASE"
    for genre in args.genres:
        clauses.append(f"item_id IN ({genre_sql})")
        params.append(genre)
    for genre in args.exclude_genres:
        clauses.append(f"item_id NOT IN ({genre_sql})")
        params.append(genre)
    bounds = [
        ("year >= ?", args.year_min), ("year <= ?", args.year_max),
        ("n_interactions >= ?", args.min_interactions),
        ("n_interactions <= ?", args.max_interactions),
    ]  # fmt: skip
    for clause, value in bounds:
        if value is not None:
            clauses.append(clause)
            params.append(value)
    if args.within is not None:
        clauses.append(f"item_id IN ({', '.join('?' * len(args.within))})")
        params += args.within
    if isinstance(args, HardConditionArgs) and args.condition is not None:
        clauses.append(f"({check_condition(args.condition)})")
    return " AND ".join(clauses) or "1", params


class HardFilterTool(RecTool[HardFilterArgs, HardHits]):
    def __init__(
        self,
        database: Path,
        *,
        schema: CatalogSchema | None = None,
        log: ToolCallLog | None = None,
        name: str = "filter_items",
        sql_condition: bool = False,
        time_limit_s: float = 5.0,
    ) -> None:
        self.catalog_schema = schema or read_schema(database)
        labels = plural_of(self.catalog_schema.category_label)
        fields = "" if labels == "genres" else " (`genres`, `exclude_genres`)"
        description = (
            f"Find items that meet hard conditions: all of some {labels}, none of others"
            f"{fields}, a release-year range, a range of how many users interacted with it. "
            "Returns ids."
        )
        if sql_condition:
            description += " Or any read-only SQL condition over the items table."
        args_type = condition_args(self.catalog_schema.example) if sql_condition else HardFilterArgs
        super().__init__(args_type, name, description, log)
        self.database = database
        self.time_limit_s = time_limit_s
        self._genres: dict[str, str] | None = None

    def _run(self, sql: str, params: list[Any], rows: int) -> tuple[list[tuple[Any, ...]], bool]:
        _, found, more = query(
            self.database, sql, tuple(params), max_rows=rows, time_limit_s=self.time_limit_s,
            hidden_tables=DEFAULT_HIDDEN,
        )  # fmt: skip
        return found, more

    def _check_genres(self, args: HardFilterArgs) -> None:
        if self._genres is None:
            table, column = self.catalog_schema.category_table, self.catalog_schema.category_column
            sql = f"SELECT DISTINCT {column} FROM {table} ORDER BY {column}"
            rows = self._run(sql, [], 100_000)[0]
            self._genres = {str(g).casefold(): str(g) for (g,) in rows}
        bad = [g for g in args.genres + args.exclude_genres if g.casefold() not in self._genres]
        if bad:
            known = ", ".join(sorted(self._genres.values()))
            label = self.catalog_schema.category_label
            raise ToolInputError(f"unknown {label} {', '.join(map(repr, bad))}; known: {known}")

    def compute(self, args: HardFilterArgs) -> HardHits:
        self._check_genres(args)
        where, params = _where(args, self.catalog_schema)
        sql = (
            "SELECT item_id, title, year FROM items "
            f"WHERE {where} ORDER BY {_ORDER[args.order_by]} LIMIT ?"
        )
        rows, more = self._run(sql, [*params, args.limit + 1], args.limit)
        hits = [ItemHit(item_id=r[0], title=_display(r[1], r[2])) for r in rows]
        return HardHits(hits=tuple(hits), more=more)

    def render(self, result: HardHits) -> str:
        return render_hits(result, "No item meets these conditions.")


def _display(title: str, year: int | None) -> str:
    return f"{title.strip()} ({year})" if year else title.strip()
