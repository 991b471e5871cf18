"""Tools LLM systems call: SQL, hard/soft retrieval, ranking, item info, BM25 search.

Each tool is an autogen `BaseTool` (function calling) with a text path for ReAct loops
(`run_text`); every call becomes a `ToolCallRecord` in a `ToolCallLog`, attributed through
`macrs_sim.llm.context.calling(CallContext(...))` like model calls.
"""

from macrs_sim.tools.args import ToolInputError
from macrs_sim.tools.base import RecTool, ToolReply
from macrs_sim.tools.bm25 import Bm25Index, Bm25SearchTool
from macrs_sim.tools.embedding import SentenceTransformerEncoder, TextEmbeddingIndex
from macrs_sim.tools.hard import HardFilterTool
from macrs_sim.tools.info import ItemInfoTool
from macrs_sim.tools.items import ItemHit, ItemHits, ItemResolver
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.rank import RankTool
from macrs_sim.tools.scorer import Neighbours, RankerNeighbours, RankerScorer, Scorer
from macrs_sim.tools.soft import SimilarItemsTool, TextSimilarityTool
from macrs_sim.tools.sql import SqlQueryTool
from macrs_sim.tools.toolbox import Toolbox, parse_action
from macrs_sim.tools.toolkit import ToolResources, standard_toolbox

__all__ = [
    "Bm25Index", "Bm25SearchTool", "HardFilterTool", "ItemHit", "ItemHits", "ItemInfoTool",
    "ItemResolver", "Neighbours", "RankTool", "RankerNeighbours", "RankerScorer", "RecTool",
    "Scorer", "SentenceTransformerEncoder", "SimilarItemsTool", "SqlQueryTool",
    "TextEmbeddingIndex", "TextSimilarityTool", "ToolCallLog", "ToolInputError", "ToolReply",
    "ToolResources", "Toolbox", "parse_action", "standard_toolbox",
]  # fmt: skip
