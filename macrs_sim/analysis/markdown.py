"""The one Markdown-table builder behind every table of the reports.

Every cell passes `markdown_table_guard` (macrs_sim/textsafe.py): whatever a caller puts in
a cell (an act name a server chose, a system name), it stays one cell of one row and holds
no HTML tag or link. Text from a model or a server should still go in as `markdown_cell`.
"""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.textsafe import markdown_table_guard


def markdown_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(markdown_table_guard(c) for c in cells) + " |"


def markdown_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    left: int = 1,
    numeric: Sequence[bool] | None = None,
) -> list[str]:
    """Header, alignment row and rows, one line each.

    Columns are right-aligned (numbers) except the first `left` ones (names), unless
    `numeric` says per column which ones are right-aligned.
    """
    if numeric is None:
        numeric = [i >= left for i in range(len(headers))]
    align = ["---:" if right else "---" for right in numeric]
    return [markdown_row(headers), markdown_row(align), *(markdown_row(r) for r in rows)]
