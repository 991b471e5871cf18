"""A chat session saved as a run: the same directory and store a campaign writes.

One run directory per session (scenario.resolved.toml + store.sqlite with one sample and
one dialogue), so `macrs-sim report`, `compare` and `view` read it like any run. The meta
key `user` = "person" marks the user as a person; `chat` says how the session went.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from pathlib import Path

from macrs_sim.analysis.runs.domain import DOMAIN_META
from macrs_sim.campaign.rundir import STORE_FILE, discard_run_dir, new_run_dir
from macrs_sim.config import Scenario
from macrs_sim.data.domain import MOVIES
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample, ToolCallRecord
from macrs_sim.store import RunStore

PERSON_USER_ID = "person"


def person_sample(session_id: str, opening: str = "", target_id: str | None = None) -> Sample:
    """The 'sample' a person is: no history, their target (or none: an empty id)."""
    return Sample(
        sample_id=session_id,
        user_id=PERSON_USER_ID,
        history=(),
        target_id=target_id or "",
        opening=opening,
    )


def save_session(
    base: Path,
    scenario: Scenario,
    sample: Sample,
    result: DialogueResult,
    calls: Sequence[LLMCallRecord],
    *,
    chat: dict[str, object],
    dataset: tuple[str, str] | None = None,
    tool_calls: Sequence[ToolCallRecord] = (),
    domain: str | None = None,
) -> Path:
    """Write the run directory under `base` whole, or leave nothing; returns its path.

    `dataset` is (name, fingerprint), `domain` its domain's name (what reports call its
    items); `chat` is kept as JSON (scored, ended_by, ...).
    """
    run_dir, lock = new_run_dir(scenario, base)
    try:
        with RunStore.create(run_dir / STORE_FILE) as store:
            store.set_meta("scenario_name", scenario.name)
            store.set_meta("systems", json.dumps([result.system]))
            store.set_meta("user", PERSON_USER_ID)
            store.set_meta("chat", json.dumps(chat))
            store.set_meta("expected_dialogues", "1")
            if dataset is not None:
                store.set_meta("dataset", dataset[0])
                store.set_meta("dataset_fingerprint", dataset[1])
            if domain is not None and domain != MOVIES.name:  # none: films, as before
                store.set_meta(DOMAIN_META, domain)
            store.write_samples([sample])
            store.write_dialogue(result, calls, tool_calls=tool_calls)
            store.set_meta("status", "finished")
    except BaseException:
        discard_run_dir(run_dir)
        raise
    finally:
        lock.release()
    return run_dir


def absent_cache_paths(cache: Path) -> list[Path]:
    """The response cache and its SQLite side files not there yet, then every folder
    above it not there yet, deepest first, up to the first one that exists (runs/, say,
    and its parents when output_dir is new too)."""
    side = [cache.with_name(cache.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
    absent = [p for p in (cache, *side) if not p.exists()]
    folder = cache.parent
    while not folder.exists() and folder != folder.parent:
        absent.append(folder)
        folder = folder.parent
    return absent


def remove_created(paths: Sequence[Path]) -> None:
    """Remove what a session that saved nothing created: the files, then the folders
    deepest first, each only if nothing else is in it."""
    for path in paths:
        if path.is_file():
            path.unlink(missing_ok=True)
    for path in sorted(paths, key=lambda p: len(p.absolute().parts), reverse=True):
        if path.is_dir():
            with contextlib.suppress(OSError):
                path.rmdir()
