"""`sql_query`: any read-only SELECT over the dataset database, rows back as text.

The tables it describes come from the database's own schema (tools/schema.py), so a
product catalog's tool names brand and price, a film catalog's director and cast.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from macrs_sim.protocol import Record
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.readonly_db import query
from macrs_sim.tools.schema import FILM_SCHEMA, CatalogSchema, read_schema

# A film database's tables as shown to models (any database's: its schema's `tables()`).
TABLES = FILM_SCHEMA.tables()
# Every user's whole history, the samples' targets included: a system that could read it
# could look up the answer. Hidden unless a caller opts in; a second lock only (a
# `JOIN ... USING` escapes SQLite's authorizer): the real one is `tool_database`, which
# has no interaction rows.
DEFAULT_HIDDEN = ("interactions", "meta")
# Long cells (overviews) are cut in the text the model reads; `data` keeps them whole.
_CELL_CHARS = 200


class SqlArgs(BaseModel):
    text_field: ClassVar[str] = "sql"
    sql: str = Field(description="One SQLite SELECT statement over the tables described above.")


class SqlRows(Record):
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    truncated: bool = False


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return f"<blob {len(value)} bytes>"
    text = str(value).replace("\n", " ")
    return text if len(text) <= _CELL_CHARS else text[: _CELL_CHARS - 1] + "…"


class SqlQueryTool(RecTool[SqlArgs, SqlRows]):
    def __init__(
        self,
        database: Path,
        *,
        schema: CatalogSchema | None = None,
        max_rows: int = 50,
        time_limit_s: float = 2.0,
        hidden_tables: tuple[str, ...] = DEFAULT_HIDDEN,
        log: ToolCallLog | None = None,
        name: str = "sql_query",
    ) -> None:
        schema = schema or read_schema(database)
        tables = schema.tables()
        visible = "; ".join(v for k, v in tables.items() if k not in hidden_tables)
        description = (
            f"Run one read-only SQL SELECT over the {schema.noun} database and get the rows "
            f"back (at most {max_rows}). Tables: {visible}."
        )
        super().__init__(SqlArgs, name, description, log)
        self.database = database
        self.max_rows = max_rows
        self.time_limit_s = time_limit_s
        self.hidden_tables = hidden_tables

    def compute(self, args: SqlArgs) -> SqlRows:
        columns, rows, more = query(
            self.database,
            args.sql,
            max_rows=self.max_rows,
            time_limit_s=self.time_limit_s,
            hidden_tables=self.hidden_tables,
        )
        safe = tuple(tuple(_json_value(v) for v in row) for row in rows)
        return SqlRows(columns=tuple(columns), rows=safe, truncated=more)

    def render(self, result: SqlRows) -> str:
        if not result.columns:
            return "The statement returned no columns."
        lines = [" | ".join(result.columns)]
        lines += [" | ".join(_cell(v) for v in row) for row in result.rows]
        if not result.rows:
            lines.append("(no rows)")
        if result.truncated:
            lines.append(f"(only the first {self.max_rows} rows are shown; add LIMIT or filters)")
        return "\n".join(lines)


def _json_value(value: Any) -> Any:
    return f"<blob {len(value)} bytes>" if isinstance(value, bytes) else value
