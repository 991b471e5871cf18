"""The viewer's data files hold model text that could end a <script> element: every `</` is
written `<\\/`, the same JSON string (issue 27 group 3)."""

from __future__ import annotations

import json
from pathlib import Path

from macrs_sim.analysis.runs.load import load_run
from macrs_sim.viewer.site import build_site
from tests.viewer.hostile_run import XSS, make_hostile_run


def test_no_data_file_can_close_a_script_element(tmp_path: Path) -> None:
    build_site([load_run(make_hostile_run(tmp_path))], tmp_path / "site")
    scripts = sorted((tmp_path / "site" / "data").rglob("*.js"))
    assert [p.name for p in scripts] == ["c00000.js", "index.js"]
    for path in scripts:
        assert "</" not in path.read_text(encoding="utf-8"), path.name
    chunk = scripts[0].read_text(encoding="utf-8")
    assert "<\\/script>" in chunk
    payload = json.loads(chunk[len("MV.chunkLoaded(0, ") : -3])
    (dialogue,) = [d for d in payload["dialogues"] if d["dialogue_id"] == "MACRS:s-1"]
    assert dialogue["exchanges"][0]["system"]["text"] == f"{XSS}\r\nWhich era?"
