"""export_run: the whole run as one document, with catalog titles beside the stored records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from macrs_sim.analysis.runs.load import load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.viewer.export import EXPORT_FORMAT, export_run
from tests.viewer.hostile_run import MACRS_EXPLAIN, RUN_NAME, XSS, make_hostile_run


def _by_id(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["dialogue_id"]: d for d in doc["dialogues"]}


def test_export_adds_titles_ranks_and_calls(tmp_path: Path, catalog: Catalog) -> None:
    doc = export_run(load_run(make_hostile_run(tmp_path)), catalog)
    assert (doc["format"], doc["version"]) == (EXPORT_FORMAT, 1)
    assert doc["run"]["name"] == RUN_NAME and doc["run"]["finished"] == 4
    assert [s["label"] for s in doc["run"]["systems"]] == ["MACRS", "single"]
    d = _by_id(doc)
    a, b, c = d["MACRS:s-1"], d["single:s-1"], d["MACRS:s-2"]
    assert (a["turns_taken"], a["final_rank"], a["bucket"]) == (2, None, "top 10%")
    assert a["target_title"] == "Heat (1995)" and a["catalog_titles"] == {"m1": "Heat (1995)"}
    # The remake with the same name keeps its own year; the ungrounded title adds nothing.
    assert b["catalog_titles"] == {"m1": "Heat (1995)", "m7": "Heat (1986)"}
    assert (b["final_rank"], b["turns_taken"]) == (2, 6)
    assert [r["title"] for r in b["final_list"]] == ["Heat (1986)", "heat ", "Nope <i>x</i>"]
    # An id that points nowhere: no title, no bucket, and the error text kept as stored.
    assert (c["target_title"], c["catalog_titles"], c["bucket"]) == (None, {}, None)
    assert c["error"] == "RuntimeError: <img src=x onerror=alert(2)>"
    assert [(k["turn"], k["cached"], k["ok"]) for k in a["calls"]] == [
        (1, True, True),
        (1, False, False),
        (2, False, True),
        (None, False, True),
    ]
    assert "dialogue_id" not in a["calls"][0] and a["calls"][1]["error"] == "timeout"


def test_export_keeps_records_whole(tmp_path: Path, catalog: Catalog) -> None:
    doc = export_run(load_run(make_hostile_run(tmp_path)), catalog)
    turn1 = _by_id(doc)["MACRS:s-1"]["exchanges"][0]
    assert turn1["system"]["explain"] == MACRS_EXPLAIN
    assert turn1["system"]["text"] == f"{XSS}\r\nWhich era?"
    assert _by_id(doc)["MACRS:s-1"]["exchanges"][1]["system"]["items"] == [
        {"title": "heat ", "item_id": "m1", "score": 0.93, "method": "fuzzy"}
    ]
    assert json.loads(json.dumps(doc)) == doc
    s1 = doc["samples"][0]
    assert s1["history_titles"] == ["Up (2009)", None] and s1["target_title"] == "Heat (1995)"


def test_export_without_catalog_and_with_labels(tmp_path: Path) -> None:
    run = load_run(make_hostile_run(tmp_path))
    doc = export_run(run, None, run_index=3, labels={"MACRS": "MACRS (a)"})
    a = _by_id(doc)["MACRS:s-1"]
    assert (a["system"], a["system_name"], a["run"]) == ("MACRS (a)", "MACRS", 3)
    assert a["target_title"] is None and a["catalog_titles"] == {}
    assert _by_id(doc)["single:s-1"]["system"] == "single"
    assert doc["samples"][1]["history_titles"] == [None]
