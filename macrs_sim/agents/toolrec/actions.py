"""The surrogate user's actions (paper §3.2): `retrieve[attribute, K]`, `rank[attribute, K]`,
`finish`, parsed from the action text the model writes into a typed record."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, Field

from macrs_sim.protocol import Record

ToolName = Literal["retrieve", "rank"]
# The paper writes "Retrieval[genre,15]", the authors' prompts "Retrieve[None, 5]" and
# "Rerank[None, 10]"; every spelling of each tool is accepted.
_TOOL_NAMES: dict[str, ToolName] = {
    "retrieve": "retrieve", "retrieval": "retrieve",
    "rank": "rank", "ranking": "rank", "rerank": "rank",
}  # fmt: skip
_CALL = re.compile(r"^\s*([A-Za-z_]+)\s*\[\s*([^,\]]*?)\s*,\s*\$?\s*(-?\d+)\s*\]\s*$")
# "finish", "Finish[]", and the authors' "Finish[list]" (whatever it lists: the final list
# is ranked from every tool result, `loop.SurrogateUserLoop.conclude`).
_FINISH = re.compile(r"^\s*finish\s*(\[.*\])?\s*$", re.IGNORECASE | re.DOTALL)
# What a model writes around the action: "Action 3: rank[...]", backticks.
_LABEL = re.compile(r"^\s*(?:action\s*\d*\s*:\s*)?", re.IGNORECASE)
MAX_ATTRIBUTE_CHARS = 40
# The attribute of no attribute: retrieve[None, K] is the plain backbone, rank[None, K] ranks
# by the history alone (the authors' tools are None, genre, release year).
NO_ATTRIBUTE = "none"


class ActionError(ValueError):
    """The action text is not one of the three forms; the message goes back to the model."""


class ToolAction(Record):
    tool: ToolName
    attribute: str
    k: int

    def render(self) -> str:
        return f"{self.tool}[{self.attribute}, {self.k}]"


class FinishAction(Record):
    tool: Literal["finish"] = "finish"

    def render(self) -> str:
        return "finish"


Action = ToolAction | FinishAction


def parse_action(text: str, max_k: int) -> Action:
    """`retrieve[genre, 10]`, `Rank[release year, 5]`, `Retrieve[None, 5]`, `finish`,
    `Finish[list]`, any of them after "Action 3:" or in backticks; anything else is an
    ActionError."""
    text = _LABEL.sub("", text.strip().strip("`").strip(), count=1)
    if _FINISH.match(text):
        return FinishAction()
    m = _CALL.match(text)
    if m is None:
        raise ActionError(
            f"cannot read the action {text.strip()!r}; write retrieve[attribute, K], "
            "rank[attribute, K] or finish"
        )
    name, attribute, k = m.group(1).lower(), m.group(2).strip().strip("'\""), int(m.group(3))
    tool = _TOOL_NAMES.get(name)
    if tool is None:
        raise ActionError(f"unknown tool {m.group(1)!r}; the tools are retrieve, rank and finish")
    if not attribute or len(attribute) > MAX_ATTRIBUTE_CHARS:
        raise ActionError(f"{tool}: the attribute must be 1 to {MAX_ATTRIBUTE_CHARS} characters")
    if not 1 <= k <= max_k:
        raise ActionError(f"{tool}[{attribute}, {k}]: K must be between 1 and {max_k}")
    return ToolAction(tool=tool, attribute=attribute.lower(), k=k)


class SimulationStep(BaseModel):
    """One step of the surrogate user: its thought and the action text."""

    thought: str = ""
    action: str = Field(description="retrieve[attribute, K], rank[attribute, K] or finish")


class RankOutput(BaseModel):
    """The rank tool's answer: item ids from the candidate list, best first."""

    items: list[str] = Field(default_factory=list, max_length=100)


class PlanOutput(BaseModel):
    """The "w/ Plan" ablation's answer: every action at once, in order."""

    plan: list[str] = Field(
        default_factory=list, max_length=40,
        description="actions in order: retrieve[attribute, K], rank[attribute, K], finish",
    )  # fmt: skip
