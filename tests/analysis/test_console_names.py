"""`report`'s console table shows a stored system name as typed: no escape sequence or
bidi control reaches the terminal, and rich markup in a name is text, not style (issue 40 §2,
a sibling of the `compare --split` console lines)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from macrs_sim.cli import main
from tests.viewer.hostile_run import make_hostile_run

NAME = "x\x1b[2J[bold]y[/bold]\u202ez"


def test_a_hostile_system_name_is_data_on_the_console(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_hostile_run(tmp_path)
    conn = sqlite3.connect(run / "store.sqlite")
    with conn:
        conn.execute("UPDATE dialogues SET system = ? WHERE system = 'single'", (NAME,))
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'systems'", (json.dumps(["MACRS", NAME]),)
        )
    conn.close()
    assert main(["report", str(run)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out  # before: both printed raw
    assert "x[bold]y[/bold]z" in out  # the markup shown, the escape sequence dropped
