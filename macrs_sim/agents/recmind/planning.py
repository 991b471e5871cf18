"""What every planner shares: recording states in the tree and ending the turn."""

from __future__ import annotations

from dataclasses import dataclass

from macrs_sim.agents.recmind.actions import Observation
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.tree import ReasoningTree, Status, ThoughtNode

# What the turn says when the model gave no usable answer at all.
NO_ANSWER = "I could not work out an answer."


@dataclass(frozen=True)
class Limits:
    max_steps: int
    breadth: int = 5
    votes: int = 3
    max_paths: int = 3


def add_step(
    tree: ReasoningTree,
    parent: int | None,
    step: StepOutput,
    *,
    path: int = 1,
    status: Status = "kept",
    votes: int | None = None,
) -> ThoughtNode:
    fields = {"path": path, "thought": step.thought, "action": step.action.strip(),
              "argument": step.argument, "status": status, "votes": votes}  # fmt: skip
    return tree.add(parent, fields)


def observe(tree: ReasoningTree, node: ThoughtNode, obs: Observation) -> None:
    node.observation, node.ok = obs.text, obs.ok
    tree.steps_used += 1


def finish(tree: ReasoningTree, node: ThoughtNode, step: StepOutput) -> None:
    """The Finish step ends planning: its argument is the answer, its items the list."""
    node.status = "finish"
    tree.answer = step.argument.strip()
    tree.items = [t.strip() for t in step.items if t.strip()]
    tree.final_path = [n.id for n in tree.path_to(node.id)]


async def conclude(
    r: Reasoner, tree: ReasoningTree, leaf: int | None, *, all_paths: bool = False
) -> None:
    """No Finish within the step limit (or a failed call): ask for the answer from the states."""
    path = tree.path_to(leaf)
    tree.final_path = [n.id for n in path]
    tree.hit_step_limit = tree.steps_used >= tree.step_limit
    shown = tree.run_states() if all_paths else path
    out = await r.answer(shown, with_path=all_paths)
    tree.answer = out.answer.strip() if out is not None and out.answer.strip() else NO_ANSWER
    tree.items = [t.strip() for t in (out.items if out else []) if t.strip()]
