"""Bad input: one clear line naming what and where, exit code 2, no traceback, no run dir."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_runner import run_cli as run_in_process

GOOD = """
name = "t"
[model]
backend = "scripted"
[data]
n_samples = 2
[[systems]]
name = "MACRS"
kind = "macrs"
"""


def run_cli(tmp_path: Path, toml: str) -> subprocess.CompletedProcess[str]:
    """`macrs-sim run` of `toml`, in this process (tests/cli_runner.py): the bad input is
    the test's subject, not the process; test_missing_scenario_file runs the real one."""
    scenario = tmp_path / "s.toml"
    scenario.write_text(toml)
    out = tmp_path / "runs"
    return run_in_process("run", scenario, "--output-dir", out, "--no-progress", cwd=tmp_path)


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        (
            GOOD.replace("n_samples", "n_sampels"),
            "data.n_sampels: unknown field (check the spelling)",
        ),
        (
            GOOD.replace('kind = "macrs"', 'kind = "macr"'),
            'systems[0]: unknown kind "macr"; known: http, interecagent, itemcf, macrs',
        ),
        (GOOD.replace('name = "t"\n', ""), "name: required field is missing"),
        (GOOD + "[oops\n", "not valid TOML"),
        (
            GOOD.replace(
                'backend = "scripted"', 'backend = "embedded"\npath = "/nowhere/model.gguf"'
            ),
            "/nowhere/model.gguf",
        ),
        (GOOD.replace("n_samples = 2", "n_samples = 100000"), "data.n_samples = 100000: only"),
    ],
)
def test_bad_scenarios_fail_in_one_line(tmp_path: Path, toml: str, expected: str) -> None:
    proc = run_cli(tmp_path, toml)
    assert proc.returncode == 2
    assert expected in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_unreachable_endpoint(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    toml = GOOD.replace(
        'backend = "scripted"', f'backend = "openai"\nmodel = "m"\nbase_url = "{url}"'
    )
    proc = run_cli(tmp_path, toml)
    assert proc.returncode == 2 and url in proc.stderr and "unreachable" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "runs").exists()


def test_empty_catalog(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n")
    toml = GOOD.replace("[data]", f'[data]\ncatalog = "{tmp_path / "empty.jsonl"}"')
    proc = run_cli(tmp_path, toml)
    assert proc.returncode == 2 and "catalog is empty" in proc.stderr
    assert not (tmp_path / "runs").exists()


def test_missing_scenario_file(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "macrs_sim.cli", "run", str(tmp_path / "nope.toml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2 and "scenario file not found" in proc.stderr
