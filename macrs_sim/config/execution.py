"""How a campaign runs: the `[campaign]` (prices, budgets), `[cache]` and `[faults]` tables,
and `--output-dir`."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from macrs_sim.config.bounds import MAX_CONCURRENCY, Strict
from macrs_sim.errors import ConfigError


class FaultsConfig(Strict):
    """Chaos testing: a seeded share of model calls fails in one of these ways.

    Faults are injected below the retry layer, so they exercise retries, JSON repair
    and the campaign's one-dialogue-per-fault guarantee.
    """

    rate: float = Field(default=0.0, ge=0, le=1, description="Share of model calls that fail.")
    kinds: tuple[Literal["exception", "timeout", "empty", "bad_json", "rate_limit"], ...] = Field(
        default=("exception", "timeout", "empty", "bad_json", "rate_limit"),
        description="Ways an injected fault fails.",
    )
    seed: int = Field(default=0, description="Seed of which calls fail.")


class Price(Strict):
    """US dollars per million tokens."""

    prompt: float = Field(ge=0, le=1e6, description="Dollars per million prompt tokens.")
    completion: float = Field(ge=0, le=1e6, description="Dollars per million completion tokens.")


class CacheConfig(Strict):
    """SQLite response cache in front of every model: a repeated call costs nothing."""

    enabled: bool = Field(default=True, description="Cache model responses.")
    # Default: `llm_cache.sqlite` in the campaign's output_dir.
    path: str | None = Field(
        default=None, description="The cache file; llm_cache.sqlite in the output_dir when absent."
    )


def output_dir_option(value: str | None) -> Path | None:
    """`--output-dir` as a folder; given but blank, it would mean the current folder."""
    if value is None:
        return None
    if not value.strip():
        raise ConfigError(
            f"--output-dir {value!r}: empty; give a folder, or leave the option out for the "
            "scenario's campaign.output_dir"
        )
    return Path(value)


class CampaignConfig(Strict):
    """How the campaign runs: concurrency, output, executor, prices and budgets."""

    concurrency: int = Field(
        default=4, ge=1, le=MAX_CONCURRENCY, description="Dialogues in flight at once."
    )
    output_dir: str = Field(default="runs", description="Folder the run directory is made in.")
    # "local": one asyncio process; "ray": dialogues sharded over Ray actors (extra `ray`).
    executor: Literal["local", "ray"] = Field(
        default="local",
        description="local: one asyncio process; ray: dialogues sharded over Ray actors.",
    )
    ray_actors: int = Field(
        default=2, ge=1, le=MAX_CONCURRENCY, description="Ray actors (executor ray)."
    )
    ray_address: str | None = Field(
        default=None, description="Address of a Ray cluster to join; Ray's default when absent."
    )
    # Price per model name (as recorded per call); unpriced models cost 0.
    prices: dict[str, Price] = Field(
        default_factory=dict, description="Price per model name; unpriced models cost 0."
    )
    # Stop starting new dialogues once this many tokens / dollars were spent.
    budget_tokens: int | None = Field(
        default=None,
        ge=1,
        le=10**15,
        description="Stop starting dialogues once this many tokens were spent.",
    )
    budget_usd: float | None = Field(
        default=None,
        gt=0,
        le=1e9,
        description="Stop starting dialogues once this many dollars were spent.",
    )

    @field_validator("output_dir")
    @classmethod
    def _output_dir_is_a_folder(cls, value: str) -> str:
        # Blank would put every run in the current folder, beside whatever is there.
        if not value.strip():
            raise ValueError('empty; give a folder (default "runs")')
        return value
