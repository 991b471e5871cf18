"""What a system's builder and its campaign-scoped `prepare` may use (DESIGN.md §3).

`history` is the sample's browsing history (item ids, never the target): the paper's
systems get it as long-term memory (InteRecAgent loads it as the user's profile), so
every system may use it; the target and the target profile are never passed. A system
that must not see it (MACRS, single-LLM: the paper gives them only the dialogue) ignores it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autogen_core.models import ChatCompletionClient

from macrs_sim.config import DataConfig, ProtocolConfig
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.grounding import Grounder
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
    grounder: Grounder
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
