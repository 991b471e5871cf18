"""Demonstration retrieval (deterministic nearest 3) and the prompt builders' exact text."""

from __future__ import annotations

import numpy as np

from macrs_sim.agents.interecagent import prompts as pb
from macrs_sim.agents.interecagent.demos import DemoIndex, Demonstration, load_demonstrations
from macrs_sim.agents.interecagent.inputs import TOOL_NAMES, tool_name
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.prompts import PromptLibrary
from tests.tools.fakes import BagOfWordsEncoder

DEMOS = [
    Demonstration(intent="popular TYPE movies", plan=()),  # {popular, type, movies}
    Demonstration(intent="movies similar to ITEM", plan=()),  # {movies, similar, item}
    Demonstration(intent="who directed ITEM", plan=()),  # {who, directed, item}
    Demonstration(intent="similar TYPE films", plan=()),  # {similar, type, films}
]


def test_token_overlap_picks_the_three_nearest_ties_in_file_order() -> None:
    index = DemoIndex(DEMOS)
    # {similar, movies}: 1/sqrt(6), 2/sqrt(6), 0, 1/sqrt(6)
    assert np.allclose(
        index.scores("Similar movies, please!"), [0.4082, 0.8165, 0.0, 0.4082], atol=1e-4
    )
    nearest = index.nearest("Similar movies, please!", 3)
    assert [d.intent for d in nearest] == [
        "movies similar to ITEM", "popular TYPE movies", "similar TYPE films",
    ]  # fmt: skip
    assert index.method == "tokens" and index.fixed(2) == DEMOS[:2]


def test_embedding_retrieval_uses_the_encoder() -> None:
    demos = [
        Demonstration(intent="a heist film", plan=()),
        Demonstration(intent="a ghost story", plan=()),
        Demonstration(intent="love in space", plan=()),
    ]
    index = DemoIndex(demos, BagOfWordsEncoder())
    assert [d.intent for d in index.nearest("ghost ghost", 2)] == ["a ghost story", "a heist film"]
    assert index.method == "embedding"


def test_shipped_demonstrations_are_valid_plans() -> None:
    demos = load_demonstrations()
    assert len(demos) >= 30
    used = {tool_name(s.tool) for d in demos for s in d.plan}
    assert used == set(TOOL_NAMES)  # every tool is demonstrated, under its own name


def test_planner_messages_exact() -> None:
    p = pb.InteRecPrompts.load(PromptLibrary())
    ctx = pb.PlannerContext(
        tools="T", genres="Comedy, Drama", profile="P", history="User: hi", request="R?"
    )
    demo = Demonstration(intent="I", plan=(PlanStep(tool="fetch_candidates", input={"k": 1}),))
    msgs = pb.planner_messages(p, ctx, [demo], pb.Critique("[]", "C."))
    system = str(msgs[0].content)
    assert "Tools:\nT\n\nThe SQL tables" in system
    assert "\n\nGenres in the catalog (hard_filter knows only these): Comedy, Drama\n\n" in system
    assert (
        'Request: I\nPlan: [{"tool": "fetch_candidates", "input": {"k": 1}}]\n\nReply with'
        in system
    )
    assert msgs[1].content == (
        "User profile:\nP\n\nConversation so far:\nUser: hi\n\nThe user's latest message: R?"
        "\n\nYour previous plan for this message was judged wrong.\nPrevious plan: []\n"
        "Critique: C.\nWrite a better plan."
    )


def test_reply_and_critic_messages_exact() -> None:
    p = pb.InteRecPrompts.load(PromptLibrary())
    reply = pb.reply_messages(p, "(none)", "R", "(no tool)", "")
    assert reply[1].content == (
        "Conversation so far:\n(none)\n\nThe user's latest message: R\n\n"
        "Plan you ran:\n(no tool)\n\nWhat your search found:\n(none)"
    )
    critic = pb.critic_messages(p, "H", "R", "P", "TR", "Y")
    assert "Here are the descriptions of those tools:\nstore_candidates: Candidates" in str(
        critic[0].content
    )
    assert critic[1].content == (
        "Conversation so far:\nH\n\nRequest: R\n\nPlan:\nP\n\n"
        "Tool calls (tool, input, result, candidates before -> after):\nTR\n\nReply: Y"
    )
