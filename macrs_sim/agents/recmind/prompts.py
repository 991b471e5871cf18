"""Prompt builders of RecMind: pure functions from typed state to messages.

The wording follows the paper's appendix A (tool descriptions, the text-to-SQL and
result-to-text prompts, ToT's thought sampling and decision prompts, the Self-Inspiring
prompt); each asks for JSON so small models can be validated and repaired.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from autogen_core.models import LLMMessage, SystemMessage, UserMessage

from macrs_sim.agents.recmind.budget import cut_text, estimate_tokens
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.tree import ThoughtNode
from macrs_sim.agents.rendering import NONE
from macrs_sim.prompts import PromptLibrary, PromptTemplate


@dataclass(frozen=True)
class RecMindPrompts:
    agent: PromptTemplate
    tools: PromptTemplate
    tot: PromptTemplate
    inspire: PromptTemplate
    sql: PromptTemplate
    search: PromptTemplate
    summarize: PromptTemplate
    task: PromptTemplate

    @classmethod
    def load(cls, library: PromptLibrary) -> RecMindPrompts:
        names = ("agent", "tools", "tot", "inspire", "sql", "search", "summarize", "task")
        return cls(*(library.get(f"recmind/{n}") for n in names))


def _user(text: str) -> list[LLMMessage]:
    return [UserMessage(content=text, source="user")]


def render_action(action: str, argument: str) -> str:
    return f"{action.strip()}[{argument.strip()}]"


def render_node(node: ThoughtNode, *, with_path: bool = False) -> str:
    label = f"[path {node.path}] " if with_path else ""
    lines = [f"{label}Step {node.depth + 1}",
             f"Thought: {node.thought.strip()}",
             f"Action: {render_action(node.action, node.argument)}"]  # fmt: skip
    if node.observation is not None:
        lines.append(f"Observation: {node.observation.strip()}")
    return "\n".join(lines)


def render_states(nodes: Sequence[ThoughtNode], *, with_path: bool = False) -> str:
    if not nodes:
        return NONE
    return "\n\n".join(render_node(n, with_path=with_path) for n in nodes)


def fit_states(nodes: Sequence[ThoughtNode], tokens: int, *, with_path: bool = False) -> str:
    """The states within `tokens`, the newest kept first: older ones that do not fit are
    left out with a note of how many; a newest state that alone does not fit keeps its
    start."""
    if not nodes:
        return NONE
    rendered = [render_node(n, with_path=with_path) for n in nodes]
    note = estimate_tokens(f"(… {len(nodes)} earlier steps not shown)") + 1
    kept: list[str] = []
    used = 0
    for text in reversed(rendered):
        cost = estimate_tokens(text) + 1
        if used + cost + (0 if len(kept) + 1 == len(rendered) else note) > tokens:
            break
        kept.append(text)
        used += cost
    if not kept:
        kept = [cut_text(rendered[-1], max(0, tokens - note))]
    body = "\n\n".join(reversed(kept))
    dropped = len(rendered) - len(kept)
    return f"(… {dropped} earlier steps not shown)\n\n{body}" if dropped else body


def render_option(number: int, step: StepOutput, observation: str | None = None) -> str:
    text = f"{number}. Thought: {step.thought.strip()} Action: " + render_action(
        step.action, step.argument
    )
    return text if observation is None else f"{text} Observation: {observation.strip()}"


def tools_text(p: RecMindPrompts, *, sql: bool, search: bool, summarize: bool,
               database_info: str) -> str:  # fmt: skip
    parts = [p.tools.render("sql", database_info=database_info)] if sql else []
    parts += [p.tools.render("search")] if search else []
    parts += [p.tools.render("summarize")] if summarize else []
    return "\n".join([*parts, p.tools.render("finish")])


def step_messages(
    p: RecMindPrompts, tools: str, task: str, steps: str, *, all_paths: bool = False
) -> list[LLMMessage]:
    """The next state: CoT (`steps` = the path) or Self-Inspiring (every path, labelled)."""
    user = p.agent.render("paths" if all_paths else "user", task=task, steps=steps)
    return [SystemMessage(content=p.agent.render("system", tools=tools)), *_user(user)]


def final_messages(p: RecMindPrompts, tools: str, task: str, steps: str) -> list[LLMMessage]:
    user = p.agent.render("final", task=task, steps=steps)
    return [SystemMessage(content=p.agent.render("system", tools=tools)), *_user(user)]


def sample_messages(
    p: RecMindPrompts, tools: str, task: str, steps: str, k: int
) -> list[LLMMessage]:
    return _user(p.tot.render("sample", tools=tools, previous_steps=steps, k=k, task=task))


def vote_messages(
    p: RecMindPrompts,
    task: str,
    steps: str,
    options: Sequence[StepOutput],
    option_tokens: int | None = None,
    *,
    observed: str | None = None,
) -> list[LLMMessage]:
    """`option_tokens`: what each option may take (its start kept, the cut said);
    `observed`: option 1's observation (it has run)."""
    instruction = f"{task}\nSteps so far:\n{steps}\nChoose the best next step."
    rendered = [render_option(i, o, observed if i == 1 else None)
                for i, o in enumerate(options, 1)]  # fmt: skip
    if option_tokens is not None:
        rendered = [cut_text(text, option_tokens) for text in rendered]
    listed = "\n".join(rendered)
    return _user(p.tot.render("vote", instruction=instruction, options=listed))


def inspire_messages(p: RecMindPrompts, task: str, previous: str, current: str) -> list[LLMMessage]:
    text = p.inspire.render("user", task=task, previous_steps=previous, current_step=current)
    return _user(text)


def to_sql_messages(p: RecMindPrompts, question: str, database_info: str) -> list[LLMMessage]:
    return _user(p.sql.render("to_sql", question=question, database_info=database_info))


def sql_text_messages(p: RecMindPrompts, question: str, sql: str, rows: str) -> list[LLMMessage]:
    return _user(p.sql.render("to_text", question=question, sql_query=sql, sql_result=rows))


def search_text_messages(p: RecMindPrompts, question: str, result: str) -> list[LLMMessage]:
    return _user(p.search.render("to_text", question=question, search_result=result))


def summarize_messages(p: RecMindPrompts, content: str) -> list[LLMMessage]:
    return _user(p.summarize.render("user", content=content))


def dialogue_task(p: RecMindPrompts, user_id: str, k: int, history: str, request: str) -> str:
    return p.task.render("dialogue", user_id=user_id, k=k, history=history, request=request)


def offline_task(p: RecMindPrompts, question: str, user_id: str) -> str:
    return p.task.render("offline", question=question, user_id=user_id)
