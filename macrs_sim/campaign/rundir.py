"""Run directories: created only once the scenario, data and models have been checked.

An unfinished run directory of the same scenario is found again, so running the
same command resumes it. "Same scenario" ignores the settings that only say how
or how far to run (concurrency, executor, budget, prices, cache, output folder):
raising a budget or switching to Ray continues the run instead of starting over.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import time
import tomllib
from pathlib import Path
from typing import Any

from macrs_sim.config import Scenario, scenario_to_toml
from macrs_sim.errors import DataError
from macrs_sim.store import RunStore

SCENARIO_FILE = "scenario.resolved.toml"
STORE_FILE = "store.sqlite"
SAMPLES_FILE = "samples.jsonl"
LOCK_FILE = ".lock"
# campaign.* settings that say how or how far to run, never what a dialogue does.
_OPERATIONAL = {"concurrency", "output_dir", "executor", "ray_actors", "ray_address"}
_OPERATIONAL |= {"prices", "budget_tokens", "budget_usd"}


class RunLock:
    """Held while a process runs a directory; the OS drops it when the process dies (SIGKILL
    too), so a second command resumes only runs nobody is running."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    @classmethod
    def acquire(cls, run_dir: Path) -> RunLock | None:
        fd = os.open(run_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return cls(fd)

    def release(self) -> None:
        os.close(self._fd)  # closing the descriptor drops the lock


def run_identity(resolved_toml: str) -> dict[str, Any]:
    """A resolved scenario without the settings that cannot change a dialogue's outcome."""
    data = tomllib.loads(resolved_toml)
    data.pop("cache", None)
    campaign = data.get("campaign", {})
    for key in _OPERATIONAL:
        campaign.pop(key, None)
    return data


def write_scenario(run_dir: Path, scenario: Scenario) -> None:
    # Written whole or not at all: a run killed mid-write must not look like another scenario.
    tmp = run_dir / (SCENARIO_FILE + ".tmp")
    tmp.write_text(scenario_to_toml(scenario), encoding="utf-8")
    os.replace(tmp, run_dir / SCENARIO_FILE)


def new_run_dir(scenario: Scenario, base: Path) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = base / f"{scenario.name}-{stamp}"
    n = 1
    while path.exists():
        n += 1
        path = base / f"{scenario.name}-{stamp}-{n}"
    path.mkdir(parents=True)
    write_scenario(path, scenario)
    return path


def open_run_store(run_dir: Path, resumed: bool) -> RunStore:
    path = run_dir / STORE_FILE
    if resumed and path.exists() and not RunStore.is_blank(path):
        return RunStore.open(path)
    for leftover in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        leftover.unlink(missing_ok=True)  # a store killed while being created holds nothing
    return RunStore.create(path)


def discard_run_dir(path: Path) -> None:
    """A run that failed before its first dialogue leaves nothing behind."""
    shutil.rmtree(path, ignore_errors=True)


def _same_scenario(run_dir: Path, identity: dict[str, Any]) -> bool:
    try:
        text = (run_dir / SCENARIO_FILE).read_text(encoding="utf-8")
        return run_identity(text) == identity
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False  # not a scenario we could have written: not this campaign's run


def _unfinished(run_dir: Path) -> bool:
    """Whether the run still has work; a store that cannot be trusted is an error."""
    path = run_dir / STORE_FILE
    if not path.exists() or RunStore.is_blank(path):
        return True  # killed before its store was made
    try:
        with RunStore.open(path) as store:
            problem = store.integrity_problem()
            status = store.get_meta("status")
    except (DataError, OSError) as exc:
        problem = str(exc)
    if problem is not None:
        raise DataError(
            f"{run_dir}: an unfinished run of this scenario has an unreadable store ({problem});"
            " move that directory away (or use --no-resume) to start a new run"
        )
    return status != "finished"


def find_resumable(scenario: Scenario, base: Path) -> tuple[Path, RunLock] | None:
    """The newest unfinished run of `scenario` under `base` that no process holds, locked."""
    if not base.is_dir():
        return None
    identity = run_identity(scenario_to_toml(scenario))
    dirs = [d for d in base.iterdir() if (d / SCENARIO_FILE).is_file()]
    dirs.sort(key=lambda d: (d / SCENARIO_FILE).stat().st_mtime, reverse=True)
    for run_dir in (d for d in dirs if _same_scenario(d, identity)):
        lock = RunLock.acquire(run_dir)
        if lock is None:
            continue  # another process is running it right now
        try:
            if _unfinished(run_dir):
                return run_dir, lock
        except BaseException:
            lock.release()
            raise
        lock.release()
    return None


def claim_run_dir(scenario: Scenario, base: Path, *, resume: bool) -> tuple[Path, RunLock, bool]:
    """(run dir, its lock, whether it is resumed): an unfinished run of the scenario, or new."""
    found = find_resumable(scenario, base) if resume else None
    if found is not None:
        write_scenario(found[0], scenario)  # its settings now: budget, prices, executor
        return found[0], found[1], True
    run_dir = new_run_dir(scenario, base)
    lock = RunLock.acquire(run_dir)
    assert lock is not None  # a directory made just now is nobody else's
    return run_dir, lock, False
