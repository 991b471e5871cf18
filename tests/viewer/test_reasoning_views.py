"""RecMind's reasoning tree and ToolRec's loop, drawn in the viewer from a scripted campaign.

The expected values come from the stored `explain` of each turn: every tree node becomes
one list item carrying its status, nested under its parent, the final path in bold, and
every loop round one table row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from macrs_sim.analysis.runs.load import load_run
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import DataConfig, parse_scenario
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.viewer.site import build_site
from tests.viewer.test_browser import _wait, browser  # noqa: F401  (the fixture)

pytest.importorskip("torch", reason="needs the recsys extra: pip install 'macrs-sim[recsys]'")


async def _run(tmp_path: Path) -> Path:
    scenario = parse_scenario(
        {
            "name": "reasoning-views",
            "model": {"backend": "scripted"},
            "data": {"n_samples": 1},
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 1},
            "systems": [
                {"name": "RM", "kind": "recmind", "planner": "tot-dfs", "max_steps": 4},
                {"name": "TR", "kind": "toolrec", "retriever": "ranker",
                 "base_ranker": "popularity"},
            ],
        }
    )  # fmt: skip
    result = await run_campaign_async(scenario, output_dir=tmp_path, progress=False, report=False)
    return result.run_dir


async def test_the_tree_and_the_loop_are_drawn(tmp_path: Path, browser: Any) -> None:  # noqa: F811
    run = load_run(await _run(tmp_path / "runs"))
    explains = {r.system: r.exchanges[0].system.explain for r in run.results}
    tree, loop = explains["RM"]["tree"], explains["TR"]["loop"]
    catalog = demo_dataset(DataConfig()).catalog
    site = build_site([run], tmp_path / "site", lambda r: catalog)
    dialogue = next(r.dialogue_id for r in run.results if r.system == "RM")
    browser.get(site.index_html.as_uri() + "#/d/0/" + dialogue.replace(":", "%3A"))
    turn = _wait(browser, "article.dialogue .turn")[0]
    turn.find_element("css selector", "summary").click()
    nodes = turn.find_elements("css selector", ".reasoning-tree li.tree-node")
    assert [int(n.get_attribute("data-node")) for n in nodes] == sorted(
        (n["id"] for n in tree["nodes"]),
        key=lambda i: [p for p in _ancestry(tree["nodes"], i)],
    )
    statuses = {int(n.get_attribute("data-node")): n.get_attribute("data-status") for n in nodes}
    assert statuses == {n["id"]: n["status"] for n in tree["nodes"]}
    bold = [int(n.get_attribute("data-node")) for n in nodes if "final" in n.get_attribute("class")]
    assert sorted(bold) == sorted(tree["final_path"]) and tree["final_path"]
    summary = turn.find_element("css selector", ".tree-summary").text
    assert summary.startswith(f"Planner {tree['planner']}: {tree['steps_used']} of 4 steps")
    browser.save_screenshot(str(tmp_path / "tree.png"))

    dialogue = next(r.dialogue_id for r in run.results if r.system == "TR")
    browser.get(site.index_html.as_uri() + "#/d/0/" + dialogue.replace(":", "%3A"))
    turn = _wait(browser, "article.dialogue .turn")[0]
    turn.find_element("css selector", "summary").click()
    rows = turn.find_elements("css selector", ".toolrec-loop tbody tr")
    assert len(rows) == len(loop["rounds"]) == 4  # retrieve, retrieve, rank, finish
    assert [r.find_elements("css selector", "td")[2].text for r in rows] == [
        r["action"] for r in loop["rounds"]
    ]
    stop = turn.find_element("css selector", ".toolrec-loop p").text
    assert stop == f"Stopped: {loop['stop']}"


def _ancestry(nodes: list[dict[str, Any]], node_id: int) -> list[int]:
    """Depth-first document order: a node sorts by the ids on its path from the root."""
    by_id = {n["id"]: n for n in nodes}
    path: list[int] = []
    current: int | None = node_id
    while current is not None:
        path.append(current)
        current = by_id[current]["parent"]
    return path[::-1]
