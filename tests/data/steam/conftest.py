"""Hand-written miniature Steam files in the formats Kang & McAuley publish: one Python
dict literal per line (`u''` strings in steam_games and steam_reviews, plain quotes in the
Australian file). Every game, user and review below is made up; expected values in the
tests are worked out by hand from these lines.
"""

from __future__ import annotations

import gzip
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli_runner import run_cli as run_in_process

# Game 1001: entity and trailing spaces in its name, 12 tags (10 kept, 2 keywords).
# 1002: no genres (its first 3 tags stand in), a title with a tag in it, free, early access.
# 1003: a title that is only HTML (dropped). Then: a line with no id, a repeated id 1001,
# a line cut in the middle and one that is code, not data (both unreadable).
# 1004: "Coming Soon", over $30. 1005: "Install Now" (no price). 1006: nobody reviews it.
GAMES = [
    "{u'publisher': u'Fernleaf Studio', u'genres': [u'Adventure', u'Indie'], "
    "u'app_name': u'Moss &amp; Lantern  ', u'title': u'Moss and Lantern', "
    "u'url': u'http://store.example/app/1001/', u'release_date': u'2016-03-04', "
    "u'tags': [u'Atmospheric', u'Puzzle', u'Exploration', u'Relaxing', u'Indie', "
    "u'Adventure', u'Singleplayer', u'Cute', u'Story Rich', u'Great Soundtrack', u'Short', "
    "u'Hand-drawn'], u'discount_price': 7.49, u'specs': [u'Single-player', "
    "u'Steam Achievements'], u'price': 9.99, u'early_access': False, u'id': u'1001', "
    "u'developer': u'Fernleaf Studio', u'sentiment': u'Very Positive', u'metascore': 81}   ",
    "  {u'title': u'Turbo <i>Lane</i>', u'release_date': u'Jan 2015', "
    "u'tags': [u'Racing', u'Multiplayer', u'Arcade', u'Cars'], u'specs': [u'Online PvP'], "
    "u'price': u'Free to Play', u'early_access': True, u'id': u'1002', "
    "u'developer': u'Gridline'}",
    "{u'app_name': u'<br/>', u'title': u'<p> </p>', u'id': u'1003', u'genres': [u'Casual']}",
    "{u'app_name': u'Orphan Store Page', u'url': u'http://store.example/app/none/', "
    "u'tags': [u'Casual'], u'early_access': False}",
    "{u'app_name': u'Moss and Lantern Deluxe', u'id': u'1001', u'genres': [u'Indie']}",
    "{u'app_name': u'Broken Line', u'id': u'1007', u'genres': ",
    "__import__('os').system('touch PWNED')",
    "{u'app_name': u'Iron Accord', u'genres': [u'Strategy'], u'release_date': "
    "u'Coming Soon', u'price': 39.99, u'id': u'1004', u'developer': u'Brassworks'}",
    "{u'app_name': u'Quiet Harbor', u'genres': [u'RPG'], u'release_date': u'2014-07-01', "
    "u'price': u'Install Now', u'id': u'1005', u'publisher': u'Tidewater'}",
    "{u'app_name': u'Nobody Plays This', u'genres': [u'Casual'], u'id': u'1006'}",
]

# amber fox (no user_id): 1002 on 12-10, then 1001 and 1005 on 12-17 in file order.
# Cobalt (user_id 76500000000000001): 1004 and 1001 on the same day, in file order.
# Dropped: a review of 9999 and of 1003 (no metadata), a line cut in the middle, a date
# that is no date, a review with no user, one with no game, and the last line, cut short.
REVIEWS = [
    "{u'username': u'amber fox', u'hours': 12.5, u'products': 40, u'product_id': u'1001', "
    "u'page_order': 0, u'date': u'2017-12-17', u'text': u'Lovely little puzzle game.', "
    "u'early_access': False, u'page': 1}",
    "{u'username': u'amber fox', u'product_id': u'1002', u'date': u'2017-12-10', "
    "u'text': u'Fast.', u'page': 1, u'page_order': 1, u'found_funny': 2}",
    "{u'username': u'Cobalt', u'user_id': u'76500000000000001', u'product_id': u'1004', "
    "u'date': u'2016-05-01', u'text': u'Deep.', "
    "u'compensation': u'Product received for free'}",
    "{u'username': u'Cobalt', u'user_id': u'76500000000000001', u'product_id': u'1001', "
    "u'date': u'2016-05-01', u'text': u'Same day.'}",
    "{u'username': u'amber fox', u'product_id': u'9999', u'date': u'2017-12-01'}",
    "{u'username': u'x', u'product_id': u'1001', u'date': }",
    "{u'username': u'amber fox', u'product_id': u'1005', u'date': u'2017-12-17', "
    "u'hours': 1.0, u'text': u''}",
    "{u'username': u'dune', u'product_id': u'1002', u'date': u'not a date'}",
    "{u'product_id': u'1002', u'date': u'2017-01-01'}",
    "{u'username': u'dune', u'date': u'2017-01-01'}",
    "{u'username': u'dune', u'product_id': u'1003', u'date': u'2017-01-02'}",
    "{u'username': u'dune', u'product_id': u'10",
]

# quill77: 1002 (2010), 1004 and 1005 (the same day, list order), 1001 (no year: 2016).
# reed: only 1002 is left (a February 30, an unknown game, a review that is not a dict,
# one with no item_id). A user with no user_id (2 reviews dropped); one with none at all.
AUSTRALIAN = [
    "{'user_id': 'quill77', 'user_url': 'http://steamcommunity.example/id/quill77', "
    "'reviews': [{'funny': '', 'posted': 'Posted November 5, 2011.', 'last_edited': '', "
    "'item_id': '1004', 'helpful': 'No ratings yet', 'recommend': True, "
    "'review': 'Great strategy.'}, {'funny': '', 'posted': 'Posted March 3.', "
    "'last_edited': '', 'item_id': '1001', "
    "'helpful': '1 of 2 people (50%) found this review helpful', 'recommend': False, "
    "'review': 'Too short.'}, {'funny': '1 person found this review funny', "
    "'posted': 'Posted June 2, 2010.', 'last_edited': 'Last edited June 3, 2010.', "
    "'item_id': '1002', 'helpful': 'No ratings yet', 'recommend': True, 'review': 'Fun.'}, "
    "{'posted': 'Posted November 5, 2011.', 'item_id': '1005', 'recommend': True, "
    "'review': 'Same day.'}]}",
    "{'user_id': 'reed', 'user_url': 'http://steamcommunity.example/id/reed', 'reviews': ["
    "{'posted': 'Posted February 30, 2014.', 'item_id': '1001', 'recommend': True}, "
    "{'posted': 'Posted May 1, 2014.', 'item_id': '4242', 'recommend': True}, "
    "{'posted': 'Posted May 2, 2014.', 'item_id': '1002', 'recommend': False, "
    "'review': 'ok'}, 'junk', {'posted': 'Posted May 3, 2014.', 'recommend': True}]}",
    "{'user_url': 'http://steamcommunity.example/id/nobody', 'reviews': ["
    "{'posted': 'Posted May 2, 2014.', 'item_id': '1002'}, "
    "{'posted': 'Posted May 3, 2014.', 'item_id': '1004'}]}",
    "{'user_id': 'silent', 'user_url': 'http://steamcommunity.example/id/silent', 'reviews': []}",
]


def encode(lines: list[str], *, crlf: bool = False) -> bytes:
    return ("\r\n" if crlf else "\n").join(lines).encode("utf-8") + (b"" if crlf else b"\n")


def write(folder: Path, name: str, data: bytes, *, gz: bool = False) -> Path:
    """`name` (or `name.gz`, gzip-compressed here) in `folder` holding `data`."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / (f"{name}.gz" if gz else name)
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


def reviews_bytes() -> bytes:
    """REVIEWS with its last line cut short: no newline after it, as a download stops."""
    return encode(REVIEWS).rstrip(b"\n")


@pytest.fixture
def steam_folder(tmp_path: Path) -> Path:
    """games (CRLF line ends) and steam_reviews, plain."""
    folder = tmp_path / "steam"
    write(folder, "steam_games.json", encode(GAMES, crlf=True))
    write(folder, "steam_reviews.json", reviews_bytes())
    return folder


@pytest.fixture
def out(tmp_path: Path) -> Path:
    folder = tmp_path / "out"
    folder.mkdir()
    return folder / "steam.sqlite"


RunCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_cli(tmp_path: Path) -> RunCli:
    """``macrs-sim ARGS`` in tmp_path, in this process (tests/cli_runner.py)."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_in_process(*args, cwd=tmp_path)

    return run
