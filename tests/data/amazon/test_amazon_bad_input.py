"""Bad input: counted where the policy drops it, else one line naming file:line; nothing left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from macrs_sim.data.amazon.layout import EXPECTED
from macrs_sim.errors import DataError
from tests.data.amazon.releases import (
    META_2018,
    META_2023,
    REVIEWS_2018,
    dataset,
    dropped,
    leftovers,
    release_2014,
    release_2018,
    release_2023,
    run,
    write,
)

C01_META = (
    '{"main_category": "All Beauty", "title": "Clips", "price": 1.0, "store": "S", '
    '"categories": [], "details": {}, "parent_asin": "C01"}\n'
)
L01_META = '{"category": ["Luxury Beauty"], "title": "Cream", "asin": "L01"}\n'


def review_2023(user: str, item: str, millis: object = 1600000000000) -> str:
    return (
        f'{{"rating": 5.0, "title": "t", "text": "x", "asin": "{item}", '
        f'"parent_asin": "{item}", "user_id": "{user}", "timestamp": {millis}}}\n'
    )


def review_2018(user: str, item: str, rating: object = 5.0) -> str:
    return (
        f'{{"overall": {rating}, "verified": true, "reviewerID": "{user}", "asin": "{item}", '
        '"unixReviewTime": 1420000000}\n'
    )


def refused(tmp_path: Path, source: Path, expected: str, **options: object) -> None:
    """The run fails with exactly `expected` (one line) and leaves no file in out/."""
    out = tmp_path / "out"
    with pytest.raises(DataError) as caught:
        run(source, out / "db.sqlite", **options)
    assert str(caught.value) == expected
    assert "\n" not in str(caught.value)
    assert leftovers(out) == []


def test_strict_refuses_the_cut_off_last_line_of_2014_metadata(tmp_path: Path) -> None:
    refused(
        tmp_path,
        release_2014(tmp_path / "src"),
        "meta_Beauty.json:7: the last line is cut short (an interrupted download?); expected "
        "one product per line, a Python dict as published (--strict)",
        strict=True,
    )


def test_strict_refuses_a_review_of_an_unlisted_item(tmp_path: Path) -> None:
    write(tmp_path / "src", "meta_All_Beauty.jsonl", C01_META)
    reviews = review_2023("AU1", "C01") + review_2023("AU1", "C77")
    source = write(tmp_path / "src", "All_Beauty.jsonl", reviews)
    refused(
        tmp_path,
        source,
        "All_Beauty.jsonl:2: item C77 is not in meta_All_Beauty.jsonl; expected every "
        "reviewed item to be listed there (--strict)",
        strict=True,
    )


def test_strict_refuses_a_malformed_middle_line(tmp_path: Path) -> None:
    write(tmp_path / "src", "meta_Luxury_Beauty.json", L01_META)
    lines = review_2018("U1", "L01") + '{"reviewerID": "A2", "asin": oops}\n'
    source = write(tmp_path / "src", "Luxury_Beauty_5.json", lines + review_2018("U2", "L01"))
    # "oops" starts at column 30 of line 2.
    refused(
        tmp_path,
        source,
        "Luxury_Beauty_5.json:2: cannot be read at column 30; expected one review per line, "
        "a JSON object as published (--strict)",
        strict=True,
    )
    result = run(source, tmp_path / "lenient.sqlite")  # without --strict: dropped, counted
    assert result.n_interactions == 2
    assert dropped(tmp_path / "lenient.sqlite") == {"unreadable review lines": 1}


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            review_2018("U1", "L01", rating='"five"'),
            "Luxury_Beauty_5.json:2: 'overall' is 'five'; expected a number (--strict)",
        ),
        (
            review_2018("U1", "L01", rating="true"),
            "Luxury_Beauty_5.json:2: 'overall' is True; expected a number (--strict)",
        ),
        (
            '{"overall": 5.0, "asin": "L01", "unixReviewTime": 1}\n',
            "Luxury_Beauty_5.json:2: review has no 'reviewerID'; expected reviewerID, asin, "
            "overall and unixReviewTime (--strict)",
        ),
        (
            '{"overall": 5.0, "reviewerID": "U1", "asin": "L01", "unixReviewTime": "soon"}\n',
            "Luxury_Beauty_5.json:2: 'unixReviewTime' is 'soon'; expected a whole number of "
            "seconds (--strict)",
        ),
        (
            "[1, 2]\n",
            "Luxury_Beauty_5.json:2: holds a list, not one record; expected one review per "
            "line, a JSON object as published (--strict)",
        ),
    ],
    ids=["rating-text", "rating-bool", "no-user", "time-text", "not-a-dict"],
)
def test_strict_names_the_bad_field(tmp_path: Path, line: str, expected: str) -> None:
    write(tmp_path / "src", "meta_Luxury_Beauty.json", L01_META)
    reviews = review_2018("U0", "L01") + line + review_2018("U2", "L01")
    source = write(tmp_path / "src", "Luxury_Beauty_5.json", reviews)
    refused(tmp_path, source, expected, strict=True)


def test_strict_2023_milliseconds_must_be_whole(tmp_path: Path) -> None:
    write(tmp_path / "src", "meta_All_Beauty.jsonl", C01_META)
    source = write(tmp_path / "src", "All_Beauty.jsonl", review_2023("AU1", "C01", 1.5))
    refused(
        tmp_path,
        source,
        "All_Beauty.jsonl:1: 'timestamp' is 1.5; expected a whole number of milliseconds "
        "(--strict)",
        strict=True,
    )


def test_strict_keeps_untitled_and_repeated_products_counted(tmp_path: Path) -> None:
    """Empty titles and repeated rows are in the 2018 files as published: never refused."""
    db = tmp_path / "lux.sqlite"
    result = run(release_2018(tmp_path / "src"), db, strict=True)
    assert result.n_interactions == 5
    assert dropped(db) == {
        "items with no title": 1,
        "repeated metadata rows": 1,
        "reviews of items with no title": 1,
    }


def test_metadata_without_an_id_is_counted_or_refused(tmp_path: Path) -> None:
    meta = '{"category": ["Luxury Beauty"], "title": "No Id"}\n' + L01_META
    write(tmp_path / "src", "meta_Luxury_Beauty.json", meta)
    source = write(tmp_path / "src", "Luxury_Beauty_5.json", review_2018("U1", "L01"))
    refused(
        tmp_path,
        source,
        "meta_Luxury_Beauty.json:1: product has no 'asin'; expected asin and title (--strict)",
        strict=True,
    )
    run(source, tmp_path / "ok.sqlite")
    assert dropped(tmp_path / "ok.sqlite") == {"metadata rows with no item id": 1}


def test_python_literal_is_never_evaluated(tmp_path: Path) -> None:
    """2014 metadata is read with ast.literal_eval: a call is an unreadable line, not run."""
    marker = tmp_path / "pwned"
    attack = f"{{'asin': 'B7', 'title': __import__('os').system('touch {marker}')}}\n"
    meta = "{'asin': 'B1', 'title': u'Soap'}\n" + attack + "{'asin': 'B2', 'title': 'Gel'}\n"
    write(tmp_path / "src", "meta_Beauty.json", meta)
    reviews = (
        '{"reviewerID": "A1", "asin": "B1", "overall": 5.0, "unixReviewTime": 1}\n'
        '{"reviewerID": "A1", "asin": "B2", "overall": 4.0, "unixReviewTime": 2}\n'
    )
    source = write(tmp_path / "src", "reviews_Beauty_5.json", reviews)
    db = tmp_path / "b.sqlite"
    assert run(source, db).n_items == 2
    assert not marker.exists()
    assert dropped(db) == {"unreadable metadata lines": 1}
    assert [i.title for i in dataset(db).catalog] == ["Soap", "Gel"]


def test_a_python_dict_line_in_json_metadata_still_reads(tmp_path: Path) -> None:
    meta = L01_META + "{'category': [u'Luxury Beauty'], 'title': u'Balm', 'asin': 'L02'}\n"
    write(tmp_path / "src", "meta_Luxury_Beauty.json", meta)
    reviews = review_2018("U1", "L01") + review_2018("U1", "L02")
    db = tmp_path / "l.sqlite"
    run(write(tmp_path / "src", "Luxury_Beauty_5.json", reviews), db)
    assert [i.title for i in dataset(db).catalog] == ["Cream", "Balm"]


def test_a_non_utf8_byte_is_one_line(tmp_path: Path) -> None:
    write(tmp_path / "src", "meta_Luxury_Beauty.json", META_2018)
    first, rest = REVIEWS_2018.split("\n", 1)
    bad = first.encode() + b"\n" + b'{"a\xff": 1}\n' + rest.encode()
    source = write(tmp_path / "src", "Luxury_Beauty_5.json", bad)
    refused(
        tmp_path,
        source,
        "Luxury_Beauty_5.json:2: byte 0xff at column 4 is not UTF-8; expected the file as "
        "published (UTF-8 text)",
    )


def test_a_gz_that_ends_early_is_one_line(tmp_path: Path) -> None:
    source = release_2018(tmp_path / "src", gz=True)
    source.write_bytes(source.read_bytes()[:-20])  # the trailer and some data lost
    out = tmp_path / "out"
    with pytest.raises(DataError) as caught:
        run(source, out / "db.sqlite")
    message = str(caught.value)
    assert re.fullmatch(
        r"Luxury_Beauty_5\.json\.gz:\d+: the compressed file ends early \(truncated "
        r"download\?\); expected a whole \.gz file",
        message,
    ), message
    assert leftovers(out) == []


def test_every_review_dropped_is_an_error(tmp_path: Path) -> None:
    write(tmp_path / "src", "meta_All_Beauty.jsonl", C01_META)
    source = write(tmp_path / "src", "All_Beauty.jsonl", review_2023("AU1", "C77"))
    refused(
        tmp_path,
        source,
        "All_Beauty.jsonl: no review of a listed product; expected reviews of the products "
        "in meta_All_Beauty.jsonl",
    )


def test_metadata_with_no_titled_product_is_an_error(tmp_path: Path) -> None:
    meta = '{"parent_asin": "C01", "title": "<br>"}\n{"parent_asin": "C02", "title": ""}\n'
    write(tmp_path / "src", "meta_All_Beauty.jsonl", meta)
    source = write(tmp_path / "src", "All_Beauty.jsonl", review_2023("AU1", "C01"))
    refused(
        tmp_path,
        source,
        "meta_All_Beauty.jsonl: no product with a title; expected one product per line, "
        "a JSON object as published, with parent_asin and title",
    )


def test_a_2023_file_named_like_2018_is_one_line(tmp_path: Path) -> None:
    write(tmp_path / "src", "meta_Luxury_Beauty.json", L01_META)
    source = write(tmp_path / "src", "Luxury_Beauty_5.json", review_2023("AU1", "L01"))
    refused(
        tmp_path,
        source,
        "Luxury_Beauty_5.json:1: has 'user_id' but no 'reviewerID', like the 2023 reviews; "
        "expected the 2018 release's reviews, as the file's name says",
    )


def test_older_metadata_named_like_2023_is_one_line(tmp_path: Path) -> None:
    write(tmp_path / "src", "meta_All_Beauty.jsonl", L01_META)
    source = write(tmp_path / "src", "All_Beauty.jsonl", review_2023("AU1", "L01"))
    refused(
        tmp_path,
        source,
        "meta_All_Beauty.jsonl:1: has 'asin' but no 'parent_asin', like the 2014 and 2018 "
        "metadata; expected the 2023 release's metadata, as the file's name says",
    )


def test_paths_that_are_no_release(tmp_path: Path) -> None:
    src = tmp_path / "src"
    notes = write(src, "notes.txt", "hello\n")
    refused(tmp_path, notes, f"{notes}: not an Amazon Reviews file name; {EXPECTED}")
    assert EXPECTED == (
        "expected an Amazon Reviews file as published: reviews_<Category>_5.json(.gz) (2014), "
        "<Category>_5.json(.gz) (2018) or <Category>.jsonl(.gz) (2023), or a folder holding "
        "one of them and its meta_<Category> file"
    )
    refused(tmp_path, src, f"{src}: holds no Amazon Reviews file; {EXPECTED}")
    missing = tmp_path / "nowhere"
    refused(tmp_path, missing, f"{missing}: no such file or folder; {EXPECTED}")
    meta = write(src, "meta_All_Beauty.jsonl", META_2023)
    refused(tmp_path, meta, f"{meta}: is a metadata file; {EXPECTED}")


def test_folders_and_meta_files_that_do_not_fit(tmp_path: Path) -> None:
    src = tmp_path / "src"
    reviews = write(src, "Luxury_Beauty_5.json", REVIEWS_2018)
    refused(
        tmp_path,
        reviews,
        f"{reviews}: no meta_Luxury_Beauty.json(.gz) beside it; expected the release's "
        "metadata file there (or name it with --meta)",
    )
    absent = tmp_path / "absent.json"
    refused(
        tmp_path,
        reviews,
        f"--meta {absent}: no such file; expected the meta_Luxury_Beauty file",
        meta=absent,
    )
    write(src, "Beauty_5.json", REVIEWS_2018)
    refused(
        tmp_path,
        src,
        f"{src}: holds 2 reviews files (Beauty_5.json, Luxury_Beauty_5.json); expected "
        "exactly one (or name the reviews file itself)",
    )


def test_an_existing_database_needs_overwrite(tmp_path: Path) -> None:
    from macrs_sim.data.amazon.prepare import prepare
    from macrs_sim.data.amazon.spec import AmazonOptions

    source = release_2023(tmp_path / "src")
    db = tmp_path / "out" / "db.sqlite"
    db.parent.mkdir()
    db.write_text("keep me")
    with pytest.raises(DataError, match="already exists; expected a new path"):
        run(source, db)
    assert db.read_text() == "keep me"
    result = prepare(source, db, AmazonOptions(), overwrite=True)
    assert result.n_interactions == 4
    assert leftovers(db.parent) == ["db.sqlite"]


def test_gz_metadata_is_told_by_its_bytes(tmp_path: Path) -> None:
    """A .gz name with plain bytes (a browser that unpacked it) still reads."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "meta_All_Beauty.jsonl.gz").write_text(META_2023)
    plain = write(src, "All_Beauty.jsonl", review_2023("AU1", "C01"))
    assert run(plain, tmp_path / "x.sqlite").n_interactions == 1
