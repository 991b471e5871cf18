"""Title -> catalog id grounding: film and game titles (grounder.Grounder), product and
business names (names.NameGrounder); `grounder_for` picks by the domain's policy."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.grounding.grounder import Grounder
from macrs_sim.data.grounding.keys import Part, TitleKey, title_key
from macrs_sim.data.grounding.names import NameGrounder
from macrs_sim.data.grounding.normalise import normalize_title, split_year, strip_decorations
from macrs_sim.protocol import ItemRef


class ItemGrounder(Protocol):
    def ground(self, said: str) -> ItemRef: ...


def grounder_for(
    catalog: Catalog, domain: Domain = MOVIES, *, popularity: Mapping[str, int] | None = None
) -> ItemGrounder:
    """The grounder the domain's policy names (data/domain.py GroundingPolicy)."""
    policy = domain.grounding
    if policy.matcher == "names":
        return NameGrounder(catalog, qualifiers=policy.qualifiers)
    return Grounder(catalog, popularity=popularity)


__all__ = [
    "Grounder",
    "ItemGrounder",
    "NameGrounder",
    "Part",
    "TitleKey",
    "grounder_for",
    "normalize_title",
    "split_year",
    "strip_decorations",
    "title_key",
]
