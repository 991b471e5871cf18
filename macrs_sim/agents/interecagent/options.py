"""The `[[systems]]` options of InteRecAgent; the three switches are the paper's ablations."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from macrs_sim.rankers.train import option_params

# The ranking tool's SASRec runs without position embedding (paper §4).
SASREC_DEFAULTS = {"position": "false"}


class InteRecAgentOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["interecagent"] = "interecagent"
    # "w/o P": step-by-step ReAct (one model call per tool) instead of one plan per turn.
    plan_first: bool = True
    # "w/o D": a fixed set of demonstrations instead of the 3 most similar.
    demonstrations: bool = True
    # "w/o R": no critic.
    reflection: bool = True
    # Re-plans after a negative verdict (RecAI's reflection_limits = 3): at most 1 + this many
    # judged attempts; a rejected attempt's profile updates are reverted, the last one is kept.
    reflection_limit: int = Field(default=3, ge=1, le=5)
    # Dialogue window: the last K exchanges stay verbatim in the prompts; older ones are
    # summarised into the long-term profile (one model call per turn that leaves it). None:
    # the whole dialogue stays (RecAI's default: enable_shorten = 0, user_profile_update = -1).
    dialogue_window: int | None = Field(default=None, ge=1, le=50)
    # Long-term memory: the sample's history as liked items (ranking input, never shown
    # again). The paper's session-wise and one-turn protocols run without it (§4.1).
    long_term_memory: bool = True
    # The preference model of the ranking tool (SASRec without position embedding, paper §4).
    ranker: Literal["sasrec", "bpr", "itemcf", "popularity"] = "sasrec"
    # Hyperparameters of the SASRec ranker (rankers/params.py), checked when read; the
    # other rankers are trained with their defaults, so they take none.
    ranker_params: dict[str, str] = Field(default_factory=lambda: dict(SASREC_DEFAULTS))
    # A demonstration file written by `eval interecagent demos` (default: the bundled ones).
    demonstrations_file: str | None = None
    # Demonstrations retrieved into the planner's prompt (the paper's dynamic demos).
    n_demonstrations: int = Field(default=3, ge=0, le=10)
    # How many items a fetch shows when the plan does not say (the paper's Fig. C2 and
    # RecAI: 5); never more than the protocol's max_items_per_turn.
    fetch_k: int = Field(default=5, ge=1, le=20)
    # Hard-condition filters keep at most this many candidates on the bus.
    hard_limit: int = Field(default=1000, ge=1, le=5000)
    # Soft-condition ranking keeps this share of the candidates.
    soft_fraction: float = Field(default=0.05, gt=0.0, le=1.0)
    # Tool steps a turn may take when the plan is not written first (ReAct).
    max_react_steps: int = Field(default=6, ge=1, le=20)
    # Repairs of a reply that breaks its JSON schema (the protocol's value overrides it).
    retries: int = Field(default=2, ge=0, le=5)
    # Embed demonstrations with the toolkit's text model when installed, else token overlap.
    demo_retrieval: Literal["auto", "tokens"] = "auto"

    @field_validator("ranker_params")
    @classmethod
    def _fit_the_ranker(cls, params: dict[str, str], info: ValidationInfo) -> dict[str, str]:
        ranker = info.data.get("ranker")
        if ranker == "sasrec":
            option_params("sasrec", params)
        elif ranker is not None and params not in ({}, SASREC_DEFAULTS):
            raise ValueError(f'only ranker "sasrec" takes them (ranker is "{ranker}")')
        return params
