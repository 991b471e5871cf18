"""`compare --split`: the index over the groups of runs that share a protocol (report/alike.py).

Each group has its own full report (`group-N/report.md`, with Table 1 and its significance
tests within the group); the index heads each group by what its runs share and shows its
summary table, so no number is set beside one measured under other rules without a heading
that says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from macrs_sim.analysis.metrics.outcomes import metrics_from_dialogues
from macrs_sim.analysis.report.alike import Difference, RunGroup
from macrs_sim.analysis.report.summary import render_markdown
from macrs_sim.analysis.runs.combine import Comparison
from macrs_sim.textsafe import markdown_cell, markdown_code


def split_note(group: RunGroup) -> str:
    """The note a group's own report carries (Markdown: the values come from the runs'
    files, shown as typed)."""
    return (
        f"its runs share {markdown_cell(group.heading())}; the significance tests compare "
        "systems within this group only."
    )


def _group_section(number: int, group: RunGroup, cmp: Comparison, report: str) -> list[str]:
    metrics = metrics_from_dialogues(cmp.dialogues)
    metrics.sort(key=lambda m: cmp.system_names.index(m.system))
    runs = ", ".join(f"{markdown_cell(r.name)} ({markdown_code(r.path.name)})" for r in cmp.runs)
    notes = [markdown_cell(n) for n in cmp.notes]  # they name runs: data
    table = render_markdown("", metrics, notes).split("\n", 2)[2]
    return [
        f"## Group {number}: {markdown_cell(group.heading())}",
        "",
        f"Runs: {runs}. Full report, with Table 1 and its tests: [{report}]({report})",
        "",
        table,
    ]


def render_split_index(
    title: str,
    found: Sequence[Difference],
    groups: Sequence[RunGroup],
    cmps: Sequence[Comparison],
    reports: Sequence[Path],
    out: Path,
) -> str:
    """report.md of a split comparison: why it is split, then one section per group."""
    lines = [
        f"# {markdown_cell(title)}",
        "",
        f"The runs differ in {markdown_cell(', '.join(d.render() for d in found))}, so they are "
        "not tested against each other: each group below shares one protocol, and its own report's "
        "significance tests (Table 1) compare systems within the group only.",
        "",
    ]
    for number, (group, cmp, path) in enumerate(zip(groups, cmps, reports, strict=True), 1):
        lines += _group_section(number, group, cmp, path.relative_to(out).as_posix())
    return "\n".join(lines).rstrip("\n") + "\n"
