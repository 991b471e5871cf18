"""The business file -> items: one per business, written as read, ids kept in a set.

Only the ids stay in memory (a release lists about 150,000 businesses), so the review
pass can tell a review of a listed business from one of an unknown business.
A business's item:
- item_id: `business_id`; title: `name`, cleaned (HTML entities unescaped, tags and control
  characters removed, white space collapsed); a name left empty drops the business.
- categories: `categories`, one comma-separated string ("Restaurants, Italian"), trimmed,
  empty parts dropped, order kept (older releases: a JSON list, read the same).
- attributes: city, state, neighborhood (older releases only), price_range ("$".."$$$$"),
  ambience (the Ambience keys that are True), stars (the business's average, "4.5").
- year and description: none (a business has neither).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from macrs_sim.data.prepared import DatabaseWriter
from macrs_sim.data.yelp.attributes import ambience, attribute_map, price_range
from macrs_sim.data.yelp.records import BadRow, JsonLines, Record, RowPolicy, show
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item

# Tags that separate words become a space ("Joe<br>Bar"), others nothing ("<b>Joe</b>'s").
_BREAK_TAG = re.compile(r"</?(?:br|p|div|li|tr|td|h[1-6])\b[^<>]*>", re.IGNORECASE)
_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>", re.DOTALL)  # "<3 Cafe" is no tag
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _untagged(text: str) -> str:
    return _TAG.sub("", _BREAK_TAG.sub(" ", text))


def clean_text(raw: str) -> str:
    """Display text: tags removed before and after unescaping ("&lt;b&gt;" is a tag too),
    control characters made spaces, white space collapsed."""
    text = _untagged(html.unescape(_untagged(raw))) if "<" in raw or "&" in raw else raw
    return " ".join(_CONTROL.sub(" ", text).split())


def _texts(raw: object) -> list[str]:
    """A comma-separated string or a list of strings, cleaned, empties and repeats out."""
    parts = raw.split(",") if isinstance(raw, str) else raw if isinstance(raw, list) else []
    found: list[str] = []
    for part in parts:
        text = clean_text(part) if isinstance(part, str) else ""
        if text and text not in found:
            found.append(text)
    return found


def _stars(value: object) -> list[str]:
    if isinstance(value, int | float) and not isinstance(value, bool) and 1 <= value <= 5:
        return [f"{float(value):.1f}"]  # NaN and infinities fail the range
    return []


def item_attributes(record: Record) -> dict[str, list[str]]:
    """The attributes people hint at (data/domain.py BUSINESSES), by name; empty ones out."""
    attributes = attribute_map(record.get("attributes"))
    price = price_range(attributes)
    city, state = record.get("city"), record.get("state")
    return {
        "city": [clean_text(city)] if isinstance(city, str) else [],
        "state": [clean_text(state)] if isinstance(state, str) else [],
        "neighborhood": _texts(record.get("neighborhood")) + _texts(record.get("neighborhoods")),
        "price_range": [price] if price else [],
        "ambience": ambience(attributes),
        "stars": _stars(record.get("stars")),
    }


def business_id(record: Record, what: str) -> str:
    """The record's `business_id`, stripped; BadRow (malformed) when missing or empty."""
    value: Any = record.get("business_id")
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise BadRow(f"malformed lines of the {what} file", f"business_id is {show(value)}",
                 "a business_id string")  # fmt: skip


def business_item(record: Record) -> Item:
    item_id = business_id(record, "business")
    name = record.get("name")
    title = clean_text(name) if isinstance(name, str) else ""
    if not title:
        raise BadRow("businesses with no usable name",
                      f"business {item_id!r} has no usable name ({show(name)})",
                      "a name with text in it")  # fmt: skip
    return Item.model_validate(
        {
            "item_id": item_id,
            "title": title,
            "categories": _texts(record.get("categories")),
            "attributes": item_attributes(record),
        }
    )


def load_businesses(path: Path, writer: DatabaseWriter, policy: RowPolicy) -> set[str]:
    """Write every usable business as an item; the ids written. A repeated id keeps the
    first usable record and counts the rest."""
    known: set[str] = set()
    lines = JsonLines(path, "business", policy)
    for line, record in lines:
        try:
            item = business_item(record)
            if item.item_id in known:
                raise BadRow("repeated business ids", f"business {item.item_id!r} is listed "
                             "again", "each business once")  # fmt: skip
        except BadRow as bad:
            policy.reject(line, bad)
            continue
        known.add(item.item_id)
        writer.add_items([item])
    if not known:
        raise _no_business(path, lines.n_lines)
    return known


def _no_business(path: Path, n_lines: int) -> DataError:
    if n_lines == 0:
        return DataError(f"{path.name}:1: no businesses; expected one JSON record per line")
    return DataError(
        f"{path.name}: no usable business in {n_lines:,} lines; expected records with a "
        "business_id and a name"
    )
