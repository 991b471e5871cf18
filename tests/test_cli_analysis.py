"""`report`, `compare` through the CLI on hand-made runs; bad run directories."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.analysis.handmade_runs import Script, make_run, make_sample
from tests.cli_runner import run_cli

SYSTEMS = [{"name": "MACRS", "kind": "macrs"}, {"name": "LLM", "kind": "single_llm"}]
SAMPLES = [make_sample("s-1", "m1"), make_sample("s-2", "m2")]
SCRIPTS = [Script("MACRS", "s-1", ("A", "R+")), Script("LLM", "s-1", ("R",), final=2)]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`macrs-sim ARGS` in `cwd`, in this process (tests/cli_runner.py)."""
    return run_cli(*args, cwd=cwd)


def test_report_on_a_partial_run_says_so(tmp_path: Path) -> None:
    run = make_run(tmp_path, "r", SYSTEMS, SAMPLES, SCRIPTS, finished=False)
    proc = cli("report", str(run), "--case", "LLM:s-1", "--explain", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "note: partial run, 2 of 4 dialogues finished (2 missing)" in proc.stdout
    text = (run / "report.md").read_text()
    assert "### LLM · s-1 · FAIL" in text and (run / "figures" / "fig4_act_ratios.png").is_file()


def test_report_console_table_counts_errors_as_failures(tmp_path: Path) -> None:
    scripts = [*SCRIPTS, Script("MACRS", "s-2", (), error=True), Script("LLM", "s-2", ("R",))]
    run = make_run(tmp_path, "r", SYSTEMS, SAMPLES, scripts)
    proc = cli("report", str(run), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    # MACRS: 2 dialogues, 1 error: success 1/2, turns (2 + 6)/2 = 4.00, Hit@5 1/2.
    row = next(line for line in proc.stdout.splitlines() if "MACRS" in line)
    cells = [cell.strip() for cell in row.split("│")[1:-1]]
    assert cells == ["MACRS", "2", "1", "0.50", "4.00", "0.50", "0.50"]
    assert "Rates over all dialogues: an error counts as a failure." in proc.stdout


def test_compare_writes_one_report(tmp_path: Path) -> None:
    a = make_run(tmp_path, "a", SYSTEMS, SAMPLES, SCRIPTS)
    b = make_run(tmp_path, "b", SYSTEMS, SAMPLES, SCRIPTS)
    proc = cli("compare", str(a), str(b), "--out", "cmp", "--reference", "LLM (b)", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    text = (tmp_path / "cmp" / "report.md").read_text()
    assert "| MACRS (a) |" in text and "| LLM (b) |" in text
    assert "All runs used the same sample set: the significance tests are paired." in text


def test_bad_run_directories_are_one_line(tmp_path: Path) -> None:
    for args, expected in [
        (("report", "nope"), "error: nope: run directory not found"),
        (("compare", "."), "not a run directory (no store.sqlite)"),
    ]:
        proc = cli(*args, cwd=tmp_path)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert expected in proc.stderr
