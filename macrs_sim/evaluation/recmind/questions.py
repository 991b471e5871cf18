"""Pure builders of the task questions, from templates in prompts/recmind_tasks/.

A question is the whole task text a solver gets, the same for every solver: the plain LLM
answers it in one call, RecMind plans over it with its tools. Direct recommendation names
the user and the candidates only, as the paper's prompt (§4.3): RecMind fetches the
history from its memory with SQL; sequential recommendation shows the history. Zero-shot
asks directly; few-shot adds examples drawn from the same user's visible history (the
paper's user-specific examples), never from the held-out target; explanation's one example
is fixed (another user, another item: the data hold no explanation of the user's own).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from macrs_sim.evaluation.recmind.cases import TaskCase
from macrs_sim.evaluation.recmind.settings import Prompting, Task
from macrs_sim.prompts import PromptLibrary, PromptTemplate
from macrs_sim.protocol import Item

PROMPT_DIR = "recmind_tasks"
NONE = "(none)"
# Items shown before each "what came next" example.
EXAMPLE_WINDOW = 3


@dataclass(frozen=True)
class QuestionSettings:
    top_n: int = 10
    history_len: int = 20
    shots: int = 3
    # The rating scale (rating prediction only).
    low: float = 1.0
    high: float = 5.0


def task_template(prompts: PromptLibrary, task: Task) -> PromptTemplate:
    return prompts.get(f"{PROMPT_DIR}/{task}")


def number(value: float) -> str:
    """4.0 -> "4", 4.5 -> "4.5"."""
    return f"{value:g}"


def render_history(ids: Sequence[str], items: Mapping[str, Item], limit: int) -> str:
    shown = ids[-limit:] if limit > 0 else ()
    return "\n".join(f"- {items[i].display_title}" for i in shown) or NONE


def render_candidates(ids: Sequence[str], items: Mapping[str, Item]) -> str:
    return "\n".join(f"{i} {items[i].display_title}" for i in ids)


def rating_examples(
    case: TaskCase, items: Mapping[str, Item], template: PromptTemplate, shots: int
) -> str:
    """The user's most recent rated items with their ratings, oldest first."""
    rated = [
        (i, r) for i, r in zip(case.history, case.history_ratings, strict=True) if r is not None
    ]
    lines = [
        template.render("example", item=items[i].display_title, rating=number(r))
        for i, r in rated[-shots:]
    ]
    return "\n".join(lines) or NONE


def next_item_examples(
    case: TaskCase, items: Mapping[str, Item], template: PromptTemplate, shots: int
) -> str:
    """ "After A, B, C, the user watched D." for the last `shots` steps of the history."""
    lines = []
    for back in range(min(shots, len(case.history) - 1), 0, -1):
        end = len(case.history) - back
        before = case.history[max(0, end - EXAMPLE_WINDOW) : end]
        names = ", ".join(items[i].display_title for i in before)
        lines.append(
            template.render("example", before=names, next=items[case.history[end]].display_title)
        )
    return "\n".join(lines) or NONE


def summary_examples(case: TaskCase, template: PromptTemplate, shots: int) -> str:
    """The user's most recent usable reviews with their own summaries, oldest first."""
    usable = [r for r in case.history_reviews if r is not None and r.usable]
    lines = [
        template.render("example", review=r.text.strip(), summary=(r.summary or "").strip())
        for r in usable[-shots:]
    ]
    return "\n\n".join(lines) or NONE


def build_question(
    task: Task,
    prompting: Prompting,
    case: TaskCase,
    items: Mapping[str, Item],
    prompts: PromptLibrary,
    settings: QuestionSettings,
) -> str:
    template = task_template(prompts, task)
    section = "few_shot" if prompting == "few-shot" else "zero_shot"
    values: dict[str, object] = {"user_id": case.user_id}
    if task == "rating":
        values |= {"item": items[case.target].display_title, "low": number(settings.low),
                   "high": number(settings.high)}  # fmt: skip
        if prompting == "few-shot":
            values["examples"] = rating_examples(case, items, template, settings.shots)
    elif task == "explanation":
        values["item"] = items[case.target].display_title
    elif task == "summary":
        values["review"] = case.review.text.strip() if case.review is not None else ""
        if prompting == "few-shot":
            values["examples"] = summary_examples(case, template, settings.shots)
    else:
        values |= {"top_n": settings.top_n,
                   "candidates": render_candidates(case.candidates, items)}  # fmt: skip
        if task == "sequential":  # direct: the user id only (§4.3); the agent looks it up
            values["history"] = render_history(case.history, items, settings.history_len)
        if prompting == "few-shot":
            values["examples"] = next_item_examples(case, items, template, settings.shots)
    return template.render(section, **values)
