"""Titles, prices and cuts: the cleaning every Amazon item goes through, case by case."""

from __future__ import annotations

import pytest

from macrs_sim.data.amazon.items import make_item
from macrs_sim.data.amazon.records import parse
from macrs_sim.data.amazon.text import clean, cut, price, price_band


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Fresh &amp; Clean", "Fresh & Clean"),
        ('<span class="a-size-large">Night  Cream</span>\n', "Night Cream"),
        ("Soft<br>Fresh", "Soft Fresh"),
        ("&lt;b&gt;Musk&lt;/b&gt; Oil", "Musk Oil"),  # escaped tags
        ("I &lt;3 it", "I <3 it"),  # not a tag
        ("Size a < b > c", "Size a < b > c"),
        ("<script>var x = 1;</script>Real Title", "Real Title"),
        ("Tab\there\x00and\x1bthere", "Tab here and there"),
        ("\xa0 Caf\u00e9 \xa0", "Café"),
        ("<div><br/></div>", ""),
        (None, ""),
        (12, ""),
    ],
)
def test_clean(raw: object, expected: str) -> None:
    assert clean(raw) == expected


def test_cut_keeps_whole_words_within_the_limit() -> None:
    assert cut("short", 10) == "short"
    assert cut("abcdefghij", 10) == "abcdefghij"  # exactly the limit
    # 14 characters into 10: head "abcd efgh" (9), last space at 4, not past the half (5).
    assert cut("abcd efgh ijkl", 10) == "abcd efgh…"
    assert cut("ab cdefghijklmnop", 10) == "ab cdefgh…"  # space too early: cut mid-word
    assert cut("abcdef ghijklmnop", 10) == "abcdef…"  # space at 6 > 5


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (12.99, "12.99"),
        (12.5, "12.50"),
        (4, "4.00"),
        ("$12.99", "12.99"),
        ("$1,299.00", "1299.00"),
        ("$3.99 - $7.99", "3.99"),
        ("3.99-7.99", "3.99"),
        ("  $ 8 ", "8.00"),
        ("12.999", "13.00"),
        ("", None),
        (None, None),
        (0, None),
        (-3.0, None),
        (True, None),
        (float("nan"), None),
        (1e300, None),
        ("12,99", None),  # a European comma: not a US price
        (".a-box-inner{background-color:#fff}", None),
        ("from 3.50", None),
        ([12.99], None),
    ],
)
def test_price(raw: object, expected: str | None) -> None:
    assert price(raw) == expected


@pytest.mark.parametrize(
    ("amount", "band"),
    [
        ("0.01", "under $10"),
        ("9.99", "under $10"),
        ("10.00", "$10 to $25"),
        ("24.99", "$10 to $25"),
        ("25.00", "$25 to $50"),
        ("50.00", "$50 to $100"),
        ("100.00", "$50 to $100"),
        ("100.01", "over $100"),
    ],
)
def test_price_band(amount: str, band: str) -> None:
    assert price_band(amount) == band


def test_parse_reads_u_strings_and_refuses_calls() -> None:
    assert parse("{'title': u'Caf\\xe9', 'price': 1.5}  ", python_literal=True) == {
        "title": "Café",
        "price": 1.5,
    }
    with pytest.raises(ValueError, match="cannot be read"):
        parse("{'title': open('x')}", python_literal=True)
    with pytest.raises(ValueError, match="holds a list, not one record"):
        parse("[1]", python_literal=False)


def test_2023_brand_falls_back_on_the_store() -> None:
    made = make_item("P1", {"title": "T", "store": "Shop", "details": {"Color": "Red"}}, "2023")
    assert made is not None
    assert made.attribute_map == {"brand": ("Shop",), "store": ("Shop",)}
    made = make_item("P1", {"title": "T", "categories": None, "main_category": ""}, "2023")
    assert made is not None and made.categories == () and made.attributes == ()
    assert make_item("P1", {"title": " <p></p> "}, "2018") is None
