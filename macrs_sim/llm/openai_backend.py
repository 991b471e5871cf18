"""OpenAI-compatible endpoints (OpenAI, vLLM, llama-server, Ollama) through autogen-ext."""

from __future__ import annotations

import asyncio
import os
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from urllib.parse import urlparse

from autogen_core.models import ChatCompletionClient, CreateResult, ModelInfo
from autogen_ext.models.openai import OpenAIChatCompletionClient
from autogen_ext.models.openai.config import OpenAIClientConfiguration

from macrs_sim.config import OpenAIModel
from macrs_sim.errors import ModelUnavailableError
from macrs_sim.llm.base import WrappingClient

DEFAULT_BASE_URL = "https://api.openai.com/v1"

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
    if _is_local(cfg.base_url):
        return "EMPTY"
    raise ModelUnavailableError(
        f"model.api_key_env: environment variable {cfg.api_key_env} is not set"
        if cfg.api_key_env
        else "model.api_key_env: not set, and model.base_url is not a local server"
    )


def build_openai_client(cfg: OpenAIModel, *, temperature: float) -> ChatCompletionClient:
    """An autogen `OpenAIChatCompletionClient` behind a concurrency limit.

    The SDK's own retries are off (max_retries=0): `RetryingClient` retries with
    cfg.max_retries, and doing both would multiply attempts and hide them.
    """
    args: OpenAIClientConfiguration = {
        "model": cfg.model,
        "api_key": api_key(cfg),
        "temperature": temperature,
        "max_tokens": cfg.max_tokens,
        "timeout": cfg.timeout_s,
        "max_retries": 0,
        # The `name` field (agent source) means nothing to the model and some
        # OpenAI-compatible servers reject it.
        "include_name_in_message": False,
    }
    if cfg.base_url:
        args["base_url"] = cfg.base_url
    if cfg.seed is not None:
        args["seed"] = cfg.seed
    try:
        inner = OpenAIChatCompletionClient(**args)
    except ValueError:  # a model name autogen-ext has no built-in info for
        args["model_info"] = UNKNOWN_MODEL_INFO
        inner = OpenAIChatCompletionClient(**args)
    return ConcurrencyLimitedClient(inner, cfg.max_concurrency)


async def check_endpoint(cfg: OpenAIModel, *, timeout_s: float = 5.0) -> None:
    """GET {base_url}/models; ModelUnavailableError with one line when it does not answer."""
    base = (cfg.base_url or DEFAULT_BASE_URL).rstrip("/")
    request = urllib.request.Request(
        f"{base}/models", headers={"Authorization": f"Bearer {api_key(cfg)}"}
    )
    try:
        await asyncio.to_thread(_get, request, timeout_s)
    except urllib.error.HTTPError as err:
        raise ModelUnavailableError(
            f"model.base_url {base}: endpoint answered HTTP {err.code} {err.reason} to GET /models"
        ) from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        reason = _reason(err)
        raise ModelUnavailableError(
            f"model.base_url {base}: endpoint unreachable ({reason})"
        ) from None


def _get(request: urllib.request.Request, timeout_s: float) -> None:
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        response.read()


def _reason(err: BaseException) -> str:
    """The innermost human-readable cause, e.g. "Connection refused" or "timed out"."""
    reason: object = err.reason if isinstance(err, urllib.error.URLError) else err
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    text = str(reason).splitlines()[0] if str(reason) else ""
    return text or type(reason).__name__
