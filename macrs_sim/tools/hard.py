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
from macrs_sim.tools.condition import (
    QUERY_ALIAS,
    check_condition,
    clean_condition,
    has_order_by,
    whole_query,
)
from macrs_sim.tools.items import ItemHit, ItemHits, render_hits
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.readonly_db import query
from macrs_sim.tools.schema import FILM_SCHEMA, CatalogSchema, read_schema
from macrs_sim.tools.sql import DEFAULT_HIDDEN
from macrs_sim.tools.sql_values import ValueGrounder

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
    # The condition's own query ordered the items (ORDER BY), not `order_by`.
    query_order: bool = False
    # The condition as run, when a table or category was grounded in the catalog.
    rewritten: str | None = None


# Every matching row is read (the bus is filtered here, not inlined as SQL parameters).
_ALL_ROWS = 10_000_000
_NO_ID = f"no such column: {QUERY_ALIAS}.item_id"


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
        """Every match in `order_by` order (or the query's ORDER BY), filtered to `within`
        in Python: a bus of any size, no SQL parameter per item."""
        self._check_genres(args)
        args, rewritten = self._grounded(args)
        where, params = _where(args, self.catalog_schema)
        order_by = _ORDER[args.order_by]
        sql = f"SELECT item_id, title, year FROM items WHERE {where} ORDER BY {order_by}"
        rows = self._rows(sql, params)
        if args.within is not None:
            wanted = set(args.within)
            rows = [r for r in rows if r[0] in wanted]
        order = self._query_order(args)
        if order is not None:
            rows.sort(key=lambda r: order.get(r[0], len(order)))
        hits = [ItemHit(item_id=r[0], title=_display(r[1], r[2])) for r in rows[: args.limit]]
        return HardHits(hits=tuple(hits), more=len(rows) > args.limit,
                        query_order=order is not None, rewritten=rewritten)  # fmt: skip

    def _rows(self, sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
        try:
            return self._run(sql, params, _ALL_ROWS)[0]
        except ToolInputError as err:
            if _NO_ID in str(err):
                raise ToolInputError(
                    "refused: the query must return item_id (SELECT item_id FROM items WHERE ...)"
                ) from None
            raise

    def _grounded(self, args: HardFilterArgs) -> tuple[HardFilterArgs, str | None]:
        if not isinstance(args, HardConditionArgs) or args.condition is None:
            return args, None
        schema = self.catalog_schema
        self._check_genres(HardFilterArgs())
        grounder = ValueGrounder(
            ["items", schema.category_table], [schema.columns[3].name, schema.category_column],
            sorted((self._genres or {}).values()),
        )  # fmt: skip
        condition = grounder.ground(args.condition)
        if condition == args.condition:
            return args, None
        return args.model_copy(update={"condition": condition}), condition

    def _query_order(self, args: HardFilterArgs) -> dict[str, int] | None:
        """A whole query's own order (ORDER BY ...), item id to position; None otherwise."""
        if not isinstance(args, HardConditionArgs) or args.condition is None:
            return None
        query = whole_query(clean_condition(args.condition))
        if query is None or not has_order_by(query):
            return None
        sql = f"SELECT {QUERY_ALIAS}.item_id FROM ({query}) AS {QUERY_ALIAS}"
        ids = [r[0] for r in self._rows(sql, [])]
        return {i: n for n, i in reversed(list(enumerate(ids)))}

    def render(self, result: HardHits) -> str:
        return render_hits(result, "No item meets these conditions.")


def _display(title: str, year: int | None) -> str:
    return f"{title.strip()} ({year})" if year else title.strip()
