"""Bad Yelp input: --strict's one-line refusals, the errors every run stops at (bytes that
are not UTF-8, a .gz that ends early, nothing usable, files not found), and that a failed
run leaves nothing behind."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from macrs_sim.errors import DataError
from tests.data.yelp.conftest import Prepare
from tests.data.yelp.yelp_files import (
    BUSINESS_LINES,
    BUSINESS_NAME,
    REVIEW_NAME,
    review,
    text_of,
    write,
    write_dataset,
)

BA, BB = BUSINESS_LINES[0], BUSINESS_LINES[1]
R1 = review(1, "u1", "bA", 5, "2018-01-02 10:00:00", "Great crust.")
R3 = review(3, "u2", "bA", 4, "2019-06-01 12:00:00", "Good.")
B = f"{BUSINESS_NAME}:2: "
R = f"{REVIEW_NAME}:2: "
STRICT = [
    pytest.param([BA, '{"business_id": "bF" "name": "Broken"}', BB], None,
                 B + "not JSON (Expecting ',' delimiter at column 22); expected one JSON object "
                 "per line (--strict)", id="business-broken-line"),
    pytest.param([BA, '["bG", "Not A Record"]'], None,
                 B + "a JSON list where a record belongs; expected one JSON object per line "
                 "(--strict)", id="business-not-a-record"),
    pytest.param([BA, '{"business_id": "bC", "name": "<p></p>"}'], None,
                 B + "business 'bC' has no usable name ('<p></p>'); expected a name with text "
                 "in it (--strict)", id="name-only-html"),
    pytest.param([BA, '{"business_id": "bA", "name": "Again"}'], None,
                 B + "business 'bA' is listed again; expected each business once (--strict)",
                 id="repeated-id"),
    pytest.param([BA, '{"name": "No Id"}'], None,
                 B + "business_id is None; expected a business_id string (--strict)",
                 id="business-id-missing"),
    pytest.param([BA], [R1, review(2, "u2", "bZ", 5, "2019-06-02 12:00:00", "x")],
                 R + f"business 'bZ' is not in {BUSINESS_NAME}; expected every reviewed "
                 "business to be listed there (--strict)", id="unknown-business"),
    pytest.param([BA], [R1, review(2, "u2", "bA", 9, "2019-06-02 12:00:00", "x")],
                 R + "stars is 9; expected a number of stars from 1 to 5 (--strict)",
                 id="stars-off-scale"),
    pytest.param([BA], [R1, review(2, "u2", "bA", "true", "2019-06-02 12:00:00", "x")],
                 R + "stars is True; expected a number of stars from 1 to 5 (--strict)",
                 id="stars-boolean"),
    pytest.param([BA], [R1, review(2, "u2", "bA", 4, "2019/01/01", "x")],
                 R + "date is '2019/01/01'; expected a date as YYYY-MM-DD HH:MM:SS (--strict)",
                 id="date-format"),
    pytest.param([BA], [R1, review(2, "u2", "bA", 4, "2018-02-30 00:00:00", "x")],
                 R + "date is '2018-02-30 00:00:00'; expected a date as YYYY-MM-DD HH:MM:SS "
                 "(--strict)", id="date-no-such-day"),
    pytest.param([BA], [R1, '{"business_id": "bA", "stars": 4, "date": "2019-01-01"}'],
                 R + "user_id is None; expected a user_id string (--strict)",
                 id="user-id-missing"),
    pytest.param([BA], [R1, '{"review_id": "r2", "user_id": "u2", "business_id": "bA", "sta'],
                 R + "the last line ends mid-record (an interrupted download?); expected a "
                 "whole JSON record (--strict)", id="last-line-cut"),
    pytest.param([BA], [R1, '{"user_id": "u', R3],
                 R + "not JSON (Unterminated string starting at column 13); expected one JSON "
                 "object per line (--strict)", id="middle-line-cut-is-malformed"),
]  # fmt: skip


def _nothing_left(out: Path) -> None:
    assert not out.exists()
    assert not out.parent.exists() or list(out.parent.iterdir()) == []


@pytest.mark.parametrize(("business", "reviews", "message"), STRICT)
def test_strict_refuses_the_first_bad_row_in_one_line(
    tmp_path: Path,
    run_prepare: Prepare,
    business: list[str],
    reviews: list[str] | None,
    message: str,
) -> None:
    source = write_dataset(tmp_path / "src", business, reviews or [R1])
    out = tmp_path / "out" / "yelp.sqlite"
    with pytest.raises(DataError) as err:
        run_prepare(source, out, strict=True)
    assert str(err.value) == message
    _nothing_left(out)
    # Without --strict the same row is dropped and counted, and the run succeeds.
    assert run_prepare(source, out).n_interactions >= 1


def test_a_byte_that_is_not_utf8_stops_the_run_in_one_line(
    tmp_path: Path, run_prepare: Prepare
) -> None:
    source = write_dataset(tmp_path / "src", [BA], [R1])
    write(source / REVIEW_NAME, R1.encode() + b'\n{"user_id": "u\xff"}\n')
    out = tmp_path / "out" / "yelp.sqlite"
    with pytest.raises(DataError) as err:
        run_prepare(source, out)
    assert str(err.value) == (
        f"{REVIEW_NAME}:2: byte 0xff at column 15 is not UTF-8; expected the file as "
        "published (UTF-8 text)"
    )
    _nothing_left(out)


def test_a_gzip_file_that_ends_early_stops_the_run_in_one_line(
    tmp_path: Path, run_prepare: Prepare
) -> None:
    source = write_dataset(tmp_path / "src", [BA], [R1, R3], gz=True)
    whole = gzip.compress(text_of([R1, R3, R1]).encode())
    (source / f"{REVIEW_NAME}.gz").write_bytes(whole[:-8])  # the trailer lost: all 3 lines read
    out = tmp_path / "out" / "yelp.sqlite"
    with pytest.raises(DataError) as err:
        run_prepare(source, out)
    assert str(err.value) == (
        f"{REVIEW_NAME}.gz:4: the compressed file ends early (truncated download?); "
        "expected a whole .gz file"
    )
    _nothing_left(out)


EMPTY = [
    pytest.param(b"", [R1], f"{BUSINESS_NAME}:1: no businesses; expected one JSON record per line",
                 id="business-file-empty"),
    pytest.param(b'{"name": "No Id"}\n["x"]\n', [R1],
                 f"{BUSINESS_NAME}: no usable business in 2 lines; expected records with a "
                 "business_id and a name", id="no-usable-business"),
    pytest.param(None, [review(1, "u1", "bZ", 5, "2018-01-02 10:00:00", "x"),
                        review(2, "u1", "bY", 5, "2018-01-02 10:00:00", "x")],
                 f"{REVIEW_NAME}: no review kept of 2 lines (dropped 2 reviews of businesses "
                 "with no metadata); expected at least one review of a listed business",
                 id="every-review-unknown"),
    pytest.param(None, ["   ", ""],
                 f"{REVIEW_NAME}:1: no reviews; expected one JSON record per line",
                 id="review-file-blank"),
]  # fmt: skip


@pytest.mark.parametrize(("business", "reviews", "message"), EMPTY)
def test_nothing_usable_is_an_error(
    tmp_path: Path, run_prepare: Prepare, business: bytes | None, reviews: list[str], message: str
) -> None:
    source = write_dataset(tmp_path / "src", [BA], reviews)
    if business is not None:
        write(source / BUSINESS_NAME, business)
    out = tmp_path / "out" / "yelp.sqlite"
    with pytest.raises(DataError) as err:
        run_prepare(source, out)
    assert str(err.value) == message
    _nothing_left(out)


def test_min_stars_leaving_nothing_says_so(tmp_path: Path, run_prepare: Prepare) -> None:
    source = write_dataset(tmp_path / "src", [BA], [review(1, "u", "bA", 4, "2018-01-02", "x")])
    with pytest.raises(DataError) as err:
        run_prepare(source, min_stars=4.5)
    assert str(err.value) == (
        f"{REVIEW_NAME}: no review kept of 1 lines (dropped 1 reviews below --min-stars); "
        "expected at least one review of at least 4.5 stars of a listed business"
    )


def test_files_not_found_are_one_line_each(tmp_path: Path, run_prepare: Prepare) -> None:
    only_business = tmp_path / "half"
    write(only_business / BUSINESS_NAME, BA + "\n")
    cases = {
        only_business: f"{only_business}: no {REVIEW_NAME} (or .json.gz); expected the Yelp "
        "Open Dataset's business and review files, as the tar Yelp publishes unpacks them",
        only_business / BUSINESS_NAME: f"{only_business}: no {REVIEW_NAME} (or .json.gz) "
        f"beside {BUSINESS_NAME}; expected the Yelp Open Dataset's business and review files, "
        "as the tar Yelp publishes unpacks them",
        write(tmp_path / "yelp_dataset.tar", b"x"): f"{tmp_path / 'yelp_dataset.tar'}: an "
        "archive; expected the folder it unpacks to (tar -xf yelp_dataset.tar) or the business "
        "file in it",
        write(tmp_path / "r" / REVIEW_NAME, R1): f"{tmp_path / 'r' / REVIEW_NAME}: the review "
        "file; expected the business file (the review file is found beside it) or their folder",
        tmp_path / "nowhere": f"{tmp_path / 'nowhere'}: no such file or folder; expected the "
        f"folder holding {BUSINESS_NAME} and {REVIEW_NAME}, or the business file",
    }
    for source, message in cases.items():
        with pytest.raises(DataError) as err:
            run_prepare(source)
        assert str(err.value) == message


def test_an_existing_database_is_kept_without_overwrite(
    tmp_path: Path, run_prepare: Prepare
) -> None:
    source = write_dataset(tmp_path / "src", [BA], [R1])
    out = write(tmp_path / "out" / "yelp.sqlite", b"keep me")
    with pytest.raises(DataError, match="already exists"):
        run_prepare(source, out)
    assert out.read_bytes() == b"keep me"
