"""Item references as models write them (ids or titles) resolved to catalog ids, and hits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder, normalize_title, split_year
from macrs_sim.protocol import Record


class ItemHit(Record):
    item_id: str
    title: str
    score: float | None = None


class ItemHits(Record):
    hits: tuple[ItemHit, ...]
    # References (ids or titles) that matched nothing in the catalog.
    unknown: tuple[str, ...] = ()


class ItemResolver:
    """An exact id first; a title with a year picks that film; a bare title every same-named film.

    Remakes share a title ("Heat" 1986 and 1995): without a year the caller gets both rather
    than a silent guess; a title that matches nothing exactly goes through fuzzy grounding.
    """

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._grounder = Grounder(catalog)
        self._by_title: dict[str, list[str]] = {}
        for item in catalog:
            self._by_title.setdefault(normalize_title(item.title), []).append(item.item_id)

    def resolve_one(self, ref: str) -> list[str]:
        text = ref.strip()
        if text in self.catalog:
            return [text]
        _, year = split_year(text)
        same = self._by_title.get(normalize_title(text), [])
        if year is None and same:
            return list(same)
        grounded = self._grounder.ground(text).item_id
        return [grounded] if grounded is not None else []

    def resolve(self, refs: Iterable[str]) -> tuple[list[str], list[str]]:
        """(ids in order, without repeats; references that matched nothing)."""
        ids: list[str] = []
        unknown: list[str] = []
        for ref in refs:
            found = self.resolve_one(ref)
            if not found:
                unknown.append(ref)
            ids += [i for i in found if i not in ids]
        return ids, unknown

    def hit(self, item_id: str, score: float | None = None) -> ItemHit:
        return ItemHit(item_id=item_id, title=self.catalog[item_id].display_title, score=score)


def render_hits(hits: ItemHits, empty: str = "No items found.") -> str:
    lines = [
        f"{h.item_id} | {h.title}" + ("" if h.score is None else f" | {h.score:.4g}")
        for h in hits.hits
    ]
    if not lines:
        lines.append(empty)
    if hits.unknown:
        lines.append("Not in the catalog: " + "; ".join(hits.unknown))
    return "\n".join(lines)


def top_k(scores: dict[str, float], order: Sequence[str], k: int) -> list[tuple[str, float]]:
    """Highest scores first; ties keep `order` (catalog order), so results are reproducible."""
    rank = {item_id: i for i, item_id in enumerate(order)}
    best = sorted(scores.items(), key=lambda p: (-p[1], rank.get(p[0], len(rank))))
    return best[:k]
