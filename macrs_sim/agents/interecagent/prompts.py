"""Prompt builders of InteRecAgent: pure functions from typed state to messages."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.interecagent.bus import TrackRecord
from macrs_sim.agents.interecagent.demos import Demonstration, in_domain
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.agents.prompt_layout import dialogue_messages
from macrs_sim.agents.rendering import NONE, render_history
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import DialogueState, Utterance
from macrs_sim.tools.sql import TABLES

# The tables the query tool may read (the interactions table is hidden from systems).
SCHEMA_TEXT = "\n".join(TABLES[t] for t in ("items", "item_genres"))


@dataclass(frozen=True)
class Critique:
    """A negative verdict: the plan it judged and what was wrong (the re-plan's input)."""

    previous_plan: str
    critique: str


@dataclass(frozen=True)
class PlannerContext:
    """What every planning call sees besides the demonstrations."""

    tools: str
    genres: str
    profile: str
    history: str
    request: str
    # The tables the query tools read, as their catalog database describes them (films:
    # SCHEMA_TEXT; a product catalog names brand, price ...).
    schema: str = SCHEMA_TEXT


@dataclass(frozen=True)
class InteRecPrompts:
    planner: PromptTemplate
    react: PromptTemplate
    reply: PromptTemplate
    critic: PromptTemplate
    tools: str
    chat: PromptTemplate
    profile: PromptTemplate
    # The dataset's domain: the question asked when the reply model fails names its noun,
    # and the demonstrations (written about films) are shown in its words.
    domain: Domain = MOVIES
    # The most items a turn may show (protocol.max_items_per_turn): the reply names no more.
    max_items: int = 5

    @classmethod
    def load(cls, library: PromptLibrary, max_items: int = 5) -> InteRecPrompts:
        def get(name: str) -> PromptTemplate:
            return library.get(f"interecagent/{name}")

        tools = get("tools").render("tools")
        return cls(get("planner"), get("react"), get("reply"), get("critic"), tools,
                   get("chat"), get("profile"), library.domain, max_items)  # fmt: skip


def split_request(state: DialogueState) -> tuple[str, str]:
    """(the conversation before the latest user message, the latest user message)."""
    utterances = state.utterances()
    return render_history(utterances[:-1]), utterances[-1].text


@dataclass(frozen=True)
class Windowed:
    """The prompt's view of the dialogue with a window of the last K exchanges."""

    history: str
    request: str
    # The utterances before the window (oldest first): what the profile summary covers.
    dropped: tuple[Utterance, ...]
    # The window's utterances and the latest message, as turns (the chat layout's messages).
    turns: tuple[Utterance, ...] = ()


def window_request(state: DialogueState, k: int | None) -> Windowed:
    """The last `k` exchanges (user and assistant messages) before the latest message."""
    utterances = state.utterances()
    before = utterances[:-1]
    cut = 0 if k is None else max(0, len(before) - 2 * k)
    return Windowed(
        render_history(before[cut:]), utterances[-1].text, tuple(before[:cut]),
        tuple(utterances[cut:]),
    )  # fmt: skip


def render_plan(steps: Sequence[PlanStep]) -> str:
    if not steps:
        return "(no tool)"
    return json.dumps([s.model_dump(mode="json") for s in steps], ensure_ascii=False)


def render_demos(demos: Sequence[Demonstration], domain: Domain = MOVIES) -> str:
    return "\n\n".join(in_domain(d.render(), domain) for d in demos) if demos else NONE


def render_steps(records: Sequence[TrackRecord]) -> str:
    """The ReAct loop's steps so far: tool, input, and the summary of what it returned."""
    if not records:
        return NONE
    lines = []
    for rec in records:
        given = rec.input if isinstance(rec.input, str) else json.dumps(rec.input)
        lines.append(f"{rec.step}. {rec.tool} {given} -> {rec.output}")
    return "\n".join(lines)


def _user(template: PromptTemplate, text: str, critique: Critique | None) -> UserMessage:
    if critique is not None:
        extra = template.render(
            "critique", previous_plan=critique.previous_plan, critique=critique.critique
        )
        text = f"{text}\n\n{extra}"
    return UserMessage(content=text, source="user")


def planner_messages(
    p: InteRecPrompts,
    ctx: PlannerContext,
    demos: Sequence[Demonstration],
    critique: Critique | None = None,
) -> list[LLMMessage]:
    system = p.planner.render(
        "system", tools=ctx.tools, schema=ctx.schema, genres=ctx.genres,
        demonstrations=render_demos(demos, p.domain),
    )  # fmt: skip
    user = p.planner.render("user", profile=ctx.profile, history=ctx.history, request=ctx.request)
    return [SystemMessage(content=system), _user(p.planner, user, critique)]


def react_messages(
    p: InteRecPrompts,
    ctx: PlannerContext,
    demos: Sequence[Demonstration],
    steps: str,
    critique: Critique | None = None,
) -> list[LLMMessage]:
    system = p.react.render(
        "system", tools=ctx.tools, schema=ctx.schema, genres=ctx.genres,
        demonstrations=render_demos(demos, p.domain),
    )  # fmt: skip
    user = p.react.render(
        "user", profile=ctx.profile, history=ctx.history, request=ctx.request, steps=steps
    )
    return [SystemMessage(content=system), _user(p.react, user, critique)]


def reply_messages(
    p: InteRecPrompts,
    history: str,
    request: str,
    plan: str,
    result: str,
    turns: Sequence[Utterance] = (),
) -> list[LLMMessage]:
    """The reply to the user; with the chat layout and `turns`, the dialogue as messages."""

    def user(transcript: str) -> str:
        return p.reply.render("user", history=transcript, request=request, plan=plan,
                              result=result or NONE)  # fmt: skip

    return _laid_out(p.reply, p.reply.render("system", max_items=p.max_items), user, history, turns)


def _laid_out(
    template: PromptTemplate,
    system: str,
    user: Callable[[str], str],
    history: str,
    turns: Sequence[Utterance],
) -> list[LLMMessage]:
    """The paper's messages (`history` as written), or the chat layout's when the template
    says so and the turns are known (agents/prompt_layout.py)."""
    if template.layout == "chat" and turns:
        return dialogue_messages("chat", system, user, turns, me="system")
    return [SystemMessage(content=system), UserMessage(content=user(history), source="user")]


def critic_messages(
    p: InteRecPrompts, history: str, request: str, plan: str, tracker: str, reply: str
) -> list[LLMMessage]:
    user = p.critic.render(
        "user", history=history, request=request, plan=plan, tracker=tracker, reply=reply
    )
    return [
        SystemMessage(content=p.critic.render("system", tools=p.tools)),
        UserMessage(content=user, source="user"),
    ]


def chat_messages(
    p: InteRecPrompts,
    history: str,
    request: str,
    *,
    clarify: bool,
    turns: Sequence[Utterance] = (),
) -> list[LLMMessage]:
    """A reply with no tool: chit-chat from the model's knowledge, or (the plan failed) a
    clarifying question. Neither sees any plan or tool text."""
    system = p.chat.render("clarify" if clarify else "system")

    def user(transcript: str) -> str:
        return p.chat.render("user", history=transcript, request=request)

    return _laid_out(p.chat, system, user, history, turns)


def profile_messages(p: InteRecPrompts, dropped: Sequence[Utterance]) -> list[LLMMessage]:
    user = p.profile.render("user", conversation=render_history(dropped))
    return [
        SystemMessage(content=p.profile.render("system")),
        UserMessage(content=user, source="user"),
    ]
