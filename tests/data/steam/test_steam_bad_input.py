"""Bad Steam input: `strict`'s one-line refusals, files that cannot be read at all, and
that a failed run leaves neither the database nor a temporary file behind."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from macrs_sim.data.steam.prepare import prepare
from macrs_sim.data.steam.spec import SteamOptions
from macrs_sim.errors import DataError

from .conftest import AUSTRALIAN, GAMES, encode, reviews_bytes, write

GAME = "{u'app_name': u'Moss Lantern', u'genres': [u'Indie'], u'id': u'1001'}"
REVIEW = "{u'username': u'amber', u'product_id': u'1001', u'date': u'2017-12-17'}"


def fails(folder: Path, out: Path, match: str, **options: object) -> None:
    """`prepare` refuses with exactly the one line `match`, and leaves nothing in out's folder."""
    with pytest.raises(DataError) as caught:
        prepare(folder, out, SteamOptions.model_validate(options), overwrite=False)
    assert str(caught.value) == match
    assert "\n" not in str(caught.value)
    assert list(out.parent.iterdir()) == []


STRICT = [
    pytest.param(
        [GAME, "{u'app_name': u'<b></b>', u'id': u'1002'}"], [REVIEW],
        "steam_games.json:2: game 1002 has no title; expected text in 'app_name' or 'title' "
        "(--strict)",
        id="html-only-title",
    ),
    pytest.param(
        [GAME, "{u'app_name': u'Orphan'}"], [REVIEW],
        "steam_games.json:2: a game with no id; expected its app id in 'id' (--strict)",
        id="no-id",
    ),
    pytest.param(
        [GAME, GAME], [REVIEW],
        "steam_games.json:2: game 1001 is listed again; expected each id once (--strict)",
        id="repeated-id",
    ),
    pytest.param(
        ["{u'app_name': u'Cut', u'id': ", GAME], [REVIEW],
        "steam_games.json:1: not a Python dict literal; expected one game per line, as "
        "published (--strict)",
        id="malformed-middle-line",
    ),
    pytest.param(
        [GAME], [REVIEW, "{u'username': u'amber', u'product_id': u'9999', u'date': u'2017-12-18'}"],
        "steam_reviews.json:2: game 9999 is not in steam_games.json; expected every reviewed "
        "game to be listed there (--strict)",
        id="review-of-unknown-game",
    ),
    pytest.param(
        [GAME], [REVIEW, "{u'username': u'amber', u'prod"],
        "steam_reviews.json:2: the last line is cut short (an interrupted download?); expected "
        "one review per line, complete (--strict)",
        id="truncated-last-line",
    ),
    pytest.param(
        [GAME], ["{u'username': u'amber', u'product_id': u'1001', u'date': u'Dec 2017'}", REVIEW],
        "steam_reviews.json:1: date 'Dec 2017': expected a date like '2017-12-17' (--strict)",
        id="bad-date",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("games", "reviews", "message"), STRICT)
def test_strict_refuses_in_one_line(
    tmp_path: Path, out: Path, games: list[str], reviews: list[str], message: str
) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(games))
    write(folder, "steam_reviews.json", encode(reviews).rstrip(b"\n"))
    fails(folder, out, message, strict=True)
    # Without strict the same files prepare, the bad row dropped.
    assert prepare(folder, out, SteamOptions(), overwrite=False).n_interactions == 1


def test_strict_names_the_australian_review(tmp_path: Path, out: Path) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(GAMES))
    write(folder, "australian_user_reviews.json", encode(AUSTRALIAN))
    fails(
        folder / "australian_user_reviews.json",
        out,
        "steam_games.json:3: game 1003 has no title; expected text in 'app_name' or 'title' "
        "(--strict)",
        strict=True,
    )
    write(folder, "steam_games.json", encode([GAME, GAME.replace("1001", "1002")]))
    write(folder, "australian_user_reviews.json", encode(AUSTRALIAN[1:2]))
    fails(
        folder,
        out,
        "australian_user_reviews.json:1 (review 1): posted 'Posted February 30, 2014.': "
        "expected a date like 'Posted November 5, 2011.' (--strict)",
        strict=True,
    )


def test_a_byte_that_is_not_utf8_is_one_line(tmp_path: Path, out: Path) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode([GAME]))
    bad = encode([REVIEW, REVIEW]) + b"{u'username': u'\xff'}\n"
    write(folder, "steam_reviews.json", bad, gz=True)
    fails(
        folder,
        out,
        "steam_reviews.json.gz:3: byte 0xff at column 17 is not UTF-8; expected the file as "
        "published (UTF-8 text)",
    )


def test_a_gz_that_ends_early_is_one_line(tmp_path: Path, out: Path) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode([GAME]))
    whole = gzip.compress(encode([REVIEW] * 200))
    (folder / "steam_reviews.json.gz").write_bytes(whole[: len(whole) - 12])
    with pytest.raises(DataError, match=r"^steam_reviews\.json\.gz:\d+: the compressed file ends "):
        prepare(folder, out, SteamOptions(), overwrite=False)
    assert list(out.parent.iterdir()) == []


def test_no_review_left_is_an_error(tmp_path: Path, out: Path) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode([GAME]))
    write(folder, "steam_reviews.json", encode([REVIEW.replace("1001", "9999")]))
    fails(
        folder,
        out,
        "steam_reviews.json: no review of a game in steam_games.json; expected at least one",
    )


def test_no_usable_game_is_an_error(tmp_path: Path, out: Path) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(["{u'app_name': u'No id'}", "[1, 2]"]))
    write(folder, "steam_reviews.json", encode([REVIEW]))
    fails(folder, out, "steam_games.json: no game with an id and a title; expected at least one")


EXPECTED = (
    "the folder holding steam_games.json(.gz) and steam_reviews.json(.gz) or "
    "australian_user_reviews.json(.gz)"
)


def test_missing_files_are_one_line(tmp_path: Path, out: Path) -> None:
    folder = tmp_path / "steam"
    fails(folder, out, f"{folder}: no such folder; expected {EXPECTED}")
    write(folder, "steam_reviews.json", encode([REVIEW]))
    fails(folder, out, f"{folder}: no steam_games.json(.gz); expected {EXPECTED}")
    write(folder, "steam_games.json", encode([GAME]))
    fails(
        folder,
        out,
        f"{folder}: no australian_user_reviews.json(.gz); expected it there "
        "(--interactions australian)",
        interactions="australian",
    )
    (folder / "steam_reviews.json").unlink()
    fails(folder, out, f"{folder}: no reviews file; expected {EXPECTED}")
    other = write(folder, "notes.txt", b"hello\n")
    fails(other, out, f"{other}: not a Steam file; expected {EXPECTED}")


def test_an_existing_database_is_kept_unless_overwriting(steam_folder: Path, out: Path) -> None:
    out.write_bytes(b"keep me")
    with pytest.raises(DataError, match="already exists"):
        prepare(steam_folder, out, SteamOptions(), overwrite=False)
    assert out.read_bytes() == b"keep me"
    assert prepare(steam_folder, out, SteamOptions(), overwrite=True).n_interactions == 5


def test_reviews_plain_and_gz_read_the_same(tmp_path: Path) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(GAMES), gz=True)
    write(folder, "steam_reviews.json", reviews_bytes(), gz=True)
    gz = prepare(folder, tmp_path / "gz.sqlite", SteamOptions(), overwrite=False)
    write(folder, "steam_reviews.json", reviews_bytes())  # the plain one is read first
    plain = prepare(folder, tmp_path / "plain.sqlite", SteamOptions(), overwrite=False)
    assert (gz.n_users, gz.n_items, gz.n_interactions) == (2, 4, 5)
    assert (plain.n_users, plain.n_items, plain.n_interactions) == (2, 4, 5)
