"""Prompt builders of ToolRec: pure functions from typed state to messages and texts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.rendering import NONE
from macrs_sim.agents.toolrec.actions import NO_ATTRIBUTE
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.domain_words import plural_of
from macrs_sim.prompts import PromptLibrary, PromptTemplate

# The final ranking's attribute (it has none): every tool result ranked to the final list.
CONCLUDE = "finish"


@dataclass(frozen=True)
class ToolRecPrompts:
    simulation: PromptTemplate
    rank: PromptTemplate
    # The dataset's: item lines show its attributes (films: genres and director).
    domain: Domain = MOVIES

    @classmethod
    def load(cls, library: PromptLibrary) -> ToolRecPrompts:
        get = library.get
        return cls(get("toolrec/simulation"), get("toolrec/rank"), library.domain)


@dataclass(frozen=True)
class Scene:
    """What every surrogate-user step sees besides the steps so far."""

    attributes: Sequence[str]
    history: str
    evidence: str
    max_k: int
    max_rounds: int


def render_item(catalog: Catalog, item_id: str, domain: Domain = MOVIES) -> str:
    """'m004: Dracula (1931) | Horror | dir. Tod Browning' (fields the catalog has); another
    domain's item with the attributes its users name: 'p1: Gel | Skin Care | brand: Olay'."""
    item = catalog[item_id]
    parts = [f"{item_id}: {item.display_title}"]
    if item.genres:
        parts.append(", ".join(item.genres))
    if domain.layout != "films":
        for hint in (h for h in domain.hints if h.name != "categories"):
            if values := item.attribute(hint.name):
                label = plural_of(hint.label) if len(values) > 1 else hint.label
                parts.append(f"{label}: {', '.join(values)}")
    elif item.director:
        parts.append(f"dir. {item.director}")
    return " | ".join(parts)


def render_items(catalog: Catalog, items: Sequence[str], domain: Domain = MOVIES) -> str:
    if not items:
        return NONE
    return "\n".join(f"{n}. {render_item(catalog, i, domain)}" for n, i in enumerate(items, 1))


def render_history_items(
    catalog: Catalog,
    history: Sequence[str],
    last: int,
    domain: Domain = MOVIES,
    ratings: Mapping[str, float] | None = None,
) -> str:
    """The last `last` history items that are in the catalog, oldest first, each with the
    user's rating where known (the authors' history lines end "{score} stars.")."""
    known = [i for i in history if i in catalog][-last:] if last > 0 else []
    rated = ratings or {}
    lines = [f"- {render_item(catalog, i, domain)}"
             + (f" | {rated[i]:g} stars" if i in rated else "") for i in known]  # fmt: skip
    return "\n".join(lines) if lines else NONE


def render_candidates(
    catalog: Catalog, marks: Mapping[str, Sequence[str]], domain: Domain = MOVIES
) -> str:
    """The current list in order, each with its tool marks (the memory's annotations)."""
    if not marks:
        return NONE
    lines = [f"{n}. {render_item(catalog, i, domain)} [{', '.join(m)}]"
             for n, (i, m) in enumerate(marks.items(), 1)]  # fmt: skip
    return "\n".join(lines)


def render_step(number: int, thought: str, action: str, observation: str) -> str:
    return (
        f"Thought {number}: {thought.strip() or NONE}\nAction {number}: {action.strip()}\n"
        f"Observation {number}: {observation}"
    )


def observation_retrieved(p: ToolRecPrompts, attribute: str, k: int, items: str) -> str:
    if k == 0:
        return p.simulation.render("retrieved_nothing", attribute=attribute)
    return p.simulation.render("retrieved", attribute=attribute, k=k, items=items)


def observation_ranked(p: ToolRecPrompts, attribute: str, k: int, items: str) -> str:
    return p.simulation.render("ranked", attribute=attribute, k=k, items=items)


def observation_failed(p: ToolRecPrompts, error: str) -> str:
    return p.simulation.render("failed", error=error)


def simulation_messages(
    p: ToolRecPrompts, scene: Scene, steps: Sequence[str], candidates: str, count: int, left: int
) -> list[LLMMessage]:
    system = p.simulation.render(
        "system", attributes=", ".join(scene.attributes), max_k=scene.max_k,
        max_rounds=scene.max_rounds, demonstrations=p.simulation.render("demonstrations"),
    )  # fmt: skip
    user = p.simulation.render(
        "user", history=scene.history, evidence=scene.evidence,
        steps="\n".join(steps) if steps else NONE, candidates=candidates, count=count, left=left,
    )  # fmt: skip
    return [SystemMessage(content=system), UserMessage(content=user, source="user")]


def rank_messages(
    p: ToolRecPrompts, history: str, candidates: str, attribute: str, k: int
) -> list[LLMMessage]:
    """Attribute "none" (and the final ranking, `CONCLUDE`): by the history alone."""
    if attribute in (NO_ATTRIBUTE, CONCLUDE) and "plain" in p.rank.sections:
        user = p.rank.render("plain", history=history, candidates=candidates, k=k)
    else:
        user = p.rank.render("user", history=history, candidates=candidates,
                             attribute=attribute, k=k)  # fmt: skip
    return [
        SystemMessage(content=p.rank.render("system")),
        UserMessage(content=user, source="user"),
    ]


def mismatch_message(p: ToolRecPrompts, invalid: Sequence[str], k: int) -> UserMessage:
    text = p.rank.render("mismatch", invalid="; ".join(repr(i) for i in invalid), k=k)
    return UserMessage(content=text, source="memory")
