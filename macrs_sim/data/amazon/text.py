"""Amazon's product text as people should read it, and its prices as one plain number.

The metadata files were scraped from product pages: titles and descriptions hold HTML
entities ("&amp;"), tags ("<span class=...>", "<br>") and runs of whitespace; the 2018
prices are page text ("$12.99", "$3.99 - $7.99", "" or a CSS fragment). Everything a
prompt, the grounder or a catalog table shows goes through `clean` first, and a price
becomes one decimal string ("12.99") with its band, or nothing.
"""

from __future__ import annotations

import html
import math
import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

# Script and style blocks are page code, not words: dropped with their contents.
_BLOCKS = re.compile(r"<(script|style)\b[^>]*>.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
# A tag starts with a letter, "/", "!" or "?": "<3" and "a < b" are text.
_TAG = re.compile(r"<[A-Za-z/!?][^<>]*>")
# Every run of whitespace and control characters (a catalog title may hold none).
_SPACE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")

_AMOUNT = r"\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?"
# "$12.99", "12.99", "$1,299.00", and a range "$3.99 - $7.99" (its low end is kept).
_PRICE = re.compile(rf"{_AMOUNT}(?:\s*-\s*{_AMOUNT})?")
_CENTS = Decimal("0.01")

# (upper bound, band): a price below the bound falls in the band; $100 itself is
# "$50 to $100", anything dearer "over $100".
_BANDS = (
    (Decimal(10), "under $10"),
    (Decimal(25), "$10 to $25"),
    (Decimal(50), "$25 to $50"),
)


def clean(value: object) -> str:
    """Text with tags stripped, entities unescaped and whitespace collapsed ("" if not text).

    Tags go before unescaping (so "&lt;3" stays "<3") and again after (for escaped tags,
    "&lt;b&gt;"); a tag becomes a space, so "Soft<br>Fresh" keeps its two words."""
    if not isinstance(value, str):
        return ""
    text = value
    if "<" in text:  # most text has no markup: millions of rows skip the patterns
        text = _TAG.sub(" ", _BLOCKS.sub(" ", text))
    if "&" in text:
        text = html.unescape(text)
        if "<" in text:
            text = _TAG.sub(" ", text)
    return _SPACE.sub(" ", text).strip()


def cut(text: str, limit: int) -> str:
    """`text` in at most `limit` characters: cut at the last space in the second half of
    the room where there is one (no half words), marked with "…"."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > limit // 2:
        head = head[:space]
    return head.rstrip() + "…"


def _amount(value: object) -> Decimal | None:
    if isinstance(value, bool):  # True is an int to Python, not a price
        return None
    if isinstance(value, int | float):
        return Decimal(str(value)) if math.isfinite(value) else None
    if not isinstance(value, str):
        return None
    found = _PRICE.fullmatch(clean(value))
    if found is None:
        return None
    return Decimal(found[1].replace(",", "") + (found[2] or ""))


def price(value: object) -> str | None:
    """A price as a plain decimal string with cents ("12.99", "4.00"), or None when the
    value is missing, zero, negative or not a price at all."""
    amount = _amount(value)
    if amount is None or amount <= 0:
        return None
    try:
        return str(amount.quantize(_CENTS, rounding=ROUND_HALF_UP))
    except InvalidOperation:  # more digits than a price has (1e300)
        return None


def price_band(price_text: str) -> str:
    """The band people name when they say what they will spend ("under $10")."""
    amount = Decimal(price_text)
    for bound, band in _BANDS:
        if amount < bound:
            return band
    return "$50 to $100" if amount <= 100 else "over $100"
