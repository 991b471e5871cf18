"""Every cell of the viewer's pages goes through the reports' text rule (issue 40 §2):
call and tool rows whose role, model or (unstored) dialogue hold ESC, HTML and U+202E reach
the results page's tables (the report's CSVs) with the HTML escaped and the controls shown
as ␛ and ⟨U+202E⟩, as report.md shows them; the scripts' own text nodes and tooltips too."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path

import pytest

from macrs_sim.cli import main
from macrs_sim.protocol import LLMCallRecord, ToolCallRecord
from macrs_sim.store import RunStore
from macrs_sim.textsafe import markdown_paragraph, page_text
from tests.viewer.hostile_run import make_hostile_run

EVIL = "\x1b[31mred<b>x</b>\u202eevil"
SHOWN = "␛[31mred&lt;b&gt;x&lt;/b&gt;⟨U+202E⟩evil"  # as the page's HTML holds it
NODE = shutil.which("node")


def _hostile_calls(run: Path) -> None:
    with RunStore.open(run / "store.sqlite") as store:
        calls = [
            LLMCallRecord(dialogue_id="MACRS:s-1", system="MACRS", role=EVIL, turn=1,
                          model=EVIL, prompt_tokens=7, completion_tokens=3),
            LLMCallRecord(dialogue_id=EVIL, system=None, role="prep", turn=None,
                          model=EVIL, prompt_tokens=5, completion_tokens=1),
        ]  # fmt: skip
        tools = [
            ToolCallRecord(dialogue_id="MACRS:s-1", system="MACRS", role=EVIL, turn=1,
                           tool=EVIL, input={"q": EVIL}, output_chars=3),
        ]  # fmt: skip
        store.write_calls(calls, tool_calls=tools)


def test_the_results_page_shows_hostile_cells_as_the_report_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_hostile_run(tmp_path)
    _hostile_calls(run)
    assert main(["report", str(run)]) == 0
    report = (run / "report.md").read_text(encoding="utf-8")
    assert "\x1b" not in report and "\u202e" not in report
    assert main(["view", str(run), "--out", str(tmp_path / "site")]) == 0
    capsys.readouterr()
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "\x1b" not in page and "\u202e" not in page  # before: both written raw
    assert SHOWN in page and "<b>x</b>" not in page


def test_page_text_is_the_markdown_rules_marks_alone() -> None:
    assert page_text("a\x1b[0m\u202eb\r\nc\x7f\x85") == "a␛[0m⟨U+202E⟩b\nc␡⟨U+0085⟩"
    assert page_text("Heat (1995) & <i>") == "Heat (1995) & <i>"  # HTML is the engine's
    assert markdown_paragraph("a\x1b\u202eb").startswith(page_text("a\x1b\u202eb"))


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run the viewer's core.js")
def test_core_js_shows_controls_as_the_pages_do() -> None:
    core = (resources.files("macrs_sim") / "viewer" / "static" / "core.js").read_text()
    samples = [EVIL, "a\r\nb\tc\nd", "\x00\x7f\x9b\u2028"]
    script = (
        "global.window = {};\n" + core
        + f"\nprocess.stdout.write(JSON.stringify({json.dumps(samples)}.map(MV.shown)));"
    )  # fmt: skip
    assert NODE is not None
    out = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [page_text(s) for s in samples] == [
        "␛[31mred<b>x</b>⟨U+202E⟩evil", "a\nb\tc\nd", "␀␡⟨U+009B⟩⟨U+2028⟩",
    ]  # fmt: skip
