"""Fixtures of the Yelp loader's tests: a run of the loader, a read of its database, and the
command line in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.prepared import PrepareResult
from macrs_sim.data.yelp.prepare import prepare
from macrs_sim.data.yelp.spec import YelpOptions

REPO_ROOT = Path(__file__).resolve().parents[3]
Prepare = Callable[..., PrepareResult]
RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_prepare(tmp_path: Path) -> Prepare:
    """`prepare(source, tmp_path/out/yelp.sqlite, YelpOptions(**options))`."""

    def run(source: Path, out: Path | None = None, **options: object) -> PrepareResult:
        target = out or tmp_path / "out" / "yelp.sqlite"
        return prepare(source, target, YelpOptions.model_validate(options), overwrite=False)

    return run


@pytest.fixture
def run_cli(tmp_path: Path) -> RunCli:
    """`macrs-sim ARGS` (the installed script of this checkout's venv) run in tmp_path."""
    script = Path(sys.executable).with_name("macrs-sim")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
        return subprocess.run(
            [str(script), *args], capture_output=True, text=True, timeout=120, cwd=tmp_path,
            env=env,
        )  # fmt: skip

    return run
