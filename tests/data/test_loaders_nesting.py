"""Hostile lines every review loader meets the same way: a line nested 100,000 deep is one
dropped-and-counted row (or one line under --strict), and a k-core that leaves nothing is
one line naming --core; no traceback, nothing written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from macrs_sim.data.registry import dataset_spec
from macrs_sim.errors import DataError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEEP = "[" * 100_000 + "\n"


def copy_with_deep_line(tmp_path: Path, kind: str) -> Path:
    folder = tmp_path / kind
    shutil.copytree(EXAMPLES / kind, folder)
    reviews = {"yelp": "yelp_academic_dataset_review.json", "steam": "steam_reviews.json"}
    with (folder / reviews[kind]).open("a") as f:
        f.write(DEEP)
    return folder


@pytest.mark.parametrize("kind", ["yelp", "steam"])
def test_a_deeply_nested_line_is_one_bad_row(kind: str, tmp_path: Path) -> None:
    spec = dataset_spec(kind)
    source = copy_with_deep_line(tmp_path, kind)
    result = spec.loader()(source, tmp_path / "ok.sqlite", spec.options(), overwrite=False)
    assert result.n_interactions == {"yelp": 112, "steam": 107}[kind]
    assert any(line.startswith("dropped 1 ") for line in result.lines), result.lines
    strict = spec.options(strict=True)
    with pytest.raises(DataError, match=r":\d+: "):
        spec.loader()(source, tmp_path / "no.sqlite", strict, overwrite=False)
    assert not (tmp_path / "no.sqlite").exists()


def test_a_k_core_that_leaves_nothing_is_one_line(tmp_path: Path) -> None:
    spec = dataset_spec("yelp")
    with pytest.raises(DataError, match=r"^--core 50: no user and item has 50 or more"):
        spec.loader()(EXAMPLES / "yelp", tmp_path / "x.sqlite", spec.options(core=50),
                      overwrite=False)  # fmt: skip
    assert list(tmp_path.iterdir()) == []
