"""The reasoning tree of one turn: every state the planner made, kept for `explain`.

A node is a state s = (thought, action, observation). Its status says what the planner
did with it: "kept" (on the final path), "pruned" (lost the vote, never run: BFS),
"unexplored" (a sibling DFS never reached), "backtracked" (run, then left for a sibling: DFS),
"alternative" (Self-Inspiring: a state of an earlier path, kept in context), "finish"
(the step that ended planning).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Status = Literal["kept", "pruned", "unexplored", "backtracked", "alternative", "finish"]


class ThoughtNode(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: int
    parent: int | None
    depth: int
    # Self-Inspiring's path number m (1-based); 1 for the other planners.
    path: int = 1
    thought: str
    action: str
    argument: str = ""
    observation: str | None = None
    ok: bool = True
    status: Status = "kept"
    # Votes this candidate got from the evaluator (ToT), when it was voted on.
    votes: int | None = None


class ReasoningTree(BaseModel):
    model_config = ConfigDict(extra="forbid")

    planner: str
    step_limit: int
    nodes: list[ThoughtNode] = Field(default_factory=list)
    # Each evaluator call's choice (1-based), per step where ToT voted.
    ballots: list[list[int]] = Field(default_factory=list)
    final_path: list[int] = Field(default_factory=list)
    answer: str = ""
    items: list[str] = Field(default_factory=list)
    steps_used: int = 0
    hit_step_limit: bool = False

    def add(self, parent: int | None, node: dict[str, object]) -> ThoughtNode:
        depth = 0 if parent is None else self.nodes[parent].depth + 1
        made = ThoughtNode.model_validate({"id": len(self.nodes), "parent": parent,
                                           "depth": depth, **node})  # fmt: skip
        self.nodes.append(made)
        return made

    def path_to(self, node_id: int | None) -> list[ThoughtNode]:
        """The states from the root to `node_id`, oldest first."""
        out: list[ThoughtNode] = []
        while node_id is not None:
            out.append(self.nodes[node_id])
            node_id = self.nodes[node_id].parent
        return out[::-1]

    def run_states(self) -> list[ThoughtNode]:
        """Every state that was run (it has an observation), in the order it was made."""
        return [n for n in self.nodes if n.observation is not None]
