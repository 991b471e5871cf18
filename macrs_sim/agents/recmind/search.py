"""The Search tool's engine behind one protocol: offline BM25 over item text, or the web.

The paper called a Google search API (SerpApi). Offline, the same question goes to BM25
over each catalog item's text (tools/bm25.py), which also grounds what it finds. The web
backend is for users with a key; it is never called in tests (a fake `fetch` stands in).
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from macrs_sim.errors import ConfigError
from macrs_sim.llm.context import current_call
from macrs_sim.protocol import ToolCallRecord
from macrs_sim.tools import Bm25Index, Bm25SearchTool, ItemHit, ItemResolver, ToolCallLog

# Characters of an item's text a search result shows.
SNIPPET_CHARS = 300


@dataclass(frozen=True)
class SearchResult:
    text: str
    ok: bool = True
    hits: tuple[ItemHit, ...] = ()

    @property
    def empty(self) -> bool:
        return self.ok and not self.text.strip()


class SearchBackend(Protocol):
    name: str

    async def search(self, question: str) -> SearchResult: ...


class Bm25Search:
    name = "bm25"

    def __init__(
        self, index: Bm25Index, resolver: ItemResolver, *, k: int = 5,
        log: ToolCallLog | None = None,
    ) -> None:  # fmt: skip
        self.tool = Bm25SearchTool(index, resolver, log=log, name="search")
        self.resolver = resolver
        self.k = k

    async def search(self, question: str) -> SearchResult:
        reply = await self.tool.call_raw({"query": question, "k": self.k})
        if not reply.ok or reply.data is None:
            return SearchResult(reply.text, ok=False)
        lines = [_snippet(self.tool.index.document(h.item_id)) for h in reply.data.hits]
        return SearchResult("\n".join(lines), hits=reply.data.hits)


def _snippet(text: str) -> str:
    return text if len(text) <= SNIPPET_CHARS else text[: SNIPPET_CHARS - 1] + "…"


Fetch = Callable[[str], Awaitable[dict[str, Any]]]


async def _http_get(url: str) -> dict[str, Any]:
    def get() -> dict[str, Any]:
        with urllib.request.urlopen(url, timeout=20) as resp:  # noqa: S310 (https only)
            data: dict[str, Any] = json.load(resp)
            return data

    return await asyncio.to_thread(get)


class WebSearch:
    """SerpApi's Google search; `fetch` is the HTTP GET (a fake in tests)."""

    name = "web"
    ENDPOINT = "https://serpapi.com/search.json"

    def __init__(
        self, api_key: str, *, k: int = 5, fetch: Fetch | None = None,
        log: ToolCallLog | None = None,
    ) -> None:  # fmt: skip
        self._key = api_key
        self.k = k
        self._fetch = fetch or _http_get
        self.log = log

    @classmethod
    def from_env(cls, variable: str, **kw: Any) -> WebSearch:
        key = os.environ.get(variable, "").strip()
        if not key:
            raise ConfigError(f'recmind search_backend "web" needs an API key in ${variable}')
        return cls(key, **kw)

    async def search(self, question: str) -> SearchResult:
        query = urllib.parse.urlencode({"engine": "google", "q": question, "api_key": self._key})
        start = time.perf_counter()
        try:
            data = await self._fetch(f"{self.ENDPOINT}?{query}")
            result = SearchResult(_organic(data, self.k))
        except Exception as err:  # a failed search is an observation, never a crash
            result = SearchResult(f"Error: {type(err).__name__}", ok=False)
        self._record(question, result, time.perf_counter() - start)
        return result

    def _record(self, question: str, result: SearchResult, latency: float) -> None:
        if self.log is None:
            return
        ctx = current_call()
        self.log.record(ToolCallRecord(
            dialogue_id=ctx.dialogue_id, system=ctx.system, role=ctx.role, turn=ctx.turn,
            tool="web_search", input={"query": question}, output_chars=len(result.text),
            latency_s=latency, ok=result.ok, error=None if result.ok else result.text,
        ))  # fmt: skip


def _organic(data: dict[str, Any], k: int) -> str:
    rows = data.get("organic_results") or []
    lines = [f"{r.get('title', '')}: {r.get('snippet', '')}".strip() for r in rows[:k]]
    return "\n".join(line for line in lines if line != ":")
