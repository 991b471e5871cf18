"""`macrs-sim data prepare amazon` in a fresh process: what it prints, and exit 2 on bad input."""

from __future__ import annotations

from pathlib import Path

from tests.data.amazon.releases import cli, leftovers, release_2014, release_2018


def test_prepare_prints_sizes_and_drops(tmp_path: Path) -> None:
    release_2018(tmp_path / "src", gz=True)
    proc = cli("data", "prepare", "amazon", "src", "--out", "lux.sqlite", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("prepared amazon-2018:Luxury_Beauty: 3 users, 4 items, 5 ")
    assert lines[0].endswith(" s") and " 5 interactions in " in lines[0]
    assert lines[1:] == [
        "dropped 1 items with no title",
        "dropped 1 repeated metadata rows",
        "dropped 1 reviews of items with no title",
        "database: lux.sqlite",
        'use it in a scenario: [data] dataset = "lux.sqlite"',
    ]
    assert (tmp_path / "lux.sqlite").is_file()


def test_bad_input_is_one_error_line(tmp_path: Path) -> None:
    release_2014(tmp_path / "src")
    args = ("data", "prepare", "amazon", "src/reviews_Beauty_5.json", "--out", "out/b.sqlite")
    proc = cli(*args, "--strict", "--keep-text", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == (
        "error: meta_Beauty.json:7: the last line is cut short (an interrupted download?); "
        "expected one product per line, a Python dict as published (--strict)\n"
    )
    assert leftovers(tmp_path / "out") == []
    proc = cli(*args[:3], "src/meta_Beauty.json", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: src/meta_Beauty.json: is a metadata file; expected ")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
