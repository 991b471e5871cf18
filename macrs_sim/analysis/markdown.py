"""The one Markdown-table builder behind every table of the reports."""

from __future__ import annotations

from collections.abc import Sequence


def markdown_row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


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
