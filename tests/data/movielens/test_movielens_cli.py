"""`macrs-sim data prepare movielens` in a fresh process: exit codes, one-line errors, file mode."""

import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.movielens import build, prepare_movielens
from macrs_sim.errors import DataError

Files = dict[str, str | bytes]
MakeRelease = Callable[[str, Files], Path]
RunCli = Callable[..., subprocess.CompletedProcess[str]]
Query = Callable[[Path, str], list[tuple[object, ...]]]

MOVIES = "movieId,title,genres\n1,Heat (1995),Action\n2,Up (2009),Animation\n"
RATINGS_HEAD = "userId,movieId,rating,timestamp\n"
RATINGS = RATINGS_HEAD + "1,1,4.0,5\n2,2,3.0,6\n"
DAT_MOVIES = "1::Heat (1995)::Action\n"


def _one_line_error(proc: subprocess.CompletedProcess[str], expected: str) -> None:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("error: ")
    assert expected in proc.stderr, proc.stderr


BAD = [
    pytest.param(
        "ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS_HEAD}, [],
        "ratings.csv:2: no ratings after the header; expected at least one rating",
        id="ratings-header-only",
    ),
    pytest.param(
        "ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS_HEAD.replace("\n", "\r\n")}, [],
        "ratings.csv:2: no ratings after the header",
        id="ratings-header-only-crlf",
    ),
    pytest.param(
        "ml-x", {"movies.csv": "movieId,title,genres \n", "ratings.csv": RATINGS}, [],
        "movies.csv:2: no movies after the header; expected at least one movie",
        id="movies-header-only",
    ),
    pytest.param(
        "ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS_HEAD + "1,7,4.0,5\n1,8,4.0,6\n"},
        [],
        "ratings.csv: every rating (2) is of a movie not in movies.csv; expected at least one "
        "rating of a listed movie",
        id="every-rating-dropped",
    ),
    pytest.param(
        "ml-1m", {"movies.dat": DAT_MOVIES, "ratings.dat": "\n"}, [],
        "ratings.dat:1: no ratings; expected UserID::MovieID::Rating::Timestamp lines",
        id="dat-ratings-empty",
    ),
    pytest.param(
        "ml-1m", {"movies.dat": "", "ratings.dat": "1::1::5::97\n"}, [],
        "movies.dat:1: no movies; expected at least one movie",
        id="dat-movies-empty",
    ),
    pytest.param(
        "ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS + "1,2,4.0,5\n2,9,1.0,7\n"},
        ["--strict"],
        "ratings.csv:5: movie id 9 is not in movies.csv; expected every rated movie to be "
        "listed there (--strict)",
        id="strict-unknown-movie",
    ),
    pytest.param(
        "ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS + "1,2,4.0,x\n"}, [],
        "ratings.csv:4: timestamp: expected an integer, found 'x'",
        id="bad-timestamp",
    ),
    pytest.param(
        "ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS}, ["--min-tag-users", "0"],
        "--min-tag-users 0: expected 1 or more",
        id="min-tag-users-zero",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "files", "flags", "expected"), BAD)
def test_bad_release_one_line_exit_2_nothing_written(
    make_release: MakeRelease,
    run_cli: RunCli,
    tmp_path: Path,
    name: str,
    files: Files,
    flags: list[str],
    expected: str,
) -> None:
    make_release(name, files)
    out = tmp_path / "out"
    out.mkdir()
    proc = run_cli("data", "prepare", "movielens", f"src/{name}", "--out", "out/db.sqlite", *flags)
    _one_line_error(proc, expected)
    assert list(out.iterdir()) == []


def test_strict_succeeds_on_a_clean_release(
    make_release: MakeRelease, run_cli: RunCli, tmp_path: Path, query: Query
) -> None:
    make_release("ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS})
    proc = run_cli("data", "prepare", "movielens", "src/ml-x", "--out", "db.sqlite", "--strict")
    assert proc.returncode == 0, proc.stderr
    assert "dropped" not in proc.stdout
    meta = {str(k): str(v) for k, v in query(tmp_path / "db.sqlite", "SELECT key, value FROM meta")}
    assert (meta["strict"], meta["dropped_ratings"]) == ("true", "0")


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_database_mode_follows_the_umask(
    make_release: MakeRelease, run_cli: RunCli, tmp_path: Path, umask: int, mode: int
) -> None:
    make_release("ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS})
    proc = run_cli("data", "prepare", "movielens", "src/ml-x", umask=umask)
    assert proc.returncode == 0, proc.stderr
    db = tmp_path / "data" / "ml-x.sqlite"
    assert stat.S_IMODE(db.stat().st_mode) == mode
    again = run_cli("data", "prepare", "movielens", "src/ml-x", "--overwrite", umask=umask)
    assert again.returncode == 0, again.stderr
    assert stat.S_IMODE(db.stat().st_mode) == mode
    assert sorted(p.name for p in db.parent.iterdir()) == ["ml-x.sqlite"]


def test_an_unforeseen_reader_fault_is_one_line(
    make_release: MakeRelease, out_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(raw: str) -> list[str]:
        raise KeyError("genres")

    monkeypatch.setattr(build, "parse_genres", broken)
    source = make_release("ml-x", {"movies.csv": MOVIES, "ratings.csv": RATINGS})
    with pytest.raises(DataError) as info:
        prepare_movielens(source, out_dir / "db.sqlite")
    assert str(info.value) == (
        f"{source}: could not be read (KeyError: 'genres'); expected a MovieLens release as "
        "GroupLens publishes it"
    )
    assert list(out_dir.iterdir()) == []
