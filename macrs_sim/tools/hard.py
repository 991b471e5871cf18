"""`filter_items`: hard conditions (genres, years, popularity) as parameterised SQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.items import ItemHit, ItemHits, render_hits
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.readonly_db import query

_ORDER = {
    "popularity": "i.n_interactions DESC, i.rowid",
    "year": "i.year DESC, i.rowid",
    "title": "i.title COLLATE NOCASE, i.rowid",
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


def _where(args: HardFilterArgs) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    genre_sql = "SELECT item_id FROM item_genres WHERE genre = ? COLLATE NOCASE"
    for genre in args.genres:
        clauses.append(f"i.item_id IN ({genre_sql})")
        params.append(genre)
    for genre in args.exclude_genres:
        clauses.append(f"i.item_id NOT IN ({genre_sql})")
        params.append(genre)
    bounds = [
        ("i.year >= ?", args.year_min), ("i.year <= ?", args.year_max),
        ("i.n_interactions >= ?", args.min_interactions),
        ("i.n_interactions <= ?", args.max_interactions),
    ]  # fmt: skip
    for clause, value in bounds:
        if value is not None:
            clauses.append(clause)
            params.append(value)
    if args.within is not None:
        clauses.append(f"i.item_id IN ({', '.join('?' * len(args.within))})")
        params += args.within
    return " AND ".join(clauses) or "1", params


class HardFilterTool(RecTool[HardFilterArgs, ItemHits]):
    def __init__(
        self, database: Path, *, log: ToolCallLog | None = None, name: str = "filter_items"
    ) -> None:
        description = (
            "Find items that meet hard conditions: all of some genres, none of others, a "
            "release-year range, a range of how many users interacted with it. Returns ids."
        )
        super().__init__(HardFilterArgs, name, description, log)
        self.database = database
        self._genres: dict[str, str] | None = None

    def _run(self, sql: str, params: list[Any], rows: int) -> list[tuple[Any, ...]]:
        return query(self.database, sql, tuple(params), max_rows=rows, time_limit_s=5.0)[1]

    def _check_genres(self, args: HardFilterArgs) -> None:
        if self._genres is None:
            rows = self._run("SELECT DISTINCT genre FROM item_genres ORDER BY genre", [], 100_000)
            self._genres = {str(g).casefold(): str(g) for (g,) in rows}
        bad = [g for g in args.genres + args.exclude_genres if g.casefold() not in self._genres]
        if bad:
            known = ", ".join(sorted(self._genres.values()))
            raise ToolInputError(f"unknown genre {', '.join(map(repr, bad))}; known: {known}")

    def compute(self, args: HardFilterArgs) -> ItemHits:
        self._check_genres(args)
        where, params = _where(args)
        sql = (
            "SELECT i.item_id, i.title, i.year FROM items i "
            f"WHERE {where} ORDER BY {_ORDER[args.order_by]} LIMIT ?"
        )
        rows = self._run(sql, [*params, args.limit], args.limit)
        hits = [ItemHit(item_id=r[0], title=_display(r[1], r[2])) for r in rows]
        return ItemHits(hits=tuple(hits))

    def render(self, result: ItemHits) -> str:
        return render_hits(result, "No item meets these conditions.")


def _display(title: str, year: int | None) -> str:
    return f"{title.strip()} ({year})" if year else title.strip()
