"""Runs as JSON-able documents: what the viewer shows, in the schema of docs/viewer.md.

    doc = export_run(load_run("runs/example-..."), catalog, run_index=0)

Records are dumped whole (`model_dump(mode="json")`), so a field a newer macrs-sim adds to
a dialogue, turn or sample reaches the viewer without a change here; the viewer reads every
field defensively. What a store does not hold (catalog titles) is added beside the dump.
A site streams a run through `export_dialogues` (one dialogue at a time, its model and
tool calls read by a second cursor in the same order); `export_run` holds a whole run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from macrs_sim.analysis.metrics.behaviour import dialogue_flags
from macrs_sim.analysis.metrics.slots import DomainSlots
from macrs_sim.analysis.report.behaviour import off_profile_title
from macrs_sim.analysis.runs.load import RunData, hit_rank
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.protocol import DialogueResult, Sample
from macrs_sim.store import RunStore
from macrs_sim.viewer.calls import DialogueCalls

EXPORT_FORMAT = "macrs-sim/view-export"
EXPORT_VERSION = 1
# A sample's bucket and target profile (what a dialogue's export needs of it), by the
# dialogue's position in the results exported and its sample id.
SampleOf = Callable[[int, str], "tuple[str | None, tuple[str, ...]]"]


def title_of(catalog: Catalog | None, item_id: str | None) -> str | None:
    """The catalog's display title of an item, or None (no catalog, no id, an unknown id)."""
    if catalog is None or item_id is None or item_id not in catalog:
        return None
    return catalog[item_id].display_title


def _grounded_ids(result: DialogueResult) -> set[str]:
    refs = [*result.final_list, *(i for ex in result.exchanges for i in ex.system.items)]
    return {r.item_id for r in refs if r.item_id is not None} | {result.target_id}


_FILM_SLOTS = DomainSlots(MOVIES)


def turn_checks(
    result: DialogueResult,
    profile: tuple[str, ...],
    catalog: Catalog | None,
    slots: DomainSlots = _FILM_SLOTS,
) -> list[dict[str, Any]]:
    """The turns that failed a behaviour check: {"turn", "side", "checks"} (turn 0: opening);
    off-profile in the terms of `slots` (the run's domain's, over `catalog`)."""
    target = result.target_id
    known = catalog is not None and target in catalog
    checks = slots.target(catalog[target], profile) if catalog is not None and known else None
    flags = dialogue_flags(result, profile, checks)
    return [{"turn": f.turn, "side": f.side, "checks": list(f.checks)} for f in flags if f.checks]


def export_dialogue(
    result: DialogueResult,
    *,
    run_index: int,
    label: str,
    bucket: str | None,
    calls: list[dict[str, Any]],
    catalog: Catalog | None,
    tool_calls: list[dict[str, Any]] | None = None,
    profile: tuple[str, ...] = (),
    slots: DomainSlots = _FILM_SLOTS,
) -> dict[str, Any]:
    """A dialogue's full record plus what the viewer needs beside it (see docs/viewer.md)."""
    doc = result.model_dump(mode="json")
    titles = {i: title_of(catalog, i) for i in sorted(_grounded_ids(result))}
    doc |= {
        "run": run_index,
        "system": label,
        "system_name": result.system,
        "bucket": bucket,
        "turns_taken": result.turns_taken,
        "final_rank": hit_rank(result),
        "target_title": titles[result.target_id],
        "catalog_titles": {i: t for i, t in titles.items() if t is not None},
        "calls": calls,
        "tool_calls": tool_calls or [],
        "checks": turn_checks(result, profile, catalog, slots),
    }
    return doc


def export_sample(sample: Sample, run_index: int, catalog: Catalog | None) -> dict[str, Any]:
    doc = sample.model_dump(mode="json")
    doc |= {
        "run": run_index,
        "target_title": title_of(catalog, sample.target_id),
        "history_titles": [title_of(catalog, i) for i in sample.history],
    }
    return doc


def run_summary(run: RunData, run_index: int, labels: Mapping[str, str]) -> dict[str, Any]:
    """The run's header: where it is, how far it got, its systems as configured."""
    summary = {
        "index": run_index,
        "name": run.name,
        "path": str(run.path),
        "status": run.meta.get("status", "finished"),
        "complete": run.complete,
        "finished": run.finished,
        "expected": run.expected,
        "meta": dict(run.meta),
        "systems": [
            {
                "name": s.name,
                "label": labels.get(s.name, s.name),
                "kind": s.kind,
                "variant": s.variant,
            }
            for s in run.systems
        ],
    }
    domain = run.domain
    if domain.layout != "films":  # (a film run's header stays as it was)
        summary["check_titles"] = {"off_profile": off_profile_title(domain)}
    return summary


def export_dialogues(
    store: RunStore,
    results: Iterable[DialogueResult],
    *,
    run_index: int,
    labels: Mapping[str, str],
    catalog: Catalog | None,
    sample_of: SampleOf,
    domain: Domain = MOVIES,
) -> Iterator[dict[str, Any]]:
    """`results` (read from `store`, in its order) exported one at a time with their calls;
    their checks in the terms of `domain` (the run's)."""
    calls, tool_calls = DialogueCalls.of(store)
    slots = _FILM_SLOTS if domain.layout == "films" else DomainSlots(domain, catalog)
    for at, r in enumerate(results):
        bucket, profile = sample_of(at, r.sample_id)
        yield export_dialogue(
            r,
            run_index=run_index,
            label=labels.get(r.system, r.system),
            bucket=bucket,
            calls=calls.take(r.dialogue_id),
            catalog=catalog,
            tool_calls=tool_calls.take(r.dialogue_id),
            profile=profile,
            slots=slots,
        )


def export_run(
    run: RunData,
    catalog: Catalog | None = None,
    *,
    run_index: int = 0,
    labels: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The whole run as one document; `labels` renames systems (several runs, one viewer)."""
    labels = labels or {}
    with run.store() as store:
        samples = list(store.iter_samples())
        known = {s.sample_id: (s.bucket, s.target_profile) for s in samples}
        dialogues = export_dialogues(
            store,
            store.iter_results(),
            run_index=run_index,
            labels=labels,
            catalog=catalog,
            sample_of=lambda _, sid: known.get(sid, (None, ())),
            domain=run.domain,
        )
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "run": run_summary(run, run_index, labels),
            "samples": [export_sample(s, run_index, catalog) for s in samples],
            "dialogues": list(dialogues),
        }
