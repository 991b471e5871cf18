"""The answer's titles as item refs: grounded through the catalog, preferring what the tools found.

A title that names one catalog film (by id, title and year, or a unique title) is returned
with its id; a title shared by remakes picks the one a tool found this turn, else it is
left to the dialogue loop (no silent guess). Already watched or already shown items are
dropped: the user has seen them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Literal

from macrs_sim.data.grounding import normalize_title, split_year
from macrs_sim.protocol import ItemRef
from macrs_sim.tools import ItemResolver


def _method(resolver: ItemResolver, title: str, item_id: str) -> Literal["exact", "fuzzy"]:
    item = resolver.catalog[item_id]
    said = normalize_title(split_year(title)[0])
    return "exact" if said == normalize_title(item.title) or title.strip() == item_id else "fuzzy"


def ground_titles(
    titles: Sequence[str],
    resolver: ItemResolver,
    found: Mapping[str, str],
    skip: Collection[str],
    k: int,
) -> list[ItemRef]:
    refs: list[ItemRef] = []
    taken: set[str] = set()
    for title in titles:
        ids = resolver.resolve_one(title)
        if not ids:
            refs.append(ItemRef(title=title.strip()))
            continue
        ids = [i for i in ids if i not in skip and i not in taken]
        if len(ids) > 1:
            ids = [i for i in ids if i in found] or ids
        if len(ids) > 1:
            refs.append(ItemRef(title=title.strip()))
        elif ids:
            taken.add(ids[0])
            display = " ".join(resolver.catalog[ids[0]].display_title.split())
            method = _method(resolver, title, ids[0])
            refs.append(ItemRef(title=display, item_id=ids[0], score=1.0, method=method))
        if len(refs) >= k:
            break
    return refs
