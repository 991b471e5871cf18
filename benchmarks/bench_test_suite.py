"""Where the test suite's time goes: runs pytest (or reads a JUnit XML file it wrote) and
prints JSON with the wall time, the load average before and after, each test file's summed
test time (setup, call and teardown, so a module fixture counts in its first test) and the
slowest tests.

    python benchmarks/bench_test_suite.py                   # the whole suite, -n auto
    python benchmarks/bench_test_suite.py --fast            # the fast tier (-m "not slow")
    python benchmarks/bench_test_suite.py --junit run.xml   # summarise a run made before
    python benchmarks/bench_test_suite.py -- -n 0 tests/llm # other arguments go to pytest

Under xdist the per-file sums are test time on any worker, not wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def test_file(classname: str) -> str:
    """`tests.llm.test_pool` or `tests.llm.test_pool.TestClass` -> tests/llm/test_pool.py."""
    parts = classname.split(".")
    for i, part in enumerate(parts):
        if part.startswith("test_"):
            return "/".join(parts[: i + 1]) + ".py"
    return "/".join(parts) + ".py"


def summarise(junit: Path, top: int) -> dict[str, Any]:
    per_file: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    tests: list[tuple[float, str]] = []
    outcomes: dict[str, int] = defaultdict(int)
    for case in ET.parse(junit).getroot().iter("testcase"):
        seconds = float(case.get("time", 0))
        path = test_file(case.get("classname", ""))
        per_file[path] += seconds
        counts[path] += 1
        tests.append((seconds, f"{path}::{case.get('name')}"))
        kind = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        outcomes[kind] += 1
    files = sorted(per_file.items(), key=lambda kv: -kv[1])
    return {
        "tests": len(tests),
        "outcomes": dict(outcomes),
        "test_seconds": round(sum(per_file.values()), 1),
        "files": [{"file": f, "seconds": round(s, 1), "tests": counts[f]} for f, s in files[:top]],
        "slowest": [{"test": n, "seconds": round(s, 1)} for s, n in sorted(tests)[::-1][:top]],
    }


def run_suite(junit: Path, fast: bool, extra: list[str]) -> dict[str, Any]:
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--dist", "loadgroup"]
    argv += ["-n", os.environ.get("MACRS_SIM_TEST_WORKERS", "auto"), f"--junitxml={junit}"]
    argv += ["-m", "not slow"] if fast else []
    load_before = os.getloadavg()
    start = time.monotonic()
    done = subprocess.run([*argv, *extra], cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - start
    last = (done.stdout.strip().splitlines() or [""])[-1]
    return {
        "command": " ".join(argv[1:] + extra),
        "exit_code": done.returncode,
        "wall_s": round(wall, 1),
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "pytest_says": last,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--junit", type=Path, help="summarise this JUnit XML file; run nothing")
    parser.add_argument("--fast", action="store_true", help='the fast tier: -m "not slow"')
    parser.add_argument("--top", type=int, default=20, help="files and tests listed")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args(argv)
    if args.junit is not None:
        return summarise(args.junit, args.top)
    with tempfile.TemporaryDirectory() as tmp:
        junit = Path(tmp) / "suite.xml"
        run = run_suite(junit, args.fast, args.pytest_args)
        return {**run, **summarise(junit, args.top)} if junit.exists() else run


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
