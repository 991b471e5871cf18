"""What a system's builder and its campaign-scoped `prepare` may use (DESIGN.md §3).

`history` follows DESIGN.md §3 "A fair contest": a system whose spec declares
`history = "pre-target"` (InteRecAgent's long-term memory, ToolRec's surrogate user,
RecMind's personal memory, the trained baselines) gets the user's own interactions before
the target, in time order and unfiltered: the `history_len` items the sample was drawn
from, never the target nor anything after it. The simulator's persona history (that
window filtered to the target's genres, which names the target's genre) is never passed,
nor the target or its profile. A spec with `history = "none"` (MACRS, single-LLM: their
paper gives them only the dialogue) gets an empty tuple.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.registry import SystemSpec
from macrs_sim.config import DataConfig, ProtocolConfig
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.grounding import ItemGrounder
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample
from macrs_sim.tools import ToolCallLog


@dataclass(frozen=True)
class SystemContext:
    """Everything one dialogue's system may be built from."""

    name: str
    dialogue_id: str
    # None for systems without an LLM (SystemSpec.uses_llm = False).
    client: ChatCompletionClient | None
    prompts: PromptLibrary
    dataset: Dataset
    grounder: ItemGrounder
    protocol: ProtocolConfig
    # What the spec's `prepare` returned (trained models, indexes); None without one.
    prepared: Any = None
    # The user's browsing history (item ids, oldest first), never the target.
    history: tuple[str, ...] = ()
    # Where the system's tool calls go (ToolCallRecord); the campaign stores them per dialogue.
    tool_log: ToolCallLog | None = None

    @property
    def retries(self) -> int:
        """How often a reply that breaks its schema is asked for again."""
        return self.protocol.max_structured_retries

    def require_client(self) -> ChatCompletionClient:
        if self.client is None:
            raise RuntimeError(f"system {self.name!r} needs a model client and was given none")
        return self.client


@dataclass(frozen=True)
class PrepareContext:
    """What a campaign-scoped `prepare` may use: built once per process, never per dialogue.

    `samples` are the campaign's samples (their targets tell a trainer what it must not
    see: train on data.splits.campaign_split, never on a target).
    """

    dataset: Dataset
    data: DataConfig
    samples: Sequence[Sample]


def history_for(spec: SystemSpec, sample: Sample | None) -> tuple[str, ...]:
    """What a system of this spec is given of the sample's user's past (see the module)."""
    if sample is None or spec.history == "none":
        return ()
    return sample.system_history
