"""Which release a download is, from its file names; which meta file goes with it."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.data.amazon.layout import locate


@pytest.mark.parametrize(
    ("reviews", "meta", "release", "category"),
    [
        ("reviews_Beauty_5.json.gz", "meta_Beauty.json.gz", "2014", "Beauty"),
        ("reviews_Beauty.json.gz", "meta_Beauty.json.gz", "2014", "Beauty"),  # the full file
        (
            "reviews_Cell_Phones_and_Accessories_5.json",
            "meta_Cell_Phones_and_Accessories.json",
            "2014",
            "Cell_Phones_and_Accessories",
        ),  # fmt: skip
        ("Luxury_Beauty_5.json.gz", "meta_Luxury_Beauty.json.gz", "2018", "Luxury_Beauty"),
        ("AMAZON_FASHION.json.gz", "meta_AMAZON_FASHION.json.gz", "2018", "AMAZON_FASHION"),
        ("All_Beauty.jsonl.gz", "meta_All_Beauty.jsonl.gz", "2023", "All_Beauty"),
        (
            "Health_and_Household.jsonl",
            "meta_Health_and_Household.jsonl",
            "2023",
            "Health_and_Household",
        ),  # fmt: skip
    ],
)
def test_names_tell_the_release(
    tmp_path: Path, reviews: str, meta: str, release: str, category: str
) -> None:
    (tmp_path / reviews).write_text("")
    (tmp_path / meta).write_text("")
    for path in (tmp_path / reviews, tmp_path):
        found = locate(path, None)
        assert (found.release, found.category) == (release, category)
        assert (found.reviews, found.meta) == (tmp_path / reviews, tmp_path / meta)
        assert found.name == f"amazon-{release}:{category}"


def test_meta_compressed_like_the_reviews_is_preferred(tmp_path: Path) -> None:
    for name in ("Toys_5.json", "meta_Toys.json", "meta_Toys.json.gz"):
        (tmp_path / name).write_text("")
    assert locate(tmp_path / "Toys_5.json", None).meta == tmp_path / "meta_Toys.json"
    (tmp_path / "Toys_5.json").rename(tmp_path / "Toys_5.json.gz")
    assert locate(tmp_path, None).meta == tmp_path / "meta_Toys.json.gz"
