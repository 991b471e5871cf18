"""`macrs-sim view`: a static HTML site of one run or several, opened straight from disk.

    build_site([load_run("runs/example-...")], Path("runs/example-.../view"))

Layout of a site (docs/viewer.md): index.html; static/ (script and style); data/index.js
(the dialogue list); data/chunks/c00000.js ... (dialogues, loaded on demand);
data/export/run-0.json ... (each run's export document); figures/run0/ ... (report figures).
The site is built in a temporary folder beside `out` and renamed over it when whole, so a
failed build leaves the previous site (or nothing) and no half-written one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from macrs_sim.analysis.runs.combine import Comparison, combine_runs
from macrs_sim.analysis.runs.load import RunData
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.popularity import bucket_labels
from macrs_sim.errors import DataError
from macrs_sim.viewer import files, results
from macrs_sim.viewer.build import IndexFile, write_runs
from macrs_sim.viewer.export import run_summary
from macrs_sim.viewer.split import DEFAULT_CHUNK_DIALOGUES, INDEX_COLUMNS

INDEX_FORMAT = "macrs-sim/view-index"
INDEX_VERSION = 1
# A file only the viewer writes: a folder holding it may be replaced by a new build.
MARKER = ".macrs-sim-view"
CatalogFor = Callable[[RunData], Catalog | None]


@dataclass(frozen=True)
class SiteInfo:
    path: Path
    dialogues: int
    chunks: int
    build_s: float

    @property
    def index_html(self) -> Path:
        return self.path / "index.html"


def system_labels(runs: Sequence[RunData], cmp: Comparison) -> list[dict[str, str]]:
    """Per run: its system names -> the labels the comparison gives them (unique overall)."""
    pairs = iter(cmp.systems)
    return [{s.name: next(pairs).name for s in run.systems} for run in runs]


def bucket_order(runs: Sequence[RunData], seen: set[str]) -> list[str]:
    for run in runs:
        edges = run.scenario.get("data", {}).get("popularity_buckets")
        if edges:
            try:
                labels = bucket_labels(edges)
            except (TypeError, ValueError):
                continue
            return labels + sorted(seen - set(labels))
    return sorted(seen)


def _check_out(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise DataError(f"{out}: exists and is not a folder; give --out a folder for the site")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise DataError(
            f"{out}: folder exists and is not a macrs-sim view site; "
            "choose another --out or remove it"
        )


def _index_head(title: str) -> dict[str, Any]:
    """data/index.js's keys before its rows."""
    return {
        "format": INDEX_FORMAT,
        "version": INDEX_VERSION,
        "title": title,
        "generated_at": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "columns": list(INDEX_COLUMNS),
    }


def _index_tail(
    runs: Sequence[RunData], summaries: list[dict[str, Any]], index: IndexFile
) -> dict[str, Any]:
    """data/index.js's keys after its rows: the runs, and what the rows add up to."""
    return {
        "runs": summaries,
        "systems": [s["label"] for summary in summaries for s in summary["systems"]],
        "statuses": sorted(index.statuses),
        "buckets": bucket_order(runs, index.buckets),
        "chunk_dir": files.CHUNK_DIR,
    }


def _fill(
    site: Path, runs: Sequence[RunData], catalog_for: CatalogFor | None, chunk_dialogues: int
) -> tuple[int, int]:
    cmp = combine_runs(runs)
    labels = system_labels(runs, cmp)
    summaries = [run_summary(run, k, labels[k]) for k, run in enumerate(runs)]
    title = runs[0].name if len(runs) == 1 else "Comparison: " + ", ".join(r.name for r in runs)
    index = IndexFile(site / "data" / "index.js", _index_head(title))
    try:
        chunks = write_runs(site, runs, catalog_for, summaries, labels, index, chunk_dialogues)
        index.finish(_index_tail(runs, summaries, index))
    finally:
        index.file.close()
    files.copy_static(site)
    files.render_page(
        site,
        "index.html.j2",
        title=title,
        runs=summaries,
        notes=cmp.notes,
        metrics=results.metrics_tables(cmp),
        reports=results.run_reports(runs, site),
    )
    (site / MARKER).write_text("built by macrs-sim view\n", encoding="utf-8")
    return index.rows, chunks


def _swap_in(built: Path, out: Path) -> None:
    """Put `built` where `out` is, replacing an older site; two renames, never a half site."""
    if not out.exists():
        os.replace(built, out)
        return
    old = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.old-"))
    os.replace(out, old / "site")
    try:
        os.replace(built, out)
    except OSError:
        os.replace(old / "site", out)
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)


def build_site(
    runs: Sequence[RunData],
    out: Path,
    catalog_for: CatalogFor | None = None,
    chunk_dialogues: int = DEFAULT_CHUNK_DIALOGUES,
) -> SiteInfo:
    if not runs:
        raise DataError("no runs to view")
    started = time.perf_counter()
    out = Path(out).absolute()
    _check_out(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.building-"))
    try:
        dialogues, chunks = _fill(tmp, runs, catalog_for, chunk_dialogues)
        tmp.chmod(0o755)  # mkdtemp makes it private; a site is meant to be read
        _swap_in(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return SiteInfo(out, dialogues, chunks, time.perf_counter() - started)
