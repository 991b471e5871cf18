"""`realism.md` and its figure: the realism table of one or more runs against a corpus."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.analysis.atomic import save_png_atomic, write_text_atomic
from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.realism.collect import corpus_side, run_side
from macrs_sim.analysis.realism.compute import DRAWS, MeasureResult, realism_table
from macrs_sim.analysis.realism.figure import realism_figure
from macrs_sim.analysis.realism.sample import CAP, SideSample
from macrs_sim.analysis.realism.table import position_rows, table_rows
from macrs_sim.analysis.realism.titles import TitleIndex
from macrs_sim.analysis.runs.load import RunData
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.corpora import CorpusStats
from macrs_sim.textsafe import markdown_paragraph

FIGURE = "realism.png"


@dataclass
class Realism:
    corpus: Path
    stats: CorpusStats
    people: SideSample
    runs: list[SideSample]
    results: list[MeasureResult]

    @property
    def names(self) -> list[str]:
        return [s.label for s in self.runs]


def measure_realism(
    runs: Sequence[RunData],
    corpus: Path,
    catalog: Catalog | None,
    *,
    draws: int = DRAWS,
    cap: int = CAP,
) -> Realism:
    """Both sides read once (the corpus first: a bad file fails before the runs are read)."""
    titles = TitleIndex(catalog or ())
    stats = CorpusStats()
    people = corpus_side(corpus, catalog, titles, stats, cap=cap)
    sides = [run_side(run, catalog, titles, cap=cap) for run in runs]
    seen: dict[str, int] = {}
    for side in sides:  # two runs of one scenario keep apart
        seen[side.label] = seen.get(side.label, 0) + 1
        if seen[side.label] > 1:
            side.label = f"{side.label} ({seen[side.label]})"
    return Realism(corpus, stats, people, sides, realism_table(people, sides, draws=draws))


def _coverage(side: SideSample) -> str:
    known = sum(m.attributes is not None for m in side.kept)
    return f"{known} of {len(side.kept)}"


def realism_markdown(r: Realism, figure: str | None = None, *, level: int = 1) -> list[str]:
    head = "#" * level
    sampled = [s.label for s in (r.people, *r.runs) if s.sampled]
    md = [
        f"{head} Simulated users beside people",
        "",
        markdown_paragraph(
            f"Reference corpus: {r.corpus.name} ({r.stats.summary()}). Seekers' dialogues:"
            f" {r.people.seen}; the sought item found in the catalog for {_coverage(r.people)}"
            " (the attribute measures use those only). "
            + " ".join(f"{s.label}: {s.seen} simulated dialogues." for s in r.runs)
        ),
        "",
    ]
    if sampled:
        md += [
            f"Measured on a uniform sample of {r.people.cap} dialogues: {', '.join(sampled)}.",
            "",
        ]
    headers, rows = table_rows(r.results, r.names)
    md += markdown_table(headers, rows)
    md += [
        "",
        "W1: Wasserstein distance in the measure's unit; TV: total variation (0-1); diff: the"
        " absolute difference. Intervals: 95 % percentile bootstrap over dialogues. See"
        " docs/simulators.md for what each measure means and its limits.",
        "",
        f"{head}# By user turn position",
        "",
    ]
    pos_rows = [row for side in (r.people, *r.runs) for row in position_rows(side)]
    md += markdown_table(
        ["side", "turn", "turns", "words", "attributes", "names a title", "questions"],
        pos_rows,
        left=2,
    )
    if figure:
        md += ["", f"![the distributions side by side]({figure})"]
    return md


def write_realism(r: Realism, out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    save_png_atomic(realism_figure(r.results, [r.people, *r.runs]), out / FIGURE)
    return write_text_atomic(out / "realism.md", "\n".join(realism_markdown(r, FIGURE)) + "\n")
