"""A scripted InteRecAgent campaign stores each dialogue's tool calls, attributed, and a run
made before the tool_calls table existed resumes into one that has it.

Hand count (agenda user, max_turns 2, 2 samples; both users open with a Drama and then say
"Not quite. I want a Romance movie.", so no dialogue succeeds): the scripted planner plans
filter_items (the named genre), rank_items, fetch_candidates each turn; here it is made to
start every plan with an unknown tool, "imdb_lookup" (an error the executor records). The
fallback list (turn 3) ranks the bus: one rank_items. Plan-first: 4 tool calls a turn
(1 error) x 2 turns + 1 = 9 a dialogue; ReAct (no injected step): 3 x 2 + 1 = 7.
LLM calls: plan-first planner + reply + critic = 3 a turn; ReAct 3 tool steps + finish
+ critic = 5 a turn.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

pytest.importorskip("torch", reason="needs the recsys extra: pip install 'macrs-sim[recsys]'")

from macrs_sim.agents.interecagent.schemas import PlanOutput, PlanStep  # noqa: E402
from macrs_sim.agents.interecagent.scripted import interecagent_scripted_rules  # noqa: E402
from macrs_sim.analysis.metrics.usage import usage_table  # noqa: E402
from macrs_sim.analysis.runs.load import load_run  # noqa: E402
from macrs_sim.campaign.runner import CampaignResult, run_campaign_async  # noqa: E402
from macrs_sim.campaign.scripted import default_scripted_rules  # noqa: E402
from macrs_sim.config import Scenario, parse_scenario  # noqa: E402
from macrs_sim.llm.scripted import Rule, ScriptedRequest  # noqa: E402
from macrs_sim.store import RunStore  # noqa: E402
from tests.store.store_cells import delete_dialogue
from tests.store.store_v1 import as_format_1

PLAN_FIRST = ["imdb_lookup", "filter_items", "rank_items", "fetch_candidates"]
REACT = ["filter_items", "rank_items", "fetch_candidates"]


def scenario() -> Scenario:
    return parse_scenario(
        {
            "name": "ira-tools",
            "model": {"backend": "scripted"},
            "data": {"n_samples": 2},
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 2},
            "systems": [
                {"name": "IRA", "kind": "interecagent", "ranker": "popularity"},
                {"name": "w/o P", "kind": "interecagent", "ranker": "popularity",
                 "plan_first": False},
            ],
        }
    )  # fmt: skip


def rules() -> dict[str, Rule]:
    planner = interecagent_scripted_rules()["interecagent.planner"]

    def with_unknown_tool(req: ScriptedRequest) -> BaseModel:
        plan = planner(req)
        assert isinstance(plan, PlanOutput)
        bad = PlanStep(tool="imdb_lookup", input={"title": 'Heat "1995" '})
        return plan.model_copy(update={"plan": [bad, *plan.plan]})

    return {**default_scripted_rules([]), "interecagent.planner": with_unknown_tool}


async def run(out: Path) -> CampaignResult:
    return await run_campaign_async(
        scenario(), output_dir=out, progress=False, report=False, scripted_rules=rules()
    )


def by_dialogue(store: RunStore) -> dict[str, list[tuple[Any, ...]]]:
    out: dict[str, list[tuple[Any, ...]]] = {}
    for t in store.read_tool_calls():
        assert t.dialogue_id is not None and t.system == t.dialogue_id.split(":", 1)[0]
        assert t.role == "interecagent.tools" and (t.error is None) == t.ok
        out.setdefault(t.dialogue_id, []).append((t.turn, t.tool, t.ok))
    return out


def expected(tools: list[str]) -> list[tuple[Any, ...]]:
    turns = [(turn, tool, tool != "imdb_lookup") for turn in (1, 2) for tool in tools]
    return [*turns, (3, "rank_items", True)]


async def test_each_dialogue_stores_its_tool_calls_attributed(tmp_path: Path) -> None:
    result = await run(tmp_path)
    assert result.status == "finished" and result.stored == 4
    with RunStore.open(result.store_path) as store:
        assert all(r.status == "failure" for r in store.read_results())
        stored = by_dialogue(store)
        failed = [t for t in store.read_tool_calls() if not t.ok]
    assert len(stored) == 4
    for dialogue_id, calls in stored.items():
        plan_first = dialogue_id.startswith("IRA:")
        assert calls == expected(PLAN_FIRST if plan_first else REACT), dialogue_id
    assert {t.error for t in failed} == {
        "unknown tool 'imdb_lookup'; tools: store_candidates, query_info, hard_filter, "
        "soft_filter, rank_candidates, fetch_candidates"
    }
    assert failed[0].input == {"title": 'Heat "1995" '}
    run_data = load_run(result.run_dir)
    usage = usage_table(
        run_data.dialogues, run_data.turns, run_data.calls, run_data.tool_calls, ["IRA", "w/o P"]
    ).set_index("system")
    columns = [c for c in usage.columns if c != "tokens_per_turn"]
    assert usage.loc["IRA", columns].tolist() == [2, 4, 3.0, 6.0, 4.0, 9.0, 18, 4]
    assert usage.loc["w/o P", columns].tolist() == [2, 4, 5.0, 10.0, 3.0, 7.0, 14, 0]


def forget_tool_calls_and_crash(result: CampaignResult, keep: int) -> None:
    """The store as a version without the tool_calls table (format 1) leaves it when killed."""
    conn = sqlite3.connect(result.store_path)
    ids = [r[0] for r in conn.execute("SELECT dialogue_id FROM dialogues ORDER BY rowid")]
    for dialogue_id in ids[keep:]:
        delete_dialogue(conn, dialogue_id)
    conn.execute("UPDATE meta SET value = 'running' WHERE key = 'status'")
    conn.commit()
    conn.close()
    as_format_1(result.store_path, tool_calls=False)


async def test_a_run_made_without_the_table_resumes_and_stores_the_rest(tmp_path: Path) -> None:
    first = await run(tmp_path)
    with RunStore.open(first.store_path) as store:
        ids = [r.dialogue_id for r in store.read_results()]
    forget_tool_calls_and_crash(first, keep=1)
    again = await run(tmp_path)
    assert again.run_dir == first.run_dir and again.resumed
    assert (again.already_done, again.stored, again.status) == (1, 4, "finished")
    with RunStore.open(again.store_path) as store:
        stored = by_dialogue(store)
    # The kept dialogue was stored before the table existed: it has none; the rest have theirs.
    assert sorted(stored) == sorted(ids[1:])
    for dialogue_id, calls in stored.items():
        plan_first = dialogue_id.startswith("IRA:")
        assert calls == expected(PLAN_FIRST if plan_first else REACT), dialogue_id
    assert len(load_run(again.run_dir).tool_calls) == sum(len(c) for c in stored.values())


async def test_recmind_and_toolrec_store_their_tool_calls(tmp_path: Path) -> None:
    """Every tool-using system's calls reach the store through SystemContext.tool_log.

    ToolRec's scripted loop per turn: retrieve (genre), retrieve (second attribute), rank,
    finish and its final ranking: 4 tool calls on turn 1; its fallback list reuses the
    loop's list (no call)."""
    spec = parse_scenario(
        {
            "name": "tools-stored",
            "model": {"backend": "scripted"},
            "data": {"n_samples": 2},
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 1},
            "systems": [
                {"name": "RM", "kind": "recmind", "planner": "cot", "max_steps": 3},
                {"name": "TR", "kind": "toolrec", "retriever": "ranker",
                 "base_ranker": "popularity"},
            ],
        }
    )  # fmt: skip
    result = await run_campaign_async(spec, output_dir=tmp_path, progress=False, report=False)
    assert result.status == "finished" and result.stored == 4
    with RunStore.open(result.store_path) as store:
        rows = store.read_tool_calls()
    dialogues = {t.dialogue_id for t in rows}
    assert all(t.dialogue_id is not None and t.system == t.dialogue_id.split(":", 1)[0]
               for t in rows)  # fmt: skip
    toolrec = [r for r in rows if r.system == "TR"]
    assert len(toolrec) == 8 and {r.turn for r in toolrec} == {1}  # 2 dialogues x 4
    assert {r.role for r in toolrec} == {"toolrec.tools", "toolrec.rank"}
    recmind = [r for r in rows if r.system == "RM"]
    assert len({r.dialogue_id for r in recmind}) == 2 and len(dialogues) == 4
    assert all(r.role.startswith("recmind.") for r in recmind)
