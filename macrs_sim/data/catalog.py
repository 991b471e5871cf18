"""The item catalog: real items (films, products, ...) with factual metadata, loaded from
JSON lines."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.domain_words import plural_of
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item
from macrs_sim.textfile import check_regular, loads_json, read_utf8


def control_character(text: str) -> str | None:
    """The first control character of `text` as U+XXXX (NUL, escape, newline, ...), or None."""
    for char in text:
        if unicodedata.category(char) == "Cc":
            return f"U+{ord(char):04X}"
    return None


def title_problem(item: Item) -> str | None:
    """Why `item`'s titles cannot be shown (in one line of a report table), or None."""
    for title in (item.title, *item.aka):
        if not title.strip():
            return "an empty title"
        found = control_character(title)
        if found:
            return f"a title holding a control character ({found}): {title!r}"
    return None


class Catalog:
    """Items by id, in file order."""

    def __init__(self, items: Sequence[Item]) -> None:
        if not items:
            raise DataError("catalog is empty: expected at least one item")
        for item in items:
            problem = title_problem(item)
            if problem:
                raise DataError(f"catalog item {item.item_id!r} has {problem}")
        self._items = {item.item_id: item for item in items}
        if len(self._items) != len(items):
            raise DataError("catalog has repeated item ids")

    @classmethod
    def demo(cls) -> Catalog:
        """The catalog bundled with the package (a few hundred real films)."""
        ref = resources.files("macrs_sim") / "data" / "demo" / "movies.jsonl"
        return cls.from_jsonl_text(ref.read_text(encoding="utf-8"), "demo catalog")

    @classmethod
    def from_jsonl(cls, path: Path) -> Catalog:
        check_regular(path, DataError, what="catalog")
        if not path.is_file():
            raise DataError(f"{path}: catalog file not found")
        return cls.from_jsonl_text(read_utf8(path, DataError, what="catalog"), str(path))

    @classmethod
    def from_jsonl_text(cls, text: str, source: str) -> Catalog:
        items: list[Item] = []
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                item = Item.model_validate(loads_json(line))
            except (json.JSONDecodeError, ValidationError) as err:
                first = str(err).splitlines()[0]
                raise DataError(f"{source}:{lineno}: not a valid item record ({first})") from None
            problem = title_problem(item)
            if problem:
                raise DataError(f"{source}:{lineno}: item {item.item_id!r} has {problem}")
            items.append(item)
        if not items:
            raise DataError(f"{source}: catalog is empty: expected at least one item")
        return cls(items)

    def __getitem__(self, item_id: str) -> Item:
        return self._items[item_id]

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._items

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[Item]:
        return iter(self._items.values())

    def genres(self) -> list[str]:
        return sorted({g for item in self for g in item.genres})

    def describe(self, item_id: str, domain: Domain = MOVIES) -> str:
        """A one-line factual description used in prompts (never shown with the title hidden).

        Films in the paper's words ("directed by", "starring", "plot:"); any other domain's
        attributes by name ("brand: CeraVe; price: 19.99"), hinted ones first (data/domain.py).
        """
        item = self[item_id]
        parts = [item.display_title, ", ".join(item.categories)]
        if domain.layout == "films":
            parts += [f"directed by {item.director}"] if item.director else []
            parts += ["starring " + ", ".join(item.cast)] if item.cast else []
        else:
            parts += [f"{label}: {', '.join(values)}" for label, values in labelled(item, domain)]
        if item.keywords:
            parts.append("keywords: " + ", ".join(item.keywords))
        if item.description:
            plot = "plot" if domain.layout == "films" else "description"
            parts.append(f"{plot}: {item.description}")
        return "; ".join(parts)


def labelled(item: Item, domain: Domain) -> list[tuple[str, tuple[str, ...]]]:
    """The item's attributes with their labels: the domain's hints first, in its order, then
    the rest by name ("price_band" reads "price band"); a label of several values is plural."""
    labels = {h.name: h.label for h in domain.hints if h.name != "categories"}
    order = {name: n for n, name in enumerate(labels)}
    ranked = sorted(item.attributes, key=lambda a: order.get(a[0], len(order)))
    named = [(labels.get(name, name.replace("_", " ")), values) for name, values in ranked]
    return [(plural_of(label) if len(v) > 1 else label, v) for label, v in named]
