"""Several runs as one comparison (`macrs-sim compare`): labelled systems, pairing decided.

A system name used by more than one run is labelled with its run ("MACRS (paper_table1)").
Statistics are paired only when every run talked to the same users (same sample ids and
targets); otherwise the comparison says so and falls back to unpaired tests.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import pandas as pd

from macrs_sim.analysis.runs.load import RunData, SystemInfo
from macrs_sim.protocol import DialogueResult, Sample


class ComparisonResults:
    """The runs' dialogues, relabelled, streamed from their stores on each iteration."""

    def __init__(self, runs: Sequence[RunData], labels: Sequence[dict[str, str]]) -> None:
        self.runs, self.labels = list(runs), list(labels)

    def __len__(self) -> int:
        return sum(run.finished for run in self.runs)

    def __iter__(self) -> Iterator[DialogueResult]:
        for run, names in zip(self.runs, self.labels, strict=True):
            yield from self.of_run(run, names)

    def of_run(
        self, run: RunData, names: dict[str, str], ids: Sequence[str] | None = None
    ) -> Iterator[DialogueResult]:
        for result in run.iter_results(ids):
            yield _relabel(result, names)

    def by_ids(
        self, ids: Sequence[str], origin: dict[str, RunData], stored_ids: dict[str, str]
    ) -> list[DialogueResult]:
        """The dialogues of `ids` (as relabelled), in that order; unknown ids are left out."""
        found: dict[str, DialogueResult] = {}
        for run, names in zip(self.runs, self.labels, strict=True):
            # One run: its store leaves out the ids it does not hold.
            own = list(ids) if len(self.runs) == 1 else [d for d in ids if origin.get(d) is run]
            stored = [stored_ids.get(d, d) for d in own]
            if stored:
                found |= {r.dialogue_id: r for r in self.of_run(run, names, stored)}
        return [found[d] for d in ids if d in found]


@dataclass
class Comparison:
    runs: list[RunData]
    systems: list[SystemInfo]
    results: ComparisonResults
    dialogues: pd.DataFrame
    paired: bool
    notes: list[str] = field(default_factory=list)
    # Shown (relabelled) id -> the id in its run's store, where the two differ.
    stored_ids: dict[str, str] = field(default_factory=dict)

    @property
    def system_names(self) -> list[str]:
        return [s.name for s in self.systems]

    @cached_property
    def origin(self) -> dict[str, RunData]:
        """Dialogue id (as relabelled) -> the run it came from (a later run's id wins); built
        on first use, as a report of one run never needs a dict of a million ids."""
        ids = self.dialogues["dialogue_id"]
        out: dict[str, RunData] = {}
        start = 0
        for run in self.runs:
            end = start + len(run.dialogues)
            out |= dict.fromkeys(ids.iloc[start:end], run)
            start = end
        return out

    def run_of(self, result: DialogueResult) -> RunData:
        return self.runs[0] if len(self.runs) == 1 else self.origin[result.dialogue_id]

    @cached_property
    def turns(self) -> pd.DataFrame:
        """Every run's turns (acts, no text), relabelled; read on first use."""
        return self._merged("turns")

    @cached_property
    def calls(self) -> pd.DataFrame:
        """Every run's LLM calls, relabelled; built on first use (`view` never needs them)."""
        return self._merged("calls")

    @cached_property
    def tool_calls(self) -> pd.DataFrame:
        return self._merged("tool_calls")

    def _merged(self, key: str) -> pd.DataFrame:
        frames = [
            _frame(run, key, names)
            for run, names in zip(self.runs, self.results.labels, strict=True)
        ]
        # One run's frame as it is: concat would copy a million rows to join nothing.
        return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)

    def samples_of(self, result: DialogueResult) -> Sample | None:
        """The sample a (relabelled) result talked to, from its own run."""
        return self.run_of(result).sample(result.sample_id)

    def results_by_ids(self, ids: Sequence[str]) -> list[DialogueResult]:
        origin = {} if len(self.runs) == 1 else self.origin  # one run: not needed
        return self.results.by_ids(ids, origin, self.stored_ids)


def _labels(runs: Sequence[RunData]) -> list[dict[str, str]]:
    counts: dict[str, int] = {}
    for run in runs:
        for name in run.system_names:
            counts[name] = counts.get(name, 0) + 1
    run_names = [r.name for r in runs]
    out = []
    for run in runs:
        # Two runs of the same scenario are told apart by their directory names.
        tag = run.path.name if run_names.count(run.name) > 1 else run.name
        out.append({n: (f"{n} ({tag})" if counts[n] > 1 else n) for n in run.system_names})
    return out


def _sample_key(run: RunData) -> frozenset[tuple[str, str]]:
    return frozenset(zip(run.samples["sample_id"], run.samples["target_id"], strict=True))


def _progress_note(run: RunData) -> str | None:
    if run.complete:
        return None
    return (
        f"Run {run.name} ({run.path.name}) is partial: {run.finished} of {run.expected} "
        f"dialogues finished, {run.missing} missing (still running or interrupted); "
        "its numbers cover what finished."
    )


def _pairing(runs: Sequence[RunData]) -> tuple[bool, list[str]]:
    if len(runs) == 1:
        return True, []  # one run pairs with itself: its samples need not be read
    keys = [_sample_key(r) for r in runs]
    if len(set(keys)) <= 1:
        return True, []
    shared = len(frozenset.intersection(*keys))
    sizes = ", ".join(f"{r.name}: {len(k)}" for r, k in zip(runs, keys, strict=True))
    return False, [
        f"The runs used different sample sets ({sizes}; {shared} shared): "
        "the significance tests are unpaired (Student's two-sample t-test)."
    ]


def relabelled_id(dialogue_id: str, label: str) -> str:
    """A dialogue's id under its system's label: "MACRS:s-1" -> "MACRS (a):s-1", so ids
    stay unique across runs; one rule for results, frames and calls."""
    return f"{label}:{dialogue_id.split(':', 1)[-1]}"


def _relabel(result: DialogueResult, names: dict[str, str]) -> DialogueResult:
    label = names[result.system]
    if label == result.system:
        return result
    new_id = relabelled_id(result.dialogue_id, label)
    return result.model_copy(update={"system": label, "dialogue_id": new_id})


def _frame(run: RunData, key: str, names: dict[str, str]) -> pd.DataFrame:
    if key == "calls" and "calls" not in vars(run):
        frame = run.read_calls()  # a fresh frame, not kept on the run: no second copy
    else:
        # A shallow copy: pandas copies on write, so the run's own frame is never changed.
        frame = getattr(run, "act_turns" if key == "turns" else key).copy(deep=False)
    renamed = {s: n for s, n in names.items() if s != n}
    if renamed and "dialogue_id" in frame:
        mask = frame["system"].isin(renamed)
        pairs = zip(frame.loc[mask, "dialogue_id"], frame.loc[mask, "system"], strict=True)
        frame.loc[mask, "dialogue_id"] = [
            d if pd.isna(d) else relabelled_id(d, renamed[s]) for d, s in pairs
        ]
    if renamed:
        frame["system"] = frame["system"].map(lambda s: names.get(s, s))
    frame.insert(0, "run", run.name)
    return frame


def combine_runs(runs: Sequence[RunData]) -> Comparison:
    labels = _labels(runs)
    systems: list[SystemInfo] = []
    stored_ids: dict[str, str] = {}
    frames: list[pd.DataFrame] = []
    for run, names in zip(runs, labels, strict=True):
        systems += [replace(s, name=names[s.name]) for s in run.systems]
        frames.append(_frame(run, "dialogues", names))
        shown = frames[-1]["dialogue_id"]
        stored_ids |= {
            new: old
            for new, old in zip(shown, run.dialogues["dialogue_id"], strict=True)
            if new != old
        }
    paired, notes = _pairing(runs)
    notes = [n for n in (_progress_note(r) for r in runs) if n] + notes
    return Comparison(
        list(runs),
        systems,
        ComparisonResults(runs, labels),
        frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True),
        paired,
        notes,
        stored_ids,
    )
