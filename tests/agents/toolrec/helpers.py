"""The hand-written films of tests/tools (two named "Heat", one without a year), a ranker
with fixed scores, and ToolRec built over them with the scripted client.

Fixed scores, best first: 4 Heat 1986 (0.9), 7 Galaxy Kids (0.7), 2 Paris in Love (0.6),
3 Heat 1995 (0.5), 5 Laugh Factory (0.4), 6 Haunted Manor (0.3), 8 Quiet Rooms (0.2),
1 Star Voyage (0.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from macrs_sim.agents.toolrec.build import build, make_loop
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.retrieval import RankerAttributeRetriever
from macrs_sim.agents.toolrec.scripted import toolrec_scripted_rules
from macrs_sim.agents.toolrec.system import ToolRecSystem
from macrs_sim.agents.toolrec.variants import ToolRecLoop
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.context import CallContext
from macrs_sim.llm.scripted import Rule, ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item
from macrs_sim.rankers.base import Scores, mask_seen
from macrs_sim.tools import ToolCallLog
from tests.tools.films import FILMS

SCORES = {"1": 0.1, "2": 0.6, "3": 0.5, "4": 0.9, "5": 0.4, "6": 0.3, "7": 0.7, "8": 0.2}


def films() -> Catalog:
    return Catalog([
        Item(item_id=f[0], title=f[1], year=f[2], genres=tuple(f[3]), director=f[4],
             cast=tuple(f[5]), keywords=tuple(f[6]), overview=f[7])
        for f in FILMS
    ])  # fmt: skip


class FixedRanker:
    kind = "fixed"
    item_ids = tuple(SCORES)

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        row = np.array([SCORES[i] for i in self.item_ids], dtype=np.float32)
        return mask_seen(np.tile(row, (len(histories), 1)), histories)


def prepared() -> ToolRecPrepared:
    catalog = films()
    ranker = FixedRanker()
    return ToolRecPrepared(RankerAttributeRetriever(ranker, catalog), ranker, catalog)


def client(rules: Mapping[str, Rule] | None = None) -> ScriptedChatCompletionClient:
    return ScriptedChatCompletionClient({**toolrec_scripted_rules(), **(rules or {})})


def loop(
    rules: Mapping[str, Rule] | None = None, log: ToolCallLog | None = None, **options: object
) -> tuple[ToolRecLoop, ScriptedChatCompletionClient]:
    fake = client(rules)
    ctx = CallContext(role="", dialogue_id="d1", system="tr", turn=1)
    made = make_loop(ToolRecOptions.model_validate(options), prepared(), fake, PromptLibrary(),
                     context=ctx, log=log)  # fmt: skip
    return made, fake


def system(
    rules: Mapping[str, Rule] | None = None,
    log: ToolCallLog | None = None,
    history: Sequence[str] = ("1",),
    **options: object,
) -> tuple[ToolRecSystem, ScriptedChatCompletionClient]:
    fake = client(rules)
    made = build(ToolRecOptions.model_validate(options), prepared(), name="tr", dialogue_id="d1",
                 client=fake, prompts=PromptLibrary(), history=history, log=log)  # fmt: skip
    return made, fake


def roles(fake: ScriptedChatCompletionClient) -> list[str]:
    return [c.context.role for c in fake.calls]
