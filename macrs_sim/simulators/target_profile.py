"""Per-sample preparation shared by every system (paper §4.1-4.2): target profile and opening.

The target profile is the target's information summarised by an LLM into keywords. As in
the paper (§4.1, Figure 7: {genre: action, actor: Arnold Schwarzenegger, director: Chuck
Russell, feature: witness protection}) they are "attribute: value" keywords that include
the director and leading actors; only the title and its alternative titles are removed,
so the simulated user has a real user's fuzzy preference rather than the title. With
`people=False` (scenario `simulator.profile_people = false`) the profile is plain
keywords without the names of the target's people.
"""

from __future__ import annotations

import re

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage
from pydantic import BaseModel

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.structured import complete_json
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item, Sample
from macrs_sim.simulators.guarded import GuardedText, generate_guarded
from macrs_sim.simulators.instructions import DEFAULT_TEMPLATE  # the MACRS paper's
from macrs_sim.simulators.leak_guard import LeakGuard

# Profile attributes that name a person, and how many billed actors count as leading.
DIRECTOR_ATTRIBUTES = frozenset({"director", "directors", "directed by"})
ACTOR_ATTRIBUTES = frozenset({"actor", "actors", "actress", "cast", "star", "stars", "starring"})
LEADING_ACTORS = 2
_ENTRY = re.compile(r"^\s*([A-Za-z][A-Za-z ]{0,24}?)\s*:\s*(\S.*?)\s*$")


class TargetKeywords(BaseModel):
    keywords: list[str]


def split_entry(entry: str) -> tuple[str | None, str]:
    """'director: Chuck Russell' -> ('director', 'Chuck Russell'); a plain keyword -> (None, it)."""
    m = _ENTRY.match(entry)
    if m is None or len(m.group(1).split()) > 2:
        return None, entry.strip()
    return m.group(1).lower(), m.group(2)


def directors(item: Item) -> list[str]:
    # Co-directors are one string ("Chris Buck & Jennifer Lee"): one name each.
    return [p.strip() for p in re.split(r"&|,| and ", item.director or "") if p.strip()]


def title_guard(item: Item, domain: Domain = MOVIES) -> LeakGuard:
    """The target's title and its alternative titles (a product's distinctive forms too): what
    no profile or user text may name."""
    return LeakGuard.for_item(item, domain)


def target_guards(item: Item, *, people: bool = True) -> list[LeakGuard]:
    """The title guard, then (with `people`) one per person: director(s) and cast."""
    names = [*directors(item), *item.cast] if people else []
    return [title_guard(item), *(LeakGuard(p) for p in names if p.strip())]


def history_titles(catalog: Catalog, sample: Sample) -> str:
    return ", ".join(catalog[i].display_title for i in sample.history)


def clean_keywords(
    keywords: list[str], catalog: Catalog, target_id: str, *, keep_people: bool = False
) -> tuple[str, ...]:
    """Drop keywords that name the target (or, unless keep_people, its people); keep order,
    drop repeats."""
    guards = target_guards(catalog[target_id], people=not keep_people)
    kept: list[str] = []
    for kw in (k.strip() for k in keywords):
        if (
            kw
            and kw.lower() not in {k.lower() for k in kept}
            and not any(g.leaks(kw) for g in guards)
        ):
            kept.append(kw)
    return tuple(kept)


def with_people(profile: tuple[str, ...], item: Item) -> tuple[str, ...]:
    """The profile plus 'director: X' and 'actor: Y' for the catalog's director(s) and
    leading actors that it does not name yet (a small model often leaves them out), except
    a name that would give the title away (Ayrton Senna in *Senna*)."""
    named, title = " | ".join(profile), title_guard(item)
    added = [f"director: {d}" for d in directors(item)]
    added += [f"actor: {a}" for a in item.cast[:LEADING_ACTORS] if a.strip()]
    missing = [
        e for e in added if not LeakGuard(split_entry(e)[1]).leaks(named) and not title.leaks(e)
    ]
    return (*profile, *missing)


async def build_target_profile(
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    catalog: Catalog,
    sample: Sample,
    retries: int,
    *,
    people: bool = True,
) -> tuple[str, ...]:
    template = prompts.get("target_profile")
    msgs: list[LLMMessage] = [
        SystemMessage(content=template.render("system")),
        UserMessage(
            content=template.render(
                "user" if people else "user_no_people",
                description=catalog.describe(sample.target_id, prompts.domain),
            ),
            source="user",
        ),
    ]
    with calling(CallContext(role="target_profile", dialogue_id=None, system=None, turn=None)):
        out = await complete_json(client, msgs, TargetKeywords, retries=retries)
    item = catalog[sample.target_id]
    kept = clean_keywords(out.keywords, catalog, sample.target_id, keep_people=people)
    if people:
        label = prompts.domain.category_label  # "genre: Crime", "cuisine: Italian"
        return with_people(kept or tuple(f"{label}: {g}" for g in item.genres), item)
    # An LLM that returns only leaking keywords still leaves the simulator a usable profile.
    return kept or item.genres


def simulator_system_prompt(
    prompts: PromptLibrary, catalog: Catalog, sample: Sample, template: str = DEFAULT_TEMPLATE
) -> str:
    """`template` names the instruction file (see instructions.SIMULATOR_PROMPTS)."""
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
    *,
    max_leak_retries: int = 2,
) -> GuardedText:
    """The opening, regenerated like a reply while it names the target, redacted last."""
    msgs: list[LLMMessage] = [
        SystemMessage(content=simulator_system_prompt(prompts, catalog, sample, template)),
        UserMessage(content=prompts.get(template).render("opening"), source="user"),
    ]
    with calling(CallContext(role="opening", dialogue_id=None, system=None, turn=0)):
        return await generate_guarded(
            client,
            msgs,
            title_guard(catalog[sample.target_id], prompts.domain),
            retry_note=prompts.get(template).render("leak_retry"),
            max_retries=max_leak_retries,
        )


async def prepare_sample(
    client: ChatCompletionClient,
    prompts: PromptLibrary,
    catalog: Catalog,
    sample: Sample,
    retries: int,
    template: str = DEFAULT_TEMPLATE,
    *,
    people: bool = True,
    max_leak_retries: int = 2,
) -> Sample:
    """`people`: the scenario's simulator.profile_people; `max_leak_retries`: its
    simulator.max_leak_retries, for the opening as for every reply."""
    profile = await build_target_profile(client, prompts, catalog, sample, retries, people=people)
    with_profile = sample.model_copy(update={"target_profile": profile})
    opening = await build_opening(
        client, prompts, catalog, with_profile, template, max_leak_retries=max_leak_retries
    )
    return with_profile.model_copy(
        update={
            "opening": opening.text,
            "opening_leak_retries": opening.leak_retries,
            "opening_redacted": opening.redacted,
        }
    )
