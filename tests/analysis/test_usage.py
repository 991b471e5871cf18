"""Calls per turn and per dialogue, per system, from a hand-made run with tool calls.

IRA (InteRecAgent-like): s-1 asks, recommends, recommends (3 turns, fails, fallback list
at turn 6); s-2 succeeds at turn 1. 2 LLM calls of 110 tokens per turn (make_run), plus:
a fallback-list call (turn 6: no turn, counted per dialogue only), the simulator's reply
(role "user": not the system's) and a judge call (system "(judge)"). Tool calls: s-1 turn 1
two (one failed), turn 3 one, turn 6 one; s-2 turn 1 three; one detached call (an outage
cut its dialogue short: no dialogue) that belongs to no stored dialogue.

IRA: 2 dialogues, 4 turns; LLM 8 in turns -> 2.00 a turn, 880 tokens -> 220 a turn,
(8 + 1) / 2 = 4.50 a dialogue; tools 2 + 1 + 3 = 6 in turns -> 1.50 a turn, (4 + 3) / 2 =
3.50 a dialogue, 7 calls, 1 error. MACRS (s-1: ask, success at 2): 2 turns, 4 calls -> 2.00,
220 tokens a turn, 4.00 a dialogue, no tools. "ghost" stored no dialogue: n/a.
"""

from __future__ import annotations

import math
from pathlib import Path

from macrs_sim.analysis.metrics.usage import render_usage_markdown, usage_table
from macrs_sim.analysis.report.full import ReportOptions, build_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.protocol import LLMCallRecord, ToolCallRecord
from macrs_sim.store import RunStore
from tests.analysis.handmade_runs import Script, make_run, make_sample

SYSTEMS: list[dict[str, object]] = [
    {"name": "IRA", "kind": "interecagent"},
    {"name": "MACRS", "kind": "macrs"},
]
SAMPLES = [make_sample("s-1", "m1"), make_sample("s-2", "m2")]
SCRIPTS = [
    Script("IRA", "s-1", ("A", "R", "R")),
    Script("IRA", "s-2", ("R+",)),
    Script("MACRS", "s-1", ("A", "R+")),
]


def _llm(did: str, system: str, role: str, turn: int) -> LLMCallRecord:
    return LLMCallRecord(
        dialogue_id=did, system=system, role=role, turn=turn, model="hand",
        prompt_tokens=1000, completion_tokens=1000,
    )  # fmt: skip


def _tool(did: str | None, turn: int, ok: bool = True) -> ToolCallRecord:
    return ToolCallRecord(
        dialogue_id=did, system="IRA", role="interecagent.tools", turn=turn, tool="rank_items",
        input={"by": "preference "}, output_chars=40, ok=ok, error=None if ok else "no items",
    )  # fmt: skip


def _run(tmp_path: Path) -> Path:
    run_dir = make_run(tmp_path, "usage", SYSTEMS, SAMPLES, SCRIPTS, calls_per_turn=2)
    extra = [
        _llm("IRA:s-1", "IRA", "final_list", 6),
        _llm("IRA:s-1", "IRA", "user", 1),
        _llm("IRA:s-1", "(judge)", "judge", 1),
    ]
    tools = [
        _tool("IRA:s-1", 1), _tool("IRA:s-1", 1, ok=False), _tool("IRA:s-1", 3),
        _tool("IRA:s-1", 6), *(_tool("IRA:s-2", 1) for _ in range(3)), _tool(None, 2),
    ]  # fmt: skip
    with RunStore.open(run_dir / "store.sqlite") as store:
        store.write_calls(extra, tool_calls=tools)
    return run_dir


def test_calls_per_turn_and_dialogue_by_hand(tmp_path: Path) -> None:
    run = load_run(_run(tmp_path))
    assert len(run.tool_calls) == 8 and run.tool_calls["input"][0] == {"by": "preference "}
    table = usage_table(run.dialogues, run.turns, run.calls, run.tool_calls, ["IRA", "MACRS"])
    assert table.astype(object).values.tolist() == [
        ["IRA", 2, 4, 2.0, 220.0, 4.5, 1.5, 3.5, 7, 1],
        ["MACRS", 1, 2, 2.0, 220.0, 4.0, 0.0, 0.0, 0, 0],
    ]
    ghost = usage_table(run.dialogues, run.turns, run.calls, run.tool_calls, ["ghost"])
    assert ghost.loc[0, "dialogues"] == 0 and math.isnan(ghost.loc[0, "llm_calls_per_turn"])
    md = render_usage_markdown(
        usage_table(run.dialogues, run.turns, run.calls, run.tool_calls, ["IRA", "ghost"])
    )
    assert "| IRA | 2 | 4 | 2.00 | 220.00 | 4.50 | 1.50 | 3.50 | 7 | 1 |" in md
    assert "| ghost | 0 | 0 | n/a | n/a | n/a | n/a | n/a | 0 | 0 |" in md


def test_the_report_has_the_section_the_csv_and_the_tool_count(tmp_path: Path) -> None:
    run = load_run(_run(tmp_path))
    report = build_report([run], tmp_path / "out", ReportOptions(n_resamples=200))
    text = report.read_text()
    assert "8 tool calls, 1 returned an error." in text
    section = text.split("## Calls per turn", 1)[1].split("\n## ", 1)[0]
    assert "| MACRS | 1 | 2 | 2.00 | 220.00 | 4.00 | 0.00 | 0.00 | 0 | 0 |" in section
    csv = (tmp_path / "out" / "tables" / "calls_per_turn.csv").read_text().splitlines()
    assert csv[1] == "IRA,2,4,2.0,220.0,4.5,1.5,3.5,7,1"


def test_sql_counts_match_the_frame_counts(tmp_path: Path) -> None:
    """llm_usage (SQLite, what `report` uses) gives the table the frame of every call gives:
    the simulator's call, the judge's and the fallback list's are counted as by hand above."""
    from macrs_sim.analysis.runs.calls import llm_usage
    from macrs_sim.analysis.runs.combine import combine_runs

    run_dir = _run(tmp_path)
    with RunStore.open(run_dir / "store.sqlite") as store:  # a call of another's dialogue
        store.write_calls([_llm("IRA:s-2", "MACRS", "ask", 1)])
    cmp = combine_runs([load_run(run_dir)])
    names = ["IRA", "MACRS"]
    by_sql = usage_table(cmp.dialogues, cmp.turns, llm_usage(cmp), cmp.tool_calls, names)
    by_frame = usage_table(cmp.dialogues, cmp.turns, cmp.calls, cmp.tool_calls, names)
    assert by_sql.to_csv(index=False) == by_frame.to_csv(index=False)
    assert by_sql.astype(object).values.tolist()[0] == [
        "IRA",
        2,
        4,
        2.0,
        220.0,
        4.5,
        1.5,
        3.5,
        7,
        1,
    ]
