"""Run directories: created only once the scenario, data and models have been checked."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from macrs_sim.config import Scenario, scenario_to_toml

SCENARIO_FILE = "scenario.resolved.toml"
STORE_FILE = "store.sqlite"
SAMPLES_FILE = "samples.jsonl"


def new_run_dir(scenario: Scenario, output_dir: Path | None) -> Path:
    base = output_dir if output_dir is not None else Path(scenario.campaign.output_dir)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = base / f"{scenario.name}-{stamp}"
    n = 1
    while path.exists():
        n += 1
        path = base / f"{scenario.name}-{stamp}-{n}"
    path.mkdir(parents=True)
    (path / SCENARIO_FILE).write_text(scenario_to_toml(scenario), encoding="utf-8")
    return path


def discard_run_dir(path: Path) -> None:
    """A run that failed before its first dialogue leaves nothing behind."""
    shutil.rmtree(path, ignore_errors=True)
