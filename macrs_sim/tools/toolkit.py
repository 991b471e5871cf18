"""The standard tool set of a dataset: heavy parts built once, cheap tools per dialogue.

`ToolResources` is campaign-scoped (a system's `prepare`): database path, resolver, BM25
index, text index, models. `standard_toolbox` makes the tools for one dialogue, bound to
that user's history; tools whose part is missing are left out, not broken.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from macrs_sim.data.dataset import Dataset
from macrs_sim.tools.base import RecTool
from macrs_sim.tools.bm25 import Bm25Index, Bm25SearchTool
from macrs_sim.tools.database import tool_database
from macrs_sim.tools.embedding import SentenceTransformerEncoder, TextEmbeddingIndex
from macrs_sim.tools.hard import HardFilterTool
from macrs_sim.tools.info import ItemInfoTool
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.rank import RankTool
from macrs_sim.tools.schema import CatalogSchema, read_schema
from macrs_sim.tools.scorer import Neighbours, Scorer
from macrs_sim.tools.soft import SimilarItemsTool, TextSimilarityTool
from macrs_sim.tools.sql import SqlQueryTool
from macrs_sim.tools.toolbox import Toolbox


@dataclass(frozen=True)
class ToolResources:
    database: Path
    resolver: ItemResolver
    popularity: Mapping[str, int]
    bm25: Bm25Index | None = None
    text: TextEmbeddingIndex | None = None
    scorer: Scorer | None = None
    neighbours: Neighbours | None = None
    # What `database` holds; None: read from it (tools/schema.py).
    schema: CatalogSchema | None = None

    @classmethod
    def for_dataset(
        cls,
        dataset: Dataset,
        cache_dir: Path,
        *,
        text_model: Path | None = None,
        use_text_model: bool = True,
        scorer: Scorer | None = None,
        neighbours: Neighbours | None = None,
    ) -> ToolResources:
        """BM25 and text similarity when the recsys extra is installed (text indexes lazily)."""
        text = None
        if use_text_model and importlib.util.find_spec("sentence_transformers") is not None:
            encoder = SentenceTransformerEncoder(text_model)
            text = TextEmbeddingIndex(
                dataset.catalog, encoder, fingerprint=dataset.fingerprint, cache_dir=cache_dir,
                domain=dataset.domain,
            )  # fmt: skip
        has_bm25 = importlib.util.find_spec("bm25s") is not None
        bm25 = Bm25Index(dataset.catalog, dataset.domain) if has_bm25 else None
        database = tool_database(dataset, cache_dir)
        return cls(
            database=database,
            schema=read_schema(database),
            resolver=ItemResolver(dataset.catalog),
            popularity=dataset.popularity,
            bm25=bm25,
            text=text,
            scorer=scorer,
            neighbours=neighbours,
        )

    def warm(self) -> None:
        """Build the indexes now (in `prepare`), not inside some dialogue's first tool call."""
        if self.bm25 is not None:
            self.bm25.build()
        if self.text is not None:
            self.text.vectors()


def standard_toolbox(
    res: ToolResources, log: ToolCallLog | None = None, *, history: Sequence[str] = ()
) -> Toolbox:
    popularity = dict(res.popularity)
    schema = res.schema or read_schema(res.database)
    tools: list[RecTool[Any, Any]] = [
        SqlQueryTool(res.database, schema=schema, log=log),
        HardFilterTool(res.database, schema=schema, log=log),
        ItemInfoTool(res.resolver, popularity, schema=schema, log=log),
        RankTool(
            res.resolver,
            popularity,
            scorer=res.scorer,
            similarity=res.text,
            history=history,
            log=log,
        ),  # fmt: skip
    ]
    if res.bm25 is not None:
        tools.append(Bm25SearchTool(res.bm25, res.resolver, log=log))
    if res.text is not None:
        tools.append(TextSimilarityTool(res.text, res.resolver, log=log))
    if res.neighbours is not None:
        tools.append(SimilarItemsTool(res.neighbours, res.resolver, log=log))
    return Toolbox(tools, log=log)
