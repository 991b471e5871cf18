"""Scenario schema: validated pydantic models loaded from TOML.

Every protocol number of the paper (§4.2-4.4) is a field here with the paper's
value as default. Unknown fields are errors, so a typo never silently falls
back to a default.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from macrs_sim.errors import ConfigError


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class EmbeddedModel(Strict):
    """llama.cpp in-process. With no `path` and no `hf_repo`, the bundled default GGUF."""

    backend: Literal["embedded"] = "embedded"
    path: str | None = None
    hf_repo: str | None = None
    hf_file: str | None = None
    n_ctx: int = Field(default=4096, ge=256)
    n_threads: int | None = Field(default=None, ge=1)
    max_tokens: int = Field(default=256, ge=1)
    # Cap on each string field of a structured reply, so it closes within max_tokens.
    max_string_chars: int = Field(default=240, ge=16)
    seed: int = 0


class OpenAIModel(Strict):
    """Any OpenAI-compatible endpoint: OpenAI, `vllm serve`, llama-server, Ollama.

    `base_urls` makes a pool of replicas serving the same model: each gets
    `max_concurrency` requests in flight, calls go to the least busy healthy one,
    and a failing endpoint is set aside for `endpoint_cooldown_s` before it is tried again.
    """

    backend: Literal["openai"] = "openai"
    model: str
    base_url: str | None = None
    base_urls: tuple[str, ...] = ()
    # The *name* of the environment variable holding the key, never the key itself.
    api_key_env: str | None = "OPENAI_API_KEY"
    # Per endpoint.
    max_concurrency: int = Field(default=8, ge=1)
    timeout_s: float = Field(default=60.0, gt=0)
    max_tokens: int = Field(default=512, ge=1)
    max_retries: int = Field(default=3, ge=0)
    backoff_base_s: float = Field(default=0.5, ge=0)
    backoff_max_s: float = Field(default=30.0, ge=0)
    endpoint_cooldown_s: float = Field(default=30.0, ge=0)
    # How a JSON schema is sent (see llm/modes.py): "openai" response_format json_schema;
    # "vllm" that plus vLLM's own fields; "json_object" the schema inside a json_object
    # response_format (llama-cpp-python); "prompt" only in the prompt; "auto" the first the
    # server accepts (probed once). Default: "auto" with base_url(s), else "openai".
    structured_outputs: Literal["auto", "openai", "vllm", "json_object", "prompt"] = "openai"
    seed: int | None = 0
    # "lean": the project's own HTTP client (llm/lean/, ~4x less CPU per call); "sdk":
    # autogen's OpenAIChatCompletionClient on the openai SDK. Same requests and results.
    client: Literal["lean", "sdk"] = "lean"

    @model_validator(mode="before")
    @classmethod
    def _auto_for_own_servers(cls, data: Any) -> Any:
        own_server = isinstance(data, dict) and (data.get("base_url") or data.get("base_urls"))
        if own_server and "structured_outputs" not in data:
            return {**data, "structured_outputs": "auto"}
        return data

    @model_validator(mode="after")
    def _one_way_to_name_endpoints(self) -> OpenAIModel:
        if self.base_url and self.base_urls:
            raise ValueError("give base_url or base_urls, not both")
        return self

    def endpoints(self) -> tuple[str | None, ...]:
        return self.base_urls or (self.base_url,)


class ScriptedModel(Strict):
    """Deterministic fake for tests and benchmarks."""

    backend: Literal["scripted"] = "scripted"
    latency_s: float = Field(default=0.0, ge=0)
    seed: int = 0
    max_retries: int = Field(default=3, ge=0)


ModelConfig = Annotated[EmbeddedModel | OpenAIModel | ScriptedModel, Field(discriminator="backend")]


class DataConfig(Strict):
    """Which dataset, and the paper's sample construction (§4.4, §5.3.2)."""

    # "demo" (bundled films, synthetic users) or the path of a database made by
    # `macrs-sim data prepare movielens PATH`.
    dataset: str = "demo"
    # A JSON-lines catalog (the demo's format) to use instead of the bundled one (demo only).
    catalog: str | None = None
    # A sample set written by `macrs-sim samples build`: used as is, nothing is drawn.
    sample_set: str | None = None
    n_samples: int = Field(default=100, ge=1)
    history_len: int = Field(default=20, ge=1)
    min_history: int = Field(default=5, ge=1)
    filter_by_category: bool = True
    # "random": n_samples from all eligible users; "popularity": per_bucket from each bucket.
    sampling: Literal["random", "popularity"] = "random"
    # Upper edges of the popularity buckets, as fractions of items ranked by interactions.
    popularity_buckets: tuple[float, ...] = (0.1, 0.2, 0.3, 0.5, 1.0)
    per_bucket: int = Field(default=20, ge=1)
    seed: int = 0

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
    max_turns: int = Field(default=5, ge=1)
    final_list_k: int = Field(default=10, ge=1)
    temperature: float = Field(default=0.0, ge=0.0)
    max_structured_retries: int = Field(default=2, ge=0)


class SimulatorConfig(Strict):
    # "llm": the paper's LLM user (§4.1); "agenda": rule-based, no LLM, deterministic.
    kind: Literal["llm", "agenda"] = "llm"
    # The LLM user's instruction: the MACRS paper's, or InteRecAgent's rules (its Figure 4).
    instruction: Literal["macrs", "interecagent"] = "macrs"
    max_leak_retries: int = Field(default=2, ge=0)
    model: ModelConfig | None = None


class SystemConfig(Strict):
    name: str
    kind: Literal["macrs", "single_llm"]
    information_reflection: bool = True
    strategy_reflection: bool = True
    model: ModelConfig | None = None

    @model_validator(mode="after")
    def _ablations_only_for_macrs(self) -> SystemConfig:
        ablated = not (self.information_reflection and self.strategy_reflection)
        if ablated and self.kind != "macrs":
            raise ValueError("reflection switches apply only to kind = 'macrs'")
        return self


class JudgeConfig(Strict):
    """The paper's Table 2: an LLM judges MACRS replies with vs without strategy suggestions."""

    enabled: bool = False
    # The judge's model; the scenario's [model] when absent (the paper used ChatGPT).
    model: ModelConfig | None = None
    # Judge at most this many (turn) pairs, in a fixed order; all when absent.
    max_pairs: int | None = Field(default=None, ge=1)


class FaultsConfig(Strict):
    """Chaos testing: a seeded share of model calls fails in one of these ways.

    Faults are injected below the retry layer, so they exercise retries, JSON repair
    and the campaign's one-dialogue-per-fault guarantee.
    """

    rate: float = Field(default=0.0, ge=0, le=1)
    kinds: tuple[Literal["exception", "timeout", "empty", "bad_json", "rate_limit"], ...] = (
        "exception",
        "timeout",
        "empty",
        "bad_json",
        "rate_limit",
    )
    seed: int = 0


class Price(Strict):
    """US dollars per million tokens."""

    prompt: float = Field(ge=0)
    completion: float = Field(ge=0)


class CacheConfig(Strict):
    """SQLite response cache in front of every model: a repeated call costs nothing."""

    enabled: bool = True
    # Default: `llm_cache.sqlite` in the campaign's output_dir.
    path: str | None = None


class CampaignConfig(Strict):
    concurrency: int = Field(default=4, ge=1)
    output_dir: str = "runs"
    # "local": one asyncio process; "ray": dialogues sharded over Ray actors (extra `ray`).
    executor: Literal["local", "ray"] = "local"
    ray_actors: int = Field(default=2, ge=1)
    ray_address: str | None = None
    # Price per model name (as recorded per call); unpriced models cost 0.
    prices: dict[str, Price] = Field(default_factory=dict)
    # Stop starting new dialogues once this many tokens / dollars were spent.
    budget_tokens: int | None = Field(default=None, ge=1)
    budget_usd: float | None = Field(default=None, gt=0)


class Scenario(Strict):
    name: str
    seed: int = 0
    model: ModelConfig = Field(default_factory=EmbeddedModel)
    data: DataConfig = Field(default_factory=DataConfig)
    protocol: ProtocolConfig = Field(default_factory=ProtocolConfig)
    simulator: SimulatorConfig = Field(default_factory=SimulatorConfig)
    systems: list[SystemConfig] = Field(min_length=1)
    campaign: CampaignConfig = Field(default_factory=CampaignConfig)
    judge: JudgeConfig = Field(default_factory=JudgeConfig)
    cache: CacheConfig = Field(default_factory=CacheConfig)
    faults: FaultsConfig = Field(default_factory=FaultsConfig)
    # A folder of prompt files overriding the package's (same file names).
    prompts_dir: str | None = None

    @model_validator(mode="after")
    def _unique_system_names(self) -> Scenario:
        names = [s.name for s in self.systems]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"system names must be unique, repeated: {', '.join(dupes)}")
        return self

    def system_model(self, system: SystemConfig) -> ModelConfig:
        return system.model or self.model

    def simulator_model(self) -> ModelConfig:
        return self.simulator.model or self.model

    def judge_model(self) -> ModelConfig:
        return self.judge.model or self.model


def describe_validation_error(source: str, err: ValidationError) -> str:
    """One line: where (dotted field path), what is wrong, and how many more errors."""
    errors = err.errors()
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling)"
    elif first["type"] == "missing":
        msg = "required field is missing"
    more = f" (and {len(errors) - 1} more problem(s))" if len(errors) > 1 else ""
    return f"{source}: {where}: {msg}{more}"


def parse_scenario(data: dict[str, object], source: str = "<scenario>") -> Scenario:
    try:
        return Scenario.model_validate(data)
    except ValidationError as err:
        raise ConfigError(describe_validation_error(source, err)) from None


def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"{p}: scenario file not found")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{p}: not valid TOML: {err}") from None
    return parse_scenario(data, str(p))


def scenario_to_toml(scenario: Scenario) -> str:
    """The resolved scenario (defaults filled in), saved next to every run."""
    import tomli_w

    return tomli_w.dumps(scenario.model_dump(mode="json", exclude_none=True))
