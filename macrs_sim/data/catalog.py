"""The item catalog: real movies with factual metadata, loaded from JSON lines."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator, Sequence
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from macrs_sim.errors import DataError
from macrs_sim.protocol import Item
from macrs_sim.textfile import read_utf8


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
                item = Item.model_validate(json.loads(line))
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

    def describe(self, item_id: str) -> str:
        """A one-line factual description used in prompts (never shown with the title hidden)."""
        item = self[item_id]
        parts = [item.display_title, ", ".join(item.genres)]
        if item.director:
            parts.append(f"directed by {item.director}")
        if item.cast:
            parts.append("starring " + ", ".join(item.cast))
        if item.keywords:
            parts.append("keywords: " + ", ".join(item.keywords))
        if item.overview:
            parts.append("plot: " + item.overview)
        return "; ".join(parts)
