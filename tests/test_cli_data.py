"""From a MovieLens-style zip to a campaign through the CLI, and the bad inputs on the way."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from tests.cli_runner import run_cli

GENRES = ["Drama", "Comedy", "Action|Adventure", "Drama|Romance"]


def write_zip(path: Path, n_users: int = 6, per_user: int = 22) -> Path:
    """A made-up ml-latest-small: 30 films, each user rates `per_user` of them over time."""
    movies = ["movieId,title,genres"] + [
        f'{m},"Film {m:02d}, The ({1980 + m})",{GENRES[m % len(GENRES)]}' for m in range(1, 31)
    ]
    ratings = ["userId,movieId,rating,timestamp"]
    for u in range(1, n_users + 1):
        for step in range(per_user):
            # distinct films per user: a re-rated 21st item is not a held-out target
            ratings.append(f"{u},{(u * 7 + step) % 30 + 1},4.0,{1000 + step}")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("ml-latest-small/movies.csv", "\n".join(movies) + "\n")
        z.writestr("ml-latest-small/ratings.csv", "\n".join(ratings) + "\n")
    return path


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`macrs-sim ARGS` in `cwd`, in this process (tests/cli_runner.py)."""
    return run_cli(*args, cwd=cwd)


def scenario(tmp_path: Path, **data: object) -> Path:
    lines = [f"{k} = {v!r}".replace("'", '"') for k, v in data.items()]
    text = "\n".join(
        [
            'name = "ml"',
            "[model]",
            'backend = "scripted"',
            "[data]",
            'dataset = "data/ml-latest-small.sqlite"',
            "history_len = 20",
            "min_history = 1",
            *lines,
            "[protocol]",
            "max_turns = 2",
            "[[systems]]",
            'name = "MACRS"',
            'kind = "macrs"',
        ]
    )
    path = tmp_path / "ml.toml"
    path.write_text(text + "\n")
    return path


def test_zip_to_campaign_in_three_commands(tmp_path: Path) -> None:
    zipped = write_zip(tmp_path / "ml-latest-small.zip")
    sc = scenario(tmp_path, n_samples=3, sample_set="samples/ml.jsonl")
    prep = cli("data", "prepare", "movielens", str(zipped), cwd=tmp_path)
    assert prep.returncode == 0, prep.stderr
    assert (tmp_path / "data" / "ml-latest-small.sqlite").is_file()
    assert "6 users, 30 items, 132 interactions" in prep.stdout
    build = cli("samples", "build", str(sc), "--no-progress", cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    assert "wrote 3 samples to samples/ml.jsonl" in build.stdout
    run = cli("run", str(sc), "--no-progress", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    (run_dir,) = [p for p in (tmp_path / "runs").iterdir() if p.is_dir()]  # not llm_cache
    shared = (tmp_path / "samples" / "ml.jsonl").read_text().splitlines()
    assert (run_dir / "samples.jsonl").read_text().splitlines()[1:] == shared[1:]
    info = cli("data", "info", "data/ml-latest-small.sqlite", cwd=tmp_path)
    assert info.returncode == 0, info.stderr
    assert info.stdout.startswith("dataset ml-latest-small: 6 users, 30 items (30 with")
    again = cli("samples", "build", str(sc), "--no-progress", cwd=tmp_path)
    assert again.returncode == 2 and "already there (pass --overwrite" in again.stderr


def test_demo_info(tmp_path: Path) -> None:
    out = cli("data", "info", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("dataset demo: 400 users, 332 items")
    assert "popularity buckets:" in out.stdout


def _one_line_error(proc: subprocess.CompletedProcess[str], expected: str) -> None:
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert expected in proc.stderr, proc.stderr


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        ("not-a-release", "expected movies.csv + ratings.csv or movies.dat + ratings.dat"),
        ("missing", "not found"),
    ],
)
def test_prepare_bad_source_leaves_nothing(tmp_path: Path, setup: str, expected: str) -> None:
    src = tmp_path / "src"
    if setup == "not-a-release":
        src.mkdir()
        (src / "readme.txt").write_text("hello")
    proc = cli("data", "prepare", "movielens", str(src), "--out", "out.sqlite", cwd=tmp_path)
    _one_line_error(proc, expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == (["src"] if setup != "missing" else [])


def test_samples_build_with_too_few_users_writes_nothing(tmp_path: Path) -> None:
    zipped = write_zip(tmp_path / "ml-latest-small.zip", n_users=2)
    assert cli("data", "prepare", "movielens", str(zipped), cwd=tmp_path).returncode == 0
    sc = scenario(tmp_path, n_samples=3)
    proc = cli("samples", "build", str(sc), "--no-progress", cwd=tmp_path)
    _one_line_error(proc, "data.n_samples = 3: only 2 users are eligible")
    assert not (tmp_path / "samples").exists()


def test_run_with_a_missing_sample_set_says_how_to_build_it(tmp_path: Path) -> None:
    zipped = write_zip(tmp_path / "ml-latest-small.zip")
    assert cli("data", "prepare", "movielens", str(zipped), cwd=tmp_path).returncode == 0
    sc = scenario(tmp_path, sample_set="samples/none.jsonl")
    proc = cli("run", str(sc), "--no-progress", cwd=tmp_path)
    _one_line_error(proc, "samples/none.jsonl: no such file; build it with `macrs-sim samples")
    assert not (tmp_path / "runs").exists()
