"""RecMind's tools as the planner runs them: SQL, Search, Summarize (Finish ends planning).

SQL: the model turns the question into one SELECT (the toolkit's read-only SQL tool runs
it over the memory database), then turns the rows back into sentences. Search: the
backend finds, the model words the result. Summarize: the model condenses the text. A
tool that fails or finds nothing gives an observation that says so (`ok`, `empty`).

Rows, results and text go into a prompt only as far as the budget allows (budget.py):
whole rows and results first, then "… N more rows not shown", and that note also ends the
observation, worded or not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from autogen_core.models import LLMMessage

from macrs_sim.agents.recmind import prompts as pb
from macrs_sim.agents.recmind.budget import Budget, cut_lines, cut_text, estimate_tokens
from macrs_sim.agents.recmind.calls import Caller
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.search import SearchBackend
from macrs_sim.tools import ItemHit, SqlQueryTool
from macrs_sim.tools.sql import SqlRows

ACTIONS = ("SQL", "Search", "Summarize", "Finish")
_FENCE = re.compile(r"^```(?:sql)?\s*|\s*```$", re.IGNORECASE)
_CUT = re.compile(r"^… \d+ more \w+ not shown$")


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
        budget: Budget,
    ) -> None:
        self.caller = caller
        self.budget = budget
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
            return Observation(rows_text(tool, reply.data, self.budget.observation_tokens),
                               empty=empty)  # fmt: skip

        def build(rows: str) -> list[LLMMessage]:
            return pb.sql_text_messages(self.prompts, question, statement, rows)

        rows = rows_text(tool, reply.data, self.budget.room(build("")))
        worded = await self.caller.text("sql_answer", build(rows))
        if worded is None:
            return Observation(rows_text(tool, reply.data, self.budget.observation_tokens))
        return Observation(with_cut_note(worded, rows, self.budget.observation_tokens))

    async def _search(self, backend: SearchBackend, question: str) -> Observation:
        found = await backend.search(question)
        if not found.ok:
            return Observation(found.text, ok=False)
        if found.empty:
            return Observation("No result.", empty=True)
        lines = found.text.splitlines()
        text = cut_lines((), lines, self.budget.observation_tokens, "results")
        if self.result_to_text:

            def build(result: str) -> list[LLMMessage]:
                return pb.search_text_messages(self.prompts, question, result)

            shown = cut_lines((), lines, self.budget.room(build("")), "results")
            worded = await self.caller.text("search", build(shown))
            if worded:
                text = with_cut_note(worded, shown, self.budget.observation_tokens)
        return Observation(text, hits=found.hits)

    async def _summarize(self, content: str) -> Observation:
        if not content:
            return Observation("Error: Summarize needs the text to condense", ok=False)
        room = self.budget.room(pb.summarize_messages(self.prompts, ""))
        msgs = pb.summarize_messages(self.prompts, cut_text(content, room))
        summary = await self.caller.text("summarize", msgs)
        if summary is None:
            return Observation("Error: the summary came back empty", ok=False)
        return Observation(summary)


def rows_text(tool: SqlQueryTool, data: SqlRows, tokens: int) -> str:
    """The tool's rendering of the rows (header, one line per row, its own note when the
    query matched more rows than it returns), as many whole rows as fit `tokens`."""
    lines = tool.render(data).splitlines()
    n = len(data.rows)
    tail = lines[1 + n :]
    rows = cut_lines(lines[:1], lines[1 : 1 + n], tokens - estimate_tokens("\n".join(tail)),
                     "rows")  # fmt: skip
    return "\n".join([rows, *tail])


def with_cut_note(worded: str, shown: str, tokens: int) -> str:
    """The model's wording within `tokens`, then the note of what its prompt left out, if
    anything was."""
    cut = next((line for line in shown.splitlines() if _CUT.match(line)), None)
    if cut is None:
        return cut_text(worded, tokens)
    return cut_text(worded, tokens - estimate_tokens(cut) - 1) + "\n" + cut
