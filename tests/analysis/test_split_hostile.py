"""`compare --split` where a run's `scenario.resolved.toml` names a simulator model holding
ESC, `<script>` and U+202E (issue 40 §2): text from a run's files is data in report.md, in
the group reports and on the console, names included (the runs' own names hold HTML)."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.cli import main
from tests.viewer.hostile_run import make_hostile_run

# TOML escapes: ESC, then U+202E.
HOSTILE = r"evil\u001b[2J<script>x</script>\u202eend"
SHOWN = "openai evil␛[2J&lt;script&gt;x&lt;/script&gt;⟨U+202E⟩end"


def _run(root: Path, model: str) -> Path:
    run = make_hostile_run(root)
    scenario = run / "scenario.resolved.toml"
    simulator = (
        f'[simulator]\nkind = "llm"\n[simulator.model]\nbackend = "openai"\nmodel = "{model}"\n'
    )
    scenario.write_text(simulator + scenario.read_text(encoding="utf-8"), encoding="utf-8")
    return run


def test_a_hostile_model_name_is_data_in_every_split_report_and_on_the_console(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [_run(tmp_path / "a", HOSTILE), _run(tmp_path / "b", "plain")]
    out = tmp_path / "cmp"
    assert main(["compare", *map(str, runs), "--split", "--out", str(out)]) == 0
    console = capsys.readouterr().out
    assert "\x1b" not in console and "\u202e" not in console  # before: ESC printed
    assert "group 1: " in console and "openai evil<script>x</script>end" in console
    for report in (out / "report.md", out / "group-1" / "report.md", out / "group-2" / "report.md"):
        text = report.read_text(encoding="utf-8")
        assert "\x1b" not in text and "\u202e" not in text and "<script>" not in text, report
        # The runs' name (tests/viewer/hostile_run.py: "<b>hostile</b> run") too: the title,
        # the runs table.
        assert "<b>" not in text and "# Comparison: &lt;b&gt;hostile&lt;/b&gt; run" in text
    index = (out / "report.md").read_text(encoding="utf-8")
    assert "## Group 1: protocol.max_turns = " in index
    assert SHOWN in index
    group = (out / "group-1" / "report.md").read_text(encoding="utf-8")
    assert SHOWN in group
