"""Attribute-oriented retrieval tools (paper §3.3.2): top-K items for (history, attribute, K).

`AttributeRetriever` is the interface the trained attribute-conditioned model
(`macrs_sim.rankers.attribute`, frozen SASRec + attribute encoders) implements.
`RankerAttributeRetriever` is a stand-in with no attribute training: any ItemRanker's
top items, re-ordered so that items sharing the requested attribute's value with the
user's recent items come first. It keeps development and tests independent of the
trained model; `build.prepare` names the one line that swaps it out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from macrs_sim.data.attributes import decade_of
from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import Item
from macrs_sim.rankers.base import ItemRanker, top_items


@runtime_checkable
class AttributeRetriever(Protocol):
    attributes: tuple[str, ...]

    def retrieve(self, history: Sequence[str], attribute: str, k: int) -> list[str]:
        """Item ids, best first, seen items excluded; an unknown attribute is a ValueError."""
        ...


def _genres(item: Item) -> frozenset[str]:
    return frozenset(item.genres)


def _decade(item: Item) -> frozenset[str]:
    return frozenset() if item.year is None else frozenset({f"{decade_of(item.year)}s"})


def _director(item: Item) -> frozenset[str]:
    return frozenset() if not item.director else frozenset({item.director})


# What each attribute's value is, per item (a set: a film has several genres).
ATTRIBUTE_VALUES: dict[str, Callable[[Item], frozenset[str]]] = {
    "genre": _genres,
    "decade": _decade,
    "director": _director,
}


def catalog_attributes(catalog: Catalog) -> tuple[str, ...]:
    """The attributes at least one catalog item has a value for, in ATTRIBUTE_VALUES order."""
    return tuple(a for a, values in ATTRIBUTE_VALUES.items() if any(values(i) for i in catalog))


class RankerAttributeRetriever:
    """Stand-in: the ranker's top `pool` items, those matching the recent items' values first.

    "Matching" means sharing at least one value of the attribute (a genre, the release
    decade, the director) with one of the `recent` last history items; both groups keep
    the ranker's order. No attribute model is trained: the attribute only re-orders.
    """

    def __init__(
        self, ranker: ItemRanker, catalog: Catalog, *, pool: int = 200, recent: int = 5
    ) -> None:
        self.ranker = ranker
        self.catalog = catalog
        self.pool = pool
        self.recent = recent
        self.attributes = catalog_attributes(catalog)

    def retrieve(self, history: Sequence[str], attribute: str, k: int) -> list[str]:
        if attribute not in self.attributes:
            known = ", ".join(self.attributes)
            raise ValueError(f"unknown attribute {attribute!r}; known: {known}")
        values = ATTRIBUTE_VALUES[attribute]
        liked: set[str] = set()
        for item_id in [i for i in history if i in self.catalog][-self.recent :]:
            liked |= values(self.catalog[item_id])
        ranked = [i for i, _ in top_items(self.ranker, history, max(self.pool, k))]
        matching = [i for i in ranked if values(self.catalog[i]) & liked]
        chosen = set(matching)
        return (matching + [i for i in ranked if i not in chosen])[:k]
