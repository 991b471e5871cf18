"""Demonstration generation (paper §3.3): seeds, prompt builders, the consistency check, the
`eval interecagent demos` command and the `demonstrations_file` option; counts by hand.

The scripted generator (demo_scripted.py): input-first repeats the first seed verbatim (a
duplicate) and prefixes the next ones; output-first words store_candidates as "I am choosing
between ...", which the scripted planner misses, so of the 10 plan shapes the 4 with
store_candidates fail the check and 6 pass, per request written.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from macrs_sim.agents.interecagent.build import prepare
from macrs_sim.agents.interecagent.demos import (
    Demonstration,
    load_demonstrations,
    load_seed_demonstrations,
)
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.cli import main
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.errors import DataError
from macrs_sim.evaluation.interecagent import demo_prompts as dp
from macrs_sim.evaluation.interecagent.demo_gen import (
    ROLE,
    GeneratedPlan,
    GeneratedRequests,
    Generation,
    generate,
    output_first_plans,
)
from macrs_sim.evaluation.interecagent.demo_scripted import demo_scripted_rules
from macrs_sim.llm.scripted import ScriptedChatCompletionClient, ScriptedRequest
from macrs_sim.prompts import PromptLibrary, parse_prompt

RF = ("rank_candidates", "fetch_candidates")
STORE_RF = ("store_candidates", *RF)


def _gen(client: ScriptedChatCompletionClient, count: int) -> Generation:
    prompts = dp.DemoPrompts.load(PromptLibrary())
    return Generation(client, prompts, tuple(load_seed_demonstrations()), count, retries=0)


def test_twenty_seeds_cover_every_output_first_shape() -> None:
    seeds = load_seed_demonstrations()
    assert len(seeds) == 20
    shapes = output_first_plans()
    assert shapes == [
        (), ("query_info",), RF, STORE_RF, ("hard_filter", *RF), ("soft_filter", *RF),
        ("store_candidates", "hard_filter", *RF), ("store_candidates", "soft_filter", *RF),
        ("hard_filter", "soft_filter", *RF),
        ("store_candidates", "hard_filter", "soft_filter", *RF),
    ]  # fmt: skip
    assert set(shapes) <= {dp.tool_sequence(d.plan) for d in seeds}


def test_builders_exact() -> None:
    t = parse_prompt("t", "[system]\nS\n[user]\nE=$examples N=$number T=$tools P=$plan")
    p = dp.DemoPrompts(t, t, t, tools="TOOLS")
    step = PlanStep(tool="fetch_candidates", input={"k": "K"})
    seeds = [Demonstration(intent="Show me K.", plan=(step,)), Demonstration(intent="Hi", plan=())]
    assert dp.render_sequence(()) == "no tool"
    msgs = dp.plan_requests_messages(p, seeds, ("hard_filter", "fetch_candidates"), 3)
    assert msgs[0].content == "S"
    assert msgs[1].content == (
        "E=Plan: 1. fetch_candidates\nRequest: Show me K.\n----\nPlan: no tool\nRequest: Hi N=3"
        " T=TOOLS P=1. hard_filter; 2. fetch_candidates"
    )
    t2 = parse_prompt("t", "[system]\nS\n[user]\n$examples|$number")
    assert dp.requests_messages(dp.DemoPrompts(t2, t, t, "x"), seeds, 2)[1].content == (
        "- Show me K.\n- Hi|2"
    )
    t3 = parse_prompt("t", "[system]\nS\n[user]\n$tools|$examples|$request")
    assert dp.planner_messages(dp.DemoPrompts(t, t, t3, "X"), seeds, "Why?")[1].content == (
        'X|Request: Show me K.\nPlan: [{"tool": "fetch_candidates", "input": {"k": "K"}}]'
        "\n----\nRequest: Hi\nPlan: []|Why?"
    )


async def test_scripted_generation_keeps_the_consistent_ones() -> None:
    client = ScriptedChatCompletionClient(demo_scripted_rules())
    found = await generate(_gen(client, 2), ["input-first", "output-first"])
    first = [c for c in found if c.mode == "input-first"]
    assert [(c.kept, c.reason) for c in first] == [(False, "duplicate request"), (True, None)]
    assert first[1].intent == "Could you help me? Recommend me TYPE movies released after DATE."
    out = [c for c in found if c.mode == "output-first"]
    assert len(out) == 20 and sum(c.kept for c in out) == 12  # 6 shapes x 2 requests
    failed = [c for c in out if not c.kept]
    assert {c.given for c in failed} == {s for s in output_first_plans() if "store_candidates" in s}
    assert (
        failed[0].intent
        == "I am choosing between ITEM1, ITEM2 and ITEM3. Recommend me some movies."
    )
    assert failed[0].reason == "inconsistent: planned 1. rank_candidates; 2. fetch_candidates"
    assert out[1].intent == "Hello there, how is your day going? (#2)" and out[1].kept
    # 1 + 10 request calls, 2 + 20 plans
    roles = [r.context.role for r in client.calls]
    assert roles.count(ROLE + "planner") == 22 and len(roles) == 33


async def test_faults_cost_one_request_and_repeats_are_dropped() -> None:
    def requests(req: ScriptedRequest) -> BaseModel | str:
        text = str(req.messages[-1].content)
        if "Plan: 1. query_info\nReply" in text:
            return "not json"  # this shape's requests cannot be written
        return GeneratedRequests(requests=["  Same   thing ", "same thing", "broken plan", ""])

    def planner(req: ScriptedRequest) -> BaseModel | str:
        return "???" if "Request: broken plan" in str(req.messages[-1].content) else GeneratedPlan()

    rules = {ROLE + "plan_requests": requests, ROLE + "planner": planner}
    found = await generate(_gen(ScriptedChatCompletionClient(rules), 4), ["output-first"])
    assert found[0].intent == "Same thing" and found[0].kept  # the no-tool shape: empty plan
    assert [c.reason for c in found[:3]] == [None, "duplicate request", found[2].reason]
    assert (found[2].reason or "").startswith("planning failed: ")
    assert found[3].intent == "" and (found[3].reason or "").startswith("writing requests failed")
    assert found[3].given == ("query_info",)
    # every other shape: the empty plan is inconsistent with it
    assert sum(c.kept for c in found) == 1


def test_load_demonstrations_refuses_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "d.json"
    for text, message in [
        ("[", "not JSON"), ("[]", "no demonstrations"),
        ('[{"intent": "x"}]', "not a demonstration list (0.plan: Field required)"),
    ]:  # fmt: skip
        path.write_text(text)
        with pytest.raises(DataError, match=message.replace("(", r"\(").replace(")", r"\)")):
            load_demonstrations(path)
    with pytest.raises(DataError, match="demonstrations_file .*nope.json: No such file"):
        load_demonstrations(tmp_path / "nope.json")


def test_demos_command_writes_a_file_the_system_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gen" / "demos.json"
    argv = ["eval", "interecagent", "demos", "--backend", "scripted", "--out", str(out),
            "--count", "2", "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:3] == [
        "20 seeds + 13 generated demonstrations (model: scripted)",
        "input-first: 2 requests, 1 kept; 1 duplicate request",
        "output-first: 20 requests, 12 kept; 8 inconsistent",
    ]
    demos = load_demonstrations(out)
    assert len(demos) == 33 and demos[:20] == load_seed_demonstrations()
    assert len((tmp_path / "gen" / "demos.candidates.jsonl").read_text().splitlines()) == 22
    options = InteRecAgentOptions(ranker="popularity", demonstrations_file=str(out))
    prepared = prepare(options, demo_dataset(DataConfig()), tmp_path, use_text_model=False)
    assert prepared.demos.demos == demos


def test_demos_command_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["eval", "interecagent", "demos", "--backend", "scripted"]
    assert main([*base, "--out", str(tmp_path), "--no-progress"]) == 2
    assert "a folder; expected the demonstration file's name" in capsys.readouterr().err
    assert main([*base, "--out", str(tmp_path / "x.json"), "--count", "0"]) == 2
    assert "--count 0: expected a positive number" in capsys.readouterr().err
