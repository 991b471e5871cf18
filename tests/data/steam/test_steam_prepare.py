"""`prepare` on hand-written Steam folders: the items, each user's sequence, the counts of
what was dropped, read back through `open_dataset` as a scenario would."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.domain import GAMES
from macrs_sim.data.steam.prepare import prepare
from macrs_sim.data.steam.spec import SteamOptions
from macrs_sim.protocol import Item
from tests.data.conftest import Query

from .conftest import AUSTRALIAN, encode, reviews_bytes, write
from .conftest import GAMES as GAME_LINES

TEN_TAGS = [
    "Atmospheric", "Puzzle", "Exploration", "Relaxing", "Indie", "Adventure", "Singleplayer",
    "Cute", "Story Rich", "Great Soundtrack",
]  # fmt: skip
ITEMS = {
    "1001": Item.model_validate(
        {
            "item_id": "1001",
            "title": "Moss & Lantern",
            "year": 2016,
            "categories": ("Adventure", "Indie"),
            "attributes": {
                "developer": ["Fernleaf Studio"],
                "publisher": ["Fernleaf Studio"],
                "tags": TEN_TAGS,
                "specs": ["Single-player", "Steam Achievements"],
                "price": ["9.99"],
                "price_band": ["under $10"],
            },
            "keywords": ("Short", "Hand-drawn"),
        }
    ),
    "1002": Item.model_validate(
        {
            "item_id": "1002",
            "title": "Turbo Lane",
            "year": 2015,
            "categories": ("Racing", "Multiplayer", "Arcade"),
            "attributes": {
                "developer": ["Gridline"],
                "tags": ["Racing", "Multiplayer", "Arcade", "Cars"],
                "specs": ["Online PvP"],
                "price": ["free"],
                "price_band": ["free"],
                "early_access": ["yes"],
            },
        }
    ),
    "1004": Item.model_validate(
        {
            "item_id": "1004",
            "title": "Iron Accord",
            "categories": ("Strategy",),
            "attributes": {
                "developer": ["Brassworks"],
                "price": ["39.99"],
                "price_band": ["over $30"],
            },
        }
    ),
    "1005": Item.model_validate(
        {
            "item_id": "1005",
            "title": "Quiet Harbor",
            "year": 2014,
            "categories": ("RPG",),
            "attributes": {"publisher": ["Tidewater"]},
        }
    ),
}
GAMES_DROPPED = {
    "dropped: games with no id": "1",
    "dropped: games with no title": "1",
    "dropped: repeated game ids": "1",
    "dropped: unreadable lines of steam_games.json": "2",
}


def meta_of(query: Query, db: Path) -> dict[str, str]:
    return {str(k): str(v) for k, v in query(db, "SELECT key, value FROM meta")}


@pytest.mark.parametrize("gz", [False, True], ids=["plain", "gz"])
def test_steam_reviews_release(tmp_path: Path, out: Path, query: Query, gz: bool) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(GAME_LINES, crlf=True), gz=gz)
    write(folder, "steam_reviews.json", reviews_bytes(), gz=gz)
    result = prepare(folder, out, SteamOptions(), overwrite=False)
    assert (result.release, result.n_users, result.n_items, result.n_interactions) == (
        "steam:reviews", 2, 4, 5,
    )  # fmt: skip

    dataset = open_dataset(DataConfig(dataset=str(out)))
    assert dataset.domain is GAMES
    assert [item.item_id for item in dataset.catalog] == ["1001", "1002", "1004", "1005"]
    for item_id, item in ITEMS.items():
        assert dataset.catalog[item_id] == item
    assert dataset.sequences() == {
        "amber fox": ["1002", "1001", "1005"],  # 12-10, then 12-17 twice in file order
        "76500000000000001": ["1004", "1001"],  # user_id over username; one day, file order
    }
    assert dataset.popularity == {"1001": 2, "1002": 1, "1004": 1, "1005": 1}
    rows = query(out, "SELECT user_id, item_id, rating, timestamp FROM interactions ORDER BY rowid")
    assert rows[:2] == [
        ("amber fox", "1001", None, 1513468800),
        ("amber fox", "1002", None, 1512864000),
    ]
    assert rows[2][3] == 1462060800  # 2016-05-01, UTC midnight
    assert query(out, "SELECT COUNT(*) FROM reviews") == [(0,)]  # keep_text off

    meta = meta_of(query, out)
    assert {k: v for k, v in meta.items() if k.startswith("dropped")} == {
        **GAMES_DROPPED,
        "dropped: reviews of games with no metadata": "2",  # 9999, and 1003 (no title)
        "dropped: reviews with no game id": "1",
        "dropped: reviews with no readable date": "1",
        "dropped: reviews with no user": "1",
        "dropped: truncated last line of steam_reviews.json": "1",
        "dropped: unreadable lines of steam_reviews.json": "1",
    }
    assert (meta["kind"], meta["release"], meta["strict"]) == ("steam", "steam:reviews", "false")
    suffix = ".gz" if gz else ""
    assert meta["interactions_file"] == f"steam_reviews.json{suffix}"
    assert "dropped 2 reviews of games with no metadata" in result.lines
    assert "dropped 1 truncated last line of steam_reviews.json" in result.lines
    assert len(result.lines) == 10
    assert not (tmp_path / "PWNED").exists() and not Path("PWNED").exists()


def test_keep_text_keeps_each_review_text(steam_folder: Path, out: Path, query: Query) -> None:
    prepare(steam_folder, out, SteamOptions(keep_text=True), overwrite=False)
    kept = query(
        out,
        "SELECT i.user_id, i.item_id, r.summary, r.text FROM reviews r "
        "JOIN interactions i ON i.rowid = r.interaction ORDER BY r.interaction",
    )
    assert kept == [
        ("amber fox", "1001", None, "Lovely little puzzle game."),
        ("amber fox", "1002", None, "Fast."),
        ("76500000000000001", "1004", None, "Deep."),
        ("76500000000000001", "1001", None, "Same day."),
    ]  # 1005's review text is empty: no row


def test_australian_reviews(tmp_path: Path, out: Path, query: Query) -> None:
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(GAME_LINES), gz=True)
    write(folder, "australian_user_reviews.json", encode(AUSTRALIAN, crlf=True), gz=True)
    result = prepare(folder, out, SteamOptions(keep_text=True), overwrite=False)
    assert (result.release, result.n_users, result.n_interactions) == ("steam:australian", 2, 5)
    dataset = open_dataset(DataConfig(dataset=str(out)))
    assert dataset.sequences() == {
        # 2010-06-02; 2011-11-05 twice (list order); "March 3." without a year: 2016
        "quill77": ["1002", "1004", "1005", "1001"],
        "reed": ["1002"],
    }
    assert dataset.catalog["1001"] == ITEMS["1001"]
    rows = query(
        out,
        "SELECT item_id, rating, timestamp FROM interactions WHERE user_id = 'quill77' "
        "ORDER BY rowid",
    )
    assert rows == [
        ("1004", None, 1320451200),
        ("1001", None, 1456963200),
        ("1002", None, 1275436800),
        ("1005", None, 1320451200),
    ]
    texts = query(out, "SELECT text FROM reviews ORDER BY interaction")
    assert [t for (t,) in texts] == ["Great strategy.", "Too short.", "Fun.", "Same day.", "ok"]
    meta = meta_of(query, out)
    assert {k: v for k, v in meta.items() if k.startswith("dropped")} == {
        **GAMES_DROPPED,
        "dropped: reviews of games with no metadata": "1",
        "dropped: reviews with no game id": "1",
        "dropped: reviews with no readable date": "1",
        "dropped: reviews with no user": "2",
        "dropped: unreadable reviews": "1",
    }
    assert (meta["undated_year"], meta["undated_reviews"]) == ("2016", "1")
    assert meta["interactions_file"] == "australian_user_reviews.json.gz"
    assert (
        result.lines[0] == "dated 1 reviews posted without a year in 2016 (the year of the crawl)"
    )


def test_both_review_files_read_steam_reviews_unless_told(steam_folder: Path, out: Path) -> None:
    write(steam_folder, "australian_user_reviews.json", encode(AUSTRALIAN))
    result = prepare(steam_folder, out, SteamOptions(), overwrite=False)
    assert result.release == "steam:reviews" and result.n_interactions == 5
    assert result.lines[0] == (
        "both steam_reviews.json and australian_user_reviews.json are there: read "
        "steam_reviews.json (--interactions australian reads the other)"
    )
    chosen = prepare(steam_folder, out, SteamOptions(interactions="australian"), overwrite=True)
    assert (chosen.release, chosen.n_interactions) == ("steam:australian", 5)
    assert not any(line.startswith("both") for line in chosen.lines)


def test_a_file_of_the_set_stands_for_its_folder(steam_folder: Path, out: Path) -> None:
    write(steam_folder, "australian_user_reviews.json", encode(AUSTRALIAN))
    result = prepare(
        steam_folder / "australian_user_reviews.json", out, SteamOptions(), overwrite=False
    )
    assert (result.release, result.n_users) == ("steam:australian", 2)
