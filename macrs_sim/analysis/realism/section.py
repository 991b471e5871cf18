"""The report's realism section, when the run's scenario names a reference corpus
(`[simulator] reference_corpus = "path/to/train_data.jsonl"`; nothing ships)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from macrs_sim.analysis.atomic import save_png_atomic
from macrs_sim.analysis.realism.figure import realism_figure
from macrs_sim.analysis.realism.report import measure_realism, realism_markdown
from macrs_sim.analysis.runs.load import RunData
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.textsafe import markdown_paragraph

HEADING = "## Simulated users beside people"


def reference_corpus(run: RunData) -> str | None:
    simulator = run.scenario.get("simulator")
    named = simulator.get("reference_corpus") if isinstance(simulator, dict) else None
    return named if isinstance(named, str) and named else None


def realism_section(
    runs: Sequence[RunData], out: Path, catalog_for: Callable[[RunData], Catalog | None] | None
) -> list[str]:
    """The section's lines (none when no scenario names a corpus); a corpus that is not at
    hand or cannot be read is one line in the report, not a failed report."""
    named = [(run, corpus) for run in runs if (corpus := reference_corpus(run))]
    if not named:
        return []
    path = Path(named[0][1])
    if not path.is_file():
        missing = f"The reference corpus {path.name} is not at hand: no table."
        return ["", HEADING, "", markdown_paragraph(missing)]  # a file's name is data
    catalog = catalog_for(named[0][0]) if catalog_for else None
    try:
        r = measure_realism([run for run, _ in named], path, catalog)
    except DataError as err:
        return ["", HEADING, "", markdown_paragraph(str(err))]
    save_png_atomic(realism_figure(r.results, [r.people, *r.runs]), out / "figures" / "realism.png")
    return ["", *realism_markdown(r, "figures/realism.png", level=2)]
