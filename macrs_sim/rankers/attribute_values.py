"""Each item's values of one attribute pattern (genre, decade, director, cast), as indices.

ToolRec's attribute encoders read a user's history as a sequence of these values.
Index 0 is padding (no item, or an item's unused slot), 1 is "unknown" (an item
without a usable value), 2.. the pattern's vocabulary. A value carried by fewer
than `min_items` items counts as unknown: a director of one film only repeats
the film's identity, which the behaviour model already has.

The patterns follow the dataset's domain (`domain_patterns`): films keep genre, decade,
director and cast; another domain has its category path, named by the domain's word for
it ("category", "cuisine", "genre"), and each attribute its users name when looking for
an item (the domain's hints: brand, price_band, features for products; neighborhood,
city, price_range, ambience for restaurants; tags, developer for games).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from macrs_sim.data.attributes import decade_label
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.protocol import Item

PAD, UNKNOWN = 0, 1
Values = Callable[[Item], tuple[str, ...]]


def _clean(values: Sequence[str]) -> tuple[str, ...]:
    seen: dict[str, str] = {}
    for v in values:
        text = v.strip()
        if text:
            seen.setdefault(text.casefold(), text)
    return tuple(seen.values())


_PATTERNS: dict[str, Values] = {
    "genre": lambda item: _clean(item.genres),
    "decade": lambda item: (decade_label(item.year),) if item.year is not None else (),
    "director": lambda item: _clean([item.director] if item.director else []),
    "cast": lambda item: _clean(item.cast),
}
# Films' patterns, in the order `attributes` lists them; keywords are left out (in the
# demo catalog most name one film each, so they would only repeat item identity).
PATTERNS: tuple[str, ...] = tuple(_PATTERNS)


def _attribute(name: str) -> Values:
    return lambda item: _clean(item.attribute(name))


def domain_patterns(domain: Domain) -> Mapping[str, Values]:
    """The patterns of `domain`'s items by name, in the order tables are made."""
    if domain.layout == "films":
        return _PATTERNS
    out: dict[str, Values] = {domain.category_label: lambda item: _clean(item.categories)}
    for hint in domain.hints:
        if hint.name != "categories":
            out.setdefault(hint.name, _attribute(hint.name))
    return out


def known_patterns() -> tuple[str, ...]:
    """Every pattern name of films and of each registered dataset kind's domain, films'
    first: what a setting may name before the dataset is known."""
    from macrs_sim.data.registry import dataset_kinds, dataset_spec

    domains = [MOVIES, *(dataset_spec(kind).domain for kind in dataset_kinds())]
    return tuple(dict.fromkeys(name for d in domains for name in domain_patterns(d)))


@dataclass(frozen=True)
class AttributeTable:
    pattern: str
    vocabulary: tuple[str, ...]  # value index v >= 2 is vocabulary[v - 2]
    # (n_items + 1, width): row r holds the values of catalog item r - 1 (row 0: padding),
    # matching the behaviour model's item rows.
    rows: npt.NDArray[np.int64]

    @property
    def n_values(self) -> int:
        return len(self.vocabulary) + 2


def attribute_table(
    pattern: str, items: Sequence[Item], min_items: int = 2, domain: Domain = MOVIES
) -> AttributeTable:
    """The pattern's values for `items` (catalog order); values on < min_items items: unknown."""
    values = domain_patterns(domain)[pattern]
    raw = [values(item) for item in items]
    counts = Counter(v.casefold() for values in raw for v in values)
    vocab: dict[str, int] = {}
    per_item: list[list[int]] = []
    for item_values in raw:
        kept = [v for v in item_values if counts[v.casefold()] >= min_items]
        per_item.append([vocab.setdefault(v.casefold(), len(vocab) + 2) for v in kept] or [UNKNOWN])
    width = max(len(v) for v in per_item) if per_item else 1
    rows = np.zeros((len(items) + 1, width), dtype=np.int64)
    for r, indices in enumerate(per_item, start=1):
        rows[r, : len(indices)] = indices
    first_spelling: dict[str, str] = {}
    for item_values in raw:
        for v in item_values:
            first_spelling.setdefault(v.casefold(), v)
    vocabulary = tuple(first_spelling[k] for k in sorted(vocab, key=vocab.__getitem__))
    return AttributeTable(pattern, vocabulary, rows)


def available_tables(
    items: Sequence[Item],
    wanted: Sequence[str] | None = None,
    min_items: int = 2,
    domain: Domain = MOVIES,
) -> dict[str, AttributeTable]:
    """The patterns the catalog has data for (at least one value on min_items items); a
    wanted name that is no pattern of `domain` has none."""
    out: dict[str, AttributeTable] = {}
    known = domain_patterns(domain)
    for pattern in wanted if wanted is not None else known:
        if pattern not in known:
            continue
        table = attribute_table(pattern, items, min_items, domain)
        if table.vocabulary:
            out[pattern] = table
    return out


def tables_digest(tables: dict[str, AttributeTable]) -> str:
    """Identifies the attribute data (the dataset fingerprint covers only ids and titles)."""
    h = hashlib.sha256()
    for pattern, table in tables.items():
        h.update(f"{pattern}\n{len(table.vocabulary)}\n".encode())
        h.update("\x1f".join(table.vocabulary).encode())
        h.update(table.rows.tobytes())
    return h.hexdigest()[:16]
