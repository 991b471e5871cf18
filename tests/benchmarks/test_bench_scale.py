"""bench_scale at tiny sizes: the JSON's shape, and grown stores that hold exactly N dialogues
whose samples, turns and calls are the base run's, copied under new ids."""

from __future__ import annotations

import importlib
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
# One worker for the module: under xdist its tests would otherwise each run the benchmark
# (the module fixture `result`, ~25 s) on their own worker.
pytestmark = [pytest.mark.bench, pytest.mark.xdist_group("bench-scale")]
COMMANDS = {"exit_code", "wall_s", "cpu_s", "user_s", "sys_s", "peak_rss_mib"}


@pytest.fixture(scope="module")
def bench() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        yield importlib.import_module("bench_scale")
    finally:
        sys.path.remove(str(BENCHMARKS))
        sys.modules.pop("bench_scale", None)


@pytest.fixture(scope="module")
def result(bench: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    work = tmp_path_factory.mktemp("scale")
    argv = ["--base", "20", "--sizes", "60,40", "--run-max", "40", "--workdir", str(work)]
    out: dict[str, Any] = bench.main([*argv, "--keep", "--concurrency", "8"])
    return out


def _rows(path: Path, sql: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.execute(sql))
    finally:
        conn.close()


def _counts(store: Path) -> dict[str, int]:
    tables = ("dialogues", "samples", "turns", "llm_calls")
    return {t: _rows(store, f"SELECT COUNT(*) FROM {t}")[0][0] for t in tables}


def _base_store(result: dict[str, Any]) -> Path:
    (run,) = [d for d in (Path(result["workdir"]) / "base" / "runs").iterdir() if d.is_dir()]
    return run / "store.sqlite"


def test_json_shape(result: dict[str, Any]) -> None:
    assert set(result["machine"]) == {"cpus", "loadavg_start", "loadavg_end"}
    assert result["base"]["dialogues"] == 20 and result["base"]["run"]["exit_code"] == 0
    small, large = result["sizes"]  # sorted, whatever the order given
    assert (small["dialogues"], large["dialogues"]) == (40, 60)
    for rec in (small, large):
        for cmd in ("report", "view"):
            assert set(rec[cmd]) >= COMMANDS and rec[cmd]["exit_code"] == 0
        assert rec["view"]["site_bytes"] > 0
        store = rec["store"]
        assert store["bytes_per_dialogue"] == round(store["bytes"] / rec["dialogues"])
        assert store["tables"] is None or store["tables"]["turn_rows"] > 0
    assert not small["run"]["extrapolated"] and small["run"]["exit_code"] == 0
    assert large["run"]["extrapolated"] and large["run"]["from_dialogues"] == [20, 40]
    targets = result["targets"]
    assert set(targets["peak_under_1_gib_at_largest"]) == {"report", "view"}  # run: estimated
    assert set(targets["peak_largest_at_most_1_25x_smallest"]) == {"report", "view"}
    assert set(targets["report_cpu_at_most_quarter_of_campaign"]) == {"40", "60"}


@pytest.mark.parametrize(("n", "copies"), [(40, 2), (60, 3)])
def test_grown_store_is_copies_of_the_base(result: dict[str, Any], n: int, copies: int) -> None:
    base = _counts(_base_store(result))
    assert base["dialogues"] == base["samples"] == 20
    store = Path(result["workdir"]) / f"grown-{n}" / "store.sqlite"
    grown = _counts(store)
    assert grown == {t: copies * c for t, c in base.items()}
    assert _rows(store, "SELECT COUNT(DISTINCT dialogue_id) FROM dialogues") == [(n,)]
    assert _rows(store, "SELECT value FROM meta WHERE key = 'expected_dialogues'") == [(str(n),)]
    assert _rows(store, "PRAGMA foreign_key_check") == []
    # Every dialogue's sample is there, and a sample's json names its own (new) id.
    orphans = (
        "SELECT COUNT(*) FROM dialogues WHERE sample_id NOT IN (SELECT sample_id FROM samples)"
    )
    assert _rows(store, orphans) == [(0,)]
    wrong = "SELECT COUNT(*) FROM samples WHERE json_extract(json, '$.sample_id') != sample_id"
    assert _rows(store, wrong) == [(0,)]
    assert _rows(store, "SELECT COUNT(*) FROM dialogues WHERE dialogue_id LIKE '%~g2'") == [
        (20 if copies == 3 else 0,)
    ]


def test_a_partial_copy_takes_the_first_dialogues_by_id(
    bench: ModuleType, result: dict[str, Any], tmp_path: Path
) -> None:
    base_store = _base_store(result)
    dest = bench.grow(base_store.parent, tmp_path / "g", 25)
    store = dest / "store.sqlite"
    first5 = [r[0] for r in _rows(base_store, "SELECT dialogue_id FROM dialogues ORDER BY 1")][:5]
    copied = [
        r[0]
        for r in _rows(
            store, "SELECT dialogue_id FROM dialogues WHERE dialogue_id LIKE '%~g1' ORDER BY 1"
        )
    ]
    assert copied == [f"{d}~g1" for d in first5]
    per_dialogue = "SELECT dialogue_id, COUNT(*) FROM {} GROUP BY 1"
    for table in ("turns", "llm_calls"):
        before = dict(_rows(base_store, per_dialogue.format(table)))
        after = dict(_rows(store, per_dialogue.format(table)))
        assert after == before | {f"{d}~g1": before[d] for d in first5}
    with pytest.raises(ValueError, match="cannot grow a store of 20 dialogues to 19"):
        bench.grow(base_store.parent, tmp_path / "small", 19)


def test_extrapolation_is_linear(bench: ModuleType) -> None:
    runs = {1000: {"wall_s": 12.0, "cpu_s": 10.0, "peak_rss_mib": 300.0}}
    one = bench.extrapolate(runs, 100000)
    assert (one["wall_s"], one["cpu_s"], one["peak_rss_mib"]) == (1200.0, 1000.0, 300.0)
    runs[5000] = {"wall_s": 44.0, "cpu_s": 50.0, "peak_rss_mib": 340.0}
    two = bench.extrapolate(runs, 100000)
    # Lines through both points: wall 4 + 0.008 n, CPU 0.01 n, peak 290 + 0.01 n.
    assert (two["wall_s"], two["cpu_s"], two["peak_rss_mib"]) == (804.0, 1000.0, 1290.0)
    assert two["extrapolated"] and two["from_dialogues"] == [1000, 5000]
