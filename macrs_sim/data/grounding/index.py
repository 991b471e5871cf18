"""The catalog's titles indexed by exact string, by key, by title part and by alias."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding.aliases import ALIAS_GROUPS
from macrs_sim.data.grounding.blocks import SpellingBlocks
from macrs_sim.data.grounding.keys import Part, TitleKey, title_key
from macrs_sim.protocol import Item


class TitleIndex:
    """Every lookup the grounder makes, built once per catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.display: dict[str, list[Item]] = defaultdict(list)  # "Heat (1995)"
        self.exact: dict[str, list[Item]] = defaultdict(list)
        self.exact_aka: dict[str, list[Item]] = defaultdict(list)
        self.key: dict[Part, list[Item]] = defaultdict(list)
        self.key_aka: dict[Part, list[Item]] = defaultdict(list)
        self.by_words: dict[str, list[Item]] = defaultdict(list)  # any numbers: instalments
        self.head: dict[Part, list[Item]] = defaultdict(list)  # first part of a multi-part title
        self.tail: dict[Part, list[Item]] = defaultdict(list)  # last part of a multi-part title
        self.keys: dict[str, TitleKey] = {}  # item id -> key of its main title
        self.or_titles: set[str] = set()
        # Item id -> its number where its title has none but an alias does ("Star Wars": 4).
        self.true_numbers: dict[str, tuple[int, ...]] = {}  # ids of "X or: Y" titles
        self.blocks = SpellingBlocks()
        for item in catalog:
            self._add(item)
        self.blocks.freeze()
        self.aliases = self._aliases()

    def _add(self, item: Item) -> None:
        self.display[item.display_title].append(item)
        self.exact[item.title].append(item)
        key = self.keys[item.item_id] = title_key(item.title)
        self.key[key.full].append(item)
        self.by_words[key.full.words].append(item)
        self.blocks.add(key.full)
        if len(key.parts) > 1:
            self.head[key.parts[0]].append(item)
            self.tail[key.parts[-1]].append(item)
        if key.or_title:
            self.or_titles.add(item.item_id)
        for aka in item.aka:
            self.exact_aka[aka].append(item)
            aka_key = title_key(aka).full
            self.key_aka[aka_key].append(item)
            self.blocks.add(aka_key)

    def keyed(self, part: Part) -> list[Item]:
        return _unique([*self.key.get(part, ()), *self.key_aka.get(part, ())])

    def _aliases(self) -> dict[Part, list[tuple[int, frozenset[Part]]]]:
        """Alias key -> (year, every key of that film) for groups the catalog can resolve."""
        out: dict[Part, list[tuple[int, frozenset[Part]]]] = defaultdict(list)
        for year, names in ALIAS_GROUPS:
            keys = frozenset(title_key(name).full for name in names)
            if any(part in self.key or part in self.key_aka for part in keys):
                for part in keys:
                    out[part].append((year, keys))
                self._note_numbers(year, keys)
        return out

    def _note_numbers(self, year: int, keys: frozenset[Part]) -> None:
        numbered = {part.numbers for part in keys if part.numbers}
        if len(numbered) != 1:
            return
        (real,) = numbered
        for part in keys:
            for item in self.keyed(part):
                own = self.keys[item.item_id].full.numbers
                if not own and (item.year is None or abs(item.year - year) <= 1):
                    self.true_numbers[item.item_id] = real

    def alias_items(self, part: Part) -> list[Item]:
        found: list[Item] = []
        for year, keys in self.aliases.get(part, ()):
            for other in keys - {part}:
                found += [i for i in self.keyed(other) if i.year is None or abs(i.year - year) <= 1]
        return _unique(found)


def _unique(items: Iterable[Item]) -> list[Item]:
    seen: dict[str, Item] = {}
    for item in items:
        seen.setdefault(item.item_id, item)
    return list(seen.values())
