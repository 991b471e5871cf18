"""The `[model]` tables: a generic `ModelEntry`, the built-in backends' options, and the
`ModelConfig` union that picks one by `backend`."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    SerializeAsAny,
    Tag,
    field_serializer,
    model_validator,
)

from macrs_sim.config.bounds import DAY_S, MAX_CONCURRENCY, MAX_RETRIES, MAX_THREADS, MAX_TOKENS
from macrs_sim.redact import redact_url

Layout = Literal["paper", "chat"]
# The union member a `[model]` table of a backend this module does not type takes.
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

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


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
    # llm/prefix_cache.py: a prompt that begins like an earlier one is read from where they
    # part (a role's instructions, the dialogue so far), not from its start. Off by default:
    # measured, it saves little (6 % of the tokens of a one-turn MACRS dialogue, none
    # visible in the quickstart) and each kept state holds memory.
    prompt_cache_mb: int = Field(
        default=0,
        ge=0,
        le=65536,
        description="RAM (MB) for llama.cpp's states after earlier prompts, so a prompt that"
        " begins like one of them is read from where they part; 0 turns it off.",
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
    # The served model's context window (llm/context_window.py); when absent, the server's
    # model list (vLLM's max_model_len) or its first "maximum context length" refusal says.
    n_ctx: int | None = Field(
        default=None,
        ge=256,
        le=MAX_TOKENS,
        description="The served model's context window in tokens; the server's when absent.",
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
