"""`filter_items`: hard conditions as parameterised SQL, and (`sql_condition=True`) a
model-written SQL condition over the items table (the paper's SQL retrieval tool).

A written condition runs read-only (`readonly_db`: authorizer, row and time limits); it is
checked first so that it stays one boolean expression: no ';' (a second statement), no
comments, balanced parentheses and quotes, no write or schema keyword. The check reads the
text as SQLite's tokenizer does: what is inside '...', "...", `...` or [...] is quoted
(a ')' or '"' inside [x")] neither closes the wrapper's parenthesis nor opens a quote).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from macrs_sim.tools.args import ItemList, ToolInputError
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.items import ItemHit, ItemHits, render_hits
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.readonly_db import query
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


class HardConditionArgs(HardFilterArgs):
    text_field: ClassVar[str] = "condition"
    condition: str | None = Field(
        default=None,
        max_length=2000,
        description="A SQL condition over the items table (what follows WHERE), e.g. "
        "director LIKE '%Mann%' AND year > 1990.",
    )


class HardHits(ItemHits):
    # More items met the conditions than `limit` let through.
    more: bool = False


# Words that only a write, a schema change or a second database would need.
_FORBIDDEN = frozenset({
    "insert", "update", "delete", "drop", "create", "alter", "attach", "detach", "pragma",
    "vacuum", "reindex", "begin", "commit", "rollback", "savepoint", "release", "analyze",
})  # fmt: skip
_WORD = re.compile(r"[A-Za-z_]+")
_BARE_CAST = re.compile(r"(?<![\w.])cast\b(?!\s*\()", re.IGNORECASE)


# SQLite's quotes: strings '...', identifiers "...", `...` and [...] (a doubled '' "" ``
# inside is a quote closed and opened again, which scans the same).
_CLOSER = {"'": "'", '"': '"', "`": "`", "[": "]"}


def _outside_quotes(cond: str) -> str:
    """`cond` with every quoted character blanked (the quotes themselves kept); refuses a
    ';', a comment or a ')' without its '(' outside quotes, and an unclosed quote or '('."""
    outside: list[str] = []
    depth, closer = 0, ""
    for i, ch in enumerate(cond):
        if closer:
            closer = "" if ch == closer else closer
            outside.append(ch if not closer else " ")
            continue
        if ch in _CLOSER:
            closer = _CLOSER[ch]
        elif ch == ";":
            raise ToolInputError("refused: one condition only (';' would start a second statement)")
        elif cond.startswith(("--", "/*"), i):
            raise ToolInputError("refused: comments are not allowed in the condition")
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            raise ToolInputError("refused: unbalanced parentheses in the condition")
        outside.append(ch)
    if closer or depth:
        raise ToolInputError("refused: unclosed quote or parenthesis in the condition")
    return "".join(outside)


def check_condition(text: str) -> str:
    """The condition, if it is one read-only boolean expression; else a ToolInputError."""
    cond = re.sub(r"^\s*WHERE\s+", "", text.strip(), flags=re.IGNORECASE)
    if not cond:
        raise ToolInputError("the SQL condition is empty")
    text_out = _outside_quotes(cond)
    bad = sorted({w.upper() for w in _WORD.findall(text_out) if w.lower() in _FORBIDDEN})
    if bad:
        raise ToolInputError(f"refused: the condition may only read items (found {', '.join(bad)})")
    # `cast` is an SQL keyword: a bare column name becomes the quoted one.
    for m in reversed(list(_BARE_CAST.finditer(text_out))):
        cond = f'{cond[: m.start()]}"cast"{cond[m.end() :]}'
    if re.match(r"(SELECT|WITH)\b", cond, re.IGNORECASE):  # a whole query (RecAI's form)
        return f"item_id IN (SELECT item_id FROM ({cond}))"
    return cond


def _where(args: HardFilterArgs) -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    genre_sql = "SELECT item_id FROM item_genres WHERE genre = ? COLLATE NOCASE"
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
        log: ToolCallLog | None = None,
        name: str = "filter_items",
        sql_condition: bool = False,
        time_limit_s: float = 5.0,
    ) -> None:
        description = (
            "Find items that meet hard conditions: all of some genres, none of others, a "
            "release-year range, a range of how many users interacted with it. Returns ids."
        )
        if sql_condition:
            description += " Or any read-only SQL condition over the items table."
        args_type = HardConditionArgs if sql_condition else HardFilterArgs
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
            sql = "SELECT DISTINCT genre FROM item_genres ORDER BY genre"
            rows = self._run(sql, [], 100_000)[0]
            self._genres = {str(g).casefold(): str(g) for (g,) in rows}
        bad = [g for g in args.genres + args.exclude_genres if g.casefold() not in self._genres]
        if bad:
            known = ", ".join(sorted(self._genres.values()))
            raise ToolInputError(f"unknown genre {', '.join(map(repr, bad))}; known: {known}")

    def compute(self, args: HardFilterArgs) -> HardHits:
        self._check_genres(args)
        where, params = _where(args)
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
