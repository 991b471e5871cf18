"""Item-CF neighbours, text similarity and ranking, with hand-written fake models."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import Item
from macrs_sim.tools.embedding import TextEmbeddingIndex, forget_loaded
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.rank import RankTool
from macrs_sim.tools.scorer import RankerNeighbours, RankerScorer
from macrs_sim.tools.soft import SimilarItemsTool, TextSimilarityTool
from tests.tools.fakes import BagOfWordsEncoder, FakeIndexCF, FakeIndexRanker, FakeItemCF


def _hits(reply: Any) -> list[tuple[str, float | None]]:
    assert reply.ok, reply.text
    return [(h.item_id, h.score) for h in reply.data.hits]


async def test_neighbours_of_several_items_add_up(films: Catalog) -> None:
    tool = SimilarItemsTool(FakeItemCF(), ItemResolver(films))
    # Seeds 1 and 3: item 7 = 0.9 + 0.3, item 4 = 0.8; seeds are never suggested.
    assert _hits(await tool.call_raw({"items": ["Star Voyage", "3"]})) == [("7", 1.2), ("4", 0.8)]


async def test_a_bare_remake_title_seeds_both_films(films: Catalog) -> None:
    tool = SimilarItemsTool(FakeItemCF(), ItemResolver(films))
    # "Heat" is 3 and 4: 4's neighbour 3 is a seed, 99 is not in the catalog.
    assert _hits(await tool.call_raw("Heat")) == [("7", 0.3), ("1", 0.2)]


async def test_neighbours_adapter_maps_rows_to_ids(films: Catalog) -> None:
    tool = SimilarItemsTool(RankerNeighbours(FakeIndexCF()), ItemResolver(films))
    assert _hits(await tool.call_raw({"items": ["3"], "k": 1})) == [("4", 0.8)]


async def test_rank_by_preference_drops_seen_and_unscored_go_last(
    films: Catalog, popularity: dict[str, int]
) -> None:
    tool = RankTool(ItemResolver(films), popularity, scorer=RankerScorer(FakeIndexRanker()))
    reply = await tool.call_raw(
        {"candidates": ["1", "Galaxy Kids", "2", "3", "Heat (1986)", "Zzz"], "history": ["1"]}
    )
    # 1 is in the history; 2, 3, 4 score .4, .3, .2; Galaxy Kids (7) is outside the model.
    assert _hits(reply) == [("2", 0.4), ("3", 0.3), ("4", 0.2), ("7", None)]
    assert reply.data is not None and reply.data.unknown == ("Zzz",)


async def test_rank_uses_the_known_history_by_default(
    films: Catalog, popularity: dict[str, int]
) -> None:
    scorer = RankerScorer(FakeIndexRanker())
    tool = RankTool(ItemResolver(films), popularity, scorer=scorer, history=["2"])
    text = await tool.run_text("1; 2; 3; 4")
    assert [line.split(" | ")[0] for line in text.splitlines()] == ["3", "4", "1"]


async def test_rank_by_popularity(films: Catalog, popularity: dict[str, int]) -> None:
    tool = RankTool(ItemResolver(films), popularity)
    reply = await tool.call_raw(
        {"candidates": ["Heat", "Haunted Manor", "Quiet Rooms"], "by": "popularity"}
    )
    assert _hits(reply) == [("3", 25.0), ("6", 15.0), ("4", 3.0), ("8", 0.0)]


async def test_rank_without_a_model_says_so(films: Catalog, popularity: dict[str, int]) -> None:
    text = await RankTool(ItemResolver(films), popularity).run_text("1; 2")
    assert text == "Error: ranking by preference is not available: no model configured"


@pytest.fixture
def text_index(films: Catalog, tmp_path: Path) -> TextEmbeddingIndex:
    return TextEmbeddingIndex(films, BagOfWordsEncoder(), fingerprint="fx", cache_dir=tmp_path)


async def test_rank_by_similarity_to_text_and_to_history(
    films: Catalog, popularity: dict[str, int], text_index: TextEmbeddingIndex
) -> None:
    tool = RankTool(ItemResolver(films), popularity, similarity=text_index)
    by_text = _hits(await tool.call_raw(
        {"candidates": ["6", "7", "1"], "by": "similarity", "query": "space galaxy"}
    ))  # fmt: skip
    # Item 1 says "space" and "galaxy" once each, item 7 only "Galaxy": cosines 1 and 1/sqrt 2.
    assert by_text == [("1", 1.0), ("7", round(1 / math.sqrt(2), 4)), ("6", 0.0)]
    by_history = _hits(await tool.call_raw(
        {"candidates": ["6", "7", "1"], "by": "similarity", "history": ["1"]}
    ))  # fmt: skip
    assert by_history == [("7", round(1 / math.sqrt(2), 4)), ("6", 0.0)]


async def test_text_similarity_tool(films: Catalog, text_index: TextEmbeddingIndex) -> None:
    tool = TextSimilarityTool(text_index, ItemResolver(films))
    hits = _hits(await tool.call_raw({"query": "a ghost story", "k": 2}))
    assert hits[0] == ("6", 1.0)


def test_embeddings_are_cached_per_fingerprint_and_model(films: Catalog, tmp_path: Path) -> None:
    # The files alone: what this process keeps is forgotten before each index.
    forget_loaded()
    first = BagOfWordsEncoder()
    TextEmbeddingIndex(films, first, fingerprint="a", cache_dir=tmp_path).vectors()
    forget_loaded()
    again = BagOfWordsEncoder()
    TextEmbeddingIndex(films, again, fingerprint="a", cache_dir=tmp_path).vectors()
    forget_loaded()
    other_data = BagOfWordsEncoder()
    TextEmbeddingIndex(films, other_data, fingerprint="b", cache_dir=tmp_path).vectors()
    forget_loaded()
    other_model = BagOfWordsEncoder(model_key="other")
    TextEmbeddingIndex(films, other_model, fingerprint="a", cache_dir=tmp_path).vectors()
    assert (first.calls, again.calls, other_data.calls, other_model.calls) == ([8], [], [8], [8])
    assert len(list(tmp_path.glob("item-text-*.npz"))) == 3
    assert not list(tmp_path.glob("*.tmp"))


def test_a_process_encodes_the_same_documents_once(films: Catalog, tmp_path: Path) -> None:
    forget_loaded()
    first = BagOfWordsEncoder()
    vectors = TextEmbeddingIndex(films, first, fingerprint="a", cache_dir=tmp_path / "1").vectors()
    # Another cache folder (another campaign's), the same documents and model: kept, and
    # still written to the new folder.
    second = BagOfWordsEncoder()
    again = TextEmbeddingIndex(films, second, fingerprint="z", cache_dir=tmp_path / "2").vectors()
    assert (first.calls, second.calls) == ([8], []) and (again == vectors).all()
    assert len(list((tmp_path / "2").glob("item-text-*.npz"))) == 1
    # The same ids with other text: encoded again, whatever fingerprint the caller gives.
    renamed_films = Catalog(
        [Item.model_validate(i.model_dump() | {"title": f"Other {i.title}"}) for i in films]
    )
    renamed = BagOfWordsEncoder()
    TextEmbeddingIndex(renamed_films, renamed, fingerprint="a", cache_dir=None).vectors()
    other_model = BagOfWordsEncoder(model_key="other")
    TextEmbeddingIndex(films, other_model, fingerprint="a", cache_dir=None).vectors()
    assert (renamed.calls, other_model.calls) == ([8], [8])
    forget_loaded()
    after = BagOfWordsEncoder()
    TextEmbeddingIndex(films, after, fingerprint="a", cache_dir=None).vectors()
    assert after.calls == [8]


def test_a_cache_for_other_items_is_not_reused(films: Catalog, tmp_path: Path) -> None:
    forget_loaded()
    index = TextEmbeddingIndex(films, BagOfWordsEncoder(), fingerprint="a", cache_dir=tmp_path)
    index.vectors()
    fewer = Catalog([films["1"], films["2"]])
    encoder = BagOfWordsEncoder()
    TextEmbeddingIndex(fewer, encoder, fingerprint="a", cache_dir=tmp_path).vectors()
    assert encoder.calls == [2]
