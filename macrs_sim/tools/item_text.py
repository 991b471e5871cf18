"""One searchable text per item, the same for BM25 and text embeddings."""

from __future__ import annotations

from macrs_sim.protocol import Item

# Bump when the text changes: cached embeddings are keyed by it.
DOCUMENT_VERSION = "1"


def item_document(item: Item) -> str:
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
