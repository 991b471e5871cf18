"""build_site streams: each dialogue exported once from the store, its calls merged from a
second cursor, a chunk written as soon as its last dialogue is, and the same bytes as the
whole run exported in memory (export_run, split_runs).

The run stores its dialogues interleaved by sample (A:s-1, B:s-2, A:s-2, B:s-1, A:s-3,
B:s-3), so with 2 dialogues a chunk: chunk 0 = s-1 (dialogues 0, 3), chunk 1 = s-2 (1, 2),
chunk 2 = s-3 (4, 5); chunk 1 is whole after 3 dialogues, chunk 0 after 4, chunk 2 after 6.
A:s-1 gets a call written after every dialogue (last by id, first by dialogue); a call
without a dialogue and one of a dialogue not stored show nowhere.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.analysis.runs.load import RunData, load_run
from macrs_sim.errors import DataError
from macrs_sim.protocol import LLMCallRecord
from macrs_sim.store import RunStore
from macrs_sim.viewer import export, files
from macrs_sim.viewer.export import export_run
from macrs_sim.viewer.site import build_site
from macrs_sim.viewer.split import plan_chunks, split_runs
from tests.analysis.handmade_runs import Script, make_result, make_run, make_sample

SYSTEMS: list[dict[str, object]] = [{"name": "A", "kind": "macrs"}, {"name": "B", "kind": "macrs"}]
ORDER = [("A", "s-1"), ("B", "s-2"), ("A", "s-2"), ("B", "s-1"), ("A", "s-3"), ("B", "s-3")]


def _call(dialogue_id: str | None, role: str) -> LLMCallRecord:
    return LLMCallRecord(
        dialogue_id=dialogue_id, system="A", role=role, turn=1, model="hand",
        prompt_tokens=1, completion_tokens=1, latency_s=0.25,
    )  # fmt: skip


def _run(root: Path, name: str = "r", order: list[tuple[str, str]] = ORDER) -> Path:
    samples = [make_sample(s, "m2", bucket="top") for s in ("s-1", "s-2", "s-3")]
    scripts = [Script(system, sample, ("A", "R+")) for system, sample in order]
    run_dir = make_run(root, name, SYSTEMS, samples, scripts, calls_per_turn=1)
    late = [_call("A:s-1", "late"), _call(None, "detached"), _call("ghost:s-9", "ghost")]
    with RunStore.open(run_dir / "store.sqlite") as store:
        store.write_calls(late)
    return run_dir


def _js(path: Path) -> tuple[int, Any]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("MV.chunkLoaded(") and text.endswith(");\n") and "</" not in text
    number, _, payload = text[len("MV.chunkLoaded(") : -3].partition(", ")
    return int(number), json.loads(payload)


def test_plan_by_hand() -> None:
    plan = plan_chunks(["a", "b", "a", "c", "b", "d"], 2)
    # a (0, 2) fills chunk 0; b (1, 4) chunk 1; c (3) leaves chunk 2 short, so d (5) joins it
    assert (list(plan.chunk_of), list(plan.members), list(plan.bounds)) == (
        [0, 1, 0, 2, 1, 2],
        [0, 2, 1, 4, 3, 5],
        [0, 2, 4, 6],
    )
    assert [list(plan.members_of(n)) for n in range(plan.count)] == [[0, 2], [1, 4], [3, 5]]
    assert list(plan_chunks(["a", "b", "a"], 0).bounds) == [0, 2, 3]  # one sample a chunk
    assert plan_chunks([], 5).count == 0


def test_chunks_rows_and_calls_by_hand(tmp_path: Path) -> None:
    site = build_site([load_run(_run(tmp_path))], tmp_path / "site", chunk_dialogues=2)
    assert (site.dialogues, site.chunks) == (6, 3)
    chunk_dir = tmp_path / "site" / files.CHUNK_DIR
    chunks = [_js(chunk_dir / files.chunk_name(n)) for n in range(3)]
    assert [n for n, _ in chunks] == [0, 1, 2]
    assert [[d["dialogue_id"] for d in c["dialogues"]] for _, c in chunks] == [
        ["A:s-1", "B:s-1"],
        ["B:s-2", "A:s-2"],
        ["A:s-3", "B:s-3"],
    ]
    assert [list(c["samples"]) for _, c in chunks] == [["0|s-1"], ["0|s-2"], ["0|s-3"]]
    index = (tmp_path / "site" / "data" / "index.js").read_text(encoding="utf-8")
    rows = json.loads(index[len("MV.indexLoaded(") : -3])["rows"]
    assert [(r[1], r[-1]) for r in rows] == [
        ("A:s-1", 0), ("B:s-2", 1), ("A:s-2", 1), ("B:s-1", 0), ("A:s-3", 2), ("B:s-3", 2),
    ]  # fmt: skip
    first = chunks[0][1]["dialogues"][0]
    assert [c["role"] for c in first["calls"]] == ["ask", "ask", "late"]
    doc = json.loads((tmp_path / "site" / "data" / "export" / "run-0.json").read_bytes())
    roles = [c["role"] for d in doc["dialogues"] for c in d["calls"]]
    assert "detached" not in roles and "ghost" not in roles and len(roles) == 13


def test_same_bytes_as_the_run_in_memory(tmp_path: Path) -> None:
    """Two runs sharing sample s-2 (so chunk 1 holds a dialogue of each), chunks of 1."""
    runs = [load_run(_run(tmp_path, "a")), load_run(_run(tmp_path, "b", ORDER[::-1]))]
    build_site(runs, tmp_path / "site", chunk_dialogues=1)
    labels = [{"A": "A (a)", "B": "B (a)"}, {"A": "A (b)", "B": "B (b)"}]
    docs = [export_run(run, None, run_index=k, labels=labels[k]) for k, run in enumerate(runs)]
    data = tmp_path / "site" / "data"
    for k, doc in enumerate(docs):
        assert (data / "export" / f"run-{k}.json").read_bytes() == files.to_json(doc) + b"\n"
    rows, chunks = split_runs(docs, 1)
    for n, chunk in enumerate(chunks):
        files.write_js_call(tmp_path / "expected.js", "MV.chunkLoaded", n, chunk.payload())
        expected = (tmp_path / "expected.js").read_bytes()
        assert (data / "chunks" / files.chunk_name(n)).read_bytes() == expected
    assert len(chunks) == len(list((data / "chunks").iterdir())) == 3
    assert [d["run"] for d in chunks[1].dialogues] == [0, 0, 1, 1]  # s-2 of both runs
    index = json.loads((data / "index.js").read_text(encoding="utf-8")[len("MV.indexLoaded(") : -3])
    assert index["rows"] == rows


def test_records_the_run_reads_lazily_are_never_read(tmp_path: Path) -> None:
    run = load_run(_run(tmp_path))
    build_site([run], tmp_path / "site")
    lazy = {"results", "sample_records", "call_records", "turns"}
    assert lazy.isdisjoint(vars(run)), "a lazy table was read whole (and kept) by the viewer"


def test_a_chunk_is_written_as_soon_as_it_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    exported: list[str] = []
    written: list[tuple[str, int]] = []
    export_dialogue, write_js_parts = export.export_dialogue, files.write_js_parts

    def spy_export(*args: Any, **kwargs: Any) -> dict[str, Any]:
        exported.append(args[0].dialogue_id)
        return export_dialogue(*args, **kwargs)

    def spy_write(path: Path, call: str, parts: Any) -> None:
        written.append((path.name, len(exported)))
        write_js_parts(path, call, parts)

    monkeypatch.setattr(export, "export_dialogue", spy_export)
    monkeypatch.setattr(files, "write_js_parts", spy_write)
    build_site([load_run(_run(tmp_path))], tmp_path / "site", chunk_dialogues=2)
    chunks = [(name, n) for name, n in written if name.startswith("c0")]
    assert chunks == [("c00001.js", 3), ("c00000.js", 4), ("c00002.js", 6)]
    assert exported == [f"{system}:{sample}" for system, sample in ORDER]  # once each


def _loaded_then(tmp_path: Path, change: str) -> RunData:
    run_dir = _run(tmp_path)
    run = load_run(run_dir)
    if change == "add":
        with RunStore.open(run_dir / "store.sqlite") as store:
            store.write_dialogue(make_result(Script("A", "s-4", ("C",)), "m2"), [])
    else:
        with closing(sqlite3.connect(run_dir / "store.sqlite")) as conn, conn:
            conn.execute("DELETE FROM dialogues WHERE dialogue_id = 'B:s-2'")
    return run


def test_a_dialogue_stored_after_loading_waits_for_the_next_build(tmp_path: Path) -> None:
    site = build_site([_loaded_then(tmp_path, "add")], tmp_path / "site")
    doc = json.loads((tmp_path / "site" / "data" / "export" / "run-0.json").read_bytes())
    assert site.dialogues == len(doc["dialogues"]) == 6
    assert "A:s-4" not in {d["dialogue_id"] for d in doc["dialogues"]}


def test_a_dialogue_gone_since_loading_is_refused(tmp_path: Path) -> None:
    run = _loaded_then(tmp_path, "delete")
    with pytest.raises(DataError, match="store changed while the site was built"):
        build_site([run], tmp_path / "site")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r"]  # no site, no temp folder


def test_a_hostile_sample_id_cannot_close_a_script(tmp_path: Path) -> None:
    sample = make_sample("s-</script><b>", "m2")
    run_dir = make_run(tmp_path, "h", SYSTEMS[:1], [sample], [Script("A", sample.sample_id, ())])
    build_site([load_run(run_dir)], tmp_path / "site")
    _, chunk = _js(tmp_path / "site" / files.CHUNK_DIR / files.chunk_name(0))
    assert list(chunk["samples"]) == ["0|s-</script><b>"]
    assert chunk["samples"]["0|s-</script><b>"]["user_id"] == "</script><b>"
