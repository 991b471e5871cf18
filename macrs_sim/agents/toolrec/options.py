"""The `[[systems]]` options of ToolRec (defaults from the paper's §4.1.4 where it gives them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class ToolRecOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["toolrec"] = "toolrec"
    # "We limit our decision processes to a maximum of eight rounds."
    max_rounds: int = Field(default=8, ge=1, le=20)
    # The largest K an action may ask for.
    max_k: int = Field(default=50, ge=1, le=200)
    # How many of the latest history items the prompts show.
    history_items: int = Field(default=20, ge=0, le=200)
    # How often the rank tool is sent back with the items the memory refused.
    mismatch_retries: int = Field(default=2, ge=0, le=5)
    # Repairs of a reply that breaks its JSON schema (the protocol's value overrides it).
    retries: int = Field(default=2, ge=0, le=5)
    # Items shown per recommending turn.
    recommend_k: int = Field(default=1, ge=1, le=10)
    # The plain ranker: the stand-in retriever re-orders it, and it tops up a short list.
    base_ranker: Literal["sasrec", "bpr", "itemcf", "popularity"] = "sasrec"
    ranker_params: dict[str, str] = Field(default_factory=dict)
