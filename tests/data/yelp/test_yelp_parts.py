"""The Yelp loader's small parts, by hand: attribute literals, names, dates, categories."""

from __future__ import annotations

import pytest

from macrs_sim.data.yelp.attributes import ambience, attribute_map, literal, price_range
from macrs_sim.data.yelp.business import business_item, clean_text
from macrs_sim.data.yelp.records import BadRow
from macrs_sim.data.yelp.reviews import timestamp


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("True", True),
        ("None", None),
        ("u'free'", "free"),
        ("'casual'", "casual"),
        ("2", 2),
        (" {'romantic': False, 'casual': True} ", {"romantic": False, "casual": True}),
        ("free", "free"),  # no literal: the text itself
        ("__import__('os').getcwd()", "__import__('os').getcwd()"),  # never evaluated
        ("{'a': " * 5000 + "1" + "}" * 5000, None),  # too long to be an attribute
        (3, 3),  # older releases: real JSON values
    ],
)
def test_literal(raw: object, value: object) -> None:
    assert literal(raw) == value


@pytest.mark.parametrize(
    ("value", "price"),
    [("1", "$"), ("4", "$$$$"), ("u'3'", "$$$"), (" 2 ", "$$"), (2, "$$"), ("None", None),
     ("5", None), ("0", None), ("True", None), (True, None), ("2.0", None), ("'two'", None),
     (None, None)],
)  # fmt: skip
def test_price_range(value: object, price: str | None) -> None:
    assert price_range({"RestaurantsPriceRange2": value}) == price


@pytest.mark.parametrize(
    ("value", "found"),
    [
        ("{'romantic': False, 'casual': True, 'touristy': None}", ["casual"]),
        ("{u'divey': True, u'hipster': True, 'classy': 'True'}", ["divey", "hipster"]),
        ({"trendy": True, "upscale": False}, ["trendy"]),  # older releases: a JSON object
        ("None", []),
        ("{'casual': True", []),  # a broken literal: absent, the business kept
        ("['casual']", []),
    ],
)
def test_ambience(value: object, found: list[str]) -> None:
    assert ambience({"Ambience": value}) == found


def test_attribute_map_shapes() -> None:
    assert attribute_map(None) == {}
    assert attribute_map({"WiFi": "u'no'"}) == {"WiFi": "u'no'"}
    listed = ["RestaurantsPriceRange2: 2", "Ambience: {'casual': True}", "no colon", 7]
    assert attribute_map(listed) == {"RestaurantsPriceRange2": "2", "Ambience": "{'casual': True}"}


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        ("Mario&#39;s <b>Pizza</b>", "Mario's Pizza"),
        ("<b>Joe</b>'s", "Joe's"),
        ("Joe<br>Bar", "Joe Bar"),
        ("&lt;i&gt;Bold&lt;/i&gt; Bar", "Bold Bar"),  # escaped tags are tags too
        ("I <3 Tacos", "I <3 Tacos"),
        ("Fish &amp; Chips\u00a0 \t Co.  ", "Fish & Chips Co."),
        ("Tab\x00Null\x1bEsc", "Tab Null Esc"),
        ("<p></p><!-- x -->", ""),
    ],
)
def test_clean_text(raw: str, title: str) -> None:
    assert clean_text(raw) == title


def test_business_categories_trimmed_in_order_without_empties() -> None:
    item = business_item({"business_id": " b1 ", "name": "N",
                          "categories": " Pizza,Restaurants , ,Pizza, Italian,"})  # fmt: skip
    assert item.item_id == "b1"
    assert item.categories == ("Pizza", "Restaurants", "Italian")
    assert item.attributes == ()  # no city, stars or attributes: none written


@pytest.mark.parametrize("stars", [0, 5.5, True, "4.5", float("nan"), None])
def test_business_stars_off_the_scale_are_absent(stars: object) -> None:
    assert business_item({"business_id": "b", "name": "N", "stars": stars}).attributes == ()


def test_timestamp_is_utc_seconds() -> None:
    assert timestamp("2018-07-07 22:09:11") == 1531001351
    assert timestamp(" 2018-07-07 ") == 1530921600  # older releases: the day only
    assert timestamp("1970-01-01 00:00:00") == 0


@pytest.mark.parametrize(
    "bad",
    ["2018-07-07T22:09:11", "2018-07-07 22:09:11+02:00", "2018-02-30 00:00:00", "07/07/2018",
     "2018-07-07 22:09", "", None, 1531001351],
)  # fmt: skip
def test_timestamp_refuses_other_forms(bad: object) -> None:
    with pytest.raises(BadRow) as err:
        timestamp(bad)
    assert err.value.reason == "malformed lines of the review file"
    assert err.value.expected == "a date as YYYY-MM-DD HH:MM:SS"
