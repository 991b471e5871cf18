"""A user's text file: UTF-8 (BOM or not), else one line naming the line and byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.errors import ConfigError, DataError
from macrs_sim.textfile import read_utf8


def test_bom_is_dropped(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"\xef\xbb\xbfname = 1\r\n")
    assert read_utf8(tmp_path / "f", DataError) == "name = 1\r\n"


def test_latin1_names_line_and_byte(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"ok\nstill ok\ncaf\xe9\n")
    with pytest.raises(ConfigError) as err:
        read_utf8(tmp_path / "f", ConfigError, what="scenario file")
    assert str(err.value) == (
        f"{tmp_path / 'f'}:3: the scenario file is not valid UTF-8 text (invalid continuation"
        " byte at byte 15); save it as UTF-8"
    )


def test_unreadable(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(DataError, match=r"d: cannot read the catalog \(Is a directory\)$"):
        read_utf8(tmp_path / "d", DataError, what="catalog")
