"""The viewer in a real browser (headless Chromium through selenium), opened from disk.

A scripted campaign (2 systems x 3 samples x 3 turns) whose single-LLM system answers
turn 1 with an HTML script tag; the test filters the list, opens a dialogue, expands a
turn's internals, checks the tag shows as text, and writes screenshots into tmp_path.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from macrs_sim.agents.single_llm import SingleLLMOutput
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.viewer.site import build_site
from tests.viewer.hostile_run import make_hostile_run

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
HOSTILE = "<script>alert(1)</script> & <b>bold</b>"
WAIT_S = 90  # a loaded CI machine starts Chromium slowly
pytestmark = pytest.mark.browser


def _webdriver() -> Any:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("browser test needs selenium: pip install -e '.[dev]'")
    if not (Path(CHROMIUM).is_file() and Path(DRIVER).is_file()):
        pytest.skip("browser test needs Chromium: apt-get install -y chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1300,950"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture
def browser() -> Iterator[Any]:
    driver = _webdriver()
    try:
        yield driver
    finally:
        driver.quit()


async def _campaign(tmp_path: Path, catalog: Catalog) -> Path:
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    scenario = parse_scenario(
        {
            "name": "browser",
            "model": {"backend": "scripted"},
            "data": {"catalog": str(path), "history_len": 3, "min_history": 1, "n_samples": 3},
            "protocol": {"max_turns": 3, "final_list_k": 5},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )
    rules = default_scripted_rules([i.display_title for i in catalog])
    usual = rules["single_llm.respond"]

    def hostile(req: ScriptedRequest) -> BaseModel | str:
        if req.context.turn == 1:
            return SingleLLMOutput(
                step1="-", step2="-", step3="-", act="chat", item_title="", response=HOSTILE
            )
        return usual(req)

    rules["single_llm.respond"] = hostile
    result = await run_campaign_async(
        scenario, output_dir=tmp_path / "runs", progress=False, scripted_rules=rules
    )
    return result.run_dir


def _wait(driver: Any, css: str, count: int = 1) -> list[Any]:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT_S).until(
        lambda d: len(d.find_elements("css selector", css)) >= count
    )
    return list(driver.find_elements("css selector", css))


def _choose(driver: Any, select_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", select_id)).select_by_value(value)


def _listed(driver: Any) -> list[str]:
    rows = driver.find_elements("css selector", "#dialogue-table tbody tr")
    return [r.get_attribute("data-key") for r in rows]


async def test_browse_filter_open_expand(tmp_path: Path, catalog: Catalog, browser: Any) -> None:
    run = load_run(await _campaign(tmp_path, catalog))
    site = build_site([run], tmp_path / "site", lambda r: catalog)
    expected: dict[tuple[str, str], set[str]] = {}
    for r in run.results:
        expected.setdefault((r.system, r.status), set()).add(f"0/{r.dialogue_id}")
    browser.get(site.index_html.as_uri())
    assert len(_wait(browser, "#dialogue-table tbody tr", 6)) == 6
    browser.save_screenshot(str(tmp_path / "1_list.png"))

    _choose(browser, "f-system", "single")
    _wait(browser, "#dialogue-table tbody tr")
    single = {k for (s, _), keys in expected.items() if s == "single" for k in keys}
    assert set(_listed(browser)) == single and len(single) == 3
    _choose(browser, "f-system", "MACRS")
    _choose(browser, "f-status", "failure")
    macrs_failed = expected.get(("MACRS", "failure"), set())
    assert set(_listed(browser)) == macrs_failed and len(macrs_failed) == 3
    assert browser.find_element("id", "list-count").text == "3 of 6 dialogues"
    browser.save_screenshot(str(tmp_path / "2_filtered.png"))

    browser.find_element("css selector", "#dialogue-table tbody a.open-dialogue").click()
    turns = _wait(browser, "article.dialogue .turn", 3)
    internals = turns[1].find_element("css selector", "details.internals")
    assert internals.get_attribute("open") is None
    internals.find_element("css selector", "summary").click()
    assert internals.get_attribute("open") is not None
    candidates = internals.find_elements("css selector", "table.candidates tbody tr")
    assert len(candidates) == 3 and len(internals.find_elements("css selector", "tr.chosen")) == 1
    assert internals.find_elements("css selector", "table.calls tbody tr")
    parts = internals.find_elements("css selector", "section.explain-part")
    keys = [p.get_attribute("data-key") for p in parts]
    assert keys[:3] == ["candidates", "planner", "profile"] and keys[-1] == "llm_calls"
    browser.save_screenshot(str(tmp_path / "3_dialogue.png"))
    browser.find_element("css selector", "a.back").click()  # back to the filtered page
    _wait(browser, "#view-list:not([hidden]) #dialogue-table tbody tr")
    assert set(_listed(browser)) == macrs_failed

    single_id = sorted(single)[0].split("/", 1)[1]
    browser.get(site.index_html.as_uri() + "#/d/0/" + single_id.replace(":", "%3A"))
    first = _wait(browser, "article.dialogue .turn .msg.system .text")[0]
    assert first.text == HOSTILE  # shown as text, never run
    parsed = "return document.querySelectorAll('.transcript script, .transcript b').length"
    assert browser.execute_script(parsed) == 0
    browser.save_screenshot(str(tmp_path / "4_hostile.png"))

    browser.find_element("css selector", "a.compare-link").click()
    columns = _wait(browser, ".side-by-side .column", 2)
    assert [c.get_attribute("data-system") for c in columns] == ["MACRS", "single"]
    browser.save_screenshot(str(tmp_path / "5_side_by_side.png"))
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_errors_filter_generic_internals_and_grounding(
    tmp_path: Path, catalog: Catalog, browser: Any
) -> None:
    run = load_run(make_hostile_run(tmp_path))
    site = build_site([run], tmp_path / "site", lambda r: catalog)
    browser.get(site.index_html.as_uri() + "#/list?errors=1")
    _wait(browser, "#dialogue-table tbody tr")
    # The error dialogue, and the success whose turn 1 had a failed LLM call.
    assert sorted(_listed(browser)) == ["0/MACRS:s-1", "0/MACRS:s-2"]
    assert browser.find_element("id", "f-errors").is_selected()

    browser.get(site.index_html.as_uri() + "#/d/0/MACRS%3As-1")
    turn1 = _wait(browser, "article.dialogue .turn")[0]
    assert "(system said: chat)" in turn1.find_element("css selector", ".msg.system .who").text
    turn1.find_element("css selector", "summary").click()
    failed = turn1.find_elements("css selector", "table.calls tr.failed")
    assert [r.text.split() for r in failed] == [
        ["ask", "1", "hand", "100", "10", "0.250", "failed:", "timeout"]
    ]
    browser.save_screenshot(str(tmp_path / "6_reported_act.png"))

    browser.get(site.index_html.as_uri() + "#/d/0/single%3As-1")
    plan = _wait(browser, "section.explain-part[data-key=tool_plan]")[0]
    # Nested key/value lists, the HTML in the tool input as text: list > item dl > input dl.
    assert plan.get_attribute("textContent") == "tool_plantoolsqlinputquery<b>SELECT</b>"
    assert len(plan.find_elements("css selector", "ol.vals > li > dl.kv dd > dl.kv")) == 1
    items = browser.find_elements("css selector", ".final-list li.item")
    assert [i.get_attribute("class") for i in items] == ["item", "item target", "item"]
    assert items[0].find_element("css selector", ".grounding").text.startswith("→ Heat (1986) m7")
    assert "not in the catalog" in items[2].text and "Nope <i>x</i>" in items[2].text
    browser.save_screenshot(str(tmp_path / "7_tool_plan.png"))
