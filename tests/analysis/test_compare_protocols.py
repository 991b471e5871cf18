"""`compare` puts like with like: runs whose protocols differ are refused, or split by protocol.

Run directories are made by hand (handmade_runs) with the [protocol], [simulator] and [model]
tables and the store meta (system_history, prompt_sha256) a campaign records; every number
below is worked out by hand.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import tomli_w
from scipy import stats

from macrs_sim.analysis.report.alike import differences, group_runs
from macrs_sim.analysis.report.full import ReportOptions, build_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.cli import main
from macrs_sim.errors import DataError
from macrs_sim.store import RunStore
from tests.analysis.handmade_runs import Script, make_result, make_run, make_sample

SYSTEMS: list[dict[str, object]] = [
    {"name": "MACRS", "kind": "macrs"},
    {"name": "LLM", "kind": "single_llm"},
]
SAMPLES = [make_sample("s-1", "m1"), make_sample("s-2", "m2")]
# Five turns. MACRS: success at 2; s-2 fails (6 turns) with the target 3rd in its list.
# LLM: success at 1; s-2 fails (6 turns), target not listed.
FIVE = [
    Script("MACRS", "s-1", ("A", "R+")),
    Script("MACRS", "s-2", ("A", "C", "R", "A", "R"), final=3),
    Script("LLM", "s-1", ("R+",)),
    Script("LLM", "s-2", ("R", "R", "R", "R", "R")),
]
# One turn (a failure counts 2). MACRS: success at 1; s-2 fails. LLM: both fail, s-1 with
# the target 1st in its list.
ONE = [
    Script("MACRS", "s-1", ("R+",)),
    Script("MACRS", "s-2", ("A",)),
    Script("LLM", "s-1", ("R",), final=1),
    Script("LLM", "s-2", ("R",)),
]
HISTORY = {"MACRS": "none", "LLM": "pre-target"}


def run_dir(
    root: Path,
    name: str,
    scripts: list[Script] = FIVE,
    *,
    max_turns: int = 5,
    tables: dict[str, Any] | None = None,
    meta: dict[str, Any] | None = None,
) -> Path:
    """A hand-made run whose dialogues ran `max_turns` turns at most, with extra scenario
    tables (TOML) and store meta (JSON) as a campaign records them."""
    run = make_run(root, name, SYSTEMS, SAMPLES, [])
    if tables:
        scenario = run / "scenario.resolved.toml"
        scenario.write_text(scenario.read_text() + tomli_w.dumps(tables))
    targets = {s.sample_id: s.target_id for s in SAMPLES}
    with RunStore.open(run / "store.sqlite") as store:
        for key, value in (meta or {}).items():
            store.set_meta(key, json.dumps(value))
        for script in scripts:
            store.write_dialogue(make_result(script, targets[script.sample], max_turns), [])
    return run


def turns(n: int, **protocol: int) -> dict[str, Any]:
    return {"protocol": {"max_turns": n, "final_list_k": 10, "max_items_per_turn": 1, **protocol}}


def old_turns(n: int) -> dict[str, Any]:
    """A run made before max_items_per_turn existed (no limit on items a turn)."""
    return {"protocol": {"max_turns": n, "final_list_k": 10}}


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`macrs-sim ARGS` in this process: exit status, stdout, stderr."""
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_same_protocol_is_one_report_as_before(tmp_path: Path) -> None:
    a = run_dir(
        tmp_path, "a", tables=turns(5, max_items_per_turn=1), meta={"system_history": HISTORY}
    )
    b = run_dir(tmp_path, "b", tables=turns(5), meta={"system_history": HISTORY})
    runs = [load_run(a), load_run(b)]
    assert differences(runs) == [] and len(group_runs(runs)) == 1
    text = build_report(runs, tmp_path / "cmp", ReportOptions(n_resamples=100)).read_text()
    # MACRS: turns (2 + 6) / 2 = 4.00, Hit@5 2/2 (s-2's target 3rd). LLM: (1 + 6) / 2 = 3.50.
    assert "| MACRS (a) | 2 | 0 | 0.50 | 4.00 | 1.00 | 1.00 |" in text
    assert "| LLM (b) | 2 | 0 | 0.50 | 3.50 | 0.50 | 0.50 |" in text
    assert "All runs used the same sample set: the significance tests are paired." in text
    assert not (tmp_path / "cmp" / "group-1").exists()


def test_max_turns_differs_is_refused_in_one_line_and_nothing_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir(tmp_path, "a", tables=turns(5))
    run_dir(tmp_path, "b", ONE, max_turns=1, tables=turns(1))
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "compare", "a", "b", "--out", "cmp")
    assert code == 2 and out == "", out
    assert err == (
        "error: runs differ in protocol.max_turns (a: 5, b: 1): compare like with like, "
        "or pass --split to get one table per protocol\n"
    )
    assert not (tmp_path / "cmp").exists()


def test_the_api_raises_one_line_naming_every_difference(tmp_path: Path) -> None:
    openai = {"backend": "openai", "model": "gpt-4o-mini", "base_url": "http://u:secret@h:8/v1"}
    a = run_dir(
        tmp_path, "a",
        tables={**turns(5), "simulator": {"kind": "llm", "model": openai}},
        meta={"system_history": {"MACRS": "none", "LLM": "none"},
              "prompt_sha256": {"planner": "a" * 64, "user": "c" * 64}},
    )  # fmt: skip
    b = run_dir(
        tmp_path, "b", ONE, max_turns=1,
        tables={**turns(1, final_list_k=5, max_items_per_turn=3), "simulator": {"kind": "agenda"}},
        meta={"system_history": HISTORY,
              "prompt_sha256": {"planner": "b" * 64, "responder_ask": "d" * 64}},
    )  # fmt: skip
    with pytest.raises(DataError) as err:
        build_report([load_run(a), load_run(b)], tmp_path / "cmp")
    # A prompt only one run recorded (user, responder_ask) cannot differ; MACRS's history agrees.
    assert str(err.value) == (
        "runs differ in protocol.max_turns (a: 5, b: 1), protocol.final_list_k (a: 10, b: 5), "
        "protocol.max_items_per_turn (a: 1, b: 3), simulator.kind (a: llm, b: agenda), "
        "simulator.model (a: openai gpt-4o-mini at http://***@h:8/v1, b: none (rule-based)), "
        "system_history.LLM (a: none, b: pre-target), "
        "prompts.planner (a: aaaaaaaaaaaa, b: bbbbbbbbbbbb): "
        "compare like with like, or pass --split to get one table per protocol"
    )
    assert not (tmp_path / "cmp").exists()


def test_simulator_model_is_its_config_not_its_secrets(tmp_path: Path) -> None:
    served = {"backend": "openai", "model": "qwen", "base_url": "http://u:one@h/v1"}
    # a: the simulator falls back to [model]; b names the same server (another password,
    # another key variable) as its own model, and gives the systems another [model].
    a = run_dir(tmp_path, "a", tables={"model": served})
    b = run_dir(
        tmp_path, "b",
        tables={"model": {"backend": "embedded"}, "simulator": {"model": {
            **served, "base_url": "http://u:two@h/v1", "api_key_env": "OTHER_KEY"}}},
    )  # fmt: skip
    c = run_dir(tmp_path, "c", tables={"simulator": {"model": {**served, "model": "llama"}}})
    assert differences([load_run(a), load_run(b)]) == []
    [found] = differences([load_run(a), load_run(c)])
    assert found.render() == (
        "simulator.model (a: openai qwen at http://***@h/v1, c: openai llama at http://***@h/v1)"
    )


def test_an_unrecorded_history_matches_none_but_not_pre_target(tmp_path: Path) -> None:
    old = run_dir(tmp_path, "old")  # made before the history was recorded
    new = run_dir(tmp_path, "new", meta={"system_history": HISTORY})
    bare = run_dir(tmp_path, "bare", meta={"system_history": {"MACRS": "none", "LLM": "none"}})
    runs = [load_run(old), load_run(new), load_run(bare)]
    [found] = differences(runs[:2])
    assert found.render() == "system_history.LLM (old: not recorded, new: pre-target)"
    # new differs from both; old and bare agree (not recorded ~ none).
    assert [[r.name for r in g.runs] for g in group_runs(runs)] == [["old", "bare"], ["new"]]


def test_split_gives_one_table_per_protocol_and_tests_within_groups(tmp_path: Path) -> None:
    a = run_dir(tmp_path, "a", tables=turns(5))
    b = run_dir(tmp_path, "b", ONE, max_turns=1, tables=turns(1))
    c = run_dir(tmp_path, "c", tables=turns(5))
    runs = [load_run(a), load_run(b), load_run(c)]
    options = ReportOptions(n_resamples=100, split=True, reference="LLM")
    index = build_report(runs, tmp_path / "cmp", options)
    assert index == tmp_path / "cmp" / "report.md"
    text = index.read_text()
    shared = "protocol.final_list_k = 10, protocol.max_items_per_turn = 1, simulator.kind = llm"
    head1 = f"## Group 1: protocol.max_turns = 5, {shared}, simulator.model = embedded default"
    head2 = f"## Group 2: protocol.max_turns = 1, {shared}, simulator.model = embedded default"
    assert text.startswith("# Comparison: a, b, c\n\nThe runs differ in protocol.max_turns ")
    assert "(a: 5, b: 1, c: 5), so they are not tested against each other" in text
    group1, group2 = text.split(head1, 1)[1].split(head2, 1)
    assert "[group-1/report.md](group-1/report.md)" in group1
    # Group 1 as in the same-protocol case; c's numbers are a's.
    assert "| MACRS (a) | 2 | 0 | 0.50 | 4.00 | 1.00 | 1.00 |" in group1
    assert "| LLM (c) | 2 | 0 | 0.50 | 3.50 | 0.50 | 0.50 |" in group1
    # One turn: MACRS (1 + 2) / 2 = 1.50; LLM fails both (2 turns), s-1's target listed 1st.
    assert "| MACRS | 2 | 0 | 0.50 | 1.50 | 0.50 | 0.50 |" in group2
    assert "| LLM | 2 | 0 | 0.00 | 2.00 | 0.50 | 0.50 |" in group2
    t1 = pd.read_csv(tmp_path / "cmp" / "group-1" / "tables" / "table1.csv")
    assert list(t1.system) == ["MACRS (a)", "LLM (a)", "MACRS (c)", "LLM (c)"]
    t2 = pd.read_csv(tmp_path / "cmp" / "group-2" / "tables" / "table1.csv").set_index("system")
    assert list(t2.index) == ["MACRS", "LLM"]
    # Group 2's test pairs its own two systems only: MACRS (1, 2) against LLM (2, 2).
    assert t2.loc["MACRS", "turns_p"] == pytest.approx(stats.ttest_rel([1, 2], [2, 2]).pvalue)
    group_report = (tmp_path / "cmp" / "group-1" / "report.md").read_text()
    assert group_report.startswith("# Comparison: a, b, c: group 1 of 2\n")
    note = "Group 1 of 2 of a split comparison: its runs share protocol.max_turns = 5"
    assert note in group_report
    assert "LLM is not in this group: the tests compare with its first system." in group_report


def test_split_through_the_cli_names_each_group(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_dir(tmp_path, "a", tables=turns(5))
    run_dir(tmp_path, "b", ONE, max_turns=1, tables=turns(1))
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "compare", "a", "b", "--out", "cmp", "--split")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "report: cmp/report.md (one group per protocol)"
    assert lines[1].startswith("group 1: cmp/group-1/report.md  protocol.max_turns = 5, ")
    assert lines[2].startswith("group 2: cmp/group-2/report.md  protocol.max_turns = 1, ")
    assert (tmp_path / "cmp" / "group-2" / "report.md").is_file()


def test_a_run_made_before_the_item_limit_matches_only_another_such_run(tmp_path: Path) -> None:
    # Before max_items_per_turn existed there was no limit (InteRecAgent showed up to 20).
    old_a = load_run(run_dir(tmp_path, "a", tables=old_turns(5)))
    old_b = load_run(run_dir(tmp_path, "b", tables=old_turns(5)))
    new = load_run(run_dir(tmp_path, "c", tables=turns(5)))
    assert differences([old_a, old_b]) == []
    (diff,) = [d for d in differences([old_a, new]) if "max_items_per_turn" in str(d)]
    assert "not recorded (no limit)" in str(diff) and "1" in str(diff)
