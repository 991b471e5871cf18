"""build_site: the files of a site, escaping, results, and replacing a site atomically."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.analysis.runs.combine import combine_runs
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.viewer import files, results
from macrs_sim.viewer.site import MARKER, build_site
from tests.analysis.handmade_runs import Script, make_run, make_sample
from tests.viewer.hostile_run import XSS, make_hostile_run


def _js_arg(path: Path, call: str) -> Any:
    text = path.read_text(encoding="utf-8")
    assert text.startswith(call + "(") and text.endswith(");\n")
    return json.loads(text[len(call) + 1 : -3])


def test_site_files_and_index(tmp_path: Path, catalog: Catalog) -> None:
    run = load_run(make_hostile_run(tmp_path))
    site = build_site([run], tmp_path / "site", lambda r: catalog)
    out = tmp_path / "site"
    assert (site.path, site.dialogues, site.chunks) == (out, 4, 1)
    assert {p.name for p in (out / "static").iterdir()} >= {"core.js", "app.js", "viewer.css"}
    index = _js_arg(out / "data" / "index.js", "MV.indexLoaded")
    assert [r[1] for r in index["rows"]] == ["MACRS:s-1", "single:s-1", "MACRS:s-2", "single:s-2"]
    assert index["statuses"] == ["error", "failure", "success"]
    assert (index["buckets"], index["systems"]) == (["top 10%"], ["MACRS", "single"])
    chunk = out / "data" / "chunks" / "c00000.js"
    text = chunk.read_text(encoding="utf-8")
    assert text.startswith("MV.chunkLoaded(0, {")
    payload = json.loads(text[len("MV.chunkLoaded(0, ") : -3])
    assert payload["dialogues"][0]["exchanges"][0]["system"]["text"].startswith(XSS)
    export = json.loads((out / "data" / "export" / "run-0.json").read_text(encoding="utf-8"))
    assert len(export["dialogues"]) == 4 and (out / MARKER).is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile-run", "site"]


def test_page_escapes_run_names(tmp_path: Path) -> None:
    build_site([load_run(make_hostile_run(tmp_path))], tmp_path / "site")
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;hostile&lt;/b&gt; run" in html and "<b>hostile</b>" not in html
    # Data never goes into the page itself, only into the data scripts.
    assert "alert(" not in html


def test_metrics_tables_by_hand(tmp_path: Path) -> None:
    cmp = combine_runs([load_run(make_hostile_run(tmp_path))])
    every, completed = results.metrics_tables(cmp)
    # MACRS: success in 2 turns + an error (6 turns); single: two failures (6 each).
    assert every.columns == ["system", "dialogues", "errors", "success_rate", "avg_turns"] + [
        "hit@5",
        "hit@10",
    ]
    assert every.rows == [
        ["MACRS", "2", "1", "0.500", "4.000", "0.500", "0.500"],
        ["single", "2", "0", "0.000", "6.000", "0.500", "0.500"],
    ]
    assert completed.rows[0] == ["MACRS", "1", "1", "1.000", "2.000", "1.000", "1.000"]


def test_report_figures_and_hostile_csv(tmp_path: Path) -> None:
    run_dir = make_hostile_run(tmp_path)
    (run_dir / "figures").mkdir()
    (run_dir / "figures" / "act_transitions.png").write_bytes(b"png-a")
    (run_dir / "figures" / "fig4_act_ratios.png").write_bytes(b"png-4")
    (run_dir / "tables").mkdir()
    table1 = "\ufeffsystem ,success_rate \r\nMACRS,0.5\r\nsingle,\r\n"
    (run_dir / "tables" / "table1.csv").write_text(table1, encoding="utf-8", newline="")
    (run_dir / "tables" / "broken.csv").write_bytes(b"\xff\xfe\x00bad")
    report = results.run_report(load_run(run_dir), 2, tmp_path / "site")
    assert report.figures == [
        ("fig4_act_ratios", "figures/run2/fig4_act_ratios.png"),
        ("act_transitions", "figures/run2/act_transitions.png"),
    ]
    assert (tmp_path / "site" / "figures" / "run2" / "fig4_act_ratios.png").read_bytes() == b"png-4"
    assert [(t.name, t.columns, t.rows) for t in report.tables] == [
        ("table1", ["system", "success_rate"], [["MACRS", "0.500"], ["single", "—"]])
    ]
    assert report.report_md is None


def test_two_runs_with_the_same_systems(tmp_path: Path) -> None:
    systems: list[dict[str, object]] = [{"name": "MACRS", "kind": "macrs"}]
    samples = [make_sample("s-1", "m2")]
    runs = [
        load_run(make_run(tmp_path, n, systems, samples, [Script("MACRS", "s-1", ("R+",))]))
        for n in ("a", "b")
    ]
    build_site(runs, tmp_path / "site")
    index = _js_arg(tmp_path / "site" / "data" / "index.js", "MV.indexLoaded")
    assert index["systems"] == ["MACRS (a)", "MACRS (b)"]
    assert [(r[0], r[1], r[2], r[-1]) for r in index["rows"]] == [
        (0, "MACRS:s-1", "MACRS (a)", 0),
        (1, "MACRS:s-1", "MACRS (b)", 0),
    ]


def test_rebuild_replaces_the_old_site_whole(tmp_path: Path) -> None:
    run = load_run(make_hostile_run(tmp_path))
    out = tmp_path / "site"
    build_site([run], out)
    (out / "stray.txt").write_text("old")
    build_site([run], out)
    assert not (out / "stray.txt").exists() and (out / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile-run", "site"]


def test_failed_build_leaves_the_old_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = load_run(make_hostile_run(tmp_path))
    out = tmp_path / "site"
    build_site([run], out)
    before = (out / "index.html").read_text(encoding="utf-8")

    def broken(*args: object, **kwargs: object) -> Path:
        raise OSError("disk full")

    monkeypatch.setattr(files, "render_page", broken)
    with pytest.raises(OSError, match="disk full"):
        build_site([run], out)
    assert (out / "index.html").read_text(encoding="utf-8") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile-run", "site"]


def test_refuses_a_folder_that_is_not_a_site(tmp_path: Path) -> None:
    run = load_run(make_hostile_run(tmp_path))
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.tex").write_text("keep me")
    with pytest.raises(DataError, match="not a macrs-sim view site"):
        build_site([run], mine)
    assert [p.name for p in mine.iterdir()] == ["thesis.tex"]
    with pytest.raises(DataError, match="no runs"):
        build_site([], tmp_path / "empty")
