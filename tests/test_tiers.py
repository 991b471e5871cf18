"""The suite's tiers (tests/conftest.py): tests with a slow mark are `slow`, which the fast
tier (`./scripts/test --fast`, `-m "not slow"`) leaves out, and under xdist's loadgroup the
real-model tests make two groups, each on one worker: those of the llama-cpp-python server and
those in-process. Checked on a scratch suite run by a real pytest with
two workers, since a pytest or xdist upgrade broke the grouping once without a word."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from tests.conftest import pytest_collection_modifyitems  # the hook under test
import pytest

@pytest.fixture(scope="session")
def llama_server():  # stands for the real one (tests/conftest.py): the hook reads the name
    return "http://127.0.0.1:1/v1"
"""
TESTS = """
import json, os
import pytest

def record(name):
    with open(os.environ["TIERS_OUT"], "a") as out:
        out.write(json.dumps([name, os.environ.get("PYTEST_XDIST_WORKER")]) + "\\n")

@pytest.mark.embedded
@pytest.mark.parametrize("i", range(4))
def test_real_model(i):
    record(f"real{i}")

@pytest.mark.embedded
@pytest.mark.parametrize("i", range(3))
def test_real_model_server(i, llama_server):
    record(f"server{i}")

@pytest.mark.parametrize("i", range(4))
def test_plain(i):
    record(f"plain{i}")

@pytest.mark.textmodel
def test_text_model():
    record("text")

@pytest.mark.browser
def test_browser():
    record("browser")

@pytest.mark.soak
def test_soak():
    record("soak")
"""
MARKS = ("embedded", "textmodel", "browser", "bench", "soak", "slow")
INI = "[pytest]\nmarkers =\n" + "".join(f"  {m}: x\n" for m in MARKS)


def clean_env() -> dict[str, str]:
    """This process's environment less xdist's own variables: this test may run on a worker."""
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}


def run_scratch_suite(tmp_path: Path, *args: str) -> dict[str, str | None]:
    suite = tmp_path / "suite"
    suite.mkdir(exist_ok=True)
    (suite / "conftest.py").write_text(CONFTEST)
    (suite / "test_scratch.py").write_text(TESTS)
    (suite / "pytest.ini").write_text(INI)
    out = tmp_path / "ran.jsonl"
    out.unlink(missing_ok=True)
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--strict-markers"]
    done = subprocess.run(
        [*argv, *args], cwd=suite, capture_output=True, text=True, timeout=120,
        env={**clean_env(), "TIERS_OUT": str(out)},
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return dict(json.loads(line) for line in out.read_text().splitlines())


def test_real_model_tests_make_two_groups_on_two_workers_and_the_rest_spread(
    tmp_path: Path,
) -> None:
    ran = run_scratch_suite(tmp_path, "-n", "2", "--dist", "loadgroup")
    assert len(ran) == 14
    in_process = {ran[f"real{i}"] for i in range(4)}
    server = {ran[f"server{i}"] for i in range(3)}
    assert len(in_process) == 1 and len(server) == 1
    # Here the two real-model groups are the largest, so xdist starts one on each worker.
    assert in_process | server == {"gw0", "gw1"}
    assert {ran[f"plain{i}"] for i in range(4)} <= {"gw0", "gw1"}


def test_the_fast_tier_leaves_out_every_slow_mark(tmp_path: Path) -> None:
    ran = run_scratch_suite(tmp_path, "-m", "not slow")
    assert sorted(ran) == ["plain0", "plain1", "plain2", "plain3"]
    assert set(ran.values()) == {None}  # no xdist asked for: one process
