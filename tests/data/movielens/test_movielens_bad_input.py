"""Every bad input ends in one DataError line, and leaves neither the database nor a temp file."""

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.movielens import csvio, dat, prepare_movielens
from macrs_sim.errors import DataError, MacrsSimError

Files = dict[str, str | bytes]
MakeRelease = Callable[[str, Files], Path]

RATINGS_HEAD = "userId,movieId,rating,timestamp\n"
EXPECTED_FILES = "expected movies.csv + ratings.csv or movies.dat + ratings.dat"


def _fails(source: Path, out_dir: Path, message: str, **kwargs: object) -> DataError:
    """prepare_movielens raises DataError containing ``message``; nothing is left in out_dir."""
    with pytest.raises(DataError, match=re.escape(message)) as info:
        prepare_movielens(source, out_dir / "ml.sqlite", **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, MacrsSimError)
    assert "\n" not in str(info.value)
    assert list(out_dir.iterdir()) == []
    return info.value


def test_source_missing(tmp_path: Path, out_dir: Path) -> None:
    _fails(tmp_path / "nope", out_dir, "nope: not found; expected a MovieLens folder or .zip")


def test_folder_that_is_not_a_release(make_release: MakeRelease, out_dir: Path) -> None:
    source = make_release("stuff", {"README.txt": "hello"})
    err = _fails(source, out_dir, EXPECTED_FILES)
    assert "not a MovieLens release (found neither)" in str(err)


def test_folder_with_movies_but_no_ratings(make_release: MakeRelease, out_dir: Path) -> None:
    source = make_release("ml-x", {"movies.csv": "movieId,title,genres\n"})
    _fails(source, out_dir, f"(found only movies.csv); {EXPECTED_FILES}")


def test_parent_with_two_releases(
    make_release: MakeRelease, latest_files: Files, out_dir: Path
) -> None:
    make_release("ml-a", latest_files)
    source = make_release("ml-b", latest_files).parent
    _fails(source, out_dir, "holds several MovieLens releases (ml-a, ml-b); expected one")


def test_zip_that_is_garbage(tmp_path: Path, out_dir: Path) -> None:
    archive = tmp_path / "ml-latest-small.zip"
    archive.write_bytes(b"this is not a zip file at all" * 10)
    _fails(archive, out_dir, "ml-latest-small.zip: corrupt zip archive")


def test_zip_that_is_truncated(
    latest_small: Path, tmp_path: Path, out_dir: Path, make_zip: Callable[[Path, Path], Path]
) -> None:
    archive = make_zip(latest_small, tmp_path / "ml-latest-small.zip")
    archive.write_bytes(archive.read_bytes()[: archive.stat().st_size // 2])
    _fails(archive, out_dir, "corrupt zip archive")


def test_zip_with_damaged_contents(latest_small: Path, tmp_path: Path, out_dir: Path) -> None:
    archive = tmp_path / "ml-latest-small.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        for path in sorted(latest_small.iterdir()):
            zf.write(path, f"ml-latest-small/{path.name}")
    data = bytearray(archive.read_bytes())
    at = data.index(b"1445714835")  # a timestamp inside ratings.csv, stored uncompressed
    data[at : at + 4] = b"9999"
    archive.write_bytes(bytes(data))
    _fails(archive, out_dir, "ml-latest-small/ratings.csv: could not read (Bad CRC-32")


def test_zip_without_a_release(tmp_path: Path, out_dir: Path) -> None:
    archive = tmp_path / "photos.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("photos/a.txt", "x")
    _fails(
        archive,
        out_dir,
        f"not a MovieLens release zip (no movies.csv or movies.dat); {EXPECTED_FILES}",
    )


CSV_CASES = [
    pytest.param(
        {"ratings.csv": "user,item,score,time\n1,1,4.0,5\n"},
        "ratings.csv:1: expected columns userId, movieId, rating, timestamp; "
        "found user, item, score, time",
        id="misnamed-columns",
    ),
    pytest.param(
        {"movies.csv": "movieId,title\n1,Heat (1995)\n"},
        "movies.csv:1: expected columns movieId, title, genres; found movieId, title",
        id="missing-column",
    ),
    pytest.param(
        {"ratings.csv": ""},
        "ratings.csv:1: expected columns userId, movieId, rating, timestamp; found nothing",
        id="empty-file",
    ),
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,1,4.0,5\n2,1,4.0,5\nu3,1,4.0,5\n"},
        "ratings.csv:4: userId: expected an integer, found 'u3'",
        id="non-integer-user",
    ),
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,1,4.0,5\n1,2,4.0,\n"},
        "ratings.csv:3: timestamp: expected an integer, found ''",
        id="empty-timestamp",
    ),
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,1,4.0,5\n1,2,4.0,5.5\n"},
        "ratings.csv:3: timestamp: expected an integer, found '5.5'",
        id="float-timestamp",
    ),
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,1,good,5\n"},
        "ratings.csv:2: rating: expected a number, found 'good'",
        id="non-numeric-rating",
    ),
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,1,4.0,5\n1,2,4.0,5,9\n"},
        "ratings.csv:3: expected 4 fields, found 5",
        id="extra-field",
    ),
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,2,4.0,5,9\n1,1,4.0,5\n"},
        "ratings.csv:2: expected 4 fields, found 5",
        id="extra-field-first-row",
    ),
    pytest.param(
        {"movies.csv": "movieId,title,genres\n1,Heat (1995),Action\nx2,Up (2009),Animation\n"},
        "movies.csv:3: movieId: expected an integer, found 'x2'",
        id="non-integer-movie-id",
    ),
    pytest.param(
        {"movies.csv": "movieId,title,genres\n1,Heat (1995),Action\n1,Up (2009),Animation\n"},
        "movies.csv:3: movie id 1 repeats line 2; expected each movie once",
        id="repeated-movie",
    ),
    pytest.param(
        {"movies.csv": "movieId,title,genres\n1,Am\xe9lie (2001),Comedy\n".encode("latin-1")},
        "movies.csv:2: not valid UTF-8 text (invalid continuation byte)",
        id="not-utf8",
    ),
    pytest.param(
        {
            "tags.csv": (
                "userId,movieId,tag,timestamp\n" + "1,1,fun,1\n" * 2000 + "1,1,caf\xe9,2\n"
            ).encode("latin-1")
        },
        "tags.csv:2002: not valid UTF-8 text",
        id="not-utf8-past-the-header",
    ),
    pytest.param(
        {"movies.csv": "movieId,title,genres\n1,,Action\n", "ratings.csv": RATINGS_HEAD},
        "movies.csv:2: movie 1 has an empty title",
        id="empty-title",
    ),
    pytest.param(
        {"genome-scores.csv": "movieId,tagId,relevance\n1,1,0.9\n"},
        "genome-scores.csv: found without genome-tags.csv; expected both",
        id="half-genome",
    ),
    pytest.param(
        {
            "genome-tags.csv": "tagId,tag\n1,funny\n",
            "genome-scores.csv": "movieId,tagId,relevance\n1,1,0.9\n1,7,0.9\n",
        },
        "genome-scores.csv:3: tagId 7 is not in genome-tags.csv",
        id="unknown-genome-tag",
    ),
    pytest.param(
        {"movies.csv": "movieId,title,genres,title \n1,Heat (1995),Action,x\n"},
        "movies.csv:1: column 'title' appears twice; expected each column once",
        id="column-twice-after-stripping",
    ),
    pytest.param(
        {"movies.csv": 'movieId,title,genres\n1,Heat (1995),Action\n2,"Up (2009),Animation\n'},
        'movies.csv:3: a quoted field never closes; expected a closing "',
        id="unclosed-quote",
    ),
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,1,4.0,5\n1,2,4.0,99999999999999999999\n"},
        "ratings.csv:3: timestamp: expected an integer of at most 18 digits, found "
        "'99999999999999999999'",
        id="integer-too-big",
    ),
    pytest.param(
        {"tags.csv": "userId,movieId,tag,timestamp\n1,1,fun,x\n"},
        "tags.csv:2: timestamp: expected an integer, found 'x'",
        id="bad-tag-timestamp",
    ),
]


STRICT_CASES = [
    pytest.param(
        {"ratings.csv": RATINGS_HEAD + "1,1,4.0,5\n1,2,4.0,5\n2,3,4.0,5\n2,42,1.0,5\n"},
        "ratings.csv:5: movie id 42 is not in movies.csv; expected every rated movie to be "
        "listed there (--strict)",
        id="unknown-rated-movie",
    ),
    pytest.param(
        {"tags.csv": "userId,movieId,tag,timestamp\n1,1,fun,1\n1,999,orphan,2\n"},
        "tags.csv:3: movie id 999 is not in movies.csv; expected every tagged movie",
        id="unknown-tagged-movie",
    ),
    pytest.param(
        {"links.csv": "movieId,imdbId,tmdbId\n1,0114709,862\n2,0111161,278\n77,0000001,\n"},
        "links.csv:4: movie id 77 is not in movies.csv; expected every linked movie",
        id="unknown-linked-movie",
    ),
]


@pytest.mark.parametrize("chunk_rows", [500_000, 1])
@pytest.mark.parametrize(("changes", "message"), STRICT_CASES)
def test_strict_refuses_unknown_movies(
    make_release: MakeRelease,
    latest_files: Files,
    out_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    changes: Files,
    message: str,
    chunk_rows: int,
) -> None:
    monkeypatch.setattr(csvio, "CHUNK_ROWS", chunk_rows)
    # The fixture's own orphan tag (movie 999) is taken out so each case has one fault.
    tags = str(latest_files["tags.csv"]).replace("1,999,orphan tag,10\n", "")
    source = make_release("ml-latest-small", {**latest_files, "tags.csv": tags, **changes})
    _fails(source, out_dir, message, strict=True)
    prepare_movielens(source, out_dir / "ok.sqlite")  # the default drops and counts instead


@pytest.mark.parametrize("batch_rows", [200_000, 1])
def test_strict_dat_line_after_blank_line(
    make_release: MakeRelease, out_dir: Path, monkeypatch: pytest.MonkeyPatch, batch_rows: int
) -> None:
    monkeypatch.setattr(dat, "BATCH_ROWS", batch_rows)
    files: Files = {
        "movies.dat": DAT_MOVIES,
        "ratings.dat": "1::1::5::97\n\n1::2::4::98\n1::3::4::99\n",
    }
    source = make_release("ml-1m", files)
    _fails(source, out_dir, "ratings.dat:4: movie id 3 is not in movies.dat", strict=True)


@pytest.mark.parametrize("chunk_rows", [500_000, 1])
@pytest.mark.parametrize(("changes", "message"), CSV_CASES)
def test_bad_csv(
    make_release: MakeRelease,
    latest_files: Files,
    out_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    changes: Files,
    message: str,
    chunk_rows: int,
) -> None:
    monkeypatch.setattr(csvio, "CHUNK_ROWS", chunk_rows)  # line numbers hold across chunks
    source = make_release("ml-latest-small", {**latest_files, **changes})
    _fails(source, out_dir, message)


DAT_MOVIES = "1::Toy Story (1995)::Animation\n2::Heat (1995)::Action\n"
DAT_CASES = [
    pytest.param(
        {"ratings.dat": "1::1::5::97\n1::2::4::98\n1::2::3\n"},
        "ratings.dat:3: expected UserID::MovieID::Rating::Timestamp, found '1::2::3'",
        id="short-line",
    ),
    pytest.param(
        {"ratings.dat": "1::1::5::97\nx::2::4::98\n"},
        "ratings.dat:2: UserID: expected an integer, found 'x'",
        id="non-integer-user",
    ),
    pytest.param(
        {"ratings.dat": "1::1::5::97\n1::2::4::soon\n"},
        "ratings.dat:2: Timestamp: expected an integer, found 'soon'",
        id="non-integer-timestamp",
    ),
    pytest.param(
        {"ratings.dat": "1::1::5::97\n1::2::4::9223372036854775808\n"},
        "ratings.dat:2: Timestamp: expected an integer of at most 18 digits, found "
        "'9223372036854775808'",
        id="integer-too-big",
    ),
    pytest.param(
        {"ratings.dat": "1::1::5::97\n1::2::five::98\n"},
        "ratings.dat:2: Rating: expected a number, found 'five'",
        id="non-numeric-rating",
    ),
    pytest.param(
        {"movies.dat": DAT_MOVIES + "3::No Genres (2000)\n"},
        "movies.dat:3: expected MovieID::Title::Genres, found '3::No Genres (2000)'",
        id="short-movie-line",
    ),
    pytest.param(
        {"movies.dat": DAT_MOVIES + "three::Up (2009)::Animation\n"},
        "movies.dat:3: MovieID: expected an integer, found 'three'",
        id="non-integer-movie-id",
    ),
    pytest.param(
        {"tags.dat": "1::1::pixar::97\n1::2::heist\n"},
        "tags.dat:2: expected UserID::MovieID::Tag::Timestamp, found '1::2::heist'",
        id="short-tag-line",
    ),
]


@pytest.mark.parametrize("batch_rows", [200_000, 1])
@pytest.mark.parametrize(("changes", "message"), DAT_CASES)
def test_bad_dat(
    make_release: MakeRelease,
    out_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    changes: Files,
    message: str,
    batch_rows: int,
) -> None:
    monkeypatch.setattr(dat, "BATCH_ROWS", batch_rows)
    files: Files = {"movies.dat": DAT_MOVIES, "ratings.dat": "1::1::5::97\n", **changes}
    _fails(make_release("ml-1m", files), out_dir, message)


def test_existing_out_is_kept_without_overwrite(latest_small: Path, out_dir: Path) -> None:
    out = out_dir / "ml.sqlite"
    out.write_text("keep me")
    with pytest.raises(DataError, match="ml.sqlite: already exists"):
        prepare_movielens(latest_small, out)
    assert out.read_text() == "keep me"
    assert [p.name for p in out_dir.iterdir()] == ["ml.sqlite"]


def test_out_is_a_folder(latest_small: Path, out_dir: Path) -> None:
    (out_dir / "ml.sqlite").mkdir()
    with pytest.raises(DataError, match="is a folder; expected the path of the database file"):
        prepare_movielens(latest_small, out_dir / "ml.sqlite", overwrite=True)
    assert [p.name for p in out_dir.iterdir()] == ["ml.sqlite"]


def test_failed_overwrite_keeps_the_old_database(
    make_release: MakeRelease, latest_files: Files, latest_small: Path, out_dir: Path
) -> None:
    out = out_dir / "ml.sqlite"
    prepare_movielens(latest_small, out)
    before = out.read_bytes()
    bad = make_release("ml-bad", {**latest_files, "ratings.csv": RATINGS_HEAD + "1,77,4.0,5\n"})
    with pytest.raises(DataError, match=r"every rating \(1\) is of a movie not in movies.csv"):
        prepare_movielens(bad, out, overwrite=True)
    assert out.read_bytes() == before
    assert [p.name for p in out_dir.iterdir()] == ["ml.sqlite"]
