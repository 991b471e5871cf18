"""Prompt builders of the one-turn task (paper Figures C9-C10): pure, typed values in.

The retrieval prompt gets the target's information without its title (the generated
assistant's last message names it by a placeholder, and that message is dropped); the
ranking prompt gets the candidates' titles, the target among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.data.catalog import Catalog, labelled
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.domain_words import plural_of
from macrs_sim.evaluation.interecagent.schemas import Task
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import Item

# Cast members named in the target information (the leading ones).
CAST_SHOWN = 3


@dataclass(frozen=True)
class OneTurnPrompts:
    template: PromptTemplate
    # The dataset's domain: the words of the target information (`target_info`).
    domain: Domain = MOVIES

    @classmethod
    def load(cls, library: PromptLibrary, task: Task) -> OneTurnPrompts:
        return cls(library.get(f"interecagent/one_turn_{task}"), library.domain)


def titles(catalog: Catalog, item_ids: Sequence[str]) -> str:
    """Display titles (with their year: remakes share names), "; " between them."""
    return "; ".join(" ".join(catalog[i].display_title.split()) for i in item_ids)


def target_info(item: Item, domain: Domain = MOVIES) -> str:
    """What the user knows about the target: everything but its title (films' people in the
    paper's words, another domain's attributes by their labels)."""
    parts = []
    if item.year is not None:
        parts.append(f"released in {item.year}")
    if item.genres:
        parts.append(f"{plural_of(domain.category_label)}: " + ", ".join(item.genres))
    parts += _attribute_parts(item, domain)
    if item.keywords:
        parts.append("keywords: " + ", ".join(item.keywords))
    return "; ".join(parts) + "." if parts else "(nothing known)"


def _attribute_parts(item: Item, domain: Domain) -> list[str]:
    if domain.layout != "films":
        return [f"{label}: {', '.join(values)}" for label, values in labelled(item, domain)]
    people = [f"directed by {item.director}"] if item.director else []
    return people + (["starring " + ", ".join(item.cast[:CAST_SHOWN])] if item.cast else [])


def retrieval_messages(p: OneTurnPrompts, history: str, info: str) -> list[LLMMessage]:
    user = p.template.render("user", history=history, target_info=info)
    return [
        SystemMessage(content=p.template.render("system")),
        UserMessage(content=user, source="user"),
    ]


def ranking_messages(p: OneTurnPrompts, history: str, candidates: str, n: int) -> list[LLMMessage]:
    user = p.template.render("user", history=history, candidates=candidates, n=n)
    return [
        SystemMessage(content=p.template.render("system")),
        UserMessage(content=user, source="user"),
    ]


def instruction(p: OneTurnPrompts, k: int) -> str:
    """The sentence appended to the last user message (the paper's §4.1 wording); the
    ranking one names no k (the candidates are in the message)."""
    return p.template.render("instruction", k=k)
