"""The one Markdown-table builder: exact lines, alignment by position or per column."""

from __future__ import annotations

from macrs_sim.analysis.markdown import markdown_row, markdown_table


def test_first_column_left_the_rest_right() -> None:
    lines = markdown_table(["System", "n", "Hit@5"], [["MACRS", "4", "0.75"], ["LLM ", "3", ""]])
    assert lines == [
        "| System | n | Hit@5 |",
        "| --- | ---: | ---: |",
        "| MACRS | 4 | 0.75 |",
        "| LLM  | 3 |  |",
    ]


def test_two_name_columns() -> None:
    assert markdown_table(["System", "Variant", "n"], [], left=2) == [
        "| System | Variant | n |",
        "| --- | --- | ---: |",
    ]


def test_alignment_per_column_overrides_position() -> None:
    lines = markdown_table(
        ["role", "calls", "model"], [["user", "12", "m"]], numeric=[False, True, False]
    )
    assert lines[1] == "| --- | ---: | --- |"


def test_row() -> None:
    assert markdown_row(["a", "b"]) == "| a | b |"
    assert markdown_row([]) == "|  |"
