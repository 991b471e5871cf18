"""LLMRank (Hou et al., ECIR 2024), ToolRec's LLM-as-ranker baseline (paper §4.1.3): the
plain ranker (SASRec) retrieves `candidates` items (thirty), the model ranks them in one
prompt given the user's history (LLMRank's recency-focused prompt, ToolRec-Code's
`rerank_remin`) and answers in free text, one title per line; `llmrank_parse` reads it.
Candidates the answer leaves out follow in the plain ranker's order (LLMRank scores them
equally low)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from autogen_core.models import ChatCompletionClient, LLMMessage, UserMessage

from macrs_sim.agents.rendering import NONE
from macrs_sim.agents.toolrec.llmrank_parse import ParsedRanking, parse_ranking
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_text
from macrs_sim.prompts import PromptTemplate
from macrs_sim.protocol import Record

ROLE_LLMRANK = "toolrec.llmrank"


class LLMRankResult(Record):
    # The plain ranker's candidates, in its order.
    candidates: tuple[str, ...]
    parsed: ParsedRanking
    # The parsed ranking, then the candidates it left out.
    final: tuple[str, ...]


def numbered(catalog: Catalog, items: Sequence[str]) -> str:
    """LLMRank's item lists: '0. Title (Year)' per line, numbered from 0."""
    return "\n".join(f"{n}. {catalog[i].display_title}" for n, i in enumerate(items))


def llmrank_messages(
    template: PromptTemplate, catalog: Catalog, history: Sequence[str], candidates: Sequence[str]
) -> list[LLMMessage]:
    """One user message; `history` is what the prompt shows (oldest first, catalog items)."""
    recent = catalog[history[-1]].display_title if history else NONE
    text = template.render("user", history=numbered(catalog, history) or NONE, n=len(candidates),
                           candidates=numbered(catalog, candidates), recent=recent)  # fmt: skip
    return [UserMessage(content=text, source="user")]


def complete_ranking(parsed: ParsedRanking, candidates: Sequence[str]) -> tuple[str, ...]:
    return (*parsed.items, *(i for i in candidates if i not in parsed.items))


class LLMRank:
    def __init__(
        self,
        client: ChatCompletionClient,
        template: PromptTemplate,
        prepared: ToolRecPrepared,
        *,
        candidates: int = 30,
        history_items: int = 20,
        context: Callable[[str], CallContext] = lambda role: CallContext(role=role),
    ) -> None:
        self.client = client
        self.template = template
        self.prepared = prepared
        self.candidates = candidates
        self.history_items = history_items
        self.context = context

    async def rank(self, history: Sequence[str]) -> LLMRankResult:
        catalog = self.prepared.catalog
        shown = [i for i in history if i in catalog][-self.history_items :]
        cands = self.prepared.plain(history, self.candidates)
        if not cands:
            return LLMRankResult(candidates=(), parsed=ParsedRanking(items=()), final=())
        msgs = llmrank_messages(self.template, catalog, shown if self.history_items else [], cands)
        with calling(self.context(ROLE_LLMRANK)):
            reply = await complete_text(self.client, msgs)
        parsed = parse_ranking(reply, [catalog[i] for i in cands])
        return LLMRankResult(candidates=tuple(cands), parsed=parsed,
                             final=complete_ranking(parsed, cands))  # fmt: skip
