"""The `[[systems]]` options of ToolRec (defaults from the paper's §4.1.4 where it gives them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from macrs_sim.rankers.params import ToolRecParams
from macrs_sim.rankers.train import option_params

# The ablations of the paper's §4.3.1 (Fig. 4); "toolrec" is the full method.
#   single: no CoT, no tool learning: the LLM ranks `candidates` items of the plain
#           ranker (SASRec) in one call ("w/ single").
#   multi:  the same, over `candidates` items from the plain ranker and the
#           attribute-oriented retrieval tools together ("w/ multi").
#   plan:   no CoT: the LLM writes every tool call at once, then the plan is executed
#           exactly as written ("w/ Plan").
# The paper's N: lists are scored at 10 (§4.1.2); the ablations rank and plan for it.
TOP_N = 10
Variant = Literal["toolrec", "single", "multi", "plan"]
VARIANT_LABELS: dict[str, str] = {
    "toolrec": "ToolRec", "single": "w/ single", "multi": "w/ multi", "plan": "w/ Plan"
}  # fmt: skip


class ToolRecOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

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
    # The base ranker's hyperparameters (rankers/params.py), checked when read.
    ranker_params: dict[str, str] = Field(default_factory=dict)
    # "trained": the paper's attribute-oriented retrieval tools (§3.3.2: the frozen SASRec
    # plus an attribute encoder per pattern, fine-tuned with BPR; `models train toolrec`).
    # "ranker": a fast stand-in with no training of its own (the base ranker's top items,
    # those sharing the attribute's value with the user's latest items first).
    retriever: Literal["trained", "ranker"] = "trained"
    # Stage-2 settings of the trained tools (tune_lr, tune_epochs, attributes, min_items ...);
    # with base_ranker "sasrec" the backbone takes ranker_params, so both share a checkpoint.
    retriever_params: dict[str, str] = Field(default_factory=dict)
    # "toolrec": the paper's method; "single", "multi", "plan": its w/ single, w/ multi and
    # w/ Plan baselines (§4.1.3).
    variant: Variant = "toolrec"
    # "both the w/ single and w/ multi variants use the same number of candidate items:
    # thirty items in total" (§4.3.1); also LLMRank's candidate count (§4.1.3).
    candidates: int = Field(default=30, ge=1, le=200)

    @field_validator("ranker_params")
    @classmethod
    def _fit_the_base(cls, params: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        base = info.data.get("base_ranker")
        if base is not None:
            option_params(base, base_params(base, params))
        return params

    @field_validator("retriever_params")
    @classmethod
    def _fit_stage_2(cls, params: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        """As build.prepare reads them: over the SASRec base ranker's own settings."""
        data = info.data
        if data.get("retriever") == "ranker" and params:
            raise ValueError('only retriever "trained" takes them (retriever is "ranker")')
        if data.get("retriever") != "trained" or "ranker_params" not in data:
            return params
        base = data["base_ranker"]
        stage1 = option_params(base, base_params(base, data["ranker_params"]))
        given = stage1.model_dump() if base == "sasrec" else {}
        option_params(ToolRecParams, {**given, **params})
        return params


def base_params(base_ranker: str, params: dict[str, str]) -> dict[str, str]:
    """`ranker_params` as the base ranker is trained with: a SASRec trains with BPR unless
    they say otherwise (the paper's stage 1, its Eq. 4)."""
    if base_ranker == "sasrec" and "loss" not in params:
        return {**params, "loss": "bpr"}
    return dict(params)
