"""The contract RecMind's offline tasks call: build_task_solver(...).solve(question, user_id)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from macrs_sim.agents.recmind.options import PLANNERS
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.scripted import recmind_scripted_rules
from macrs_sim.agents.recmind.task_solver import RecMindTaskSolver, TaskAnswer, build_task_solver
from macrs_sim.data.dataset import Dataset
from macrs_sim.errors import ConfigError
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolCallLog
from tests.agents.recmind.helpers import HISTORIES

QUESTION = 'How will user {} rate "Heat (1995)"? Answer with a number from 1 to 5.'


def solver(
    dataset: Dataset, tmp_path: Path, planner: str = "cot", log: ToolCallLog | None = None
) -> tuple[RecMindTaskSolver, ScriptedChatCompletionClient]:
    client = ScriptedChatCompletionClient(recmind_scripted_rules())
    made = build_task_solver(
        planner, client=client, dataset=dataset, histories=HISTORIES, prompts=PromptLibrary(),
        max_steps=4, log=log, cache_dir=tmp_path / "cache",
    )  # fmt: skip
    return made, client


async def test_rating_question_is_answered_from_the_users_visible_ratings(
    dataset: Dataset, tmp_path: Path
) -> None:
    made, client = solver(dataset, tmp_path)
    # u1's visible ratings 5, 4, 3.5: AVG = 4.1667 -> ROUND(.., 1) = 4.2 -> answer 4.
    assert await made.solve(QUESTION.format("u1"), user_id="u1") == TaskAnswer("4")
    # u2 has no rating: AVG is NULL, the scripted policy falls back to 3.
    assert await made.solve(QUESTION.format("u2"), user_id="u2") == TaskAnswer("3")
    first = [c.context.role for c in client.calls][:6]
    assert first == ["recmind.thought", "recmind.search", "recmind.thought", "recmind.sql",
                     "recmind.sql_answer", "recmind.thought"]  # fmt: skip


@pytest.mark.parametrize("planner", PLANNERS)
async def test_every_planner_solves_and_reports_its_cost(
    dataset: Dataset, tmp_path: Path, planner: str
) -> None:
    log = ToolCallLog()
    made, _ = solver(dataset, tmp_path, planner, log)
    trace = await made.solve_traced(QUESTION.format("u1"), user_id="u1")
    assert trace.answer == "4" and trace.tree.planner == planner
    assert trace.usage["llm_calls"] >= 4 and trace.usage["prompt_tokens"] > 0
    assert {r.tool for r in log.all()} == {"search", "sql"}
    assert all(r.role.startswith("recmind.") for r in log.all())


async def test_concurrent_solves_do_not_share_state(dataset: Dataset, tmp_path: Path) -> None:
    made, _ = solver(dataset, tmp_path, "self-inspiring")
    answers = await asyncio.gather(
        made.solve(QUESTION.format("u1"), user_id="u1"),
        made.solve(QUESTION.format("u2"), user_id="u2"),
    )
    assert [a.answer for a in answers] == ["4", "3"]


async def test_the_finish_items_come_back_and_calls_carry_the_askers_id(
    dataset: Dataset, tmp_path: Path
) -> None:
    finish = StepOutput(thought="t", action="Finish", argument="These two, best first.",
                        items=["Heat (1995)", " Star Voyage ", ""])  # fmt: skip
    client = ScriptedChatCompletionClient({"recmind.thought": lambda req: finish})
    made = build_task_solver("cot", client=client, dataset=dataset, histories=HISTORIES,
                             prompts=PromptLibrary(), cache_dir=tmp_path)  # fmt: skip
    with calling(CallContext(role="recmind_tasks.direct", dialogue_id="q7", system="run")):
        answer = await made.solve("Rank the candidates for user u1.", user_id="u1")
    assert answer == TaskAnswer("These two, best first.", ("Heat (1995)", "Star Voyage"))
    (call,) = client.calls
    assert (call.context.dialogue_id, call.context.system) == ("q7", "run")


def test_an_unknown_planner_is_one_line(dataset: Dataset, tmp_path: Path) -> None:
    client = ScriptedChatCompletionClient({})
    with pytest.raises(ConfigError, match=r"^recmind planner 'tot': expected one of cot, "):
        build_task_solver("tot", client=client, dataset=dataset, histories=HISTORIES,
                          prompts=PromptLibrary(), cache_dir=tmp_path)  # fmt: skip
    with pytest.raises(ConfigError, match="max_steps"):
        build_task_solver("cot", client=client, dataset=dataset, histories=HISTORIES,
                          prompts=PromptLibrary(), cache_dir=tmp_path, max_steps=0)  # fmt: skip
