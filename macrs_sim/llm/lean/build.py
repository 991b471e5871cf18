"""`[model] backend = "openai"` on the lean client: the same layers as
openai_backend.build_openai_client (WireClient per endpoint, then a concurrency limit or
an EndpointPool), with LeanChatClient where that has autogen's SDK client."""

from __future__ import annotations

from functools import partial
from typing import Any

from autogen_core.models import ChatCompletionClient, ModelInfo
from autogen_ext.models.openai import _model_info

from macrs_sim.config import OpenAIModel
from macrs_sim.llm.lean.client import LeanChatClient
from macrs_sim.llm.modes import Mode
from macrs_sim.llm.openai_backend import (
    UNKNOWN_MODEL_INFO,
    _endpoint_client,
    endpoints_client,
)
from macrs_sim.llm.probe import PROBE_MAX_TOKENS, endpoint_probe
from macrs_sim.llm.wire import WireClient
from macrs_sim.redact import split_userinfo, userinfo_secrets


def build_lean_client(cfg: OpenAIModel, *, temperature: float) -> ChatCompletionClient:
    return endpoints_client(cfg, partial(lean_endpoint_client, temperature=temperature))


def lean_endpoint_client(
    cfg: OpenAIModel, url: str, key: str, *, temperature: float
) -> ChatCompletionClient:
    """WireClient(LeanChatClient) for one endpoint; the SDK client only if a request
    needs it (see LeanChatClient)."""
    create_args: dict[str, Any] = {"temperature": temperature, "max_tokens": cfg.max_tokens}
    if cfg.seed is not None:
        create_args["seed"] = cfg.seed
    lean = LeanChatClient(
        model=cfg.model,
        base_url=url,
        api_key=key,
        create_args=create_args,
        timeout_s=cfg.timeout_s,
        model_info=model_info(cfg.model),
        fallback=partial(_sdk_client, cfg, url, key, temperature),
    )
    mode = cfg.structured_outputs
    resolve = partial(_auto_mode, cfg, url, key) if mode == "auto" else None
    return WireClient(
        lean,
        key=key,
        url=split_userinfo(url)[0],
        mode=mode,
        max_tokens=cfg.max_tokens,
        resolve=resolve,
        secrets=userinfo_secrets(url),
        model=cfg.model,
        n_ctx=cfg.n_ctx,
    )


def model_info(model: str) -> ModelInfo:
    """What autogen knows of `model`, as the SDK path uses it; else a local server's."""
    try:
        return _model_info.get_info(model)
    except (KeyError, ValueError):  # a model name autogen-ext has no built-in info for
        return UNKNOWN_MODEL_INFO


def _sdk_client(cfg: OpenAIModel, url: str, key: str, temperature: float) -> ChatCompletionClient:
    """autogen's SDK client, inside the WireClient only the lean one needs."""
    wired = _endpoint_client(
        cfg.model_copy(update={"structured_outputs": "openai"}), url, key, temperature=temperature
    )
    assert isinstance(wired, WireClient)
    return wired.inner


async def _auto_mode(cfg: OpenAIModel, url: str, key: str) -> Mode:
    """What the probe found for `url` (shared with the SDK path's probe, per endpoint)."""
    return (await endpoint_probe(url, cfg.model, partial(lean_probe_client, cfg, url, key))).mode


def lean_probe_client(cfg: OpenAIModel, url: str, key: str, mode: Mode) -> ChatCompletionClient:
    """A probe through the lean client (`client = "lean"`), at preflight or deferred."""
    probing = cfg.model_copy(update={"structured_outputs": mode, "max_tokens": PROBE_MAX_TOKENS})
    return lean_endpoint_client(probing, url, key, temperature=0.0)
