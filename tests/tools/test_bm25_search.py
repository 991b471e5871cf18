"""`search_items`: BM25 over item text; the expected top hit for hand-picked queries."""

from __future__ import annotations

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.tools.bm25 import Bm25Index, Bm25SearchTool
from macrs_sim.tools.items import ItemResolver

pytest.importorskip("bm25s", reason="needs the recsys extra: pip install 'macrs-sim[recsys]'")


@pytest.fixture
def search(films: Catalog) -> Bm25SearchTool:
    return Bm25SearchTool(Bm25Index(films), ItemResolver(films))


@pytest.mark.parametrize(
    ("query", "top"),
    [
        ("ghost in a mansion", "6"),  # keywords and plot of Haunted Manor
        ("a wedding in Paris", "2"),  # title, keyword and plot
        ("detective chases a thief after a bank heist", "3"),
        ("Burt Reynolds", "4"),  # cast only
        ("directed by Michael Mann", "3"),  # director only
        ("young aliens", "7"),
    ],
)
async def test_top_hit(search: Bm25SearchTool, query: str, top: str) -> None:
    reply = await search.call_raw({"query": query, "k": 3})
    assert reply.ok and reply.data is not None
    assert reply.data.hits[0].item_id == top


async def test_only_items_with_a_shared_word_are_returned(search: Bm25SearchTool) -> None:
    reply = await search.call_raw({"query": "heist", "k": 10})
    assert reply.data is not None
    assert [h.item_id for h in reply.data.hits] == ["3"]
    assert reply.text.startswith("3 | Heat (1995) | ")


async def test_within_limits_the_hits(search: Bm25SearchTool) -> None:
    reply = await search.call_raw({"query": "heist thriller", "within": "Heat (1986); Zzz"})
    assert reply.data is not None
    assert [h.item_id for h in reply.data.hits] == ["4"]  # "thriller" is one of its genres
    assert reply.data.unknown == ("Zzz",)


async def test_unknown_words_find_nothing(search: Bm25SearchTool) -> None:
    assert await search.run_text("qwertyuiop") == "No item matches these words."
