"""OpenAI-compatible endpoints (OpenAI, vLLM, llama-server, Ollama) through autogen-ext."""

from __future__ import annotations

import asyncio
import os
import urllib.error
import urllib.request
import warnings
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any
from urllib.parse import urlparse

import httpx
from autogen_core.models import ChatCompletionClient, CreateResult, ModelInfo
from autogen_ext.models.openai import OpenAIChatCompletionClient
from autogen_ext.models.openai.config import OpenAIClientConfiguration

from macrs_sim.config import OpenAIModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.base import WrappingClient
from macrs_sim.llm.http_transport import AiohttpTransport
from macrs_sim.llm.modes import AUTO_ORDER, Mode
from macrs_sim.llm.pool import EndpointPool
from macrs_sim.llm.probe import PROBE_MAX_TOKENS, ProbeUnavailableError, endpoint_probe
from macrs_sim.llm.wire import WireClient
from macrs_sim.redact import redact_text, redact_url, split_userinfo, userinfo, userinfo_secrets

# The openai SDK's parsed replies declare `parsed: None`; when autogen-ext dumps a structured
# reply for its event log, pydantic warns on every call. The reply itself is fine.
warnings.filterwarnings(
    "ignore",
    message=r"Pydantic serializer warnings:\s+PydanticSerializationUnexpectedValue"
    r"\(Expected `none`",
    category=UserWarning,
)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
# What of a GET /models reply is read (a model list is a few kilobytes).
MAX_LISTING_BYTES = 1024 * 1024

# autogen-ext refuses model names it does not know without this; local servers
# (vLLM, llama-server) serve arbitrary names and support JSON schemas.
UNKNOWN_MODEL_INFO = ModelInfo(
    vision=False,
    function_calling=False,
    json_output=True,
    structured_output=True,
    family="unknown",
)


class ConcurrencyLimitedClient(WrappingClient):
    """At most `limit` calls in flight, so a big campaign does not flood the endpoint."""

    def __init__(self, inner: ChatCompletionClient, limit: int) -> None:
        super().__init__(inner)
        self.limit = limit
        self._slots = asyncio.Semaphore(limit)

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        async with self._slots:
            return await call()


def _is_local(base_url: str | None) -> bool:
    host = urlparse(base_url or DEFAULT_BASE_URL).hostname or ""
    return host in ("localhost", "127.0.0.1", "::1")


def api_key(cfg: OpenAIModel) -> str:
    """The key from the variable named by cfg.api_key_env; local servers need none."""
    key = os.environ.get(cfg.api_key_env) if cfg.api_key_env else None
    if key:
        return key
    # A URL's userinfo is its credentials (sent as Basic auth, see _endpoint_client).
    if all(_is_local(url) or userinfo(url or "") for url in cfg.endpoints()):
        return "EMPTY"
    raise ModelUnavailableError(
        f"model.api_key_env: environment variable {cfg.api_key_env} is not set"
        if cfg.api_key_env
        else "model.api_key_env: not set, and model.base_url is not a local server"
    )


def build_openai_client(cfg: OpenAIModel, *, temperature: float) -> ChatCompletionClient:
    """One autogen `OpenAIChatCompletionClient` per endpoint: a single one behind a
    concurrency limit, or several in an `EndpointPool` (limit per endpoint).

    The SDK's own retries are off (max_retries=0): `RetryingClient` retries with
    cfg.max_retries, and doing both would multiply attempts and hide them.
    """
    return endpoints_client(cfg, partial(_endpoint_client, temperature=temperature))


# Builds the client of one endpoint: (cfg, url, key) -> client.
EndpointBuilder = Callable[[OpenAIModel, str, str], ChatCompletionClient]


def endpoints_client(cfg: OpenAIModel, build: EndpointBuilder) -> ChatCompletionClient:
    """One client per endpoint from `build`: a single one behind a concurrency limit, or
    several in an `EndpointPool` (limit per endpoint). Shared by the SDK and lean paths."""
    key = api_key(cfg)
    urls = [url or DEFAULT_BASE_URL for url in cfg.endpoints()]
    # The pool names endpoints in its errors and stats: never with their credentials.
    clients = [(redact_url(url), build(cfg, url, key)) for url in urls]
    if len(clients) == 1:
        return ConcurrencyLimitedClient(clients[0][1], cfg.max_concurrency)
    return EndpointPool(
        clients,
        max_concurrency=cfg.max_concurrency,
        cooldown_s=cfg.endpoint_cooldown_s,
        wait_timeout_s=cfg.timeout_s,
    )


def _endpoint_client(
    cfg: OpenAIModel, url: str, key: str, *, temperature: float
) -> ChatCompletionClient:
    bare, basic = split_userinfo(url)
    args: OpenAIClientConfiguration = {
        "model": cfg.model,
        "api_key": key,
        "base_url": bare,
        "temperature": temperature,
        "max_tokens": cfg.max_tokens,
        "timeout": cfg.timeout_s,
        "max_retries": 0,
        # The `name` field (agent source) means nothing to the model and some
        # OpenAI-compatible servers reject it.
        "include_name_in_message": False,
    }
    if cfg.seed is not None:
        args["seed"] = cfg.seed
    if basic is not None:  # the URL's userinfo wins over the key (Authorization holds one)
        args["default_headers"] = {"Authorization": basic}
    # Not in autogen's TypedDict, but passed on to AsyncOpenAI (see http_transport for why).
    http: dict[str, Any] = {
        "http_client": httpx.AsyncClient(transport=AiohttpTransport(), timeout=cfg.timeout_s)
    }
    try:
        inner = OpenAIChatCompletionClient(**args, **http)
    except ValueError:  # a model name autogen-ext has no built-in info for
        args["model_info"] = UNKNOWN_MODEL_INFO
        inner = OpenAIChatCompletionClient(**args, **http)
    mode = cfg.structured_outputs
    resolve = partial(_auto_mode, cfg, url, key) if mode == "auto" else None
    return WireClient(
        inner,
        key=key,
        url=bare,
        mode=mode,
        max_tokens=cfg.max_tokens,
        resolve=resolve,
        secrets=userinfo_secrets(url),
        model=cfg.model,
        n_ctx=cfg.n_ctx,
    )


async def _auto_mode(cfg: OpenAIModel, url: str, key: str) -> Mode:
    """What the probe found for `url` (at preflight, or now if no preflight ran here)."""
    return (await endpoint_probe(url, cfg.model, partial(sdk_probe_client, cfg, url, key))).mode


# (cfg, url, key, mode) -> the client one probe request goes through.
ProbeClient = Callable[[OpenAIModel, str, str, Mode], ChatCompletionClient]


def sdk_probe_client(cfg: OpenAIModel, url: str, key: str, mode: Mode) -> ChatCompletionClient:
    """A probe through autogen's SDK client (`client = "sdk"`; lean/build.py has the lean one)."""
    probing = cfg.model_copy(update={"structured_outputs": mode, "max_tokens": PROBE_MAX_TOKENS})
    return _endpoint_client(probing, url, key, temperature=0.0)


async def resolve_structured_outputs(
    cfg: OpenAIModel,
    notify: Callable[[str], None] | None = None,
    *,
    probe_client: ProbeClient,
) -> OpenAIModel:
    """`cfg` with "auto" replaced by the first mode every endpoint accepts (probed once per
    endpoint and process); `notify` hears which, and why. Other modes come back as they are.

    `probe_client` builds the client the probe sends through: the one `cfg.client` names,
    so the server sees the campaign's own requests (headers and all) when it is asked."""
    if cfg.structured_outputs != "auto":
        return cfg
    key = api_key(cfg)
    urls = [url or DEFAULT_BASE_URL for url in cfg.endpoints()]
    try:
        found = await asyncio.gather(
            *(endpoint_probe(u, cfg.model, partial(probe_client, cfg, u, key)) for u in urls)
        )
    except ProbeUnavailableError as busy:
        # A server that is down for a moment must not stop a campaign from starting: the
        # first structured call probes again, under the retry layer and the circuit breaker.
        if notify is not None:
            notify(f"{busy}; the mode is chosen at the first structured call")
        return cfg
    # Replicas should agree; if not, the latest in the order is one every endpoint took.
    chosen = max(found, key=lambda p: AUTO_ORDER.index(p.mode))
    if notify is not None:
        shown = redact_url(chosen.url)
        where = shown if len(urls) == 1 else f"{shown} (of {len(urls)} endpoints)"
        notify(f"model {cfg.model} at {where}: structured_outputs = {chosen.describe()}")
    return cfg.model_copy(update={"structured_outputs": chosen.mode})


async def check_endpoint(cfg: OpenAIModel, *, timeout_s: float = 5.0) -> list[bytes]:
    """GET {url}/models on every endpoint; ModelUnavailableError naming the first that fails.
    Returns each endpoint's model list as it came (the served window may be in it)."""
    urls = [(url or DEFAULT_BASE_URL).rstrip("/") for url in cfg.endpoints()]
    names = [f"model.base_urls[{i}]" for i in range(len(urls))] if cfg.base_urls else []
    results = await asyncio.gather(
        *(_check_one(url, api_key(cfg), timeout_s) for url in urls), return_exceptions=True
    )
    for i, (url, problem) in enumerate(zip(urls, results, strict=True)):
        if isinstance(problem, BaseException):
            name = names[i] if names else "model.base_url"
            line = redact_text(f"{name} {redact_url(url)}: {problem}", urls)
            raise ModelUnavailableError(line) from None
    return [r for r in results if isinstance(r, bytes)]


async def _check_one(url: str, key: str, timeout_s: float) -> bytes:
    """GET /models's body (at most 1 MiB); OSError with the one-line problem (after
    `{url}: `) when it fails."""
    bare, basic = split_userinfo(url)
    auth = basic or f"Bearer {key}"
    request = urllib.request.Request(f"{bare}/models", headers={"Authorization": auth})
    try:
        return await asyncio.to_thread(_get, request, timeout_s)
    except urllib.error.HTTPError as err:
        raise OSError(f"endpoint answered HTTP {err.code} {err.reason} to GET /models") from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise OSError(f"endpoint unreachable ({_reason(err)})") from None


def _get(request: urllib.request.Request, timeout_s: float) -> bytes:
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        body: bytes = response.read(MAX_LISTING_BYTES)
        return body


def _reason(err: BaseException) -> str:
    """The innermost human-readable cause, e.g. "Connection refused" or "timed out"."""
    reason: object = err.reason if isinstance(err, urllib.error.URLError) else err
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    text = str(reason).splitlines()[0] if str(reason) else ""
    return text or type(reason).__name__
