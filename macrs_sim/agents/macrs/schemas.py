"""MACRS memory contents and the structured outputs of its LLM roles."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator, model_validator

from macrs_sim.agents.rendering import NONE, render_list


class DemandPair(BaseModel):
    attribute: str
    value: str


class UserProfile(BaseModel):
    """U_p: current demand as key/value pairs plus the browsing history (paper §3.3.1)."""

    model_config = ConfigDict(frozen=True)

    # A list of pairs, not a dict: JSON-schema constrained decoders and OpenAI's strict
    # mode reject free-form object keys; `demand()` gives the paper's dictionary view.
    current_demand: list[DemandPair] = Field(default_factory=list)
    browsing_history: list[str] = Field(default_factory=list)

    def demand(self) -> dict[str, str]:
        return {p.attribute: p.value for p in self.current_demand}

    def render(self) -> str:
        demand = render_list([f"{k}: {v}" for k, v in self.demand().items()])
        return f"Current demand: {demand}\nBrowsing history: {render_list(self.browsing_history)}"

    def is_empty(self) -> bool:
        return not self.current_demand and not self.browsing_history


EMPTY_PROFILE_TEXT = f"Current demand: {NONE}\nBrowsing history: {NONE}"


class RecommendOutput(BaseModel):
    # Never blank: a recommendation names its item (a schema failure, repaired like any
    # other). minLength, not a pattern: llama.cpp's grammar compiler rejects open patterns.
    item_title: str = Field(min_length=1)
    response: str

    @field_validator("item_title")
    @classmethod
    def _names_an_item(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("item_title must name the recommended movie")
        return value


class PlannerOutput(BaseModel):
    step1: str
    step2: str
    step3: str
    choice: Literal["ask", "chat", "recommend"]


class StrategyOutput(BaseModel):
    error_summary: str
    suggestion_ask: str
    suggestion_chat: str
    suggestion_recommend: str
    experience: str

    def suggestions(self) -> dict[str, str]:
        return {
            "ask": self.suggestion_ask,
            "chat": self.suggestion_chat,
            "recommend": self.suggestion_recommend,
        }


Title = Annotated[str, Field(max_length=80)]


class FinalListOutput(BaseModel):
    titles: list[Title] = Field(min_length=1, max_length=50)
    max_titles: ClassVar[int] = 50

    @model_validator(mode="before")
    @classmethod
    def _keep_first_k(cls, data: Any) -> Any:
        # maxItems guides constrained decoders; a model that lists more still gave its top k.
        if isinstance(data, dict) and isinstance(data.get("titles"), list):
            return {**data, "titles": data["titles"][: cls.max_titles]}
        return data


@cache
def final_list_schema(k: int) -> type[FinalListOutput]:
    """The fallback list's schema for exactly-bounded k, so constrained decoders stop at k."""
    schema = create_model(
        f"FinalListOutput{k}",
        __base__=FinalListOutput,
        titles=(list[Title], Field(min_length=1, max_length=k)),
    )
    schema.max_titles = k
    return schema
