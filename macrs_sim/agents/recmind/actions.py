"""RecMind's tools as the planner runs them: SQL, Search, Summarize (Finish ends planning).

SQL: the model turns the question into one SELECT (the toolkit's read-only SQL tool runs
it over the memory database), then turns the rows back into sentences. Search: the
backend finds, the model words the result. Summarize: the model condenses the text. A
tool that fails or finds nothing gives an observation that says so (`ok`, `empty`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from macrs_sim.agents.recmind import prompts as pb
from macrs_sim.agents.recmind.calls import Caller
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.search import SearchBackend
from macrs_sim.tools import ItemHit, SqlQueryTool

ACTIONS = ("SQL", "Search", "Summarize", "Finish")
_FENCE = re.compile(r"^```(?:sql)?\s*|\s*```$", re.IGNORECASE)


@dataclass(frozen=True)
class Observation:
    text: str
    ok: bool = True
    # The tool ran but found nothing (no rows, no hits): a dead end for ToT-DFS.
    empty: bool = False
    hits: tuple[ItemHit, ...] = ()

    @property
    def dead_end(self) -> bool:
        return not self.ok or self.empty


def clean_sql(text: str) -> str:
    """The statement from a reply that may wrap it in a code fence or end it with ';'."""
    return _FENCE.sub("", text.strip()).strip().rstrip(";").strip()


class RecMindTools:
    def __init__(
        self,
        caller: Caller,
        prompts: pb.RecMindPrompts,
        *,
        sql: SqlQueryTool | None,
        search: SearchBackend | None,
        summarize: bool,
        result_to_text: bool,
        database_info: str,
    ) -> None:
        self.caller = caller
        self.prompts = prompts
        self.sql = sql
        self.search_backend = search
        self.summarize = summarize
        self.result_to_text = result_to_text
        self.database_info = database_info
        self.description = pb.tools_text(
            prompts, sql=sql is not None, search=search is not None, summarize=summarize,
            database_info=database_info,
        )  # fmt: skip

    def available(self) -> list[str]:
        on = {"SQL": self.sql is not None, "Search": self.search_backend is not None,
              "Summarize": self.summarize, "Finish": True}  # fmt: skip
        return [a for a in ACTIONS if on[a]]

    async def run(self, step: StepOutput) -> Observation:
        name = step.action.strip().casefold()
        argument = step.argument.strip()
        if name == "sql" and self.sql is not None:
            return await self._sql(self.sql, argument)
        if name == "search" and self.search_backend is not None:
            return await self._search(self.search_backend, argument)
        if name == "summarize" and self.summarize:
            return await self._summarize(argument)
        known = ", ".join(self.available())
        return Observation(f"Error: unknown action {step.action!r}; actions: {known}", ok=False)

    async def _sql(self, tool: SqlQueryTool, question: str) -> Observation:
        msgs = pb.to_sql_messages(self.prompts, question, self.database_info)
        written = await self.caller.text("sql", msgs)
        if written is None:
            return Observation("Error: no SQL query was written", ok=False)
        statement = clean_sql(written)
        reply = await tool.call_raw({"sql": statement})
        if not reply.ok or reply.data is None:
            return Observation(reply.text, ok=False)
        empty = not reply.data.rows
        if not self.result_to_text or empty:
            return Observation(reply.text, empty=empty)
        msgs = pb.sql_text_messages(self.prompts, question, statement, reply.text)
        return Observation(await self.caller.text("sql_answer", msgs) or reply.text)

    async def _search(self, backend: SearchBackend, question: str) -> Observation:
        found = await backend.search(question)
        if not found.ok:
            return Observation(found.text, ok=False)
        if found.empty:
            return Observation("No result.", empty=True)
        text = found.text
        if self.result_to_text:
            msgs = pb.search_text_messages(self.prompts, question, found.text)
            text = await self.caller.text("search", msgs) or found.text
        return Observation(text, hits=found.hits)

    async def _summarize(self, content: str) -> Observation:
        if not content:
            return Observation("Error: Summarize needs the text to condense", ok=False)
        summary = await self.caller.text("summarize", pb.summarize_messages(self.prompts, content))
        if summary is None:
            return Observation("Error: the summary came back empty", ok=False)
        return Observation(summary)
