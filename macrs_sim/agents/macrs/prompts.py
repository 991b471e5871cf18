"""Pure prompt builders for the MACRS roles: typed memory in, chat messages out."""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents import final_list
from macrs_sim.agents.macrs.messages import (
    FinalListRequest,
    InfoReflectRequest,
    PlanRequest,
    RespondRequest,
    StrategyReflectRequest,
    TrajectoryStep,
)
from macrs_sim.agents.prompt_layout import dialogue_messages
from macrs_sim.agents.rendering import render_list, render_text
from macrs_sim.prompts import PromptTemplate
from macrs_sim.protocol import Utterance


def _messages(template: PromptTemplate, **values: object) -> list[LLMMessage]:
    return [
        SystemMessage(content=template.render("system")),
        UserMessage(content=template.render("user", **values), source="user"),
    ]


def _dialogue(
    template: PromptTemplate, history: Sequence[Utterance], **values: object
) -> list[LLMMessage]:
    """A role that sees the dialogue, laid out as its template's layout says."""
    return dialogue_messages(
        template.layout,
        template.render("system"),
        lambda transcript: template.render("user", dialogue_history=transcript, **values),
        history,
        me="system",
    )


def responder_messages(template: PromptTemplate, req: RespondRequest) -> list[LLMMessage]:
    return _dialogue(
        template,
        req.dialogue_history,
        user_profile=req.profile.render(),
        suggestion=render_text(req.suggestion),
    )


def planner_messages(template: PromptTemplate, req: PlanRequest) -> list[LLMMessage]:
    def candidate(act: str) -> str:
        reply = req.candidates.get(act)
        return reply.text if reply else "(no candidate)"

    return _dialogue(
        template,
        req.dialogue_history,
        act_history=render_list(req.act_history, ", "),
        experiences=render_list(req.experiences, " "),
        ask=candidate("ask"),
        chat=candidate("chat"),
        recommend=candidate("recommend"),
    )


def info_reflector_messages(template: PromptTemplate, req: InfoReflectRequest) -> list[LLMMessage]:
    return _messages(
        template,
        user_profile=req.profile.render(),
        system_response=render_text(req.system_response),
        user_feedback=render_text(req.user_feedback),
    )


def render_trajectory(steps: Sequence[TrajectoryStep]) -> str:
    blocks = [
        f"Turn {s.turn}\n{s.profile.render()}\n"
        f"System ({s.act}): {s.system_response}\nUser: {s.user_feedback}"
        for s in steps
    ]
    return "\n\n".join(blocks) if blocks else "(none)"


def strategy_reflector_messages(
    template: PromptTemplate, req: StrategyReflectRequest
) -> list[LLMMessage]:
    return _messages(template, trajectory=render_trajectory(req.trajectory))


def final_list_messages(template: PromptTemplate, req: FinalListRequest) -> list[LLMMessage]:
    return final_list.final_list_messages(
        template, req.dialogue_history, req.profile.render(), req.k, req.given
    )
