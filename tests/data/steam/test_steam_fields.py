"""The field rules of the Steam loader, value by value: prices and their bands, release
years, titles with HTML in them, the Australian file's "Posted ..." dates, literal lines."""

from __future__ import annotations

import warnings

import pytest

from macrs_sim.data.steam.australian import posted_day
from macrs_sim.data.steam.games import clean, clean_list, game_title, price, release_year
from macrs_sim.data.steam.records import literal, text_id


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (9.99, ("9.99", "under $10")),
        (10, ("10.00", "$10 to $30")),
        (29.99, ("29.99", "$10 to $30")),
        (30.0, ("30.00", "$10 to $30")),
        (30.01, ("30.01", "over $30")),
        (0.0, ("free", "free")),
        ("Free", ("free", "free")),
        ("Free To Play", ("free", "free")),
        ("free to play", ("free", "free")),
        ("4.99", ("4.99", "under $10")),
        ("$59.99", ("59.99", "over $30")),
        ("Free Demo", None),
        ("Install Now", None),
        ("Starting at $499.00", None),
        (True, None),
        (None, None),
        (float("nan"), None),
        (-1.0, None),
    ],
)
def test_price_and_band(value: object, expected: tuple[str, str] | None) -> None:
    assert price(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2018-01-04", 2018),
        ("Jan 2018", 2018),
        ("Oct 21, 1998", 1998),
        ("Coming Soon", None),
        ("", None),
        (None, None),
        (20180104, None),
    ],
)
def test_release_year(value: object, expected: int | None) -> None:
    assert release_year(value) == expected


def test_titles_lose_html_entities_control_characters_and_extra_spaces() -> None:
    assert clean("  Moss &amp; Lantern\t ") == "Moss & Lantern"
    assert clean("<b>Turbo</b>  <i>Lane</i>") == "Turbo Lane"
    assert clean("&lt;b&gt;Bold&lt;/b&gt; Move") == "Bold Move"  # escaped tags are tags too
    assert clean("I <3 Cats") == "I <3 Cats"  # not a tag
    assert clean("Line\x00Break\x1b") == "Line Break"
    assert clean("<br/><p> </p>") == ""
    assert clean(1849) == "1849" and clean(None) == "" and clean(True) == ""
    assert game_title({"app_name": "<br>", "title": "Backup Title"}) == "Backup Title"
    assert game_title({"app_name": "Name", "title": "Other"}) == "Name"
    assert game_title({"title": "&nbsp;"}) == ""


def test_list_fields() -> None:
    assert clean_list(["Action", " Action ", "", "<b>RPG</b>", None]) == ["Action", "RPG"]
    assert clean_list("Action") == ["Action"]
    assert clean_list(None) == [] and clean_list(7) == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Posted November 5, 2011.", (1320451200, True)),
        ("Posted March 3.", (1456963200, False)),  # the crawl's year, 2016
        ("Posted February 29.", (1456704000, False)),  # 2016 is a leap year
        ("  posted Nov 5, 2011 ", (1320451200, True)),
        ("Posted February 30, 2014.", None),
        ("Posted Smarch 3, 2014.", None),
        ("Last edited June 3, 2010.", None),
        ("", None),
        (None, None),
    ],
)
def test_posted_dates(value: object, expected: tuple[int, bool] | None) -> None:
    assert posted_day(value) == expected


def test_lines_are_literals_never_code() -> None:
    assert literal("  {u'a': u'\\u2122', 'b': [True, None]}  ") == {"a": "™", "b": [True, None]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an odd escape in a review is no warning to the user
        assert literal(r"{'text': 'C:\Games\d'}") == {"text": "C:\\Games\\d"}
    with pytest.raises(ValueError):
        literal("__import__('os').getcwd()")
    with pytest.raises(SyntaxError):
        literal("{u'a': ")


def test_ids() -> None:
    assert text_id(" 761140 ") == "761140" and text_id(761140) == "761140"
    assert text_id("") is None and text_id(None) is None and text_id(True) is None
