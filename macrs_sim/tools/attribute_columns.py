"""A catalog's attributes as columns: their SQL types, their cells, an example condition.

Typed by what the values are across the whole catalog, so every cell of a column has
one type: REAL when each value is one plain decimal number ("12.99", "4.5"; a game's
price of "free" keeps its column TEXT), TEXT when no item has two values, else a JSON list.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from statistics import median

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.domain import Domain
from macrs_sim.protocol import Item
from macrs_sim.tools.schema import (
    FIXED_COLUMNS,
    CatalogSchema,
    Column,
    domain_schema,
    film_schema,
    is_film,
    sql_name,
)

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)")
_UNSAFE = re.compile(r"[^a-z0-9_]+")


def catalog_schema(dataset: Dataset) -> CatalogSchema:
    """The schema of `dataset`'s catalog database: films' own, or one from its attributes."""
    if is_film(dataset.domain):
        return film_schema(dataset.domain)
    columns = attribute_columns(dataset.catalog)
    return domain_schema(dataset.domain, columns, example(columns, dataset.domain, dataset.catalog))


def _column_name(attribute: str, taken: set[str]) -> str:
    """A bare identifier, unlike every column before it (loaders' names already are)."""
    name = _UNSAFE.sub("_", attribute.lower()).strip("_") or "attribute"
    name = name if name[0].isalpha() else f"a_{name}"
    while name in taken:
        name += "_attribute"
    return name


def attribute_columns(items: Iterable[Item]) -> tuple[Column, ...]:
    """One column per attribute any item has, by attribute name."""
    values: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    for item in items:
        for name, found in item.attributes:
            values[name].append(found)
    taken = {*FIXED_COLUMNS, "popularity"}  # item_info's fields are the column names
    columns = []
    for attribute in sorted(values):
        name = _column_name(attribute, taken)
        taken.add(name)
        seen = values[attribute]
        if any(len(v) > 1 for v in seen):
            columns.append(Column(name=name, type="TEXT", json_list=True, attribute=attribute))
        elif all(_NUMBER.fullmatch(v[0].strip()) for v in seen):
            columns.append(Column(name=name, type="REAL", attribute=attribute))
        else:
            columns.append(Column(name=name, type="TEXT", attribute=attribute))
    return tuple(columns)


def cell(column: Column, item: Item) -> object:
    """`item`'s value in an attribute column; NULL where it has none."""
    found = item.attribute(column.attribute or "")
    if not found:
        return None
    if column.json_list:
        return json.dumps(list(found), ensure_ascii=False)
    return float(found[0]) if column.type == "REAL" else found[0]


def _quoted(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def example(columns: Sequence[Column], domain: Domain, items: Iterable[Item]) -> str:
    """A condition naming real columns and values: the most common value of the first
    single-valued text attribute (the domain's hinted ones first) and the median of the
    first number, e.g. `brand = 'Neutrogena' AND price < 15`."""
    hinted = {h.name: i for i, h in enumerate(domain.hints)}
    ordered = sorted(columns, key=lambda c: hinted.get(c.attribute or "", len(hinted)))
    catalog = list(items)
    parts = []
    text = next((c for c in ordered if c.type == "TEXT" and not c.json_list), None)
    if text is not None:
        common = Counter(v for i in catalog for v in i.attribute(text.attribute or ""))
        parts.append(f"{sql_name(text.name)} = {_quoted(common.most_common(1)[0][0])}")
    number = next((c for c in ordered if c.type == "REAL"), None)
    if number is not None:
        numbers = [float(v) for i in catalog for v in i.attribute(number.attribute or "")]
        parts.append(f"{sql_name(number.name)} < {max(1, round(median(numbers)))}")
    return " AND ".join(parts) or "year > 2000"
