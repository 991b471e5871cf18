"""Load a run directory into typed records and pandas DataFrames (for reports and notebooks).

    >>> run = load_run("runs/paper_table1-20261123-101500")
    >>> run.dialogues.groupby("system").success.mean()   # also run.turns, run.calls, run.samples
    >>> run.tool_calls.groupby(["system", "tool"]).size()  # tool calls of toolkit systems

Everything comes from the run store alone: nothing is re-run. A run that is still
going or was interrupted loads with what finished (`run.complete` is False and
`run.missing` says how many dialogues are not there); a store of another format
version is refused with a clear message.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from macrs_sim.agents.registry import variant_label
from macrs_sim.analysis.runs.access import run_access
from macrs_sim.analysis.runs.dialogue_pass import HIT_KS, LoadPass, hit_rank
from macrs_sim.analysis.runs.domain import run_domain
from macrs_sim.analysis.runs.frames import act_turns_frame, calls_frame, samples_frame
from macrs_sim.data.domain import Domain
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample, ToolCallRecord
from macrs_sim.store import RunStore
from macrs_sim.textfile import loads_toml

# 'user_echo' -> (turns failing, turns checked), per system and then overall (metrics.behaviour)
Counts = dict[str, tuple[int, int]]
BehaviourCounts = tuple[dict[str, Counts], Counts]

__all__ = ["HIT_KS", "RunData", "SystemInfo", "hit_rank", "load_run"]


@dataclass(frozen=True)
class SystemInfo:
    """A system of the run as the scenario configured it; `variant` names an ablation."""

    name: str
    kind: str
    variant: str
    # What it was given of the user's past ("none" | "pre-target"); "?" for older runs.
    history: str = "?"


class SampleReader:
    def __init__(self, store: RunStore) -> None:
        self._store = store

    def get(self, sample_id: str, /) -> Sample | None:
        return self._store.read_sample(sample_id)


class RunData:
    """A stored run. `dialogues` (one row each) and `act_turns` (a turn's act, no text) are
    read when the run is loaded, and every sample is checked then; the rest is read from the
    store on first use (`samples`, `results`, `turns`, `calls`, `call_records`,
    `sample_records`, `tool_calls`), so a report on a million dialogues never holds them
    all: it streams `iter_results()`."""

    def __init__(
        self,
        path: Path,
        meta: dict[str, str],
        scenario: dict[str, Any],
        systems: list[SystemInfo],
        pass_: LoadPass,
        n_samples: int,
    ) -> None:
        self.path = path
        self.name = meta.get("scenario_name", path.name)
        self.meta = meta
        self.scenario = scenario
        self.systems = systems
        self.expected = int(meta.get("expected_dialogues", len(systems) * n_samples))
        self.dialogues = pass_.dialogues()
        self.max_turns = pass_.max_turns
        # The last dialogue rowid and LLM call id stored when the run was loaded.
        self.last_dialogue, self.last_call = pass_.upto
        self._finished = len(self.dialogues)
        # The behaviour checks' counts (per system, overall), kept by the report that worked
        # them out, so the terminal's warnings need no second pass over the store.
        self.behaviour: BehaviourCounts | None = None
        # The validity rows (or why they could not be worked out), when the load worked
        # them out in its own pass (report/for_report.py).
        self.validity: list[Any] | Exception | None = None

    def __repr__(self) -> str:
        return f"RunData(path={str(self.path)!r}, name={self.name!r}, finished={self.finished})"

    @property
    def domain(self) -> Domain:
        """What the run's items are (films for a run that never said)."""
        return run_domain(self.meta)

    @cached_property
    def act_turns(self) -> pd.DataFrame:
        """One row a turn: dialogue, system, sample, turn, act, accepted (no text); read on
        first use, so a report's first and biggest step (Table 1) runs without it."""
        with self.store() as store:
            return act_turns_frame(store, self.last_dialogue, self.dialogues)

    @cached_property
    def samples(self) -> pd.DataFrame:
        """One row a sample (SAMPLE_COLUMNS), in the order stored."""
        with self.store() as store:
            return samples_frame(store.iter_samples())

    def store(self) -> RunStore:
        # Checked page by page when the run was loaded; a report opens it a dozen times.
        return RunStore.open(self.path / "store.sqlite", check=False)

    def iter_results(self, ids: Sequence[str] | None = None) -> Iterator[DialogueResult]:
        """The run's dialogues (or those of `ids`) one at a time, in the order written;
        only those stored when the run was loaded (its frames count no others)."""
        with self.store() as store:
            yield from store.iter_results(ids=ids, upto=self.last_dialogue)

    @cached_property
    def results(self) -> list[DialogueResult]:
        with self.store() as store:
            return store.read_results()

    @cached_property
    def sample_records(self) -> list[Sample]:
        with self.store() as store:
            return store.read_samples()

    @cached_property
    def call_records(self) -> list[LLMCallRecord]:
        with self.store() as store:
            return store.read_calls()

    @cached_property
    def calls(self) -> pd.DataFrame:
        """Every LLM call as a row (LLMCallRecord's fields); read on first use."""
        return self.read_calls()

    def read_calls(self) -> pd.DataFrame:
        """`calls`, read from the store again and not kept."""
        with self.store() as store:
            return calls_frame(store, self.last_call)

    @cached_property
    def tool_call_records(self) -> list[ToolCallRecord]:
        with self.store() as store:
            return store.read_tool_calls()

    @cached_property
    def tool_calls(self) -> pd.DataFrame:
        """One row a tool call (TOOL_CALL_COLUMNS); empty for systems without tools."""
        return tool_calls_frame(self.tool_call_records)

    @cached_property
    def turns(self) -> pd.DataFrame:
        """Every stored turn with its text (for notebooks; reports use `act_turns`)."""
        rows = [t for r in self.results for t in turn_rows(r)]
        return pd.DataFrame(rows, columns=_TURN_COLUMNS)

    def sample(self, sample_id: str) -> Sample | None:
        with self.store() as store:
            return store.read_sample(sample_id)

    @contextmanager
    def sample_reader(self) -> Iterator[SampleReader]:
        """Samples by id over one open store (a pass over the dialogues looks up each one)."""
        with self.store() as store:
            yield SampleReader(store)

    @property
    def finished(self) -> int:
        return self._finished

    @property
    def missing(self) -> int:
        return max(self.expected - self.finished, 0)

    @property
    def complete(self) -> bool:
        # Runs made before the status marker existed were only stored once finished.
        return self.meta.get("status", "finished") == "finished" and self.missing == 0

    @property
    def system_names(self) -> list[str]:
        return [s.name for s in self.systems]


def turn_rows(r: DialogueResult) -> list[dict[str, Any]]:
    return [
        {
            "dialogue_id": r.dialogue_id,
            "system": r.system,
            "sample_id": r.sample_id,
            "turn": ex.turn,
            "act": ex.system.act,
            "system_text": ex.system.text,
            "items": [i.title for i in ex.system.items],
            "item_ids": [i.item_id for i in ex.system.items],
            "user_text": ex.user.text,
            "accepted": ex.user.accepted,
            "leak_retries": ex.user.leak_retries,
            "redacted": ex.user.redacted,
            "explain": ex.system.explain,
        }
        for ex in r.exchanges
    ]


def tool_calls_frame(records: list[ToolCallRecord]) -> pd.DataFrame:
    """Tool calls as rows; `input` stays the argument dict the tool was given."""
    return pd.DataFrame([r.model_dump() for r in records], columns=TOOL_CALL_COLUMNS).astype(
        {"output_chars": int, "latency_s": float, "ok": bool}
    )


def _scenario(path: Path) -> dict[str, Any]:
    file = path / "scenario.resolved.toml"
    if not file.is_file():
        return {}
    try:
        return loads_toml(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _systems(meta: dict[str, str], scenario: dict[str, Any], stored: list[str]) -> list[SystemInfo]:
    configured = {s["name"]: s for s in scenario.get("systems", [])}
    order: list[str] = json.loads(meta.get("systems", "[]"))
    order += [name for name in stored if name not in order]
    names = list(dict.fromkeys(order))
    access = run_access(meta)
    return [
        SystemInfo(
            n,
            configured.get(n, {}).get("kind", "?"),
            variant_label(configured.get(n, {})),
            access.history_of(n) if access else "?",
        )
        for n in names
    ]


def load_run(
    path: str | Path,
    *,
    also: Callable[[DialogueResult], None] | None = None,
) -> RunData:
    """A run directory (or its store.sqlite): one streaming pass over the store checks every
    row and keeps one row a dialogue. `also` is handed each dialogue of the pass too."""
    path = Path(path)
    if path.name == "store.sqlite":
        path = path.parent
    if not path.is_dir():
        raise DataError(f"{path}: run directory not found")
    if not (path / "store.sqlite").is_file():
        raise DataError(f"{path}: not a run directory (no store.sqlite)")
    with RunStore.open(path / "store.sqlite") as opened, opened.snapshot() as store:
        meta = store.all_meta()
        # Every sample is checked now (a damaged one fails the load); its bucket is kept.
        buckets = {s.sample_id: s.bucket for s in store.iter_samples()}
        pass_ = LoadPass(buckets)
        pass_.upto = store.last_rowids()  # what later reads stop at: a run may go on
        for result in store.iter_results(upto=pass_.upto[0]):
            pass_.add(result)
            if also is not None:
                also(result)
    scenario = _scenario(path)
    systems = _systems(meta, scenario, list(pass_.systems))
    return RunData(path, meta, scenario, systems, pass_, len(buckets))


TOOL_CALL_COLUMNS = list(ToolCallRecord.model_fields)
_TURN_COLUMNS = [
    "dialogue_id",
    "system",
    "sample_id",
    "turn",
    "act",
    "system_text",
    "items",
    "item_ids",
    "user_text",
    "accepted",
    "leak_retries",
    "redacted",
    "explain",
]
