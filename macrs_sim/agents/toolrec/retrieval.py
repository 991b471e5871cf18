"""Attribute-oriented retrieval tools (paper §3.3.2): top-K items for (history, attribute, K).

`AttributeRetriever` is the interface the trained attribute-conditioned model
(`macrs_sim.rankers.attribute`, frozen SASRec + attribute encoders) implements.
`RankerAttributeRetriever` is a stand-in with no attribute training: any ItemRanker's
top items, re-ordered so that items sharing the requested attribute's value with the
user's recent items come first. It keeps development and tests independent of the
trained model; `build.prepare` names the one line that swaps it out. Films keep genre,
decade and director; another domain's attributes are its patterns (its category and the
attributes its users name: rankers/attribute_values.py), as the trained model's are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from macrs_sim.data.attributes import decade_of
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.protocol import Item
from macrs_sim.rankers.attribute_values import Values, domain_patterns
from macrs_sim.rankers.base import ItemRanker, top_items

ValueSet = Callable[[Item], frozenset[str]]


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


# What each attribute's value is, per film (a set: a film has several genres).
ATTRIBUTE_VALUES: dict[str, ValueSet] = {
    "genre": _genres,
    "decade": _decade,
    "director": _director,
}


def _as_set(values: Values) -> ValueSet:
    return lambda item: frozenset(values(item))


def attribute_values(domain: Domain = MOVIES) -> Mapping[str, ValueSet]:
    """The attributes of `domain`'s items by name: films' own, else the domain's patterns."""
    if domain.layout == "films":
        return ATTRIBUTE_VALUES
    return {name: _as_set(values) for name, values in domain_patterns(domain).items()}


def catalog_attributes(catalog: Catalog, domain: Domain = MOVIES) -> tuple[str, ...]:
    """The attributes at least one catalog item has a value for, in `attribute_values` order."""
    known = attribute_values(domain)
    return tuple(a for a, values in known.items() if any(values(i) for i in catalog))


class RankerAttributeRetriever:
    """Stand-in: the ranker's top `pool` items, those matching the recent items' values first.

    "Matching" means sharing at least one value of the attribute (a genre, the release
    decade, the director; a brand, a city) with one of the `recent` last history items;
    both groups keep the ranker's order. No attribute model is trained: the attribute only
    re-orders.
    """

    def __init__(
        self,
        ranker: ItemRanker,
        catalog: Catalog,
        *,
        pool: int = 200,
        recent: int = 5,
        domain: Domain = MOVIES,
    ) -> None:
        self.ranker = ranker
        self.catalog = catalog
        self.pool = pool
        self.recent = recent
        self._values = attribute_values(domain)
        self.attributes = catalog_attributes(catalog, domain)

    def retrieve(self, history: Sequence[str], attribute: str, k: int) -> list[str]:
        if attribute not in self.attributes:
            known = ", ".join(self.attributes)
            raise ValueError(f"unknown attribute {attribute!r}; known: {known}")
        values = self._values[attribute]
        liked: set[str] = set()
        for item_id in [i for i in history if i in self.catalog][-self.recent :]:
            liked |= values(self.catalog[item_id])
        ranked = [i for i, _ in top_items(self.ranker, history, max(self.pool, k))]
        matching = [i for i in ranked if values(self.catalog[i]) & liked]
        chosen = set(matching)
        return (matching + [i for i in ranked if i not in chosen])[:k]
