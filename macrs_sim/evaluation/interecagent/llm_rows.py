"""The LLM rows of the one-turn table (paper Table 5): the model alone, and Chat-Rec.

LLM only: the model answers the request (the generated dialogue, the instruction appended)
with a numbered list of titles, no tools. Chat-Rec (Gao et al. 2023, as RecAI's baseline):
20 candidates are retrieved (by the conversation's text, evaluation/interecagent/chatrec.py)
and the model picks from them in the prompt; retrieval only (the paper omits it from
ranking, where it "degenerates into GPTs").

The reply's titles are grounded to the catalog (years tell remakes apart). A title said again
(the same item) keeps its first place and is counted as a duplicate; a title the catalog does
not have keeps its place as `unknown:<title>` (lower case), so it is scored as answered (a
wrong item).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.rendering import render_history
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import ItemGrounder
from macrs_sim.evaluation.interecagent.chatrec import Retriever
from macrs_sim.evaluation.interecagent.prompts import titles
from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, OneTurnRequest, Task
from macrs_sim.evaluation.interecagent.systems import Answer
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_text
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import Record

LLM_ONLY, CHAT_REC = "LLM only", "Chat-Rec"
LLM_ROWS = {"llm-only": LLM_ONLY, "chat-rec": CHAT_REC}
CHATREC_CANDIDATES = 20  # RecAI's ChatRec.num_candidates
UNKNOWN = "unknown:"
ROLE = "interecagent.one_turn_"
_LISTED = re.compile(r"^\s*(?:\d+\s*[.):]|[-*\u2022])\s*(.+?)\s*$", re.MULTILINE)
_TAIL = re.compile(r"\s+[-\u2013\u2014]\s+.*$")  # " - why", an explanation after the title
_QUOTES = "*\"'\u201c\u201d` "


def listed_titles(text: str) -> list[str]:
    """The titles of a numbered or bulleted list (else of ';'- or line-separated text),
    without quotes, emphasis or a trailing ' - explanation'."""
    lines = _LISTED.findall(text) or re.split(r"[;\n]", text)
    out = []
    for line in lines:
        title = _TAIL.sub("", line.strip().strip(_QUOTES)).strip(_QUOTES)
        if title:
            out.append(title)
    return out


class GroundedList(Record):
    items: tuple[str, ...]
    unknown: int = 0
    duplicates: int = 0


def ground_list(said: Sequence[str], grounder: ItemGrounder) -> GroundedList:
    items: list[str] = []
    unknown = duplicates = 0
    for title in said:
        ref = grounder.ground(title)
        key = ref.item_id if ref.item_id is not None else UNKNOWN + " ".join(title.lower().split())
        if key in items:
            duplicates += 1
            continue
        unknown += ref.item_id is None
        items.append(key)
    return GroundedList(items=tuple(items), unknown=unknown, duplicates=duplicates)


def llm_messages(t: PromptTemplate, section: str, **values: object) -> list[LLMMessage]:
    return [
        SystemMessage(content=t.render("system")),
        UserMessage(content=t.render(section, **values), source="user"),
    ]


@dataclass(frozen=True)
class LLMRow:
    """LLM only (`retriever` None) or Chat-Rec (candidates from `retriever`)."""

    name: str
    client: ChatCompletionClient
    library: PromptLibrary
    catalog: Catalog
    grounder: ItemGrounder
    retriever: Retriever | None = None

    async def answer(
        self, case: OneTurnCase, request: OneTurnRequest, task: Task, k: int
    ) -> Answer:
        t = self.library.get("interecagent/one_turn_llm")
        conversation = render_history(request.utterances)
        n = len(case.candidates) if task == "ranking" else k
        if self.retriever is None:
            msgs = llm_messages(t, "llm_only", conversation=conversation, n=n)
        else:
            pool = self.retriever.candidates(case, conversation, CHATREC_CANDIDATES)
            msgs = llm_messages(t, "chat_rec", conversation=conversation, n=n,
                                candidates=titles(self.catalog, pool))  # fmt: skip
        role = ROLE + ("llm_only" if self.retriever is None else "chat_rec")
        with calling(CallContext(role=role, dialogue_id=case.case_id, system=self.name)):
            text = await complete_text(self.client, msgs)
        return Answer(ground_list(listed_titles(text), self.grounder).items, llm_calls=1)
