"""`models train toolrec` through the CLI: both stages, the cache, bad settings and catalogs."""

from __future__ import annotations

from pathlib import Path

import pytest

import macrs_sim.rankers  # noqa: F401  (sets OMP_WAIT_POLICY before torch loads)
from macrs_sim.cli import main
from tests.rankers.toy_data import TORCH_REASON

pytest.importorskip("torch", reason=TORCH_REASON)

TINY = ("--set", "epochs=1", "--set", "dim=8", "--set", "max_len=10", "--set", "tune_epochs=1",
        "--no-progress")  # fmt: skip


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_train_toolrec_twice_second_is_cached(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ("models", "train", "toolrec", "demo", "--cache-dir", str(tmp_path), "--seed", "2",
            "--set", "attributes=director,decade", *TINY)  # fmt: skip
    code, out, _ = run(capsys, *argv)
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("trained toolrec on demo, leave-one-out split, in ")
    assert ": sasrec backbone " in lines[0] and ", attribute encoders " in lines[0]
    stages = [ln.split(":")[0].strip() for ln in lines[1:4]]
    assert stages == ["sasrec (frozen)", "director", "decade"]  # the order asked for
    assert lines[3].endswith("at epoch 1 of 1")
    assert lines[4].startswith(f"checkpoint: {tmp_path}/toolrec-")
    assert lines[5].startswith(f"backbone checkpoint: {tmp_path}/sasrec-")
    code, again, _ = run(capsys, *argv)
    assert code == 0 and again.startswith("cached (trained toolrec on demo, leave-one-out split")
    assert ", cached, attribute encoders" in again.splitlines()[0]
    assert again.splitlines()[1:] == lines[1:]
    # The backbone is the very checkpoint `models train sasrec` makes with these settings and
    # the BPR loss (ToolRec's stage 1, Eq. 4); SASRec's own default loss is BCE.
    sasrec = ("models", "train", "sasrec", "demo", "--cache-dir", str(tmp_path), "--seed", "2",
              *TINY[:6], "--no-progress")  # fmt: skip
    code, out, _ = run(capsys, *sasrec, "--set", "loss=bpr")
    assert code == 0 and out.startswith("cached (trained sasrec on demo")
    code, out, _ = run(capsys, *sasrec)
    assert code == 0 and out.startswith("trained sasrec on demo")


def _release_without_directors(folder: Path) -> Path:
    from macrs_sim.data.movielens import prepare_movielens

    release = folder / "ml-tiny"
    release.mkdir()
    movies = ["movieId,title,genres"] + [
        f'{m},"Film {m:03d}, The ({1950 + m % 40})",Drama|Comedy' for m in range(1, 61)
    ]
    ratings = ["userId,movieId,rating,timestamp"] + [
        f"{u},{(u * 7 + s * 3) % 60 + 1},4.0,{1000 + s}" for u in range(1, 21) for s in range(12)
    ]
    (release / "movies.csv").write_text("\n".join(movies) + "\n")
    (release / "ratings.csv").write_text("\n".join(ratings) + "\n")
    prepare_movielens(release, folder / "ml.sqlite")
    return folder / "ml.sqlite"


def test_a_catalog_without_directors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = _release_without_directors(tmp_path)
    cache = tmp_path / "cache"
    code, out, err = run(capsys, "models", "train", "toolrec", str(db), "--cache-dir", str(cache),
                         "--set", "attributes=decade,director", *TINY)  # fmt: skip
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("error: toolrec: the catalog of ")
    assert "has no director values (shared by 2+ items); patterns it has: genre, decade" in err
    assert not cache.exists()  # nothing trained, nothing half-written
    code, out, _ = run(capsys, "models", "train", "toolrec", str(db), "--cache-dir", str(cache),
                       *TINY)  # fmt: skip
    assert code == 0
    assert [ln.split(":")[0] for ln in out.splitlines()[2:4]] == ["  genre", "  decade"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("attributes=plot", "error: toolrec parameter attributes: Value error, expected some of "),
        ("tune_lr=fast", "error: toolrec parameter tune_lr: Input should be a valid number"),
        ("sasrec.dim=8", "error: --set 'sasrec.dim=8': model 'sasrec' is not being trained"),
    ],
)
def test_bad_settings_are_one_line_exit_2(
    setting: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "models", "train", "toolrec", "demo", "--set", setting,
                         "--cache-dir", str(tmp_path))  # fmt: skip
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(message), err
    assert list(tmp_path.iterdir()) == []
