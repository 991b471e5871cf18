"""Fixtures of the Yelp loader's tests: a run of the loader, a read of its database, and the
command line."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.prepared import PrepareResult
from macrs_sim.data.yelp.prepare import prepare
from macrs_sim.data.yelp.spec import YelpOptions
from tests.cli_runner import run_cli as run_in_process

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
    """``macrs-sim ARGS`` in tmp_path, in this process (tests/cli_runner.py)."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_in_process(*args, cwd=tmp_path)

    return run
