"""Scripted answers for the built-in systems' roles (campaign.scripted adds the others).

Choices are deterministic functions of (dialogue, turn): the same campaign
gives the same transcript however dialogues interleave.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from macrs_sim.agents.macrs.schemas import (
    DemandPair,
    FinalListOutput,
    PlannerOutput,
    RecommendOutput,
    StrategyOutput,
    UserProfile,
)
from macrs_sim.agents.scripted_words import ask_line, chat_line
from macrs_sim.agents.single_llm.free_chat import FreeChatOutput
from macrs_sim.agents.single_llm.system import SingleLLMOutput
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedRequest

# The planner's act per turn: ask first, try a recommendation, then adjust (paper Fig. 4 shape).
Act = Literal["ask", "chat", "recommend"]
PLANNER_ACTS: tuple[Act, ...] = ("ask", "recommend", "chat", "recommend", "recommend")
SINGLE_LLM_ACTS: tuple[Act, ...] = ("recommend", "ask", "recommend", "recommend", "recommend")


STRATEGY = StrategyOutput(
    error_summary="The recommendation ignored the stated mood.",
    suggestion_ask="Ask about the era.",
    suggestion_chat="Chat about favourite directors.",
    suggestion_recommend="Recommend something matching the mood.",
    experience="Ask before recommending again.",
)


def _pick(titles: Sequence[str], *key: object, n: int = 1) -> list[str]:
    digest = hashlib.sha256("|".join(map(str, key)).encode()).digest()
    start = int.from_bytes(digest[:8], "big") % len(titles)
    return [titles[(start + 7 * i) % len(titles)] for i in range(n)]


def _turn_act(acts: Sequence[Act], turn: int | None) -> Act:
    return acts[((turn or 1) - 1) % len(acts)]


def macrs_rules(catalog_titles: Sequence[str], *, domain: Domain = MOVIES) -> dict[str, Rule]:
    """MACRS's roles (its SystemSpec.scripted_rules), the texts in `domain`'s words;
    "final_list" is shared with single-LLM."""
    titles = list(catalog_titles)

    def recommend(req: ScriptedRequest) -> BaseModel:
        (title,) = _pick(titles, req.context.dialogue_id, req.context.turn)
        return RecommendOutput(item_title=title, response=f"You might enjoy {title}.")

    def planner(req: ScriptedRequest) -> BaseModel:
        act = _turn_act(PLANNER_ACTS, req.context.turn)
        return PlannerOutput(
            step1="Reviewed acts.", step2="Checked preferences.", step3="Chose.", choice=act
        )

    return {
        "macrs.ask": lambda req: ask_line(domain),
        "macrs.chat": lambda req: chat_line(domain),
        "macrs.recommend": recommend,
        "macrs.planner": planner,
        "macrs.info_reflector": lambda req: UserProfile(
            current_demand=[DemandPair(attribute="mood", value="light-hearted")]
        ),
        "macrs.strategy_reflector": lambda req: STRATEGY,
    }


def final_list_rule(titles: Sequence[str]) -> Rule:
    def final_list(req: ScriptedRequest) -> BaseModel:
        # As many titles as the requested schema allows (final_list_schema(k)); the
        # follow-up request (a smaller k) starts elsewhere in the catalog.
        schema = req.schema or FinalListOutput
        k = int(schema.model_json_schema()["properties"]["titles"].get("maxItems", 10))
        return schema(titles=_pick(titles, req.context.dialogue_id, "final", k, n=k))

    return final_list


def single_llm_rules(catalog_titles: Sequence[str]) -> dict[str, Rule]:
    """The single-LLM baseline's role (its SystemSpec.scripted_rules)."""
    titles = list(catalog_titles)

    def single_llm(req: ScriptedRequest) -> BaseModel:
        act = _turn_act(SINGLE_LLM_ACTS, req.context.turn)
        title = (
            _pick(titles, req.context.dialogue_id, req.context.turn)[0]
            if act == "recommend"
            else ""
        )
        text = f"How about {title}?" if title else "What kind of story do you enjoy?"
        return SingleLLMOutput(
            step1="Reviewed acts.",
            step2="Checked preferences.",
            step3="Chose.",
            act=act,
            item_title=title,
            response=text,
        )

    def free_chat(req: ScriptedRequest) -> BaseModel:
        # As many titles as the prompt allows ("recommend up to N"), every other turn.
        found = re.search(r"recommend up to (\d+)", message_text(req.messages[0]))
        n = int(found.group(1)) if found else 1
        if (req.context.turn or 1) % 2:
            return FreeChatOutput(response="What kind of story do you enjoy?")
        picked = _pick(titles, req.context.dialogue_id, req.context.turn, n=n)
        return FreeChatOutput(response="How about " + ", ".join(picked) + "?", items=picked)

    return {"single_llm.respond": single_llm, "single_llm.free_chat": free_chat}
