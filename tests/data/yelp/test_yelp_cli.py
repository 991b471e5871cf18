"""`macrs-sim data prepare yelp` in a fresh process: what it prints, exit codes, one-line
errors with no traceback."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.data.yelp.conftest import RunCli
from tests.data.yelp.yelp_files import BUSINESS_LINES, REVIEW_NAME, review, write, write_dataset


def _one_line_error(proc: subprocess.CompletedProcess[str], expected: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr == f"error: {expected}\n", proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


def test_cli_prepares_and_prints_sizes_and_drops(tmp_path: Path, run_cli: RunCli) -> None:
    source = write_dataset(tmp_path / "yelp_dataset", gz=True)
    proc = run_cli("data", "prepare", "yelp", str(source), "--min-stars", "2", "--keep-text")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("prepared yelp:2021: 2 users, 3 items, 4 interactions in ")
    assert lines[1:-2] == [
        "dropped 1 businesses with no usable name",
        "dropped 2 malformed lines of the business file",
        "dropped 2 malformed lines of the review file",
        "dropped 1 repeated business ids",
        "dropped 1 reviews below --min-stars",  # line 8: 1 star
        "dropped 2 reviews of businesses with no metadata",
        "dropped 1 truncated last lines of the review file",
    ]
    database = Path("data") / "yelp_dataset.sqlite"  # the default: data/<source>.sqlite
    assert lines[-2:] == [
        f"database: {database}",
        f'use it in a scenario: [data] dataset = "{database}"',
    ]
    assert (tmp_path / database).is_file()


def test_cli_bad_input_is_one_line_and_exit_2(tmp_path: Path, run_cli: RunCli) -> None:
    source = write_dataset(tmp_path / "src", BUSINESS_LINES[:1],
                           [review(1, "u1", "bZ", 5, "2018-01-02 10:00:00", "x")])  # fmt: skip
    out = tmp_path / "o.sqlite"
    proc = run_cli("data", "prepare", "yelp", str(source), "--out", str(out), "--strict")
    _one_line_error(
        proc,
        f"{REVIEW_NAME}:1: business 'bZ' is not in yelp_academic_dataset_business.json; "
        "expected every reviewed business to be listed there (--strict)",
    )
    assert not out.exists()
    write(source / REVIEW_NAME, b'{"user_id": "\xfe"}\n')
    proc = run_cli("data", "prepare", "yelp", str(source), "--out", str(out))
    _one_line_error(
        proc,
        f"{REVIEW_NAME}:1: byte 0xfe at column 14 is not UTF-8; expected the file as "
        "published (UTF-8 text)",
    )
    proc = run_cli("data", "prepare", "yelp", str(source), "--min-stars", "0")
    _one_line_error(proc, "--min-stars 0: expected 1 or more")
    assert list(tmp_path.glob("**/*.sqlite")) == [] and list(tmp_path.glob("**/*.tmp")) == []
