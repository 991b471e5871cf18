"""`macrs-sim data prepare steam` in a fresh process: what it prints, and one line on bad
input with exit code 2 and no traceback."""

from __future__ import annotations

from pathlib import Path

from .conftest import RunCli, encode, write


def test_prepare_prints_drops(steam_folder: Path, tmp_path: Path, run_cli: RunCli) -> None:
    out = tmp_path / "steam.sqlite"
    proc = run_cli("data", "prepare", "steam", str(steam_folder), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("prepared steam:reviews: 2 users, 4 items, 5 interactions in ")
    assert lines[1:11] == [
        "dropped 1 games with no id",
        "dropped 1 games with no title",
        "dropped 1 repeated game ids",
        "dropped 2 reviews of games with no metadata",
        "dropped 1 reviews with no game id",
        "dropped 1 reviews with no readable date",
        "dropped 1 reviews with no user",
        "dropped 1 truncated last line of steam_reviews.json",
        "dropped 2 unreadable lines of steam_games.json",
        "dropped 1 unreadable lines of steam_reviews.json",
    ]
    assert lines[11] == f"database: {out}"
    assert out.is_file()


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, run_cli: RunCli) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(["{u'app_name': u'Moss', u'id': u'1'}"]))
    write(folder, "steam_reviews.json", b"{u'username': u'a', u'product_id': u'1', u'date': \xff\n")
    proc = run_cli("data", "prepare", "steam", str(folder), "--out", "x.sqlite")
    assert proc.returncode == 2
    assert proc.stderr == (
        "error: steam_reviews.json:1: byte 0xff at column 51 is not UTF-8; expected the file as "
        "published (UTF-8 text)\n"
    )
    assert not (tmp_path / "x.sqlite").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["steam"]

    proc = run_cli("data", "prepare", "steam", str(folder), "--interactions", "bundles")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith("error: --interactions bundles: ")
    assert "Traceback" not in proc.stderr
