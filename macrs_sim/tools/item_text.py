"""One searchable text per item, the same for BM25 and text embeddings.

Films' text is the one their cached embeddings were made from, byte for byte. Another
domain's: the title, its categories under the domain's word ("Cuisines: ..."), each
attribute as "Label: values." (the domain's hint label where it has one: "Price range"
for price_band), keywords and the description.
"""

from __future__ import annotations

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.domain_words import capitalized, plural_of
from macrs_sim.protocol import Item
from macrs_sim.tools.schema import is_film

# Bump when the text changes: cached embeddings are keyed by it (document_version).
DOCUMENT_VERSION = "1"


def document_version(domain: Domain) -> str:
    """Films' version as it was; other domains' texts are their own (and were film-shaped
    before, so vectors cached then are not theirs)."""
    return DOCUMENT_VERSION if is_film(domain) else f"{DOCUMENT_VERSION}+domain-2:{domain.name}"


def _film_document(item: Item) -> str:
    parts = [item.display_title.strip() + "."]
    if item.aka:
        parts.append("Also known as " + "; ".join(item.aka) + ".")
    if item.genres:
        parts.append("Genres: " + ", ".join(item.genres) + ".")
    if item.director:
        parts.append(f"Directed by {item.director}.")
    if item.cast:
        parts.append("Starring " + ", ".join(item.cast) + ".")
    if item.keywords:
        parts.append("Keywords: " + ", ".join(item.keywords) + ".")
    if item.overview:
        parts.append(item.overview.strip())
    return " ".join(parts)


def attribute_label(domain: Domain, name: str, several: bool) -> str:
    """How a person words attribute `name` ("Price range", "Features"), capitalised."""
    hinted = {h.name: h.label for h in domain.hints}
    label = hinted.get(name, name.replace("_", " "))
    return capitalized(plural_of(label) if several else label)


def document_words(domain: Domain) -> str:
    """What a non-film item's text holds, in words (tool descriptions): "titles,
    categories, brands, price ranges, features and descriptions"."""
    hinted = [plural_of(h.label) for h in domain.hints if h.name != "categories"]
    words = ["titles", plural_of(domain.category_label), *hinted, "descriptions"]
    return ", ".join(words[:-1]) + " and " + words[-1]


def item_document(item: Item, domain: Domain = MOVIES) -> str:
    if is_film(domain):
        return _film_document(item)
    parts = [item.display_title.strip() + "."]
    if item.aka:
        parts.append("Also known as " + "; ".join(item.aka) + ".")
    if item.categories:
        label = capitalized(plural_of(domain.category_label))
        parts.append(f"{label}: " + ", ".join(item.categories) + ".")
    for name, values in item.attributes:
        label = attribute_label(domain, name, len(values) > 1)
        parts.append(f"{label}: " + ", ".join(values) + ".")
    if item.keywords:
        parts.append("Keywords: " + ", ".join(item.keywords) + ".")
    if item.description:
        parts.append(item.description.strip())
    return " ".join(parts)
