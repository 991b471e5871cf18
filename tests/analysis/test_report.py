"""Reports: exact markdown, the rich table, and write_report end to end."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

from macrs_sim.analysis.metrics.outcomes import SystemMetrics
from macrs_sim.analysis.report.full import write_report
from macrs_sim.analysis.report.summary import print_table, render_markdown
from macrs_sim.analysis.runs.access import RunAccess, merged_access, run_access
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueResult, DialogueStatus, ItemRef, LLMCallRecord, UserTurn
from macrs_sim.store import RunStore

NAN = math.nan
METRICS = [
    SystemMetrics("macrs", 5, 1, 0.4, 4.4, {5: 0.6, 10: 0.8}),
    SystemMetrics("chatgpt", 4, 0, 0.25, 5.0, {5: 0.5, 10: 0.75}),
    SystemMetrics("broken", 0, 2, NAN, NAN, {5: NAN, 10: NAN}),
]


def test_render_markdown_exact() -> None:
    expected = (
        "# Demo run\n"
        "\n"
        "| System | Dialogues | Errors | Success rate | Avg turns | Hit@5 | Hit@10 |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        "| macrs | 5 | 1 | 0.40 | 4.40 | 0.60 | 0.80 |\n"
        "| chatgpt | 4 | 0 | 0.25 | 5.00 | 0.50 | 0.75 |\n"
        "| broken | 0 | 2 | n/a | n/a | n/a | n/a |\n"
        "\n"
        "- first note\n"
        "- second note\n"
    )
    assert render_markdown("Demo run", METRICS, ["first note", "second note"]) == expected


ACCESS = RunAccess(
    history={"macrs": "none", "chatgpt": "pre-target"},
    max_turns=5,
    final_list_k=10,
    max_items_per_turn=1,
)


def test_render_markdown_says_who_knew_what() -> None:
    expected = (
        "# Demo run\n"
        "\n"
        "| System | History | Dialogues | Errors | Success rate | Avg turns | Hit@5 | Hit@10 |\n"
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
        "| macrs | none | 5 | 1 | 0.40 | 4.40 | 0.60 | 0.80 |\n"
        "| chatgpt | pre-target | 4 | 0 | 0.25 | 5.00 | 0.50 | 0.75 |\n"
        "| broken | ? | 0 | 2 | n/a | n/a | n/a | n/a |\n"
        "\n"
        "- first note\n"
        "- Every system: at most 1 item a turn, 5 turns, then 10 items in the fallback list.\n"
    )
    assert render_markdown("Demo run", METRICS, ["first note"], ACCESS) == expected


def test_print_table_says_who_knew_what() -> None:
    console = Console(record=True, width=120)
    print_table(METRICS, console, replace(ACCESS, max_items_per_turn=3))
    text = console.export_text()
    assert "History" in text and "pre-target" in text
    assert "Every system: at most 3 items a turn, 5 turns, then 10 items in the fallback" in text


def test_access_is_read_from_the_store_meta_and_absent_in_older_runs() -> None:
    meta = {
        "system_history": '{"MACRS": "none", "IRA": "pre-target"}',
        "protocol_limits": '{"max_turns": 5, "final_list_k": 10, "max_items_per_turn": 2}',
    }
    access = run_access(meta)
    assert access == RunAccess({"MACRS": "none", "IRA": "pre-target"}, 5, 10, 2)
    assert run_access({}) is None
    assert run_access({**meta, "protocol_limits": "{broken"}) is None
    assert merged_access([access, None]) is None
    assert merged_access([access, replace(ACCESS, max_turns=1)]) is None


def test_render_markdown_without_notes() -> None:
    text = render_markdown("T", METRICS[:1])
    assert text.endswith("| macrs | 5 | 1 | 0.40 | 4.40 | 0.60 | 0.80 |\n")


def test_print_table() -> None:
    console = Console(record=True, width=120)
    print_table(METRICS, console)
    text = console.export_text()
    for cell in ("Success rate", "Hit@10", "macrs", "0.40", "4.40", "0.75", "n/a"):
        assert cell in text
    assert "Rates over all dialogues: an error counts as a failure." in text
    console = Console(record=True, width=120)
    print_table([replace(m, completed_only=True) for m in METRICS], console)
    assert "Rates over completed dialogues only (errors left out)." in console.export_text()


def _dlg(did: str, system: str, status: DialogueStatus, target_at: int | None) -> DialogueResult:
    final = tuple(
        ItemRef(title=i, item_id="t" if n == target_at else i)
        for n, i in enumerate(("a", "b", "c", "d", "e", "f"), start=1)
    )
    return DialogueResult(
        dialogue_id=did, system=system, sample_id="s", target_id="t", status=status,
        max_turns=5, success_turn=2 if status == "success" else None,
        opening=UserTurn(text="hi"), final_list=final,
    )  # fmt: skip


def _call(prompt: int, completion: int) -> LLMCallRecord:
    return LLMCallRecord(
        dialogue_id=None, system=None, role="user", turn=None, model="m",
        prompt_tokens=prompt, completion_tokens=completion,
    )  # fmt: skip


def _make_run(run_dir: Path, scenario_name: str | None) -> None:
    with RunStore.create(run_dir / "store.sqlite") as store:
        if scenario_name:
            store.set_meta("scenario_name", scenario_name)
        store.write_dialogue(_dlg("1", "macrs", "success", None), [_call(100, 10)])
        store.write_dialogue(_dlg("2", "macrs", "failure", 4), [_call(200, 20)])
        store.write_dialogue(_dlg("3", "macrs", "failure", 6), [])
        store.write_dialogue(_dlg("4", "macrs", "error", 1), [_call(50, 0)])
        store.write_dialogue(_dlg("5", "chatgpt", "failure", None), [])
        store.write_calls([_call(5, 5)])


def test_write_report_end_to_end(tmp_path: Path) -> None:
    _make_run(tmp_path, "Demo scenario")
    report = write_report(tmp_path)
    assert report == tmp_path / "report.md"
    text = report.read_text(encoding="utf-8")
    assert text.startswith("# Demo scenario\n")
    # macrs: 4 dialogues, the error a failure (6 turns, no hit though its list holds the
    # target first); success 1/4; turns (2 + 6 + 6 + 6)/4 = 5.00;
    # Hit@5 = (1 + target at 4)/4 = 0.50; Hit@10 adds target at 6: 3/4 = 0.75.
    summary, completed = text.split("## Completed dialogues only (secondary)")
    assert "| macrs | 4 | 1 | 0.25 | 5.00 | 0.50 | 0.75 |\n" in summary
    assert "| chatgpt | 1 | 0 | 0.00 | 6.00 | 0.00 | 0.00 |\n" in summary
    assert "- 5 dialogues, 1 ended in an error. Every rate divides by all" in summary
    # Completed only: 3 dialogues; success 1/3; turns (2 + 6 + 6)/3 = 4.67;
    # Hit@5 = (1 + target at 4)/3 = 0.67; Hit@10 adds target at 6: 3/3 = 1.00.
    assert "| macrs | 3 | 1 | 0.33 | 4.67 | 0.67 | 1.00 |\n" in completed.split("## ")[0]
    # Tokens: 110 + 220 + 50 + 10 = 390 (355 prompt, 35 completion) over 4 calls.
    assert "- 4 LLM calls, 390 tokens (355 prompt, 35 completion).\n" in text
    frame = pd.read_csv(tmp_path / "results.csv")
    assert frame["system"].tolist() == ["macrs", "chatgpt"]
    assert frame["hit@10"].tolist() == pytest.approx([0.75, 0.0])
    assert frame["dialogues"].tolist() == [4, 1] and frame["errors"].tolist() == [1, 0]
    only = pd.read_csv(tmp_path / "tables" / "results_completed_only.csv")
    assert only["dialogues"].tolist() == [3, 1]
    assert only["hit@10"].tolist() == pytest.approx([1.0, 0.0])


def test_completed_section_without_errors_says_it_is_the_same() -> None:
    from macrs_sim.analysis.report.sections import completed_section

    text = completed_section([SystemMetrics("a", 2, 0, 0.5, 4.0, {5: 0.5}, completed_only=True)])
    assert text == (
        "## Completed dialogues only (secondary)\n\n"
        "No dialogue ended in an error: this view equals the summary above.\n"
    )


def test_write_report_default_title(tmp_path: Path) -> None:
    _make_run(tmp_path, None)
    assert write_report(tmp_path).read_text(encoding="utf-8").startswith("# Run report\n")


@pytest.mark.parametrize("missing", ["dir", "store"])
def test_write_report_missing(tmp_path: Path, missing: str) -> None:
    run_dir = tmp_path / "nope" if missing == "dir" else tmp_path
    with pytest.raises(DataError) as info:
        write_report(run_dir)
    assert "\n" not in str(info.value)
    assert str(info.value).startswith(str(run_dir))
