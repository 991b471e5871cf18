"""A run loaded for its report: the validity counts ride along the load's one pass over the
store, so a report reads each dialogue once, not twice."""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from macrs_sim.analysis.metrics.validity import ValidityCounter
from macrs_sim.analysis.runs.domain import run_domain
from macrs_sim.analysis.runs.load import RunData, SampleReader, load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import MacrsSimError
from macrs_sim.protocol import DialogueResult
from macrs_sim.store import RunStore


def load_for_report(path: Path, catalog: Catalog | None) -> RunData:
    """`load_run(path)`, with `validity` (and the warnings' `behaviour` counts) filled in
    when the run's catalog is at hand; a dialogue the validity counts cannot place (its
    target or sample missing) leaves the error there, as validity_section reports it."""
    store_path = path if path.name == "store.sqlite" else path / "store.sqlite"
    if catalog is None or not store_path.is_file():
        return load_run(path)  # (its own one line for a missing or foreign directory)
    failed: list[MacrsSimError] = []
    counters: list[ValidityCounter] = []
    with ExitStack() as opened:

        def count(result: DialogueResult) -> None:
            if failed:
                return
            if not counters:  # opened once load_run has checked the store's pages
                samples = opened.enter_context(RunStore.open(store_path, check=False))
                domain = run_domain(samples.all_meta())
                counters.append(ValidityCounter(SampleReader(samples), catalog, domain))
            try:
                counters[0].add(result)
            except MacrsSimError as err:
                failed.append(err)

        run = load_run(path, also=count)
    if failed:
        run.validity = failed[0]
        return run
    if not counters:  # no dialogue: the counts of nothing
        counters.append(ValidityCounter({}, catalog, run.domain))
    stats = counters[0].stats()
    *systems, overall = stats
    run.validity = stats
    run.behaviour = ({s.system: s.behaviour for s in systems}, overall.behaviour)
    return run
