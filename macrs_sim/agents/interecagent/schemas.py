"""What the model writes: a plan (with profile updates), a ReAct step, a critic verdict, and
the profile summary of the turns that left the dialogue window."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class PlanStep(BaseModel):
    tool: str
    # A JSON object of arguments, or text for the tool's main argument.
    input: dict[str, Any] | str = Field(default_factory=dict)


class ProfileUpdate(BaseModel):
    """What the latest user message adds to the profile memory (items or attributes)."""

    like: list[str] = Field(default_factory=list)
    dislike: list[str] = Field(default_factory=list)
    expect: list[str] = Field(default_factory=list)


class ProfileSummary(BaseModel):
    """The user's lasting taste in a stretch of dialogue (RecAI: like / unwanted)."""

    like: list[str] = Field(default_factory=list)
    dislike: list[str] = Field(default_factory=list)


class PlanOutput(BaseModel):
    profile: ProfileUpdate = Field(default_factory=ProfileUpdate)
    plan: list[PlanStep] = Field(default_factory=list, max_length=12)


class ReactStep(BaseModel):
    """One ReAct step: a tool call, or tool "finish" with the reply in `response`."""

    thought: str = ""
    profile: ProfileUpdate = Field(default_factory=ProfileUpdate)
    tool: str
    input: dict[str, Any] | str = Field(default_factory=dict)
    response: str = ""


class CriticOutput(BaseModel):
    correct: bool
    critique: str = ""
