"""The `[[systems]]` options of RecMind: the planner, its limits, and the tool switches."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Planner = Literal["cot", "tot-bfs", "tot-dfs", "self-inspiring"]
PLANNERS: tuple[Planner, ...] = ("cot", "tot-bfs", "tot-dfs", "self-inspiring")


class RecMindOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["recmind"] = "recmind"
    planner: Planner = "self-inspiring"
    # The step limit T: tool steps per turn, over every path the planner explores.
    max_steps: int = Field(default=6, ge=1, le=30)
    # ToT: candidate next states sampled per step (the paper's prompt asks for five).
    tot_breadth: int = Field(default=3, ge=2, le=8)
    # ToT: how many times the voting evaluator is asked; the majority picks the state.
    tot_votes: int = Field(default=3, ge=1, le=9)
    # Self-Inspiring: at most this many paths per turn (the paper caps alternatives at 5).
    si_max_paths: int = Field(default=3, ge=1, le=8)
    # Tool switches (ablations): a disabled tool is neither described nor run.
    sql_tool: bool = True
    search_tool: bool = True
    summarize_tool: bool = True
    # Turn the SQL rows / search hits into sentences with the model (the paper's appendix).
    result_to_text: bool = True
    # "bm25": offline keyword search over the catalog's text; "web": SerpApi (needs a key).
    search_backend: Literal["bm25", "web"] = "bm25"
    web_api_key_env: str = "SERPAPI_API_KEY"
    # How many items a turn recommends at most.
    recommend_k: int = Field(default=3, ge=1, le=10)
    retries: int = Field(default=2, ge=0, le=5)
