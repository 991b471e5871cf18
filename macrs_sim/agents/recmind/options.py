"""The `[[systems]]` options of RecMind: the planner, its limits, and the tool switches."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Planner = Literal["cot", "tot-bfs", "tot-dfs", "self-inspiring"]
PLANNERS: tuple[Planner, ...] = ("cot", "tot-bfs", "tot-dfs", "self-inspiring")


class RecMindOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    kind: Literal["recmind"] = "recmind"
    # How steps are planned: chain of thought, tree of thoughts (breadth- or depth-first),
    # or the paper's Self-Inspiring.
    planner: Planner = "self-inspiring"
    # The step limit T: tool steps per turn, over every path the planner explores.
    max_steps: int = Field(default=6, ge=1, le=30)
    # ToT: candidate next states sampled per step (the paper's prompt asks for five, and
    # its §4.7 explores "the 5 best candidate thoughts at each intermediate step").
    tot_breadth: int = Field(default=5, ge=2, le=8)
    # ToT: ballots per vote when they are sampled; the majority picks the state. At
    # temperature 0 every ballot would be the same answer: one is asked (and paid for).
    tot_votes: int = Field(default=3, ge=1, le=9)
    # ToT: the temperature ballots are sampled at (ballot k with seed k, so they differ
    # where a backend reseeds each call or a response cache would answer a repeat); None:
    # the model's own, the run's temperature.
    vote_temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    # Self-Inspiring: at most this many paths per turn (the paper caps alternatives at 5).
    si_max_paths: int = Field(default=3, ge=1, le=8)
    # Tool switches (ablations): a disabled tool is neither described nor run.
    sql_tool: bool = True
    # The search tool (off: an ablation).
    search_tool: bool = True
    # The text-summarisation tool (off: an ablation).
    summarize_tool: bool = True
    # Turn the SQL rows / search hits into sentences with the model (the paper's appendix).
    result_to_text: bool = True
    # "bm25": offline keyword search over the catalog's text; "web": SerpApi (needs a key).
    search_backend: Literal["bm25", "web"] = "bm25"
    # The environment variable holding the SerpApi key (search_backend "web").
    web_api_key_env: str = "SERPAPI_API_KEY"
    # The model's context in tokens, which bounds every prompt (budget.py); None: what the
    # client reports (the embedded model's n_ctx; an OpenAI-compatible server's window as
    # far as known: [model] n_ctx, its model list, or its first refusal).
    context_tokens: int | None = Field(default=None, ge=512, le=1_048_576)
    # How many items a turn recommends at most.
    recommend_k: int = Field(default=3, ge=1, le=10)
    # Repairs of a reply that breaks its JSON schema (the protocol's value overrides it).
    retries: int = Field(default=2, ge=0, le=5)
