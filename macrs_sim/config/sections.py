"""What a campaign studies: the `[data]`, `[protocol]`, `[simulator]`, `[[systems]]` and
`[judge]` tables."""

from __future__ import annotations

import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from macrs_sim.config.bounds import MAX_HISTORY, MAX_RETRIES, MAX_SAMPLES, Strict
from macrs_sim.config.models import ModelConfig


class DataConfig(Strict):
    """Which dataset, and the paper's sample construction (§4.4, §5.3.2)."""

    # "demo" (bundled films, synthetic users) or the path of a database made by
    # `macrs-sim data prepare movielens PATH`.
    dataset: str = Field(
        default="demo",
        description="demo (bundled films) or the path of a database from `macrs-sim data prepare`.",
    )
    # A JSON-lines catalog (the demo's format) to use instead of the bundled one (demo only).
    catalog: str | None = Field(
        default=None,
        description="A JSON-lines catalog to use instead of the bundled one (demo only).",
    )
    # A sample set written by `macrs-sim samples build`: used as is, nothing is drawn.
    sample_set: str | None = Field(
        default=None, description="A sample set from `macrs-sim samples build`, used as is."
    )
    n_samples: int = Field(
        default=100, ge=1, le=MAX_SAMPLES, description="Samples drawn (random sampling)."
    )
    history_len: int = Field(
        default=20,
        ge=1,
        le=MAX_HISTORY,
        description="Items of a user's history given to the systems.",
    )
    # Which item is held out: "after_history" is MACRS's (§4.4: the first history_len items,
    # the next one the target); "last" is InteRecAgent's (§4.1: the user's last item, the
    # history_len items before it the history).
    target: Literal["after_history", "last"] = Field(
        default="after_history",
        description="Which item is held out: after_history (MACRS) or last (InteRecAgent).",
    )
    min_history: int = Field(
        default=5,
        ge=1,
        le=MAX_HISTORY,
        description="Fewest history items left after the genre filter for a user to be eligible.",
    )
    filter_by_category: bool = Field(
        default=True, description="Keep only history items sharing a genre with the target."
    )
    # "random": n_samples from all eligible users; "popularity": per_bucket from each bucket.
    sampling: Literal["random", "popularity"] = Field(
        default="random",
        description="random: n_samples from all users; popularity: per_bucket from each bucket.",
    )
    # Upper edges of the popularity buckets, as fractions of items ranked by interactions.
    popularity_buckets: tuple[float, ...] = Field(
        default=(0.1, 0.2, 0.3, 0.5, 1.0),
        max_length=100,
        description="Upper edges of the popularity buckets, as fractions of ranked items.",
    )
    per_bucket: int = Field(
        default=20,
        ge=1,
        le=MAX_SAMPLES,
        description="Samples per popularity bucket (popularity sampling).",
    )
    seed: int = Field(default=0, description="Seed of the sample draw.")

    @model_validator(mode="after")
    def _check(self) -> DataConfig:
        edges = self.popularity_buckets
        if not edges or any(not 0 < e <= 1 for e in edges) or list(edges) != sorted(set(edges)):
            raise ValueError("popularity_buckets must be increasing fractions in (0, 1]")
        if edges[-1] != 1.0:
            raise ValueError("popularity_buckets must end at 1.0 so every item has a bucket")
        if self.catalog is not None and self.dataset != "demo":
            raise ValueError("catalog applies only to dataset = 'demo'")
        return self


class ProtocolConfig(Strict):
    """The dialogue protocol (§4.2-4.3): turns, list lengths, sampling, retries."""

    max_turns: int = Field(default=5, ge=1, le=100, description="Most system turns in a dialogue.")
    final_list_k: int = Field(
        default=10,
        ge=1,
        le=1000,
        description="Length of the ranked list given after max_turns without success.",
    )
    # 2 is the most OpenAI-compatible servers accept.
    temperature: float = Field(
        default=0.0, ge=0.0, le=2.0, description="Sampling temperature of every model call."
    )
    max_structured_retries: int = Field(
        default=2,
        ge=0,
        le=MAX_RETRIES,
        description="Retries of a structured reply that fails its schema.",
    )
    # Items a turn may show, for every system alike (MACRS's recommending act names one);
    # those past it are dropped before grounding and counted. The fallback list is always
    # exactly final_list_k.
    max_items_per_turn: int = Field(
        default=1,
        ge=1,
        le=100,
        description="Most items one turn may show; those past it are dropped and counted.",
    )


class SimulatorConfig(BaseModel):
    """The simulated user (§4.1): `[simulator]` as given.

    Which kinds exist is the simulator registry's business (simulators/registry.py), a
    higher layer: at campaign start (campaign/setup.py `resolve_scenario`) it turns this
    table into the kind's typed options (a subclass, unknown fields forbidden), with one-line
    errors naming the kind and the field. The fields below are the built-in users' own.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    # "llm": the paper's LLM user (§4.1); "agenda": rule-based, no LLM, deterministic.
    kind: str = Field(
        default="llm", description="llm: the paper's LLM user; agenda: rule-based, no LLM."
    )
    # The LLM user's instruction: the MACRS paper's, or InteRecAgent's rules (its Figure 4).
    instruction: Literal["macrs", "interecagent"] = Field(
        default="macrs", description="The LLM user's instruction: MACRS's or InteRecAgent's rules."
    )
    # Paper §4.1 / Figure 7: the target profile is "attribute: value" keywords with the
    # director and leading actors; only the title is hidden. false: plain keywords and no
    # names of people (the profile before this switch existed).
    profile_people: bool = Field(
        default=True,
        description="Target profile names the director and leading actors (paper §4.1).",
    )
    # Leaking generations thrown away (the opening's and each reply's) before redacting.
    max_leak_retries: int = Field(
        default=2,
        ge=0,
        description="Generations that leak the target thrown away before redacting.",
    )
    model: ModelConfig | None = Field(
        default=None, description="The simulated user's model; the scenario's [model] when absent."
    )
    # A human corpus file (ReDial's *_data.jsonl or the turns form): the report then holds
    # the realism section, these simulated users beside its seekers (analysis/realism/).
    reference_corpus: str | None = Field(
        default=None, description="Human corpus file the report compares the users with."
    )


class SystemEntry(BaseModel):
    """One `[[systems]]` entry as the scenario file gives it: name, kind, model, and the
    kind's own fields, kept unchecked here.

    Which kinds exist and which fields each takes is the system registry's business
    (agents/registry.py), a higher layer than this one: it turns each entry into that
    kind's typed options (a subclass of this class, unknown fields forbidden) when a
    campaign starts (campaign/setup.py `resolve_scenario`), with one-line errors naming
    the entry, the kind and the field. Config never imports agents (DESIGN.md §1).
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    name: str = Field(description="Unique one-line name of the system in reports and dialogue ids.")
    kind: str = Field(description="A registered system kind; its options are listed per kind.")
    model: ModelConfig | None = Field(
        default=None, description="The system's model; the scenario's [model] when absent."
    )

    @field_validator("name")
    @classmethod
    def _name_is_one_line(cls, name: str) -> str:
        # It heads report tables and rows and starts every dialogue id.
        if not name.strip():
            raise ValueError("must not be empty (it names the system in reports)")
        bad = next((c for c in name if unicodedata.category(c) == "Cc"), None)
        if bad is not None:
            raise ValueError(
                f"must be one line without control characters, found U+{ord(bad):04X} in {name!r}"
            )
        return name

    def own_fields(self) -> dict[str, Any]:
        """The kind's fields as given (everything but name, kind and model)."""
        return dict(self.__pydantic_extra__ or {})


class JudgeConfig(Strict):
    """The paper's Table 2: an LLM judges MACRS replies with vs without strategy suggestions."""

    enabled: bool = Field(default=False, description="Run the LLM judge after the campaign.")
    # The judge's model; the scenario's [model] when absent (the paper used ChatGPT).
    model: ModelConfig | None = Field(
        default=None, description="The judge's model; the scenario's [model] when absent."
    )
    # Judge at most this many (turn) pairs, in a fixed order; all when absent.
    max_pairs: int | None = Field(
        default=None,
        ge=1,
        le=MAX_SAMPLES * 100,
        description="Judge at most this many turn pairs; all when absent.",
    )
