"""Issue 38 §4: Table 2's counterfactual is regenerated in the prompt layout the run used.

A run in the chat layout (as `auto` gives on the embedded model) must not have its "without
suggestion" reply written from the paper layout's flattened transcript: the pair would then
differ in two ways, the suggestion and the layout."""

from __future__ import annotations

import json
from pathlib import Path

from autogen_core.models import LLMMessage
from pydantic import BaseModel

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.judge import judge_run, judge_scripted_rules, read_judgments
from macrs_sim.judge.pairs import LAYOUT_META, run_layouts
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient, ScriptedRequest
from macrs_sim.prompts import PromptLibrary

Captured = dict[tuple[str, int], list[LLMMessage]]


def _capture(rule: Rule, into: Captured) -> Rule:
    def capture(req: ScriptedRequest) -> str | BaseModel:
        into[(str(req.context.dialogue_id), req.context.turn or 0)] = list(req.messages)
        return rule(req)

    return capture


async def _chat_layout_run(tmp_path: Path, catalog: Catalog, seen: Captured) -> Path:
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    rules = default_scripted_rules([i.display_title for i in catalog])
    rules["macrs.chat"] = _capture(rules["macrs.chat"], seen)
    scenario = parse_scenario(
        {
            "name": "t",
            "model": {"backend": "scripted"},
            "prompt_layout": "chat",
            "data": {"catalog": str(path), "history_len": 3, "min_history": 1, "n_samples": 1},
            "protocol": {"max_turns": 3, "final_list_k": 3},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )
    result = await run_campaign_async(
        scenario, output_dir=tmp_path / "runs", progress=False, scripted_rules=rules
    )
    return result.run_dir


async def test_the_counterfactual_uses_the_runs_layout_and_the_record_says_which(
    tmp_path: Path, catalog: Catalog
) -> None:
    seen: Captured = {}
    run = await _chat_layout_run(tmp_path, catalog, seen)
    titles = [i.display_title for i in catalog]
    client = ScriptedChatCompletionClient(
        {**default_scripted_rules(titles), **judge_scripted_rules(titles)}
    )
    # The library the judge is given is the paper layout's (PromptLibrary's default).
    records = await judge_run(run, client, PromptLibrary(), max_pairs=1)
    (record,) = records
    assert (record.act, record.layout) == ("chat", "chat")
    assert read_judgments(run)[0].layout == "chat"
    (regen,) = [c for c in client.calls if c.context.role == "judge_regenerate"]
    campaign_msgs = [message_text(m) for m in seen[record.key]]
    # Chat layout: instructions, then one message per turn (here 5 before turn 3).
    assert len(campaign_msgs) == 6 and len(regen.messages) == 6
    line = f"Suggestion for this turn: {record.suggestion}"
    assert line in campaign_msgs[0]
    expected = [campaign_msgs[0].replace(line, "Suggestion for this turn: (none)")]
    assert [message_text(m) for m in regen.messages] == expected + campaign_msgs[1:]


def test_the_layouts_a_run_recorded_are_read_and_an_older_run_has_none() -> None:
    meta = {LAYOUT_META: json.dumps({"MACRS": "chat", "(simulator)": "paper", "x": "odd"})}
    assert run_layouts(meta) == {"MACRS": "chat", "(simulator)": "paper"}
    assert run_layouts({}) == {}


def test_the_judge_reads_the_key_the_campaign_writes() -> None:
    from macrs_sim.analysis.runs.access import LAYOUT_META as WRITTEN

    assert LAYOUT_META == WRITTEN
