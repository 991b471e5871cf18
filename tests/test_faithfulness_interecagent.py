"""Issue 38 §1: docs/faithfulness.md's InteRecAgent section says what the code does: no row
left "(in progress)", the simulator's differences from Fig. 4 stated (RecAI's `<END>`, not
the figure's "(END)"), and the bus rules the paper and RecAI give."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "faithfulness.md").read_text("utf-8")
SECTION = PAGE.split("## InteRecAgent", 1)[1].split("\n## ", 1)[0]


def _row(prefix: str) -> str:
    rows = [line for line in SECTION.splitlines() if line.startswith(prefix)]
    assert len(rows) == 1, prefix
    return rows[0]


def test_no_row_is_left_in_progress() -> None:
    assert "(in progress)" not in SECTION
    assert 'faithful with `data.target = "last"`' in _row("| Target = the user's last item")


def test_the_simulator_rows_differences_are_stated() -> None:
    row = _row("| Session-wise user simulator")
    for said in ("`<END>`", "Your target items: {target}", "persona history", "Do not name any"):
        assert said in row, said
    assert 'its "(END)" included' not in row


def test_the_bus_rules_are_stated() -> None:
    assert "random 1000" in _row("| Hard-condition retrieval by SQL")
    assert "popularity" in _row("| Ranking tool: SASRec")
    assert "empties it" in _row("| Soft-condition retrieval")
    assert "Chat-Rec (history)" in _row("| Chat-Rec baseline")
