"""Run directories: created only once the scenario, data and models have been checked.

An unfinished run directory of the same scenario is found again, so running the
same command resumes it. "Same scenario" ignores the settings that only say how
or how far to run (concurrency, executor, budget, prices, cache, output folder):
raising a budget or switching to Ray continues the run instead of starting over.
"""

from __future__ import annotations

import fcntl
import itertools
import os
import shutil
import time
import tomllib
from pathlib import Path
from typing import Any

from macrs_sim.config import Scenario, scenario_to_toml
from macrs_sim.errors import DataError
from macrs_sim.llm.backends.registry import backend_spec, known_backends
from macrs_sim.store import STORE_FILE as STORE_FILE  # re-exported: a run directory's layout
from macrs_sim.store import RunStore
from macrs_sim.textfile import loads_toml

SCENARIO_FILE = "scenario.resolved.toml"
SAMPLES_FILE = "samples.jsonl"
LOCK_FILE = ".lock"
CLAIM_LOCK_FILE = ".claim.lock"  # in the output folder: one starter at a time chooses a run
# campaign.* settings that say how or how far to run, never what a dialogue does.
_OPERATIONAL = {"concurrency", "output_dir", "executor", "ray_actors", "ray_address"}
_OPERATIONAL |= {"prices", "budget_tokens", "budget_usd"}


class RunLock:
    """Held while a process runs a directory; the OS drops it when the process dies (SIGKILL
    too), so a second command resumes only runs nobody is running."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    @classmethod
    def acquire(cls, run_dir: Path, *, wait: bool = False, name: str = LOCK_FILE) -> RunLock | None:
        fd = os.open(run_dir / name, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return None
        return cls(fd)

    def release(self) -> None:
        os.close(self._fd)  # closing the descriptor drops the lock


def run_identity(resolved_toml: str) -> dict[str, Any]:
    """A resolved scenario without the settings that cannot change a dialogue's outcome."""
    data = loads_toml(resolved_toml)
    data.pop("cache", None)
    campaign = data.get("campaign", {})
    for key in _OPERATIONAL:
        campaign.pop(key, None)
    _drop_connection_fields(data, known_backends())
    return data


def _drop_connection_fields(node: Any, known: list[str]) -> None:
    """A model table's `connection_fields` (its backend spec's) say how to talk to a server,
    not what a dialogue does: a run started while the probe could not decide how to ask for
    JSON ("auto") is the same run once it has."""
    if isinstance(node, dict):
        backend = node.get("backend")
        if backend in known:
            for name in backend_spec(backend).connection_fields:
                node.pop(name, None)
        for value in node.values():
            _drop_connection_fields(value, known)
    elif isinstance(node, list):
        for value in node:
            _drop_connection_fields(value, known)


def write_scenario(run_dir: Path, scenario: Scenario) -> None:
    # Written whole or not at all: a run killed mid-write must not look like another scenario.
    tmp = run_dir / (SCENARIO_FILE + ".tmp")
    tmp.write_text(scenario_to_toml(scenario), encoding="utf-8")
    os.replace(tmp, run_dir / SCENARIO_FILE)


def new_run_dir(scenario: Scenario, base: Path) -> tuple[Path, RunLock]:
    """A new run directory, locked before its scenario file makes it findable."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base.mkdir(parents=True, exist_ok=True)
    for n in itertools.count(1):
        path = base / (f"{scenario.name}-{stamp}" + (f"-{n}" if n > 1 else ""))
        try:
            path.mkdir()  # atomic: of two starters choosing the same name, one gets it
        except FileExistsError:
            continue
        lock = RunLock.acquire(path)
        assert lock is not None  # a directory made just now is nobody else's
        write_scenario(path, scenario)
        return path, lock
    raise AssertionError("unreachable")


def mark_reported(run_dir: Path) -> None:
    """The last step of a run: its report is written (or deliberately skipped)."""
    with RunStore.open(run_dir / STORE_FILE) as store:
        store.set_meta("reported", "1")


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


def _unfinished(run_dir: Path, retry_errors: bool) -> bool:
    """Whether the run still has work (dialogues, its report, errors to retry when asked);
    a store that cannot be trusted is an error."""
    path = run_dir / STORE_FILE
    if not path.exists() or RunStore.is_blank(path):
        return True  # killed before its store was made
    try:
        with RunStore.open(path) as store:
            problem = store.integrity_problem()
            status = store.get_meta("status")
            reported = store.get_meta("reported") == "1"
            errors = store.count_errors() if retry_errors else 0
    except (DataError, OSError) as exc:
        problem = str(exc)
    if problem is not None:
        raise DataError(
            f"{run_dir}: an unfinished run of this scenario has an unreadable store ({problem});"
            " move that directory away (or use --no-resume) to start a new run"
        )
    return status != "finished" or not reported or errors > 0


def find_resumable(
    scenario: Scenario, base: Path, *, retry_errors: bool = False
) -> tuple[Path, RunLock] | None:
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
            if _unfinished(run_dir, retry_errors):
                return run_dir, lock
        except BaseException:
            lock.release()
            raise
        lock.release()
    return None


def claim_run_dir(
    scenario: Scenario, base: Path, *, resume: bool, retry_errors: bool = False
) -> tuple[Path, RunLock, bool]:
    """(run dir, its lock, whether it is resumed): an unfinished run of the scenario, or new.

    Starters in the same output folder choose one at a time (a lock on the folder), so
    two simultaneous starts never pick the same new directory or resume each other's."""
    base.mkdir(parents=True, exist_ok=True)
    choosing = RunLock.acquire(base, wait=True, name=CLAIM_LOCK_FILE)
    assert choosing is not None  # a blocking acquire returns only when it holds the lock
    try:
        found = find_resumable(scenario, base, retry_errors=retry_errors) if resume else None
        if found is not None:
            write_scenario(found[0], scenario)  # its settings now: budget, prices, executor
            return found[0], found[1], True
        run_dir, lock = new_run_dir(scenario, base)
        return run_dir, lock, False
    finally:
        choosing.release()
