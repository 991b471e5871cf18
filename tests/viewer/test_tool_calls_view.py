"""Tool calls in the viewer: exported with each dialogue, shown per turn and after the last.

On top of the hostile run (tests/viewer/hostile_run.py), single:s-1 (one turn, failure,
fallback list) gets three tool calls: turn 1 a filter whose input holds HTML and a failed
SQL call; turn 6 (the fallback list, after the last turn) a ranking. One detached call
(no dialogue) must show nowhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from macrs_sim.analysis.runs.load import load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import ToolCallRecord
from macrs_sim.store import RunStore
from macrs_sim.viewer.export import export_run
from macrs_sim.viewer.site import build_site
from tests.viewer.hostile_run import XSS, make_hostile_run
from tests.viewer.test_browser import _wait, browser  # noqa: F401  (the fixture)


def _tool(
    did: str | None, turn: int, tool: str, given: dict[str, Any], **kw: Any
) -> ToolCallRecord:
    return ToolCallRecord(
        dialogue_id=did, system="single", role="interecagent.tools", turn=turn, tool=tool,
        input=given, output_chars=kw.get("chars", 0), latency_s=kw.get("latency", 0.0),
        ok=kw.get("error") is None, error=kw.get("error"),
    )  # fmt: skip


TOOLS = [
    _tool("single:s-1", 1, "filter_items", {"genres": [XSS]}, chars=4798, latency=0.0125),
    _tool("single:s-1", 1, "query_items", {"sql": "DROP TABLE items"}, error="read-only"),
    _tool("single:s-1", 6, "rank_items", {}, chars=10640, latency=0.5),
    _tool(None, 2, "rank_items", {"by": "nothing"}),
]


def _run(tmp_path: Path) -> Path:
    run_dir = make_hostile_run(tmp_path)
    with RunStore.open(run_dir / "store.sqlite") as store:
        store.write_calls([], tool_calls=TOOLS)
    return run_dir


def test_export_carries_each_dialogues_tool_calls(tmp_path: Path, catalog: Catalog) -> None:
    doc = export_run(load_run(_run(tmp_path)), catalog)
    by_id = {d["dialogue_id"]: d for d in doc["dialogues"]}
    tools = by_id["single:s-1"]["tool_calls"]
    assert [(t["turn"], t["tool"], t["ok"]) for t in tools] == [
        (1, "filter_items", True),
        (1, "query_items", False),
        (6, "rank_items", True),
    ]
    assert tools[0]["input"] == {"genres": [XSS]} and "dialogue_id" not in tools[0]
    assert all(d["tool_calls"] == [] for i, d in by_id.items() if i != "single:s-1")


def test_turn_and_after_the_last_turn_show_tool_calls(
    tmp_path: Path,
    catalog: Catalog,
    browser: Any,  # noqa: F811
) -> None:
    site = build_site([load_run(_run(tmp_path))], tmp_path / "site", lambda r: catalog)
    browser.get(site.index_html.as_uri() + "#/d/0/single%3As-1")
    turn1 = _wait(browser, "article.dialogue .turn")[0]
    summary = turn1.find_element("css selector", "summary")
    assert summary.text.endswith("; 2 tool calls (1 failed)")
    summary.click()
    rows = turn1.find_elements("css selector", "table.tool-calls tbody tr")
    assert [r.text for r in rows] == [
        'filter_items {"genres":["<script>alert(1)</script>"]} 4798 0.013 ok',
        'query_items {"sql":"DROP TABLE items"} 0 0.000 failed: read-only',
    ]
    assert [r.get_attribute("class") for r in rows] == ["", "failed"]
    after = browser.find_element("css selector", "details.internals.after")
    assert after.find_element("css selector", "summary").text == (
        "After the last turn (fallback list, reflections) — 1 tool call"
    )
    header = browser.find_element("css selector", "article.dialogue").text
    assert "calls: 1 LLM call, 110 tokens, 0.25 s; 3 tool calls (1 failed)" in header
    assert (
        browser.execute_script("return document.querySelectorAll('.transcript script').length") == 0
    )
    after.find_element("css selector", "summary").click()
    browser.save_screenshot(str(tmp_path / "tool_calls.png"))
