"""The metadata file -> catalog items, streamed into the database in file order.

Only the item ids stay in memory (a set for the reviews pass). A product whose title is
empty or only HTML cannot be named in a dialogue: it is dropped and counted, and its
reviews are counted apart from reviews of products the file does not list. A repeated id
(the 2018 files repeat rows) keeps its first row. Neither is refused under `strict`: both
are properties of the releases as published, not damage.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from macrs_sim.data.amazon.fields import FIELDS, confirm_release
from macrs_sim.data.amazon.layout import Source
from macrs_sim.data.amazon.records import Policy, records
from macrs_sim.data.amazon.text import clean, cut, price, price_band
from macrs_sim.data.prepared import DatabaseWriter
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item

FEATURES = 5  # at most this many features per item, each cut at FEATURE_CHARS
FEATURE_CHARS = 80
DESCRIPTION_CHARS = 500


@dataclass
class Catalogue:
    """The ids the reviews pass looks up: kept items, and items dropped for no title."""

    known: set[str] = field(default_factory=set)
    untitled: set[str] = field(default_factory=set)


def text_id(value: object) -> str:
    """An id as published ("B00004U9V2"), or "" when the field is missing or not text."""
    return value.strip() if isinstance(value, str) else ""


def _path(value: object) -> list[str]:
    """A category path: a list of names, or in 2014 a list of paths (the first is kept)."""
    if isinstance(value, list | tuple) and value and isinstance(value[0], list | tuple):
        value = value[0]
    if not isinstance(value, list | tuple):
        return []
    return [name for name in map(clean, value) if name]


def _first_text(value: object, limit: int) -> str | None:
    """The first non-empty entry of a description (a string in 2014, a list later)."""
    entries = [value] if isinstance(value, str) else value
    if isinstance(entries, list | tuple):
        for entry in entries:
            text = clean(entry)
            if text:
                return cut(text, limit)
    return None


def _features(value: object) -> list[str]:
    if not isinstance(value, list | tuple):
        return []
    kept = (text for text in map(clean, value) if text)
    return [cut(text, FEATURE_CHARS) for text in islice(kept, FEATURES)]


def _categories(fields: dict[str, Any], release: str) -> list[str]:
    """2014: the first of `categories`; 2018: `category`; 2023: `categories`. An empty
    path falls back on the main category (2018 main_cat, 2023 main_category)."""
    if release == "2014":
        return _path(fields.get("categories"))
    if release == "2018":
        return _path(fields.get("category")) or _path([fields.get("main_cat")])
    return _path(fields.get("categories")) or _path([fields.get("main_category")])


def _attributes(fields: dict[str, Any], release: str) -> dict[str, list[str]]:
    """brand, store (2023), price, price_band and features; empty values are left out."""
    if release == "2023":
        store = clean(fields.get("store"))
        details = fields.get("details")
        brand = clean(details.get("Brand")) if isinstance(details, dict) else ""
        named = {"brand": [brand or store], "store": [store]}
        named["features"] = _features(fields.get("features"))
    else:
        named = {"brand": [clean(fields.get("brand"))]}
        named["features"] = _features(fields.get("feature"))
    amount = price(fields.get("price"))
    if amount is not None:
        named["price"] = [amount]
        named["price_band"] = [price_band(amount)]
    return named


def make_item(item_id: str, fields: dict[str, Any], release: str) -> Item | None:
    """The catalog item of one metadata row; None when it has no usable title."""
    title = clean(fields.get("title"))
    if not title:
        return None
    return Item.model_validate(
        {
            "item_id": item_id,
            "title": title,
            "categories": _categories(fields, release),
            "attributes": _attributes(fields, release),
            "description": _first_text(fields.get("description"), DESCRIPTION_CHARS),
        }
    )


def load_items(source: Source, policy: Policy, writer: DatabaseWriter) -> Catalogue:
    """Every usable product of the metadata file, written as read; their ids returned."""
    names = FIELDS[source.release]
    form = "a Python dict" if names.python_meta else "a JSON object"
    expected = f"one product per line, {form} as published"
    catalogue = Catalogue()

    def items() -> Iterator[Item]:
        for n, record in enumerate(
            records(source.meta, names.python_meta, "metadata", expected, policy)
        ):
            if n == 0:
                confirm_release(record, source.release, names.meta_id, "metadata")
            item_id = text_id(record.fields.get(names.meta_id))
            if not item_id:
                problem = f"product has no {names.meta_id!r}; expected {names.meta_id} and title"
                policy.reject(record.line.where(), "metadata rows with no item id", problem)
            elif item_id in catalogue.known or item_id in catalogue.untitled:
                policy.dropped.add("repeated metadata rows")
            elif (item := make_item(item_id, record.fields, source.release)) is None:
                catalogue.untitled.add(item_id)
                policy.dropped.add("items with no title")
            else:
                catalogue.known.add(item_id)
                yield item

    writer.add_items(items())
    if not catalogue.known:
        raise DataError(
            f"{source.meta.name}: no product with a title; expected {expected}, with "
            f"{names.meta_id} and title"
        )
    return catalogue
