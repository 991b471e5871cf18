"""Scenario schema: validated pydantic models loaded from TOML.

Every protocol number of the paper (§4.2-4.4) is a field here with the paper's
value as default. Unknown fields are errors, so a typo never silently falls
back to a default.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    SerializeAsAny,
    Tag,
    ValidationError,
    field_serializer,
    field_validator,
    model_validator,
)
from pydantic_core import ErrorDetails

from macrs_sim.errors import ConfigError
from macrs_sim.redact import redact_url
from macrs_sim.textfile import read_utf8

# Upper bounds no real study reaches: a typo such as max_turns = 1000000000 is an error,
# not a run that never ends.
MAX_TOKENS = 1_048_576  # context, reply and string sizes (1M tokens)
MAX_THREADS = 1024
MAX_CONCURRENCY = 10_000
MAX_RETRIES = 100
MAX_SAMPLES = 1_000_000
MAX_HISTORY = 10_000
DAY_S = 86_400.0  # timeouts, backoffs and latencies
MAX_NAME_CHARS = 100
# A run directory is named after the scenario: a plain file name, never a path.
_SLUG = re.compile(r"[A-Za-z0-9._-]+")


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Layout = Literal["paper", "chat"]
# The union member a `[model]` table of a backend config.py does not type takes.
OTHER_BACKEND = "other"


class ModelEntry(BaseModel):
    """A model table as given: `backend` and that backend's fields, kept unchecked here.

    Which backends exist is the backend registry's business (llm/backends/registry.py), a
    higher layer: a backend registered there (an entry point, a test) names its options
    model, a subclass of `ModelOptions`, and the registry validates an entry of it when a
    campaign starts (campaign/setup.py `resolve_scenario`). The built-in backends'
    options below are validated at load, as before.
    """

    model_config = ConfigDict(extra="allow", frozen=True)

    # The backend's registered name (a built-in one, or an outside package's).
    backend: str
    # The prompt layout of `prompt_layout = "auto"` for roles that talk to this backend.
    preferred_layout: ClassVar[Layout] = "paper"

    def own_fields(self) -> dict[str, Any]:
        """The backend's fields as given (everything but `backend`)."""
        return dict(self.__pydantic_extra__ or {})


class ModelOptions(ModelEntry):
    """Base of every backend's options: `backend` (a Literal in each subclass)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class EmbeddedModel(ModelOptions):
    """llama.cpp in-process. With no `path` and no `hf_repo`, the bundled default GGUF."""

    # The paper's layout made the simulated user echo on the small embedded model
    # (docs/simulators.md, "Prompt layout").
    preferred_layout: ClassVar[Layout] = "chat"

    backend: Literal["embedded"] = Field(
        default="embedded", description="Selects llama.cpp in-process."
    )
    path: str | None = Field(default=None, description="A local GGUF file to load.")
    hf_repo: str | None = Field(
        default=None,
        description="A Hugging Face repository to download the GGUF from (with hf_file).",
    )
    hf_file: str | None = Field(
        default=None, description="The GGUF file name (or glob) inside hf_repo."
    )
    n_ctx: int = Field(default=4096, ge=256, le=MAX_TOKENS, description="Context window in tokens.")
    n_threads: int | None = Field(
        default=None,
        ge=1,
        le=MAX_THREADS,
        description="CPU threads for llama.cpp; all cores when absent.",
    )
    max_tokens: int = Field(
        default=256, ge=1, le=MAX_TOKENS, description="Most tokens a reply may have."
    )
    # Cap on each string field of a structured reply, so it closes within max_tokens.
    max_string_chars: int = Field(
        default=240,
        ge=16,
        le=MAX_TOKENS,
        description="Cap on each string field of a structured reply, so it ends within max_tokens.",
    )
    # llama.cpp takes an unsigned 32-bit seed.
    seed: int = Field(
        default=0, ge=0, le=2**32 - 1, description="llama.cpp's sampling seed (unsigned 32-bit)."
    )


class OpenAIModel(ModelOptions):
    """Any OpenAI-compatible endpoint: OpenAI, `vllm serve`, llama-server, Ollama.

    `base_urls` makes a pool of replicas serving the same model: each gets
    `max_concurrency` requests in flight, calls go to the least busy healthy one,
    and a failing endpoint is set aside for `endpoint_cooldown_s` before it is tried again.
    """

    backend: Literal["openai"] = Field(
        default="openai", description="Selects an OpenAI-compatible endpoint."
    )
    model: str = Field(description="The model name sent with each request.")
    base_url: str | None = Field(
        default=None, description="The endpoint's URL; OpenAI's when absent."
    )
    base_urls: tuple[str, ...] = Field(
        default=(), description="A pool of replicas serving the same model (instead of base_url)."
    )
    # The *name* of the environment variable holding the key, never the key itself.
    api_key_env: str | None = Field(
        default="OPENAI_API_KEY",
        description="Name of the environment variable holding the API key (never the key).",
    )
    # Per endpoint.
    max_concurrency: int = Field(
        default=8, ge=1, le=MAX_CONCURRENCY, description="Requests in flight per endpoint."
    )
    timeout_s: float = Field(
        default=60.0, gt=0, le=DAY_S, description="Seconds before a request is abandoned."
    )
    max_tokens: int = Field(
        default=512, ge=1, le=MAX_TOKENS, description="Most tokens a reply may have."
    )
    max_retries: int = Field(
        default=3, ge=0, le=MAX_RETRIES, description="Retries of a failed call."
    )
    backoff_base_s: float = Field(
        default=0.5,
        ge=0,
        le=DAY_S,
        description="First retry's wait in seconds; doubles each retry.",
    )
    backoff_max_s: float = Field(
        default=30.0, ge=0, le=DAY_S, description="Longest wait between retries, in seconds."
    )
    endpoint_cooldown_s: float = Field(
        default=30.0,
        ge=0,
        le=DAY_S,
        description="Seconds a failing endpoint is set aside before it is tried again.",
    )
    # How a JSON schema is sent (see llm/modes.py): "openai" response_format json_schema;
    # "vllm" that plus vLLM's own fields; "json_object" the schema inside a json_object
    # response_format (llama-cpp-python); "prompt" only in the prompt; "auto" the first the
    # server accepts (probed once). Default: "auto" with base_url(s), else "openai".
    structured_outputs: Literal["auto", "openai", "vllm", "json_object", "prompt"] = Field(
        default="openai", description="How a JSON schema is sent; auto by default with base_url(s)."
    )
    seed: int | None = Field(
        default=0, description="Sampling seed sent with each request; none when absent."
    )
    # "lean": the project's own HTTP client (llm/lean/, ~4x less CPU per call); "sdk":
    # autogen's OpenAIChatCompletionClient on the openai SDK. Same requests and results.
    client: Literal["lean", "sdk"] = Field(
        default="lean",
        description="lean: the project's own HTTP client; sdk: autogen's client on the openai SDK.",
    )

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

    # Written files (resolved scenario, sample-set header) never hold a URL's user:password;
    # the model in memory keeps it, so calls still send it.
    @field_serializer("base_url", when_used="json")
    def _redacted_url(self, url: str | None) -> str | None:
        return None if url is None else redact_url(url)

    @field_serializer("base_urls", when_used="json")
    def _redacted_urls(self, urls: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(redact_url(u) for u in urls)


class ScriptedModel(ModelOptions):
    """Deterministic fake for tests and benchmarks."""

    backend: Literal["scripted"] = Field(
        default="scripted",
        description="Selects the deterministic scripted fake (tests, benchmarks).",
    )
    latency_s: float = Field(default=0.0, ge=0, le=DAY_S, description="Simulated seconds per call.")
    seed: int = Field(default=0, description="Seed of the scripted answers.")
    max_retries: int = Field(
        default=3, ge=0, le=MAX_RETRIES, description="Retries of a failed call."
    )


_TYPED_BACKENDS = frozenset({"embedded", "openai", "scripted"})


def _model_tag(value: Any) -> str | None:
    """The union member of a model table: a typed built-in backend's, else OTHER_BACKEND."""
    if isinstance(value, dict):
        backend = value.get("backend")
    elif isinstance(value, ModelEntry):
        if not isinstance(value, ModelOptions) or type(value) not in _TYPED_MODELS:
            return OTHER_BACKEND
        backend = value.backend
    else:
        return None
    if not isinstance(backend, str):
        return None
    return backend if backend in _TYPED_BACKENDS else OTHER_BACKEND


ModelConfig = Annotated[
    Annotated[EmbeddedModel, Tag("embedded")]
    | Annotated[OpenAIModel, Tag("openai")]
    | Annotated[ScriptedModel, Tag("scripted")]
    | Annotated[SerializeAsAny[ModelEntry], Tag(OTHER_BACKEND)],
    Discriminator(
        _model_tag,
        custom_error_type="missing_backend",
        custom_error_message="a model table needs `backend` (a registered backend's name)",
    ),
]
_TYPED_MODELS: tuple[type[ModelOptions], ...] = (EmbeddedModel, OpenAIModel, ScriptedModel)


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


class Scenario(Strict):
    """A scenario file: every table of the campaign."""

    name: str = Field(description="The scenario's name; names the run directory.")
    seed: int = Field(default=0, description="The campaign's seed.")
    model: ModelConfig = Field(
        default_factory=EmbeddedModel, description="The default model of every role."
    )
    data: DataConfig = Field(
        default_factory=DataConfig, description="Dataset and sample construction."
    )
    protocol: ProtocolConfig = Field(
        default_factory=ProtocolConfig, description="The dialogue protocol."
    )
    # The kind's typed options (a subclass) after resolve_scenario.
    simulator: SerializeAsAny[SimulatorConfig] = Field(
        default_factory=SimulatorConfig, description="The simulated user."
    )
    # Typed options (subclasses) after resolve_scenario: SerializeAsAny dumps all their fields.
    systems: list[SerializeAsAny[SystemEntry]] = Field(
        min_length=1, max_length=1000, description="The systems under test."
    )
    campaign: CampaignConfig = Field(
        default_factory=CampaignConfig, description="How the campaign runs."
    )
    judge: JudgeConfig = Field(default_factory=JudgeConfig, description="The LLM judge of Table 2.")
    cache: CacheConfig = Field(default_factory=CacheConfig, description="The model response cache.")
    faults: FaultsConfig = Field(
        default_factory=FaultsConfig, description="Injected model-call faults."
    )
    # A folder of prompt files overriding the package's (same file names).
    prompts_dir: str | None = Field(
        default=None,
        description="A folder of prompt files overriding the package's (same file names).",
    )
    # Where a role's prompt puts the dialogue (agents/prompt_layout.py): the paper's
    # transcript, or chat messages; "auto" is chat for the embedded model, where the
    # paper's layout made the simulated user echo (docs/simulators.md, "Prompt layout").
    prompt_layout: Literal["auto", "paper", "chat"] = Field(
        default="auto",
        description="Where a role's prompt puts the dialogue: paper transcript or chat messages.",
    )

    @field_validator("name")
    @classmethod
    def _name_is_a_slug(cls, name: str) -> str:
        # The run directory is output_dir/NAME-<time>: "../x" or "/x" would put it elsewhere.
        if not _SLUG.fullmatch(name) or name in (".", ".."):
            raise ValueError(
                f"{name!r} is not a plain name: use letters, digits, '-', '_' and '.' only"
                " (it names the run directory)"
            )
        if len(name) > MAX_NAME_CHARS:
            raise ValueError(f"must be at most {MAX_NAME_CHARS} characters (it names a directory)")
        return name

    @model_validator(mode="after")
    def _unique_system_names(self) -> Scenario:
        names = [s.name for s in self.systems]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"system names must be unique, repeated: {', '.join(dupes)}")
        return self

    def system_model(self, system: SystemEntry) -> ModelConfig:
        return system.model or self.model

    def simulator_model(self) -> ModelConfig:
        return self.simulator.model or self.model

    def judge_model(self) -> ModelConfig:
        return self.judge.model or self.model

    def layout_for(self, model: ModelConfig) -> Layout:
        """The prompt layout of a role that talks to `model`."""
        if self.prompt_layout != "auto":
            return self.prompt_layout
        return model.preferred_layout


def _bound_message(error: ErrorDetails) -> str:
    """ "must be ≤ 100 (no study needs more), found 1000000000" for an upper-bound error."""
    limit = error.get("ctx", {}).get("le")
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)
    why = " (no study needs more)" if isinstance(limit, int | float) and limit >= 100 else ""
    shown = f"{limit:,}" if isinstance(limit, int) else str(limit)
    return f"must be ≤ {shown}{why}, found {error['input']!r}"


def describe_validation_error(source: str, err: ValidationError) -> str:
    """One line: where (dotted field path), what is wrong, and how many more errors."""
    errors = err.errors()
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "(top level)"
    msg = first["msg"].removeprefix("Value error, ")
    if first["type"] == "extra_forbidden":
        msg = "unknown field (check the spelling)"
    elif first["type"] == "missing":
        msg = "required field is missing"
    elif first["type"] == "less_than_equal":
        msg = _bound_message(first)
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
    text = read_utf8(p, ConfigError, what="scenario file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{p}: not valid TOML: {err}") from None
    return parse_scenario(data, str(p))


def scenario_to_toml(scenario: Scenario) -> str:
    """The resolved scenario (defaults filled in), saved next to every run."""
    import tomli_w

    return tomli_w.dumps(scenario.model_dump(mode="json", exclude_none=True))
