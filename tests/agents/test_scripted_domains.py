"""Systems in another domain: the scripted backend's canned texts say its noun (films keep
theirs) and its rules still read prompts in its words; InteRecAgent's demonstrations,
written about films, are shown in its words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from autogen_core.models import SystemMessage, UserMessage

from macrs_sim.agents.interecagent.demos import Demonstration
from macrs_sim.agents.interecagent.prompts import render_demos
from macrs_sim.agents.registry import scripted_rules_of_all
from macrs_sim.agents.scripted_rules import macrs_rules
from macrs_sim.agents.toolrec.scripted import llmrank, rank
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.data.domain import BUSINESSES, MOVIES, PRODUCTS, Domain
from macrs_sim.llm.context import CallContext
from macrs_sim.llm.scripted import Rule, ScriptedRequest
from macrs_sim.prompts import PromptLibrary
from macrs_sim.registry import call_taking
from macrs_sim.simulators.registry import scripted_rules_of_simulators


def request(*texts: str) -> ScriptedRequest:
    messages = [
        SystemMessage(content=texts[0]),
        *(UserMessage(content=t, source="user") for t in texts[1:]),
    ]
    return ScriptedRequest(messages=messages, context=CallContext(role="r", turn=1), schema=None)


def said(rules: Mapping[str, Rule], role: str) -> object:
    return rules[role](request("system", "user"))


def test_canned_texts_speak_the_domain_and_films_keep_theirs() -> None:
    films, products = macrs_rules(["Heat (1995)"]), macrs_rules(["Gel"], domain=PRODUCTS)
    assert said(films, "macrs.ask") == "What kind of movie are you in the mood for?"
    assert said(films, "macrs.chat") == "I love films with a memorable soundtrack."
    assert said(products, "macrs.ask") == "What kind of product are you in the mood for?"
    assert said(products, "macrs.chat") == "I love products done well."
    campaign = default_scripted_rules(["Lucia's"], BUSINESSES)
    assert said(campaign, "opening") == "Hi! I'd like a restaurant for tonight, something fun."
    assert (
        said(campaign, "interecagent.reply") == "What kind of restaurant are you in the mood for?"
    )
    assert said(default_scripted_rules(["Heat"]), "opening") == (
        "Hi! I'd like a movie for tonight, something fun."
    )
    users = scripted_rules_of_simulators(["Gel"], PRODUCTS)
    assert said(users, "opening") == "Hi! I'd like a product for tonight, something fun."


def test_a_plugin_maker_without_domain_is_called_as_before() -> None:
    def old(titles: Sequence[str]) -> dict[str, str]:
        return {"n": str(len(titles))}

    def new(titles: Sequence[str], *, domain: Domain = MOVIES) -> dict[str, str]:
        return {"noun": domain.noun}

    assert call_taking(old, ["a", "b"], domain=PRODUCTS) == {"n": "2"}
    assert call_taking(new, [], domain=PRODUCTS) == {"noun": "product"}
    assert said(scripted_rules_of_all(["Gel"], PRODUCTS), "macrs.ask") == (
        "What kind of product are you in the mood for?"
    )


def test_toolrec_rules_read_prompts_in_product_words() -> None:
    library = PromptLibrary(domain=PRODUCTS)
    ranking = library.get("toolrec/rank")
    user = ranking.render("user", history="1. Soap", candidates="1. p2: Gel\n2. p3: Cream",
                          attribute="genre", k=1)  # fmt: skip
    assert rank(request(ranking.render("system"), user)).model_dump() == {"items": ["p2"]}
    listed = library.get("toolrec/llmrank").render(
        "user", history="Soap", n=2, candidates="1. Gel\n2. Cream", recent="Soap"
    )
    assert llmrank(request(listed)) == "1. Gel\n2. Cream"


def test_demonstrations_are_shown_in_the_domain_words() -> None:
    demo = Demonstration(intent="Any TYPE films? Movie night, some movies.", plan=())
    assert render_demos([demo], BUSINESSES) == (
        "Request: Any TYPE restaurants? Restaurant night, some restaurants.\nPlan: []"
    )
    assert render_demos([demo]) == f"Request: {demo.intent}\nPlan: []"
