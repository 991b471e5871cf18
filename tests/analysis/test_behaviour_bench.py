"""The labelled turns of benchmarks/bench_behaviour_checks.py: every case is read, and the
detectors' known misses stay the ones the benchmark reports (a change shows here)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BENCH = Path(__file__).parents[2] / "benchmarks" / "bench_behaviour_checks.py"


def test_scores_on_the_labelled_set() -> None:
    spec = importlib.util.spec_from_file_location("bench_behaviour_checks", BENCH)
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    cases = json.loads(bench.CASES.read_text(encoding="utf-8"))["cases"]
    scores = bench.score(cases)
    assert {k: (v["cases"], v["tp"], v["fp"], v["fn"]) for k, v in scores.items()} == {
        "echo": (18, 7, 0, 1),
        "refusal": (25, 11, 0, 1),
        "repeat": (7, 4, 0, 0),
        "instruction_echo": (11, 5, 0, 0),
        "profile_dump": (12, 4, 0, 0),
        "off_profile": (9, 3, 1, 0),
        "truncated": (8, 2, 1, 0),
        "empty": (4, 2, 0, 0),
    }
    assert scores["refusal"]["wrong"] == ["Unfortunately, I can't fulfill that request."]
