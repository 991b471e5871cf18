"""The evaluations' scripted rules read prompts in a product domain's words and answer in
them; films keep the sentences they had."""

from __future__ import annotations

from autogen_core.models import UserMessage

from macrs_sim.data.domain import MOVIES, PRODUCTS, Domain
from macrs_sim.evaluation.interecagent.prompts import target_info
from macrs_sim.evaluation.interecagent.schemas import GeneratedConversation
from macrs_sim.evaluation.interecagent.scripted import ranking_question, retrieval_conversation
from macrs_sim.evaluation.recmind.scripted import explanation_rule, judge_rule
from macrs_sim.llm.context import CallContext
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item

GEL = Item.model_validate({
    "item_id": "p1", "title": "Water Gel", "categories": ("Beauty", "Skin Care"),
    "attributes": {"brand": "Neutrogena"}, "keywords": ("hydrating",),
})  # fmt: skip


def request(text: str) -> ScriptedRequest:
    messages = [UserMessage(content=text, source="user")]
    return ScriptedRequest(messages=messages, context=CallContext(role="r"), schema=None)


def explained(domain: Domain, item: str) -> str:
    prompt = PromptLibrary(domain=domain).get("recmind_tasks/explanation")
    text = explanation_rule(domain)(request(prompt.render("zero_shot", user_id="u1", item=item)))
    assert isinstance(text, str)
    return text


def test_the_explanation_names_the_item_in_the_domain_words() -> None:
    assert explained(PRODUCTS, "Water Gel") == (
        "Water Gel has the tone and pace of the products you buy; give it a try."
    )
    assert explained(MOVIES, "Heat (1995)") == (
        "Heat (1995) has the tone and pace of the films you watch; give it a try."
    )


def test_the_judge_finds_the_history_in_a_product_prompt() -> None:
    prompt = PromptLibrary(domain=PRODUCTS).get("recmind_tasks/judge").render(
        "user", history="- Soap Bar\n- Clay Mask", item="Water Gel", facts="-",
        explanation="Like your Soap Bar, it is gentle.",
    )  # fmt: skip
    verdict = judge_rule(request(prompt)).model_dump()
    assert verdict["rationality"] == 2  # one history title named


def test_one_turn_generators_in_product_words() -> None:
    library = PromptLibrary(domain=PRODUCTS)
    info = target_info(GEL, PRODUCTS)
    assert info == "categories: Beauty, Skin Care; brand: Neutrogena; keywords: hydrating."
    retrieval = library.get("interecagent/one_turn_retrieval")
    prompt = retrieval.render("user", history="Soap Bar; Clay Mask", target_info=info)
    conversation = retrieval_conversation(request(prompt), PRODUCTS)
    assert isinstance(conversation, GeneratedConversation)
    texts = [m.text for m in conversation.messages]
    assert texts == ["I liked Soap Bar.", "Nice. What are you in the mood for now?",
                     "Something Beauty.", "Then you will like product."]  # fmt: skip
    ranking = library.get("interecagent/one_turn_ranking")
    prompt = ranking.render("user", history="Soap Bar", n=2, candidates="Water Gel; Clay Mask")
    assert ranking_question(request(prompt), PRODUCTS) == (
        "I enjoyed Soap Bar in the past, now I want some new products. I have some candidates"
        " in my mind: Water Gel; Clay Mask. Could you please rank them based on my preference?"
    )
