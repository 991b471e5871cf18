"""Report files are written whole or not at all, and figures only under a .png name."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

import pandas as pd
import pytest
from matplotlib.figure import Figure

from macrs_sim.analysis import atomic
from macrs_sim.analysis.atomic import save_png_atomic, write_csv_atomic, write_text_atomic


def test_text_and_csv_land_whole(tmp_path: Path) -> None:
    path = write_text_atomic(tmp_path / "deep" / "report.md", "# Title\n\nnaïve\n")
    assert path.read_bytes() == "# Title\n\nnaïve\n".encode()
    csv = write_csv_atomic(pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}), tmp_path / "t.csv")
    assert csv.read_text() == "a,b\n1,x\n2,y\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["deep", "report.md", "t.csv"]


def test_a_write_that_dies_midway_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "report.md"
    target.write_text("old report\n")

    def half(handle: IO[bytes]) -> None:
        handle.write(b"# new report, first half")
        raise KeyboardInterrupt  # as Ctrl-C would, halfway through

    with pytest.raises(KeyboardInterrupt):
        atomic._write_atomic(target, half)
    assert target.read_text() == "old report\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.md"]


def test_figures_must_be_named_png(tmp_path: Path) -> None:
    for name in ("3", "fig.pdf", "fig.png.bak"):
        fig = Figure()
        fig.subplots().plot([0, 1], [0, 1])
        with pytest.raises(ValueError, match=r"a figure path must end in \.png"):
            save_png_atomic(fig, tmp_path / name)
    assert list(tmp_path.iterdir()) == []
    fig = Figure()
    fig.subplots().plot([0, 1], [0, 1])
    out = save_png_atomic(fig, tmp_path / "figs" / "Fig.PNG")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in out.parent.iterdir()] == ["Fig.PNG"]


def test_report_files_get_the_mode_any_new_file_gets(tmp_path: Path) -> None:
    # A temporary file is private (0600) and the rename would keep that: a colleague on a
    # shared server could not read the report. The umask decides, as for any new file.
    old = os.umask(0o022)
    try:
        md = write_text_atomic(tmp_path / "report.md", "x\n")
        csv = write_csv_atomic(pd.DataFrame({"a": [1]}), tmp_path / "t.csv")
        os.umask(0o077)
        private = write_text_atomic(tmp_path / "private.md", "x\n")
    finally:
        os.umask(old)
    assert [stat.S_IMODE(p.stat().st_mode) for p in (md, csv, private)] == [0o644, 0o644, 0o600]
