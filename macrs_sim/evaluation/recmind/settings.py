"""The settings of one `eval recmind` run, validated once and saved beside the results."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.config import ModelConfig

# Re-exported: their home was here (tasks.py keeps them light for the command line).
from macrs_sim.evaluation.recmind.tasks import PROMPTINGS as PROMPTINGS
from macrs_sim.evaluation.recmind.tasks import RANKING_TASKS as RANKING_TASKS
from macrs_sim.evaluation.recmind.tasks import TASKS as TASKS
from macrs_sim.evaluation.recmind.tasks import Prompting as Prompting
from macrs_sim.evaluation.recmind.tasks import Task as Task
from macrs_sim.tools.args import validation_message

# RecMind options `--set` may not name: the solver names the planner, --max-steps the limit.
SET_ELSEWHERE = {"kind": "it is always recmind", "planner": "--solver names it",
                 "max_steps": "--max-steps sets it"}  # fmt: skip


def recmind_options(values: dict[str, Any]) -> dict[str, Any]:
    """`values` checked against RecMind's options, each converted to its type."""
    known = [f for f in RecMindOptions.model_fields if f not in SET_ELSEWHERE]
    for key in values:
        if key in SET_ELSEWHERE:
            raise ValueError(f"{key}: not here ({SET_ELSEWHERE[key]})")
        if key not in known:
            raise ValueError(f"unknown RecMind option {key!r}; expected one of {', '.join(known)}")
    try:
        checked = RecMindOptions.model_validate(values)
    except ValidationError as err:
        raise ValueError(validation_message(err).removeprefix("invalid arguments: ")) from None
    return {key: getattr(checked, key) for key in values}


class EvalSettings(BaseModel):
    """Everything that decides the numbers: same settings and seed, same candidates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: Task
    dataset: str
    solvers: tuple[str, ...] = ("direct",)
    prompting: tuple[Prompting, ...] = PROMPTINGS
    # Test users sampled (the paper's running-time study used 100).
    users: int = Field(default=100, ge=1, le=1_000_000)
    # The candidate list of the ranking tasks: the target plus candidates - 1 negatives.
    candidates: int = Field(default=100, ge=2, le=10_000)
    # How many items the ranking question asks for (the paper: top 10).
    top_n: int = Field(default=10, ge=1, le=1_000)
    ks: tuple[int, ...] = (5, 10)
    # The most recent history items a question shows.
    history_len: int = Field(default=20, ge=1, le=1_000)
    # In-context examples of the few-shot prompts.
    shots: int = Field(default=3, ge=1, le=50)
    # RecMind's step limit.
    max_steps: int = Field(default=6, ge=1, le=100)
    # RecMind's planner options (`--set key=value`), e.g. tot_breadth, vote_temperature.
    recmind: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    concurrency: int = Field(default=1, ge=1, le=256)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    # Repairs of a judge reply that breaks its schema.
    retries: int = Field(default=2, ge=0, le=10)
    model: ModelConfig
    judge_model: ModelConfig

    @field_validator("solvers", "prompting")
    @classmethod
    def _not_empty_no_repeats(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if not value:
            raise ValueError("empty list")
        if len(set(value)) != len(value):
            raise ValueError(f"repeated entries in {', '.join(value)}")
        return value

    @field_validator("recmind")
    @classmethod
    def _known_recmind_options(cls, value: dict[str, Any]) -> dict[str, Any]:
        return recmind_options(value)

    @field_validator("ks")
    @classmethod
    def _positive_ks(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if not value or min(value) < 1:
            raise ValueError("expected positive integers like 5,10")
        return tuple(sorted(set(value)))
