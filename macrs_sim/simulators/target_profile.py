"""Per-sample preparation shared by every system (paper §4.1-4.2): target profile and opening.

The target profile is the target's information summarised into keywords by an
LLM, with its name (and its people's names) removed, so the simulated user has
the fuzzy preference of a real user rather than the title.
"""

from __future__ import annotations

import re

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json, complete_text
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item, Sample
from macrs_sim.simulators.leak_guard import LeakGuard

# The MACRS paper's simulator instruction; llm_user.SIMULATOR_PROMPTS lists the others.
DEFAULT_TEMPLATE = "user_simulator"


class TargetKeywords(BaseModel):
    keywords: list[str]


def history_titles(catalog: Catalog, sample: Sample) -> str:
    return ", ".join(catalog[i].display_title for i in sample.history)


def target_guards(item: Item) -> list[LeakGuard]:
    """One guard for the title, then one per person (director(s) and cast)."""
    # Co-directors are one string ("Chris Buck & Jennifer Lee"): guard each name.
    people = [p.strip() for p in re.split(r"&|,| and ", item.director or "")] + list(item.cast)
    return [LeakGuard(item.title)] + [LeakGuard(p) for p in people if p]


def clean_keywords(keywords: list[str], catalog: Catalog, target_id: str) -> tuple[str, ...]:
    """Drop keywords that name the target or its people; keep order, drop repeats."""
    guards = target_guards(catalog[target_id])
    kept: list[str] = []
    for kw in (k.strip() for k in keywords):
        if (
            kw
            and kw.lower() not in {k.lower() for k in kept}
            and not any(g.leaks(kw) for g in guards)
        ):
            kept.append(kw)
    return tuple(kept)


async def build_target_profile(
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    catalog: Catalog,
    sample: Sample,
    retries: int,
) -> tuple[str, ...]:
    template = prompts.get("target_profile")
    msgs: list[LLMMessage] = [
        SystemMessage(content=template.render("system")),
        UserMessage(
            content=template.render("user", description=catalog.describe(sample.target_id)),
            source="user",
        ),
    ]
    with calling(CallContext(role="target_profile", dialogue_id=None, system=None, turn=None)):
        out = await complete_json(client, msgs, TargetKeywords, retries=retries)
    kept = clean_keywords(out.keywords, catalog, sample.target_id)
    # An LLM that returns only leaking keywords still leaves the simulator a usable profile.
    return kept or catalog[sample.target_id].genres


def simulator_system_prompt(
    prompts: PromptLibrary, catalog: Catalog, sample: Sample, template: str = DEFAULT_TEMPLATE
) -> str:
    """`template` names the instruction file (see llm_user.SIMULATOR_PROMPTS)."""
    return prompts.get(template).render(
        "system",
        history=history_titles(catalog, sample),
        target_profile=", ".join(sample.target_profile),
    )


async def build_opening(
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    catalog: Catalog,
    sample: Sample,
    template: str = DEFAULT_TEMPLATE,
) -> str:
    msgs: list[LLMMessage] = [
        SystemMessage(content=simulator_system_prompt(prompts, catalog, sample, template)),
        UserMessage(content=prompts.get(template).render("opening"), source="user"),
    ]
    guard = LeakGuard(catalog[sample.target_id].title)
    with calling(CallContext(role="opening", dialogue_id=None, system=None, turn=0)):
        text = await complete_text(client, msgs)
    return guard.redact(text) if guard.leaks(text) else text


async def prepare_sample(
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    catalog: Catalog,
    sample: Sample,
    retries: int,
    template: str = DEFAULT_TEMPLATE,
) -> Sample:
    profile = await build_target_profile(client, prompts, catalog, sample, retries)
    with_profile = sample.model_copy(update={"target_profile": profile})
    opening = await build_opening(client, prompts, catalog, with_profile, template)
    return with_profile.model_copy(update={"opening": opening})
